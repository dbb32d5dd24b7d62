package demo

import (
	"math"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nyaruka/phonenumbers"

	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/record/geo"
)

func TestDeterministic(t *testing.T) {
	a, b := New(Options{Companies: 5000, Seed: 7}), New(Options{Companies: 100, Seed: 7})
	for i := 0; i < 100; i += 7 {
		if !reflect.DeepEqual(a.Company(i), b.Company(i)) {
			t.Fatalf("company %d differs between two generators of one seed (and corpus sizes 5000, 100)", i)
		}
		if a.Label(i) != b.Label(i) {
			t.Fatalf("label %d differs", i)
		}
	}
	// Out of order and concurrently: same result.
	want := make([]record.Company, 64)
	for i := range want {
		want[i] = a.Company(i)
	}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for k := len(want) - 1; k >= 0; k-- {
				i := (k*13 + w) % len(want)
				if got := a.Company(i); !reflect.DeepEqual(got, want[i]) {
					t.Errorf("company %d differs when generated concurrently", i)
					return
				}
			}
		}(w)
	}
	wg.Wait()

	c := New(Options{Companies: 100, Seed: 8})
	same := 0
	for i := 0; i < 100; i++ {
		if a.Company(i).Domain == c.Company(i).Domain {
			same++
		}
	}
	if same > 2 {
		t.Errorf("seeds 7 and 8 share %d of 100 domains", same)
	}
}

func TestDomainsAndLen(t *testing.T) {
	g := New(Options{Companies: 10, Seed: 1})
	if g.Len() != 10 {
		t.Fatalf("Len = %d", g.Len())
	}
	ds := g.Domains(20)
	if len(ds) != 10 {
		t.Fatalf("Domains(20) of a 10-company corpus returned %d", len(ds))
	}
	for i, d := range ds {
		if c := g.Company(i); c.Domain != d {
			t.Errorf("Domains()[%d] = %s, company has %s", i, d, c.Domain)
		}
	}
	if len(g.Domains(-1)) != 0 {
		t.Error("Domains(-1) not empty")
	}
	for _, i := range []int{-1, 10} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Company(%d) of a 10-company corpus did not panic", i)
				}
			}()
			g.Company(i)
		}()
	}
}

// TestDomainsUnique checks the uniqueness guarantee on a corpus big enough
// to exercise decorated and numbered domains (the short-surname cell runs
// out of plain names after a few hundred thousand companies).
func TestDomainsUnique(t *testing.T) {
	n := 200_000
	if testing.Short() {
		n = 50_000
	}
	g := New(Options{Companies: n, Seed: 3})
	seen := make(map[string]int, n)
	for i, d := range g.Domains(n) {
		if j, dup := seen[d]; dup {
			t.Fatalf("companies %d and %d share the domain %s", j, i, d)
		}
		seen[d] = i
	}
}

// TestPlacementInjective checks the schedule directly at indices far
// beyond test corpus sizes, where every cell has wrapped many times.
func TestPlacementInjective(t *testing.T) {
	g := New(Options{Companies: 1, Seed: 5})
	type key struct {
		cell         int
		combo, round uint64
	}
	seen := map[key]int{}
	check := func(i int) {
		p := g.place(i)
		if p.combo >= g.t.lex.cells[p.cell].combos {
			t.Fatalf("index %d: combination %d out of range", i, p.combo)
		}
		k := key{p.cell, p.combo, p.round}
		if j, dup := seen[k]; dup {
			t.Fatalf("indices %d and %d share a placement", j, i)
		}
		seen[k] = i
	}
	// Two whole blocks around 9.9M and a spread of blocks below.
	for i := 9_900_000; i < 9_900_000+2*scheduleSlots; i++ {
		check(i)
	}
	for b := 0; b < 1200; b += 7 {
		for p := 0; p < scheduleSlots; p += 61 {
			check(b*scheduleSlots + p)
		}
	}
}

// TestNamingCapacity keeps domains plain at demo scale: decorations
// ("getacme.com") stay rare in the first million companies, and numbered
// domains do not appear before ten million.
func TestNamingCapacity(t *testing.T) {
	g := New(Options{Companies: 1, Seed: 1})
	decorated := 0
	const n = 1_000_000
	for i := 0; i < n; i++ {
		if g.place(i).round > 0 {
			decorated++
		}
	}
	if frac := float64(decorated) / n; frac > 0.03 {
		t.Errorf("%.1f%% of the first million domains are decorated", 100*frac)
	}
	for i := 9_000_000; i < 10_000_000; i += 3 {
		if p := g.place(i); p.round > g.t.lex.decorations() {
			t.Fatalf("company %d gets a numbered domain", i)
		}
	}
	t.Logf("%.2f%% of the first million domains are decorated", 100*float64(decorated)/n)
}

// TestLexiconPrefixFree is the other half of the uniqueness argument: no
// token is a prefix of another, so a label splits into tokens one way.
func TestLexiconPrefixFree(t *testing.T) {
	lx := loadTables().lex
	type tok struct{ s, role string }
	var all []tok
	addT := func(role string, ts []token) {
		for _, x := range ts {
			all = append(all, tok{x.slug, role})
		}
	}
	addT("inv", lx.inv)
	addT("word", lx.word)
	addT("sur", lx.sur)
	addT("gen", lx.gen)
	for k, iw := range lx.iw {
		addT("iw"+record.Industries[k], iw)
		if len(iw) < 3 {
			t.Errorf("industry %s keeps %d name words, want >= 3", record.Industries[k], len(iw))
		}
	}
	for _, s := range append(append([]string{}, lx.pre...), lx.suf...) {
		all = append(all, tok{s, "deco"})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].s < all[j].s })
	for i := 1; i < len(all); i++ {
		if strings.HasPrefix(all[i].s, all[i-1].s) {
			t.Fatalf("token %q (%s) is a prefix of %q (%s)", all[i-1].s, all[i-1].role, all[i].s, all[i].role)
		}
	}
	for _, x := range all {
		for _, c := range []byte(x.s) {
			if c < 'a' || c > 'z' {
				t.Fatalf("token %q has a character outside a-z", x.s)
			}
		}
	}
	if len(lx.inv) < 10000 || len(lx.word) < 200 || len(lx.sur) < 500 {
		t.Errorf("token tables too small: %d invented, %d words, %d surnames", len(lx.inv), len(lx.word), len(lx.sur))
	}
}

func TestCorpusValid(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 20_000
	}
	g := New(Options{Companies: n, Seed: 1})
	ref := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	industries, niches, countries := map[string]bool{}, map[Label]bool{}, map[string]bool{}
	buckets, models, networks := map[string]int{}, map[string]bool{}, map[string]bool{}
	var closed, redirects, noRevenue, leadGen int
	var scoreSum float64
	for i := 0; i < n; i++ {
		c := g.Company(i)
		lab := g.Label(i)
		industries[lab.Industry] = true
		niches[lab] = true
		countries[c.Address.Country] = true
		if i%10 == 0 { // the costlier checks on a sample
			if d, err := domain.Normalize(c.Domain); err != nil || d != c.Domain {
				t.Fatalf("company %d: domain %q normalizes to %q, %v", i, c.Domain, d, err)
			}
			if c.RedirectDomain != nil {
				if d, err := domain.Normalize(*c.RedirectDomain); err != nil || d != *c.RedirectDomain || d == c.Domain {
					t.Fatalf("company %d: bad redirect %q (%v)", i, *c.RedirectDomain, err)
				}
			}
			for _, v := range c.Vendors {
				if d, err := domain.Normalize(v); err != nil || d != v {
					t.Fatalf("company %d: vendor %q is not a root domain", i, v)
				}
			}
			if c.MXProvider == "" {
				t.Fatalf("company %d: no MX provider", i)
			}
			if d, err := domain.Normalize(c.MXProvider); err != nil || d != c.MXProvider {
				t.Fatalf("company %d: MX provider %q is not a root domain", i, c.MXProvider)
			}
		}
		if c.Name == "" || c.Description == "" || c.Address.City == "" {
			t.Fatalf("company %d lacks a name, description or city: %+v", i, c)
		}
		if !strings.Contains(c.Description, strings.TrimSpace(firstWord(c.Name))) {
			t.Fatalf("company %d: description %q does not name %q", i, c.Description, c.Name)
		}
		if l := len(c.SiteText); l < 450 || l > 1500 {
			t.Fatalf("company %d: site text of %d characters", i, l)
		}
		if s := sentences(c.Description); s < 2 || s > 4 {
			t.Fatalf("company %d: description of %d sentences: %q", i, s, c.Description)
		}
		if top := c.Industries(); len(c.IndustryGroups) < 1 || len(c.IndustryGroups) > 2 || top[0] != lab.Industry {
			t.Fatalf("company %d: industry groups %v, label %s", i, c.IndustryGroups, lab.Industry)
		}
		for ind := range c.IndustryGroups {
			if !record.IsIndustry(ind) {
				t.Fatalf("company %d: unknown industry %q", i, ind)
			}
		}
		if !record.IsEmployeeBucket(c.Employees) {
			t.Fatalf("company %d: employees %q", i, c.Employees)
		}
		buckets[c.Employees]++
		if c.RevenueRange == "" {
			noRevenue++
		} else if !record.IsRevenueBucket(c.RevenueRange) {
			t.Fatalf("company %d: revenue %q", i, c.RevenueRange)
		}
		if len(c.BusinessModels) < 1 || len(c.BusinessModels) > 2 {
			t.Fatalf("company %d: business models %v", i, c.BusinessModels)
		}
		for _, m := range c.BusinessModels {
			if !record.IsBusinessModel(m) {
				t.Fatalf("company %d: business model %q", i, m)
			}
			models[m] = true
		}
		for _, u := range c.SocialURLs {
			nw := record.SocialNetworkOf(u)
			if nw == "" {
				t.Fatalf("company %d: unrecognized social URL %s", i, u)
			}
			networks[nw] = true
		}
		if k := len(c.Keywords); k < 5 || k > 12 {
			t.Fatalf("company %d: %d keywords", i, k)
		}
		for k, v := range c.Keywords {
			if k != strings.ToLower(k) || v <= 0 || v > 1 {
				t.Fatalf("company %d: keyword %q %v", i, k, v)
			}
		}
		if k := len(c.Vendors); k < 3 || k > 15 {
			t.Fatalf("company %d: %d vendors", i, k)
		}
		if len(c.Languages) == 0 || len(c.Languages[0]) != 2 {
			t.Fatalf("company %d: languages %v", i, c.Languages)
		}
		for _, e := range c.PublicEmails {
			if !strings.HasSuffix(e, "@"+c.Domain) {
				t.Fatalf("company %d: e-mail %s not at %s", i, e, c.Domain)
			}
		}
		if c.Address.State != "" {
			if s, ok := geo.LookupSubdivision(c.Address.Country, c.Address.State); !ok || s.Code != c.Address.State {
				t.Fatalf("company %d: state %q not a subdivision of %s", i, c.Address.State, c.Address.Country)
			}
		}
		// Dates and the score/age curve.
		start, err := time.Parse("2006-01-02", c.StartDate)
		if err != nil || start.Year() < 1950 || !start.Before(ref) {
			t.Fatalf("company %d: start date %q", i, c.StartDate)
		}
		if up, err := time.Parse("2006-01-02", c.UpdateDate); err != nil || up.Year() != 2026 {
			t.Fatalf("company %d: update date %q", i, c.UpdateDate)
		}
		years := ref.Sub(start).Hours() / 24 / daysPerYear
		if c.Score < 1 || c.Score > MaxScoreForAge(years) {
			t.Fatalf("company %d: score %d above the cap %d for %.2f years", i, c.Score, MaxScoreForAge(years), years)
		}
		scoreSum += float64(c.Score)
		if c.Closed() {
			closed++
			if c.EndDate == nil {
				t.Fatalf("closed company %d has no end date", i)
			}
			end, err := time.Parse("2006-01-02", *c.EndDate)
			if err != nil || end.Before(start) || !end.Before(ref) {
				t.Fatalf("closed company %d: end date %q (start %s)", i, *c.EndDate, c.StartDate)
			}
		} else if c.EndDate != nil || c.Status.Status != record.StatusActive {
			t.Fatalf("company %d: status %v with end date %v", i, c.Status, c.EndDate)
		}
		if c.RedirectDomain != nil {
			redirects++
		}
		if c.LeadGen() {
			leadGen++
		}
	}
	if len(industries) != len(record.Industries) {
		t.Errorf("%d industries appear, want all %d", len(industries), len(record.Industries))
	}
	if len(niches) < 180 {
		t.Errorf("%d niches appear", len(niches))
	}
	if min := 100; len(countries) < min {
		t.Errorf("%d countries appear, want %d+", len(countries), min)
	}
	if len(buckets) != len(record.EmployeeBuckets) {
		t.Errorf("employee buckets seen: %v", buckets)
	}
	if frac := float64(closed) / float64(n); frac < 0.01 || frac > 0.08 {
		t.Errorf("%.1f%% closed", 100*frac)
	}
	if frac := float64(redirects) / float64(n); frac < 0.01 || frac > 0.06 {
		t.Errorf("%.1f%% redirect", 100*frac)
	}
	if frac := float64(noRevenue) / float64(n); frac < 0.05 || frac > 0.4 {
		t.Errorf("%.1f%% without revenue", 100*frac)
	}
	if len(models) < 5 || len(networks) < 12 {
		t.Errorf("business models seen %v, social networks seen %v", models, networks)
	}
	t.Logf("%d companies: %d industries, %d niches, %d countries, %.1f%% closed, %.1f%% redirects, mean score %.0f, %.1f%% lead-gen-like, sizes %v",
		n, len(industries), len(niches), len(countries), 100*float64(closed)/float64(n), 100*float64(redirects)/float64(n),
		scoreSum/float64(n), 100*float64(leadGen)/float64(n), buckets)
}

// sentences counts sentence ends: a word ending in "." that ends the text
// or precedes a capital ("& Co. is" and "St. Louis" do not count).
func sentences(s string) int {
	n := 0
	words := strings.Fields(s)
	for k, w := range words {
		if !strings.HasSuffix(w, ".") || w == "St." {
			continue
		}
		if k+1 == len(words) || (words[k+1][0] >= 'A' && words[k+1][0] <= 'Z') {
			n++
		}
	}
	return n
}

func firstWord(name string) string {
	if i := strings.IndexAny(name, " &,"); i > 0 {
		return name[:i]
	}
	return name
}

func TestCountryDistribution(t *testing.T) {
	const n = 50_000
	g := New(Options{Companies: n, Seed: 2})
	count := map[string]int{}
	local := 0
	for i := 0; i < n; i++ {
		c := g.Company(i)
		count[c.Address.Country]++
		if c.Address.Country != "US" && !strings.HasSuffix(c.Domain, ".com") {
			local++
		}
	}
	us, gb, de := count["US"], count["GB"], count["DE"]
	if us < n/5 || us > n/2 || gb < n/40 || de < n/40 || gb >= us || de >= us {
		t.Errorf("country shares: US %d, GB %d, DE %d of %d", us, gb, de, n)
	}
	if local < n/10 {
		t.Errorf("only %d non-US companies off .com", local)
	}
}

func TestScoreCurve(t *testing.T) {
	if MaxScoreForAge(0) != 120 || MaxScoreForAge(-3) != 120 || MaxScoreForAge(math.NaN()) != 120 {
		t.Errorf("MaxScoreForAge(0) = %d", MaxScoreForAge(0))
	}
	prev := 0
	for y := 0.0; y <= 80; y += 0.25 {
		m := MaxScoreForAge(y)
		if m < prev || m > 800 {
			t.Fatalf("MaxScoreForAge(%v) = %d after %d", y, m, prev)
		}
		prev = m
	}
	if MaxScoreForAge(10) != 671 || MaxScoreForAge(100) != 799 {
		t.Errorf("MaxScoreForAge(10) = %d, (100) = %d", MaxScoreForAge(10), MaxScoreForAge(100))
	}
	// Score grows with size and age on average.
	g := New(Options{Companies: 30000, Seed: 4})
	var small, big, young, old []float64
	for i := 0; i < g.Len(); i++ {
		c := g.Company(i)
		start, _ := time.Parse("2006-01-02", c.StartDate)
		switch {
		case c.Employees == "1-10":
			small = append(small, float64(c.Score))
		case bucketIndex(c.Employees) >= 4:
			big = append(big, float64(c.Score))
		}
		switch {
		case start.Year() >= 2022:
			young = append(young, float64(c.Score))
		case start.Year() <= 1995:
			old = append(old, float64(c.Score))
		}
	}
	if mean(big) < mean(small)+100 || mean(old) < mean(young)+100 {
		t.Errorf("mean scores: small %.0f big %.0f, young %.0f old %.0f", mean(small), mean(big), mean(young), mean(old))
	}
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(max(len(xs), 1))
}

func TestPhonesValid(t *testing.T) {
	g := New(Options{Companies: 3000, Seed: 3})
	withPhone := 0
	for i := 0; i < g.Len(); i++ {
		c := g.Company(i)
		if len(c.Phones) > 0 {
			withPhone++
		}
		for _, p := range c.Phones {
			n, err := phonenumbers.Parse(p, "")
			if err != nil || !phonenumbers.IsValidNumber(n) {
				t.Fatalf("company %d: invalid phone %s", i, p)
			}
			if rc := phonenumbers.GetRegionCodeForNumber(n); rc != c.Address.Country && !sharedCallingCode(n) {
				t.Fatalf("company %d in %s has a phone of %s: %s", i, c.Address.Country, rc, p)
			}
		}
	}
	if withPhone < g.Len()/2 {
		t.Errorf("only %d of %d companies have a phone", withPhone, g.Len())
	}
}

// sharedCallingCode reports numbers whose calling code several regions
// share (+1, +7, +44...), where the region libphonenumber infers may be a
// neighbour of the company's.
func sharedCallingCode(n *phonenumbers.PhoneNumber) bool {
	return len(phonenumbers.GetRegionCodesForCountryCode(int(n.GetCountryCode()))) > 1
}

// TestPhoneBooks generates numbers for every country the corpus uses and
// validates them: the variation of the last three digits must keep them
// valid everywhere.
func TestPhoneBooks(t *testing.T) {
	tb := loadTables()
	r := rng{s: 99}
	for _, pc := range tb.countries {
		for kind := 0; kind < 2; kind++ {
			for k := 0; k < 25; k++ {
				p := pc.phones.number(&r, kind)
				if p == "" {
					continue
				}
				n, err := phonenumbers.Parse(p, "")
				if err != nil || !phonenumbers.IsValidNumber(n) {
					t.Fatalf("%s (%s): invalid number %s", pc.code, pc.phones.summary(), p)
				}
			}
		}
	}
}

func TestCitiesKnown(t *testing.T) {
	for code, spec := range countrySpecs {
		if _, ok := geo.LookupCountry(code); !ok {
			t.Errorf("country %s unknown to geo", code)
		}
		if spec.cities == "" {
			continue
		}
		for _, e := range strings.Split(spec.cities, ";") {
			f := strings.Split(e, "|")
			if len(f) != 4 {
				t.Errorf("%s: bad city entry %q", code, e)
				continue
			}
			if f[1] == "" {
				if len(geo.Subdivisions(code)) > 0 {
					t.Errorf("%s: city %s without a state in a country with subdivisions", code, f[0])
				}
				continue
			}
			if s, ok := geo.LookupSubdivision(code, f[1]); !ok || s.Code != f[1] {
				t.Errorf("%s: city %s has unknown state %s", code, f[0], f[1])
			}
			if len(f[2]) > len(spec.zip) {
				t.Errorf("%s: zip prefix %q longer than pattern %q", code, f[2], spec.zip)
			}
		}
		for _, tld := range strings.Fields(spec.tlds) {
			if !suffixIsRegistrable(tld) {
				t.Errorf("%s: %q is not a registrable public suffix", code, tld)
			}
		}
	}
}

func TestVocabulary(t *testing.T) {
	tb := loadTables()
	if len(tb.industries) != len(record.Industries) {
		t.Fatalf("%d industries", len(tb.industries))
	}
	nicheOwner := map[string]string{}
	for _, ind := range tb.industries {
		if k := len(ind.niches); k < 3 || k > 6 {
			t.Errorf("%s: %d niches, want 3-6", ind.label, k)
		}
		if len(ind.terms) < 15 || len(ind.kinds) == 0 || len(ind.related) == 0 || len(ind.vendors) == 0 {
			t.Errorf("%s: %d terms, %d kinds, %d related, %d vendors", ind.label, len(ind.terms), len(ind.kinds), len(ind.related), len(ind.vendors))
		}
		for _, v := range ind.vendors {
			if d, err := domain.Normalize(v); err != nil || d != v {
				t.Errorf("%s: vendor %q is not a root domain", ind.label, v)
			}
		}
		for _, nc := range ind.niches {
			if o, dup := nicheOwner[nc.name]; dup {
				t.Errorf("niche %q in %s and %s", nc.name, o, ind.label)
			}
			nicheOwner[nc.name] = ind.label
			if len(nc.terms) < 40 || len(nc.terms) > 128 || len(nc.customers) < 5 {
				t.Errorf("%s/%s: %d terms, %d customer types", ind.label, nc.name, len(nc.terms), len(nc.customers))
			}
			seen := map[string]bool{}
			for _, term := range nc.termsLow {
				if seen[term] {
					t.Errorf("%s/%s: term %q twice", ind.label, nc.name, term)
				}
				seen[term] = true
			}
		}
	}
}

// TestTextCloseness is a sanity check of the vocabulary design without
// the embedder: word-set overlap is highest within a niche, then within an
// industry, then across industries.
func TestTextCloseness(t *testing.T) {
	const n = 6000
	g := New(Options{Companies: n, Seed: 11})
	sets := make([]map[string]bool, n)
	labels := make([]Label, n)
	for i := range sets {
		c := g.Company(i)
		sets[i] = wordSet(c.Description + " " + c.SiteText)
		labels[i] = g.Label(i)
	}
	var sumNiche, sumInd, sumOther float64
	var nNiche, nInd, nOther int
	r := rng{s: 5}
	for k := 0; k < 200000 && (nNiche < 2000 || nInd < 2000 || nOther < 2000); k++ {
		a, b := r.intn(n), r.intn(n)
		if a == b {
			continue
		}
		j := jaccard(sets[a], sets[b])
		switch {
		case labels[a] == labels[b]:
			sumNiche += j
			nNiche++
		case labels[a].Industry == labels[b].Industry:
			sumInd += j
			nInd++
		default:
			sumOther += j
			nOther++
		}
	}
	niche, ind, other := sumNiche/float64(nNiche), sumInd/float64(nInd), sumOther/float64(nOther)
	t.Logf("mean Jaccard: same niche %.3f (%d pairs), same industry %.3f (%d), different %.3f (%d)", niche, nNiche, ind, nInd, other, nOther)
	if !(niche > ind*1.3 && ind > other*1.2) {
		t.Errorf("closeness not ordered: niche %.3f, industry %.3f, other %.3f", niche, ind, other)
	}
}

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if len(w) > 3 {
			out[w] = true
		}
	}
	return out
}

func jaccard(a, b map[string]bool) float64 {
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

func BenchmarkCompany(b *testing.B) {
	g := New(Options{Companies: 1 << 30, Seed: 1})
	for i := 0; i < 20000; i++ { // warm the lazy phone books
		g.Company(i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Company(i)
	}
}

func BenchmarkCompanyParallel(b *testing.B) {
	g := New(Options{Companies: 1 << 30, Seed: 1})
	for i := 0; i < 20000; i++ {
		g.Company(i)
	}
	var next int64
	var mu sync.Mutex
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			i := next
			next++
			mu.Unlock()
			g.Company(int(i))
		}
	})
}

func BenchmarkLabel(b *testing.B) {
	g := New(Options{Companies: 1 << 30, Seed: 1})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		g.Label(i)
	}
}
