package demo

import (
	"errors"
	"io"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/nyaruka/phonenumbers"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/geo"
)

// contactCorpus is the first 20,000 companies of seed 11 with their
// contacts, generated once for the tests that inspect it.
type contactCorpus struct {
	g         *Generator
	companies []record.Company
	contacts  [][]record.Contact
}

var (
	corpusOnce sync.Once
	corpus     *contactCorpus
)

func contactsCorpus(t testing.TB) *contactCorpus {
	corpusOnce.Do(func() {
		const n = 20000
		c := &contactCorpus{g: New(Options{Companies: n, Seed: 11}), companies: make([]record.Company, n),
			contacts: make([][]record.Contact, n)}
		parallel(n, func(i int) {
			c.companies[i] = c.g.Company(i)
			c.contacts[i] = c.g.ContactsOf(i)
		})
		corpus = c
	})
	return corpus
}

// parallel runs f(0..n-1) on all cores.
func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += workers {
				f(i)
			}
		}(w)
	}
	wg.Wait()
}

func TestContactsDeterministic(t *testing.T) {
	const n = 400
	a := New(Options{Companies: n, Seed: 5})
	b := New(Options{Companies: 1 << 20, Seed: 5}) // the corpus size does not matter
	want := make([][]record.Contact, n)
	for i := 0; i < n; i++ {
		want[i] = a.ContactsOf(i)
	}
	// Reverse order, interleaved with other calls, from several goroutines.
	got := make([][]record.Contact, n)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := n - 1 - w; i >= 0; i -= 4 {
				b.Company(n - 1 - i)
				b.EmailPattern(i)
				got[i] = b.ContactsOf(i)
			}
		}(w)
	}
	wg.Wait()
	for i := range want {
		if !reflect.DeepEqual(want[i], got[i]) {
			t.Fatalf("company %d: contacts differ between calls:\n%+v\n%+v", i, want[i], got[i])
		}
	}
	// Another seed gives other people.
	c := New(Options{Companies: n, Seed: 6})
	same := 0
	for i := 0; i < 50; i++ {
		if c.ContactsOf(i)[0].Name == want[i][0].Name {
			same++
		}
	}
	if same > 10 {
		t.Errorf("seeds 5 and 6 share %d of 50 first contacts", same)
	}
}

func TestPersonaIDs(t *testing.T) {
	for _, c := range [][2]int{{0, 0}, {0, 63}, {1, 0}, {12345, 17}, {1 << 30, 63}} {
		id := PersonaID(c[0], c[1])
		i, k, ok := CompanyOfPersona(id)
		if !ok || i != c[0] || k != c[1] {
			t.Errorf("CompanyOfPersona(PersonaID(%d, %d) = %d) = %d, %d, %v", c[0], c[1], id, i, k, ok)
		}
	}
	for _, id := range []int64{0, -1, -64} {
		if _, _, ok := CompanyOfPersona(id); ok {
			t.Errorf("CompanyOfPersona(%d) is ok", id)
		}
	}
	g := New(Options{Companies: 10, Seed: 1})
	cs := g.ContactsOf(3)
	if p, ok := g.Persona(cs[0].PersonaID); !ok || !reflect.DeepEqual(p, cs[0]) {
		t.Errorf("Persona(%d) = %v, %v", cs[0].PersonaID, p.Name, ok)
	}
	for _, id := range []int64{0, PersonaID(3, len(cs)), PersonaID(10, 0)} {
		if _, ok := g.Persona(id); ok {
			t.Errorf("Persona(%d) exists", id)
		}
	}
}

func TestContactsUniqueIDsAndLinkedIn(t *testing.T) {
	c := contactsCorpus(t)
	ids := map[int64]bool{}
	urls := map[string]int64{}
	for i, cs := range c.contacts {
		for k, p := range cs {
			if p.PersonaID != PersonaID(i, k) {
				t.Fatalf("company %d contact %d has id %d", i, k, p.PersonaID)
			}
			if ids[p.PersonaID] {
				t.Fatalf("duplicate persona id %d", p.PersonaID)
			}
			ids[p.PersonaID] = true
			li := p.LinkedIn()
			if li == "" {
				continue
			}
			if prev, dup := urls[li]; dup {
				t.Fatalf("personas %d and %d share %s", prev, p.PersonaID, li)
			}
			urls[li] = p.PersonaID
			slug, ok := strings.CutPrefix(li, "https://www.linkedin.com/in/")
			if !ok || !validSlug(slug) {
				t.Fatalf("bad LinkedIn URL %q", li)
			}
			// The slug starts with the name.
			first, _, _ := strings.Cut(p.Name, " ")
			if want := strings.Join(strings.Fields(testFold(first)), "-"); !strings.HasPrefix(slug, want+"-") {
				t.Fatalf("LinkedIn slug %q does not start with %q", slug, want)
			}
		}
	}
	if len(ids) < 5*len(c.contacts) {
		t.Errorf("only %d contacts for %d companies", len(ids), len(c.contacts))
	}
}

// testFold folds a name the way query.InferEmailPattern does (accents
// stripped, hyphens and apostrophes dropped), with the dotless i spelled
// out.
func testFold(s string) string {
	foldMu.Lock()
	defer foldMu.Unlock()
	if f, ok := foldCache[s]; ok {
		return f
	}
	f := testFoldUncached(s)
	foldCache[s] = f
	return f
}

var (
	foldMu    sync.Mutex
	foldCache = map[string]string{}
)

func testFoldUncached(s string) string {
	s, _, _ = transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), s)
	s = strings.NewReplacer("ß", "ss", "ø", "o", "Ø", "O", "æ", "ae", "Æ", "AE", "ł", "l", "Ł", "L", "đ", "d", "Đ", "D", "ı", "i").Replace(s)
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r == ' ':
			b.WriteRune(r)
		case r == '-' || r == '\'':
		default:
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func validSlug(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func TestContactFields(t *testing.T) {
	c := contactsCorpus(t)
	depts, sens := map[string]int{}, map[string]int{}
	for i, cs := range c.contacts {
		co := &c.companies[i]
		if len(cs) < 1 || len(cs) > MaxContactsPerCompany || len(cs) != c.g.ContactCount(i) {
			t.Fatalf("company %d has %d contacts", i, len(cs))
		}
		if co.Employees == "1-10" && len(cs) > 4 {
			t.Fatalf("company %d (1-10 employees) has %d contacts", i, len(cs))
		}
		if cs[0].Seniority != "executive" || cs[0].Department != "Executive" {
			t.Fatalf("company %d: first contact is %s / %s", i, cs[0].Title, cs[0].Seniority)
		}
		names := map[string]bool{}
		for _, p := range cs {
			depts[p.Department]++
			sens[p.Seniority]++
			if !record.IsDepartment(p.Department) || !record.IsSeniority(p.Seniority) {
				t.Fatalf("%d: department %q, seniority %q", p.PersonaID, p.Department, p.Seniority)
			}
			if names[p.Name] {
				t.Fatalf("company %d has two people named %s", i, p.Name)
			}
			names[p.Name] = true
			if first, last, ok := strings.Cut(p.Name, " "); !ok || first == "" || last == "" {
				t.Fatalf("%d: bad name %q", p.PersonaID, p.Name)
			}
			if n := len(p.Skills); n < 3 || n > 10 {
				t.Fatalf("%d: %d skills", p.PersonaID, n)
			}
			seen := map[string]bool{}
			for _, s := range p.Skills {
				if s == "" || seen[s] {
					t.Fatalf("%d: empty or repeated skill in %q", p.PersonaID, p.Skills)
				}
				seen[s] = true
			}
			if !strings.Contains(p.Summary, p.Title) || !utf8.ValidString(p.Summary) || strings.Contains(p.Summary, "{") ||
				strings.Contains(p.Summary, "..") || !strings.HasSuffix(p.Summary, ".") {
				t.Fatalf("%d: summary %q (title %q)", p.PersonaID, p.Summary, p.Title)
			}
			if countSentenceBreaks(p.Summary, p.CompanyName) > 2 {
				t.Fatalf("%d: summary has more than three sentences: %q", p.PersonaID, p.Summary)
			}
			if p.Connections < 0 || p.Connections > 30000 {
				t.Fatalf("%d: %d connections", p.PersonaID, p.Connections)
			}
			if _, ok := geo.LookupCountry(p.Country); !ok {
				t.Fatalf("%d: country %q", p.PersonaID, p.Country)
			}
			if p.State != "" && !strings.HasPrefix(p.State, p.Country+"-") {
				t.Fatalf("%d: state %q in %s", p.PersonaID, p.State, p.Country)
			}
			// Employer fields are the company's.
			if p.Domain != co.Domain || p.CompanyName != co.Name || p.Employees != co.Employees ||
				p.RevenueRange != co.RevenueRange || p.CompanyCountry != co.Address.Country ||
				p.CompanyState != co.Address.State || !reflect.DeepEqual(p.Industry, co.Industries()) {
				t.Fatalf("%d: employer fields differ from company %d: %+v", p.PersonaID, i, p)
			}
			for _, u := range p.SocialURLs {
				if n := record.SocialNetworkOf(u); n != "linkedin" && n != "x" {
					t.Fatalf("%d: social URL %q", p.PersonaID, u)
				}
				if h, ok := strings.CutPrefix(u, "https://x.com/"); ok && (len(h) < 4 || len(h) > 15 || !validSlug(strings.ReplaceAll(h, "_", "-"))) {
					t.Fatalf("%d: bad X handle %q", p.PersonaID, h)
				}
			}
		}
	}
	for _, d := range record.Departments {
		if depts[d] == 0 {
			t.Errorf("no contact in department %s", d)
		}
	}
	for _, s := range record.Seniorities {
		if sens[s] == 0 {
			t.Errorf("no contact of seniority %s", s)
		}
	}
	// A pyramid: few executives and VPs, many individual contributors.
	ics := sens["senior_ic"] + sens["mid_level"] + sens["entry_level"]
	if sens["vp"] > sens["director"] || sens["director"] > sens["manager"] || sens["executive"]+sens["vp"] > ics/2 {
		t.Errorf("seniorities are not a pyramid: %v", sens)
	}
	t.Logf("departments %v", depts)
	t.Logf("seniorities %v", sens)
}

// countSentenceBreaks counts the ". " of a text that are not inside the
// company name ("Acme Co. Ltd") or a place ("St. Gallen").
func countSentenceBreaks(s, company string) int {
	return strings.Count(s, ". ") - strings.Count(s, company)*strings.Count(company+" ", ". ") - strings.Count(s, "St. ")
}

// Title words by seniority.
var (
	execWords = []string{"Chief", "CEO", "CTO", "CFO", "COO", "CMO", "CIO", "CISO", "CHRO", "Founder", "Owner", "President",
		"Managing Director", "Partner", "Chair", "Executive Director", "Director General", "Commissioner", "Principal",
		"Head of School", "General Counsel", "Provost", "Chancellor", "Board"}
	juniorWords = []string{"Junior", "Intern", "Assistant", "Trainee", "Associate", "Apprentice", "Graduate", "Coordinator"}
	leaderWords = []string{"Chief", "CEO", "CTO", "CFO", "COO", "CMO", "VP", "Vice President", "Director", "Head of", "Founder"}
)

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// titleFits reports whether a title is consistent with a seniority.
func titleFits(title, sen string) bool {
	switch sen {
	case "executive":
		return containsAny(title, execWords) && !containsAny(title, juniorWords) && !strings.Contains(title, "Vice")
	case "vp":
		return containsAny(title, []string{"VP", "Vice President"}) && !containsAny(title, juniorWords)
	case "director":
		return containsAny(title, []string{"Director", "Head of", "Dean"}) && !containsAny(title, juniorWords) &&
			!containsAny(title, []string{"VP", "Vice President", "Chief"})
	case "manager":
		return containsAny(title, []string{"Manager", "Lead", "Supervisor", "Controller", "Chef", "Superintendent"}) &&
			!containsAny(title, []string{"Junior", "Intern", "Chief", "VP", "Vice President", "Director", "Head of"})
	case "senior_ic":
		return !containsAny(title, leaderWords) && !containsAny(title, []string{"Junior", "Intern", "Trainee"})
	case "mid_level":
		return !containsAny(title, leaderWords) && !containsAny(title, []string{"Junior", "Senior", "Intern", "Trainee", "Lead ", "Principal"})
	case "entry_level":
		return !containsAny(title, leaderWords) && !containsAny(title, []string{"Senior", "Lead", "Principal", "Staff"}) &&
			(!strings.Contains(title, "Manager") || strings.HasPrefix(title, "Associate "))
	}
	return false
}

func TestTitlesFitSeniority(t *testing.T) {
	// Every title of the tables, then every title the corpus uses.
	ct := loadContactTables()
	for ix := range ct.titles {
		for d := range ct.titles[ix] {
			for s, titles := range ct.titles[ix][d] {
				for _, title := range titles {
					if title == "" || !titleFits(title, record.Seniorities[s]) {
						t.Errorf("title %q (%s) is not %s", title, record.Departments[d], record.Seniorities[s])
					}
				}
			}
		}
	}
	for _, list := range ct.leads {
		for _, title := range list {
			if !titleFits(title, "executive") {
				t.Errorf("lead title %q is not executive", title)
			}
		}
	}
	c := contactsCorpus(t)
	for _, cs := range c.contacts {
		for _, p := range cs {
			if !titleFits(p.Title, p.Seniority) {
				t.Fatalf("%d: title %q at seniority %s", p.PersonaID, p.Title, p.Seniority)
			}
		}
	}
	// No office twice in a company: two CEOs, a COO and a Chief Operating
	// Officer (co-founders, partners and board members aside).
	offices := strings.NewReplacer("Chief Executive Officer", "CEO", "Chief Technology Officer", "CTO",
		"Chief Financial Officer", "CFO", "Chief Operating Officer", "COO", "Chief Marketing Officer", "CMO",
		"Chief Information Officer", "CIO", "&", " ", ",", " ")
	for i, cs := range c.contacts {
		seen := map[string]string{}
		for _, p := range cs {
			if p.Seniority != "executive" {
				continue
			}
			for _, w := range strings.Fields(offices.Replace(p.Title)) {
				office := len(w) >= 3 && w[0] == 'C' && w[len(w)-1] == 'O' && strings.ToUpper(w) == w
				if !office && w != "President" {
					continue
				}
				if prev, dup := seen[w]; dup {
					t.Fatalf("company %d has a %s and a %s", i, prev, p.Title)
				}
				seen[w] = p.Title
			}
		}
	}
}

func TestContactEmails(t *testing.T) {
	c := contactsCorpus(t)
	with, validated, total := 0, 0, 0
	for i, cs := range c.contacts {
		pattern := c.g.EmailPattern(i)
		tpl, domain, ok := strings.Cut(pattern, "@")
		if !ok || domain != c.companies[i].Domain || !strings.Contains(tpl, "{") {
			t.Fatalf("company %d: pattern %q, domain %s", i, pattern, c.companies[i].Domain)
		}
		locals := map[string]bool{}
		for _, p := range cs {
			total++
			if p.Email == "" {
				if p.EmailValidated {
					t.Fatalf("%d: validated without an e-mail", p.PersonaID)
				}
				continue
			}
			with++
			if p.EmailValidated {
				validated++
			}
			// As query.InferEmailPattern reads names: the folded first and
			// last words.
			first, last, _ := strings.Cut(p.Name, " ")
			words := strings.Fields(testFold(last))
			f, l := strings.Join(strings.Fields(testFold(first)), ""), words[len(words)-1]
			want := strings.NewReplacer("{first}", f, "{last}", l, "{f}", f[:1], "{l}", l[:1]).Replace(pattern)
			if p.Email != want {
				t.Fatalf("%d (%s): e-mail %s, pattern %s wants %s", p.PersonaID, p.Name, p.Email, pattern, want)
			}
			local, _, _ := strings.Cut(p.Email, "@")
			if locals[local] {
				t.Fatalf("company %d: e-mail %s twice", i, p.Email)
			}
			locals[local] = true
			for j := 0; j < len(local); j++ {
				if ch := local[j]; !(ch >= 'a' && ch <= 'z' || ch == '.' || ch == '_' || ch == '-') {
					t.Fatalf("%d: e-mail %q", p.PersonaID, p.Email)
				}
			}
		}
	}
	share := float64(with) / float64(total)
	vshare := float64(validated) / float64(with)
	if share < 0.65 || share > 0.75 || vshare < 0.55 || vshare > 0.65 {
		t.Errorf("%.3f of contacts have an e-mail (want ~0.70), %.3f of those validated (want ~0.60)", share, vshare)
	}
}

func TestContactPhones(t *testing.T) {
	c := contactsCorpus(t)
	with, total := 0, 0
	types := map[phonenumbers.PhoneNumberType]int{}
	for i, cs := range c.contacts {
		if i%2 == 1 { // half the corpus is plenty
			continue
		}
		for _, p := range cs {
			total++
			if len(p.Phones) == 0 {
				continue
			}
			with++
			for _, ph := range p.Phones {
				n, err := phonenumbers.Parse(ph, "")
				if err != nil || !phonenumbers.IsValidNumber(n) || phonenumbers.Format(n, phonenumbers.E164) != ph {
					t.Fatalf("%d: invalid phone %s (%v)", p.PersonaID, ph, err)
				}
				if !phonenumbers.IsValidNumberForRegion(n, p.Country) && !sharedCallingCode(n) {
					t.Fatalf("%d in %s has phone %s of %s", p.PersonaID, p.Country, ph, phonenumbers.GetRegionCodeForNumber(n))
				}
				types[phonenumbers.GetNumberType(n)]++
			}
		}
	}
	if share := float64(with) / float64(total); share < 0.35 || share > 0.45 {
		t.Errorf("%.3f of contacts have a phone, want ~0.40", share)
	}
	if types[phonenumbers.MOBILE] == 0 || types[phonenumbers.FIXED_LINE] == 0 {
		t.Errorf("phone types %v: want mobiles and landlines", types)
	}
}

func TestContactDistributions(t *testing.T) {
	c := contactsCorpus(t)
	var n, li, x, unknownStart, home int
	var conns, salesConns []int
	deptOf := map[string]map[string]int{} // industry label -> department -> count
	for i, cs := range c.contacts {
		co := &c.companies[i]
		label := c.g.Label(i).Industry
		if deptOf[label] == nil {
			deptOf[label] = map[string]int{}
		}
		start, last := co.StartDate, ReferenceDate
		if co.EndDate != nil {
			last = dateString(max(parseDay(*co.EndDate)-1, parseDay(start)+1))
		}
		for _, p := range cs {
			n++
			for _, u := range p.SocialURLs {
				switch record.SocialNetworkOf(u) {
				case "linkedin":
					li++
				case "x":
					x++
				}
			}
			if p.JobStartDate == "" {
				unknownStart++
			} else if p.JobStartDate <= start || p.JobStartDate > last || len(p.JobStartDate) != 10 {
				t.Fatalf("%d: job start %s, company %d started %s (end %v)", p.PersonaID, p.JobStartDate, i, start, co.EndDate)
			}
			if p.Country == co.Address.Country {
				home++
			}
			conns = append(conns, p.Connections)
			if p.Department == "Sales - Marketing" {
				salesConns = append(salesConns, p.Connections)
			}
			deptOf[label][p.Department]++
		}
	}
	near := func(what string, got int, want float64) {
		if f := float64(got) / float64(n); f < want-0.04 || f > want+0.04 {
			t.Errorf("%s: %.3f, want about %.2f", what, f, want)
		}
	}
	near("LinkedIn", li, 0.85)
	near("X", x, 0.15)
	near("unknown job start", unknownStart, 0.08)
	near("in the company's country", home, 0.91)
	sort.Ints(conns)
	sort.Ints(salesConns)
	if m := conns[len(conns)/2]; m < 300 || m > 500 {
		t.Errorf("median connections %d, want about 400", m)
	}
	if m := salesConns[len(salesConns)/2]; m < 500 {
		t.Errorf("median connections in sales %d, want 500+", m)
	}
	share := func(label, dept string) float64 {
		total := 0
		for _, v := range deptOf[label] {
			total += v
		}
		return float64(deptOf[label][dept]) / float64(total)
	}
	if s, o := share("SOFTWARE", "Technology"), share("RETAIL", "Technology"); s < 2*o {
		t.Errorf("Technology: %.2f of software people, %.2f of retail people", s, o)
	}
	if s, o := share("HEALTHCARE", "Medical - Science"), share("CONSULTING", "Medical - Science"); s < 0.2 || s < 10*o {
		t.Errorf("Medical - Science: %.2f of healthcare people, %.2f of consultants", s, o)
	}
	if s := share("LEGAL_SERVICES", "Legal"); s < 0.3 {
		t.Errorf("Legal: %.2f of law firm people", s)
	}
}

// TestContactNames checks the name tables (every letter folds to a-z,
// first names are single words) and that people carry names of their
// country.
func TestContactNames(t *testing.T) {
	ct := loadContactTables()
	for code, nr := range ct.regions {
		if len(nr.male) < 10 || len(nr.female) < 10 || len(nr.lastM) < 10 {
			t.Errorf("naming region %s is too small", code)
		}
		for _, list := range [][]personName{nr.male, nr.female, nr.lastM, nr.lastF} {
			for _, n := range list {
				// Every letter folds: as many words after folding as before.
				if f := foldName(n.disp); len(strings.Fields(f)) != len(strings.Fields(n.disp)) || len(f) < 2 ||
					strings.Trim(f, "abcdefghijklmnopqrstuvwxyz ") != "" {
					t.Errorf("%s: %q folds to %q", code, n.disp, f)
				}
				if n.mail == "" || !validSlug(n.slug) {
					t.Errorf("%s: %q has forms %q, %q", code, n.disp, n.mail, n.slug)
				}
			}
		}
		for _, list := range [][]personName{nr.male, nr.female} {
			for _, n := range list {
				if strings.ContainsAny(n.disp, " ,/") {
					t.Errorf("%s: first name %q", code, n.disp)
				}
			}
		}
	}
	for key := range nameMixes {
		if _, ok := geo.LookupCountry(key[:2]); !ok {
			t.Errorf("name mix for unknown country %s", key)
		}
	}
	// People located in a country mostly carry its names.
	region := func(code string) map[string]bool {
		m := map[string]bool{}
		for _, f := range ct.regions[code].male {
			m[f.disp] = true
		}
		for _, f := range ct.regions[code].female {
			m[f.disp] = true
		}
		return m
	}
	checks := map[string]string{"DE": "de", "JP": "ja", "FR": "fr", "BR": "pt", "IN": "in", "PL": "pl", "SE": "sv", "IT": "it"}
	hits, totals := map[string]int{}, map[string]int{}
	c := contactsCorpus(t)
	for _, cs := range c.contacts {
		for _, p := range cs {
			code, ok := checks[p.Country]
			if !ok {
				continue
			}
			first, _, _ := strings.Cut(p.Name, " ")
			totals[p.Country]++
			if region(code)[first] {
				hits[p.Country]++
			}
		}
	}
	for country := range checks {
		if totals[country] < 50 {
			t.Errorf("only %d people in %s", totals[country], country)
			continue
		}
		if f := float64(hits[country]) / float64(totals[country]); f < 0.8 {
			t.Errorf("%s: %.2f of people have a local first name", country, f)
		}
	}
}

func TestContactsPerCompany(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 companies")
	}
	// ContactCount is len(ContactsOf) (TestContactFields checks it on
	// 20,000 companies) for a third of the cost.
	const n = 100000
	g := New(Options{Companies: n, Seed: 21})
	var mu sync.Mutex
	total := 0
	parallel(n, func(i int) {
		k := g.ContactCount(i)
		if i%50 == 0 && k != len(g.ContactsOf(i)) {
			t.Errorf("company %d: ContactCount %d, ContactsOf %d", i, k, len(g.ContactsOf(i)))
		}
		mu.Lock()
		total += k
		mu.Unlock()
	})
	if avg := float64(total) / n; avg < 5 {
		t.Errorf("%.2f contacts per company, want at least 5", avg)
	} else {
		t.Logf("%.2f contacts per company", avg)
	}
}

func TestContactSource(t *testing.T) {
	g := New(Options{Companies: 300, Seed: 4})
	var want []record.Contact
	for i := 0; i < g.Len(); i++ {
		want = append(want, g.ContactsOf(i)...)
	}
	src := g.ContactSource()
	defer src.Close()
	for k := 0; ; k++ {
		p, row, err := src.Next()
		if errors.Is(err, io.EOF) {
			if k != len(want) {
				t.Fatalf("EOF after %d of %d contacts", k, len(want))
			}
			break
		}
		if err != nil || row != k+1 || !reflect.DeepEqual(p, want[k]) {
			t.Fatalf("row %d: got row %d, err %v, %s (want %s)", k+1, row, err, p.Name, want[k].Name)
		}
	}
	if _, _, err := src.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("Next after the end: %v", err)
	}
	if _, _, err := New(Options{}).ContactSource().Next(); !errors.Is(err, io.EOF) {
		t.Errorf("empty corpus: %v", err)
	}
}

func BenchmarkContactsOf(b *testing.B) {
	g := New(Options{Companies: 1 << 30, Seed: 1})
	for i := 0; i < 20000; i++ { // warm the lazy phone books
		g.ContactsOf(i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	contacts := 0
	for i := 0; i < b.N; i++ {
		contacts += len(g.ContactsOf(i))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(contacts), "ns/contact")
	b.ReportMetric(float64(contacts)/float64(b.N), "contacts/company")
}
