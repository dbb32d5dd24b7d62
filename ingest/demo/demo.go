// Package demo generates a seeded, deterministic corpus of realistic company
// profiles for demos, tests and benchmarks: 53 industries with sub-niches
// whose vocabularies make lookalike search meaningful, 100+ countries with
// real subdivision codes and valid phone numbers, scores correlated with
// size and age. Company(i) is a pure function of (seed, i), so a corpus of
// any size can be generated in parallel and regenerated exactly.
package demo

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/nyaruka/phonenumbers"

	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/geo"
)

// Options configure a generator.
type Options struct {
	Companies int
	Seed      int64
}

// Label is the generator's ground truth for a company.
type Label struct {
	Industry, Niche string
}

type niche struct {
	name  string
	words []string
}

type industry struct {
	label string
	words []string
	kind  string // vendor family
	niche []niche
}

type country struct {
	code   string
	weight int
	states []geo.Subdivision
	phone  *phonenumbers.PhoneNumber // a valid example number, nil if none
}

// Generator produces the corpus.
type Generator struct {
	n          int
	seed       uint64
	industries []industry
	countries  []country
	cumWeight  []int
	total      int
}

var (
	tablesOnce sync.Once
	industries []industry
	countries  []country
)

func buildTables() {
	for _, line := range industryVocab {
		parts := strings.SplitN(line, "|", 3)
		ind := industry{label: parts[0], words: strings.Fields(parts[1]), kind: vendorKind(parts[0])}
		for _, n := range strings.Split(parts[2], ";") {
			name, words, _ := strings.Cut(n, ":")
			ind.niche = append(ind.niche, niche{name: strings.TrimSpace(name), words: strings.Fields(words)})
		}
		industries = append(industries, ind)
	}
	weights := map[string]int{"US": 300, "GB": 60, "DE": 50, "FR": 40, "IN": 40, "CA": 30, "AU": 25, "NL": 20, "ES": 20,
		"IT": 20, "BR": 20, "JP": 20, "SE": 12, "CH": 12, "SG": 10, "IE": 8, "MX": 10, "PL": 10, "DK": 6, "NO": 6, "FI": 6,
		"AT": 8, "BE": 8, "NZ": 6, "ZA": 6, "IL": 6, "AE": 6, "CN": 15, "KR": 8}
	for _, c := range geo.Countries() {
		subs := geo.Subdivisions(c.Code)
		if len(subs) == 0 {
			continue
		}
		w := weights[c.Code]
		if w == 0 {
			w = 2
		}
		cc := country{code: c.Code, weight: w, states: subs}
		if ex := phonenumbers.GetExampleNumber(c.Code); ex != nil && phonenumbers.IsValidNumber(ex) {
			cc.phone = ex
		}
		countries = append(countries, cc)
	}
}

func vendorKind(label string) string {
	switch label {
	case "SAAS", "SOFTWARE", "CLOUD_COMPUTING", "CYBERSECURITY", "IT_SERVICES", "ARTIFICIAL_INTELLIGENCE", "DATA_ANALYTICS", "GAMING":
		return "tech"
	case "RETAIL", "E_COMMERCE", "FASHION_APPAREL", "CONSUMER_GOODS", "FOOD_BEVERAGE":
		return "commerce"
	case "FINANCIAL_SERVICES", "FINTECH", "BANKING", "INSURANCE", "INVESTMENT_MANAGEMENT":
		return "finance"
	}
	return "services"
}

// New returns a generator of opt.Companies companies.
func New(opt Options) *Generator {
	tablesOnce.Do(buildTables)
	g := &Generator{n: opt.Companies, seed: uint64(opt.Seed)*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E5A9, industries: industries, countries: countries}
	for _, c := range countries {
		g.total += c.weight
		g.cumWeight = append(g.cumWeight, g.total)
	}
	return g
}

// Len is the corpus size.
func (g *Generator) Len() int { return g.n }

// rng is splitmix64: tiny, fast, and seedable per company.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	z := r.s
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

func (r *rng) intn(n int) int        { return int(r.next() % uint64(n)) }
func (r *rng) float() float64        { return float64(r.next()>>11) / (1 << 53) }
func (r *rng) chance(p float64) bool { return r.float() < p }
func pick[T any](r *rng, s []T) T    { return s[r.intn(len(s))] }

func (g *Generator) rngFor(i int) *rng { return &rng{s: g.seed ^ uint64(i)*0xD6E8FEB86659FD93} }

// Label returns the industry and niche company i was generated from.
func (g *Generator) Label(i int) Label {
	r := g.rngFor(i)
	ind := &g.industries[r.intn(len(g.industries))]
	return Label{Industry: ind.label, Niche: ind.niche[r.intn(len(ind.niche))].name}
}

// Domains returns the domains of the first n companies.
func (g *Generator) Domains(n int) []string {
	out := make([]string, 0, n)
	for i := 0; i < min(n, g.n); i++ {
		out = append(out, g.Company(i).Domain)
	}
	return out
}

// MaxScoreForAge is the highest digital-footprint score a company of the
// given age can have: a footprint takes years to build. Discovery uses the
// same curve to cap its score floor when a start date is given.
func MaxScoreForAge(years float64) int {
	if years < 0 {
		years = 0
	}
	return min(800, 120+int(680*(1-math.Exp(-years/8))))
}

const demoYear = 2026

// Company returns company i.
func (g *Generator) Company(i int) record.Company {
	r := g.rngFor(i)
	ind := &g.industries[r.intn(len(g.industries))]
	nc := &ind.niche[r.intn(len(ind.niche))]
	ct := g.country(r)

	root := pick(r, nameRoots)
	second := pick(r, nameRoots)
	word := strings.ToUpper(root[:1]) + root[1:] + second
	suffix := pick(r, nameSuffixes)
	name := word + " " + suffix
	if r.chance(0.3) {
		if ls, ok := legalSuffixes[ct.code]; ok {
			name += " " + ls
		}
	}
	tld := "com"
	if t, ok := countryTLD[ct.code]; ok && r.chance(0.6) {
		tld = t
	} else if ind.kind == "tech" && r.chance(0.3) {
		tld = pick(r, []string{"io", "ai", "dev"})
	}
	dom := strings.ToLower(word) + strconv.FormatInt(int64(i), 36) + "." + tld

	// Size, age and score.
	size := int(math.Exp(r.float()*r.float()*9.5)) + 1
	startYear := demoYear - int(math.Pow(r.float(), 1.8)*70)
	age := float64(demoYear-startYear) + r.float()
	score := int(60*math.Log(float64(size)+1)) + int(age*4) + r.intn(120)
	score = max(1, min(score, MaxScoreForAge(age)))
	c := record.Company{
		Domain: dom, Name: name, Score: score,
		Status:     record.Status{Status: record.StatusActive, Confidence: 0.8 + 0.2*r.float()},
		StartDate:  date(startYear, 1+r.intn(12), 1+r.intn(28)),
		UpdateDate: date(demoYear, 1+r.intn(10), 1+r.intn(28)),
		Employees:  record.EmployeeBucket(size),
		MXProvider: pick(r, mxProviders),
	}
	if c.MXProvider == "" {
		c.MXProvider = dom
	}
	if r.chance(0.04) {
		c.Status.Status = record.StatusClosed
		end := date(min(demoYear, startYear+1+r.intn(max(1, demoYear-startYear))), 1+r.intn(12), 1+r.intn(28))
		if end < c.StartDate {
			end = c.StartDate
		}
		c.EndDate = &end
	}
	if r.chance(0.8) {
		rev := int64(float64(size) * (50_000 + r.float()*250_000))
		c.RevenueRange = record.RevenueBucket(rev)
	}
	st := ct.states[r.intn(len(ct.states))]
	c.Address = record.Address{Street: strconv.Itoa(1+r.intn(400)) + " " + pick(r, streets), City: st.Name, State: st.Code,
		Zip: strconv.Itoa(10000 + r.intn(89999)), Country: ct.code}
	if ct.phone != nil && r.chance(0.85) {
		c.Phones = []string{g.phone(r, ct)}
	}
	if r.chance(0.7) {
		c.PublicEmails = []string{pick(r, []string{"info@", "hello@", "contact@", "sales@"}) + dom}
	}
	slug := strings.ToLower(word)
	if r.chance(0.75) {
		c.SocialURLs = append(c.SocialURLs, "https://www.linkedin.com/company/"+slug)
	}
	if r.chance(0.5) {
		c.SocialURLs = append(c.SocialURLs, pick(r, []string{"https://x.com/", "https://twitter.com/"})+slug)
	}
	if r.chance(0.35) {
		c.SocialURLs = append(c.SocialURLs, "https://www.facebook.com/"+slug)
	}
	if r.chance(0.2) {
		c.SocialURLs = append(c.SocialURLs, pick(r, []string{"https://www.instagram.com/", "https://www.youtube.com/@", "https://www.tiktok.com/@"})+slug)
	}
	if r.chance(0.03) {
		red := strings.ToLower(pick(r, nameRoots)+pick(r, nameRoots)) + strconv.FormatInt(int64(i), 36) + "-group.com"
		c.RedirectDomain = &red
	}

	c.IndustryGroups = map[string]float64{ind.label: round2(0.7 + 0.3*r.float())}
	if r.chance(0.6) {
		other := g.industries[r.intn(len(g.industries))].label
		if other != ind.label {
			c.IndustryGroups[other] = round2(0.2 + 0.4*r.float())
		}
	}
	c.Keywords = map[string]float64{}
	for k := 0; k < 5+r.intn(6); k++ {
		var w string
		if k%2 == 0 {
			w = pick(r, nc.words)
		} else {
			w = pick(r, ind.words)
		}
		c.Keywords[w] = round2(0.5 + 0.5*r.float())
	}
	c.BusinessModels = []string{pick(r, []string{"B2B", "B2B", "B2B", "B2C", "D2C", "B2G"})}
	if r.chance(0.2) {
		if bm := pick(r, record.BusinessModels); bm != c.BusinessModels[0] {
			c.BusinessModels = append(c.BusinessModels, bm)
		}
	}
	c.Languages = []string{"en"}
	if l, ok := countryLanguage[ct.code]; ok {
		c.Languages = []string{l}
		if r.chance(0.5) {
			c.Languages = append(c.Languages, "en")
		}
	}
	c.Vendors = g.vendors(r, ind)
	c.Subdomains = []string{"www"}
	for k := 0; k < r.intn(5); k++ {
		if s := pick(r, subdomainPool[1:]); !contains(c.Subdomains, s) {
			c.Subdomains = append(c.Subdomains, s)
		}
	}
	c.Description, c.SiteText = g.texts(r, name, ind, nc, st.Name, ct.code)
	return c
}

func (g *Generator) country(r *rng) *country {
	x := r.intn(g.total)
	lo, hi := 0, len(g.cumWeight)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if g.cumWeight[mid] > x {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return &g.countries[lo]
}

// phone varies the last three digits of the country's example number,
// keeping the result only when it is still a valid number.
func (g *Generator) phone(r *rng, ct *country) string {
	ex := ct.phone
	n := &phonenumbers.PhoneNumber{}
	n.CountryCode = ex.CountryCode
	n.ItalianLeadingZero = ex.ItalianLeadingZero
	n.NumberOfLeadingZeros = ex.NumberOfLeadingZeros
	nat := ex.GetNationalNumber()
	v := nat - nat%1000 + uint64(r.intn(1000))
	n.NationalNumber = &v
	if phonenumbers.IsValidNumber(n) {
		return phonenumbers.Format(n, phonenumbers.E164)
	}
	return phonenumbers.Format(ex, phonenumbers.E164)
}

func (g *Generator) vendors(r *rng, ind *industry) []string {
	n := 3 + r.intn(10)
	out := make([]string, 0, n)
	fam := vendorsByKind[ind.kind]
	for len(out) < n {
		var v string
		if r.chance(0.45) {
			v = pick(r, fam)
		} else {
			v = pick(r, vendorsCommon)
		}
		if !contains(out, v) {
			out = append(out, v)
		}
		if len(out) >= len(fam)+len(vendorsCommon) {
			break
		}
	}
	return out
}

var openers = []string{"%s helps %s with %s.", "%s builds %s for %s.", "%s is a provider of %s for %s.", "At %s we deliver %s to %s."}

// texts writes a description and homepage text from the niche's words
// (most), the industry's (many) and generic business words (some).
func (g *Generator) texts(r *rng, name string, ind *industry, nc *niche, city, cc string) (string, string) {
	phrase := func(k int) string {
		var b strings.Builder
		for j := 0; j < k; j++ {
			if j > 0 {
				b.WriteByte(' ')
			}
			switch x := r.intn(10); {
			case x < 5:
				b.WriteString(pick(r, nc.words))
			case x < 8:
				b.WriteString(pick(r, ind.words))
			default:
				b.WriteString(pick(r, genericWords))
			}
		}
		return b.String()
	}
	var d strings.Builder
	opener := pick(r, openers)
	d.WriteString(fill3(opener, name, nc.name+" "+phrase(2), phrase(2)))
	d.WriteString(" Our " + phrase(3) + " serves " + phrase(2) + " teams")
	d.WriteString(" from " + city + ".")
	if r.chance(0.7) {
		d.WriteString(" We specialise in " + phrase(3) + " and " + phrase(2) + ".")
	}
	var s strings.Builder
	s.WriteString(name + " — " + nc.name + ". ")
	for k := 0; k < 6+r.intn(5); k++ {
		p := pick(r, []string{"Better", "Trusted", "Modern", "Smarter", "Proven", "Flexible"}) + " " + phrase(1+r.intn(2))
		s.WriteString(p + " for " + phrase(3+r.intn(4)) + ". ")
	}
	s.WriteString("Contact our team in " + city + " (" + cc + ") to learn more about " + phrase(3) + ".")
	return d.String(), s.String()
}

func fill3(tmpl, a, b, c string) string {
	r := strings.NewReplacer("%s", "\x00")
	parts := strings.Split(r.Replace(tmpl), "\x00")
	if len(parts) != 4 {
		return tmpl
	}
	return parts[0] + a + parts[1] + b + parts[2] + c + parts[3]
}

func date(y, m, d int) string {
	b := make([]byte, 0, 10)
	b = strconv.AppendInt(b, int64(y), 10)
	b = append(b, '-', byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10))
	return string(b)
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
