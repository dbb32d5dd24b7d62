// Package demo generates the seeded, deterministic demo corpus: realistic,
// varied and internally consistent company profiles for demos, tests and
// benchmarks at any scale.
//
// Company(i) is a pure function of (Seed, i): it can be called from many
// goroutines in any order and always returns the same profile, and the
// profile does not depend on the corpus size. Domains are unique across
// all indices by construction (see names.go). Each company comes from one
// of 53 industries and one of its sub-niches, whose vocabularies make
// lookalike search measurable; Label(i) is that ground truth.
//
// ContactsOf(i) adds the people of company i (contacts.go): like
// Company(i) a pure function of (Seed, i), drawn from a stream of their
// own so that they belong to the company's domain, country and industry.
package demo

import (
	"fmt"
	"io"
	"math"
	"strings"
	"sync"

	"golang.org/x/net/publicsuffix"

	"github.com/openprospect/prospectd/record"
)

// Options configure a generator.
type Options struct {
	Companies int   // corpus size; Len() returns it
	Seed      int64 // different seeds give different corpora
}

// Label is the generator's ground truth for a company: the industry and
// sub-niche its texts were written from, for relevance evaluation.
type Label struct {
	Industry, Niche string
}

// Generator produces the corpus. It is safe for concurrent use.
type Generator struct {
	n        int
	seed     uint64
	t        *tables
	cellPerm []permuter
}

// tables are the seed-independent lookup tables, built once per process.
type tables struct {
	industries  []*industry
	indPick     weighted
	lex         *lexicon
	countries   []*placeCountry
	countryPick weighted
	subProbs    [numArchetypes][]float64
}

var (
	tablesOnce sync.Once
	shared     *tables
)

func loadTables() *tables {
	tablesOnce.Do(func() {
		t := &tables{industries: buildIndustries()}
		w := make([]int, len(t.industries))
		for k, ind := range t.industries {
			w[k] = ind.weight
		}
		t.indPick = newWeighted(w)
		t.lex = buildLexicon(t.industries)
		for _, c := range t.lex.cells {
			if c.combos == 0 {
				panic(fmt.Sprintf("demo: naming style %d of industry %d has no combinations", c.style, c.industry))
			}
		}
		t.countries, t.countryPick = buildPlaces()
		for a := range t.subProbs {
			t.subProbs[a] = subdomainProbs(archetype(a))
		}
		shared = t
	})
	return shared
}

// New returns a generator of opt.Companies companies.
func New(opt Options) *Generator {
	t := loadTables()
	g := &Generator{n: max(opt.Companies, 0), seed: mix64(uint64(opt.Seed) ^ 0x5DEECE66D), t: t}
	g.cellPerm = make([]permuter, len(t.lex.cells))
	for k, c := range t.lex.cells {
		g.cellPerm[k] = newPermuter(c.combos, g.seed^mix64(uint64(k)+0xC2B2AE3D27D4EB4F))
	}
	return g
}

// Len is the corpus size.
func (g *Generator) Len() int { return g.n }

// Domains returns the domains of the first n companies (fewer when the
// corpus is smaller).
func (g *Generator) Domains(n int) []string {
	n = min(max(n, 0), g.n)
	out := make([]string, n)
	for i := range out {
		r := newRNG(g.seed, i)
		out[i] = g.identity(&r, i).domain
	}
	return out
}

// Label returns the industry and niche company i was written from.
func (g *Generator) Label(i int) Label {
	g.check(i)
	r := newRNG(g.seed, i)
	ind, nc, _ := g.classify(&r, i)
	return Label{Industry: ind.label, Niche: nc.name}
}

func (g *Generator) check(i int) {
	if i < 0 || i >= g.n {
		panic(fmt.Sprintf("demo: company index %d out of range [0, %d)", i, g.n))
	}
}

// classify makes the first draws of a company's stream: its industry and
// niche, and where the naming schedule puts it.
func (g *Generator) classify(r *rng, i int) (*industry, *niche, placement) {
	uInd, uNiche := r.next(), r.next()
	pl := g.place(i)
	indIdx := g.t.lex.cells[pl.cell].industry
	if indIdx < 0 {
		indIdx = g.t.indPick.sample(uInd)
	}
	ind := g.t.industries[indIdx]
	hi, _ := mulHi(uNiche, uint64(len(ind.niches)))
	return ind, &ind.niches[hi], pl
}

// identity is what the first draws decide: classification, country, name
// tokens and domain. domainOf needs only this much of another company.
type identity struct {
	ind     *industry
	nc      *niche
	pl      placement
	country *placeCountry
	toks    [3]token
	ntok    int
	tld     string
	domain  string
}

func (g *Generator) identity(r *rng, i int) identity {
	var id identity
	id.ind, id.nc, id.pl = g.classify(r, i)
	id.country = g.t.countries[g.t.countryPick.sample(r.next())]
	c := g.t.lex.cells[id.pl.cell]
	toks := g.t.lex.nameTokens(c, id.pl.combo, &id.toks)
	id.ntok = len(toks)
	id.tld = g.chooseTLD(r, &id)
	var buf [96]byte
	b := g.t.lex.appendLabel(buf[:0], toks, id.pl.round)
	b = append(b, '.')
	b = append(b, id.tld...)
	id.domain = string(b)
	if ps, _ := publicsuffix.PublicSuffix(id.domain); ps != id.tld {
		// The label happens to be a private suffix on the list (like
		// "blogspot.com"): the same label under another suffix is a
		// normal registrable domain and still unique.
		for _, alt := range []string{"net", "org", "io"} {
			d := id.domain[:len(id.domain)-len(id.tld)] + alt
			if ps, _ := publicsuffix.PublicSuffix(d); ps == alt {
				id.tld, id.domain = alt, d
				break
			}
		}
	}
	return id
}

// chooseTLD picks the public suffix: the country's own some of the time,
// .org for nonprofits, .io/.ai/.co for tech, .com otherwise.
func (g *Generator) chooseTLD(r *rng, id *identity) string {
	u := r.float()
	pc := id.country
	switch id.ind.label {
	case "NONPROFIT":
		if u < 0.55 {
			return "org"
		}
	case "GOVERNMENT":
		if pc.code == "US" && u < 0.3 {
			return "gov"
		}
		if u < 0.2 {
			return "org"
		}
	case "EDUCATION":
		if pc.code == "US" && id.nc.name == "higher education" && u < 0.6 {
			return "edu"
		}
	case "ARTIFICIAL_INTELLIGENCE":
		if u < 0.35 {
			return "ai"
		}
	}
	v := r.float()
	if len(pc.tlds) > 0 && v < pc.spec.local {
		if len(pc.tlds) > 1 && r.chance(0.25) {
			return pc.tlds[1]
		}
		return pc.tlds[0]
	}
	if id.ind.arch == archSoftware && r.chance(0.25) {
		return pick(r, []string{"io", "io", "co", "ai", "app", "dev", "tech"})
	}
	switch w := r.float(); {
	case w < 0.88:
		return "com"
	case w < 0.95:
		return "net"
	case w < 0.98:
		return "co"
	default:
		return "biz"
	}
}

// Company returns company i; 0 <= i < Len().
func (g *Generator) Company(i int) record.Company {
	g.check(i)
	r := newRNG(g.seed, i)
	id := g.identity(&r, i)
	ind, nc, pc := id.ind, id.nc, id.country
	toks := id.toks[:id.ntok]

	short, full := g.names(&r, &id, toks)
	c := record.Company{Domain: id.domain, Name: full, Employees: "", IndustryGroups: nil}

	// Age, size, score, status, dates.
	startDay := refDayNum - int(ageYears(&r)*daysPerYear)
	startDay = min(max(startDay, firstDayNum), refDayNum-2)
	years := float64(refDayNum-startDay) / daysPerYear
	employees := headcount(&r, years, ind.size)
	c.Employees = record.EmployeeBucket(employees)
	c.Score = score(&r, employees, years)
	c.StartDate = dateString(startDay)
	c.UpdateDate = dateString(refDayNum + 4 + r.intn(290))
	c.Status = record.Status{Status: record.StatusActive, Confidence: round2(r.between(0.75, 0.99))}
	if r.chance(0.02 + 0.05*math.Exp(-years/5)) {
		c.Status = record.Status{Status: record.StatusClosed, Confidence: round2(r.between(0.6, 0.95))}
		span := refDayNum - 1 - startDay
		end := dateString(startDay + span/4 + r.intn(max(span-span/4, 1)))
		c.EndDate = &end
		c.Score = max(1, int(float64(c.Score)*r.between(0.5, 0.9)))
	}
	c.RevenueRange = revenueRange(&r, employees, ind.arch)
	sizeIdx := bucketIndex(c.Employees)

	// Address.
	ct := pc.cities[pc.cityPick.sample(r.next())]
	var ab [64]byte
	c.Address = record.Address{Street: string(appendStreet(ab[:0], &r, pc)), City: ct.name, State: ct.state, Country: pc.code}
	if z := appendZip(ab[:0], &r, pc.spec.zip, ct.zipPrefix); len(z) > 0 {
		c.Address.Zip = string(z)
	}

	// Contact channels: a bigger footprint means more of them. A few
	// percent are thin sites with none at all (parked pages, lead
	// generation fronts), which record.Company.LeadGen flags.
	reach := math.Min(1, float64(c.Score)/400)
	thin := r.chance(0.02)
	if thin {
		c.Score = min(c.Score, 10+r.intn(85))
	}
	if !thin && r.chance(0.5+0.45*reach) {
		kind := phoneFixed
		if mobileFirst[pc.code] && r.chance(0.5) {
			kind = phoneMobile
		}
		if p := pc.phones.number(&r, kind); p != "" {
			c.Phones = []string{p}
			if r.chance(0.1 + 0.2*reach) {
				if q := pc.phones.number(&r, 1-kind); q != "" && q != p {
					c.Phones = append(c.Phones, q)
				}
			}
		}
	}
	if !thin && r.chance(0.45+0.5*reach) {
		c.PublicEmails = g.emails(&r, &id, sizeIdx)
	}
	if !thin {
		c.SocialURLs = g.socials(&r, &id, toks, ct.name, reach)
	}
	if i > 0 && r.chance(0.03) {
		j := int(r.next() % uint64(i))
		jr := newRNG(g.seed, j)
		red := g.identity(&jr, j).domain
		c.RedirectDomain = &red
	}

	// Classification.
	first := round2(r.between(0.62, 0.97))
	second := pick(&r, ind.related)
	if r.chance(0.15) {
		second = record.Industries[r.intn(len(record.Industries))]
	}
	c.IndustryGroups = map[string]float64{ind.label: first}
	if second != ind.label {
		c.IndustryGroups[second] = round2(r.between(0.15, first-0.1))
	}
	c.BusinessModels = []string{ind.models[ind.modelPick.sample(r.next())]}
	if r.chance(0.25) {
		if m := ind.models[ind.modelPick.sample(r.next())]; m != c.BusinessModels[0] {
			c.BusinessModels = append(c.BusinessModels, m)
		}
	}
	c.Languages = languages(&r, pc, ct.state)
	c.MXProvider = g.mxProvider(&r, &id, sizeIdx)
	c.Vendors = g.vendors(&r, &id, sizeIdx)
	c.Subdomains = subdomains(&r, g.t.subProbs[ind.arch], sizeIdx)

	// Texts.
	email := "info@" + id.domain
	if len(c.PublicEmails) > 0 {
		email = c.PublicEmails[0]
	}
	x := textCtx{r: &r, ind: ind, nc: nc, short: short, full: full, city: ct.name, country: pc.name,
		year: civilYear(startDay), email: email, cta: pick(&r, archProfiles[ind.arch].ctas)}
	c.Description = x.description()
	c.SiteText = x.siteText()
	c.Keywords = x.keywords()
	g.datasets(&r, &c, &id, startDay, thin)
	return c
}

func civilYear(day int) int {
	y, _, _ := civilFromDays(day)
	return y
}

func bucketIndex(bucket string) int {
	for k, b := range record.EmployeeBuckets {
		if b == bucket {
			return k
		}
	}
	return 0
}

// names returns the short display name and the full name (with a legal
// form some of the time). Names can carry words the domain lacks
// ("Hartley & Sons" at hartley.com), never the other way round.
func (g *Generator) names(r *rng, id *identity, toks []token) (short, full string) {
	c := g.t.lex.cells[id.pl.cell]
	var b strings.Builder
	b.Grow(48)
	wordPair := func(a, z token) {
		switch u := r.float(); {
		case u < 0.5:
			b.WriteString(a.disp)
			b.WriteByte(' ')
			b.WriteString(z.disp)
		case u < 0.85:
			b.WriteString(a.disp)
			b.WriteString(z.slug)
		default:
			b.WriteString(a.disp)
			b.WriteString(z.disp)
		}
	}
	switch c.style {
	case stInv:
		b.WriteString(toks[0].disp)
		if r.chance(0.35) {
			b.WriteByte(' ')
			b.WriteString(pick(r, id.ind.nameWords))
		}
	case stWordWord:
		wordPair(toks[0], toks[1])
	case stWordWordIW:
		wordPair(toks[0], toks[1])
		b.WriteByte(' ')
		b.WriteString(toks[2].disp)
	case stSurSur:
		b.WriteString(toks[0].disp)
		if r.chance(0.6) {
			b.WriteString(" & ")
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(toks[1].disp)
	case stSur:
		b.WriteString(toks[0].disp)
		b.WriteString(pick(r, []string{" & Sons", " & Co.", " Group", " Brothers", " & Partners", ""}))
	default:
		for k, t := range toks {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(t.disp)
		}
	}
	short = b.String()
	full = short
	switch {
	case id.ind.label == "NONPROFIT" || id.ind.label == "GOVERNMENT":
	case c.style == stSurSur && (id.ind.label == "LEGAL_SERVICES" || id.ind.label == "CONSULTING") && r.chance(0.5):
		full = short + " LLP"
	case r.chance(0.35):
		full = short + " " + pick(r, id.country.legal)
	}
	return short, full
}

// mobileFirst countries list a mobile number as often as a landline.
var mobileFirst = map[string]bool{"IN": true, "NG": true, "KE": true, "ID": true, "PH": true, "BR": true, "MX": true,
	"PK": true, "BD": true, "VN": true, "EG": true, "GH": true, "TZ": true, "UG": true}

func (g *Generator) emails(r *rng, id *identity, sizeIdx int) []string {
	locals := []string{"info", "info", "contact", "hello", "sales", "support", "office", "enquiries", "press", "careers"}
	switch id.country.langs[0] {
	case "de":
		locals[2] = "kontakt"
	case "pt":
		locals[2] = "contato"
	case "es":
		locals[2] = "contacto"
	case "fr":
		locals[2] = "contact"
	}
	n := 1 + r.intn(2) + min(sizeIdx/3, 1)
	out := make([]string, 0, n)
	for k := 0; k < n; k++ {
		l := locals[r.intn(len(locals))]
		if k == 0 {
			l = locals[r.intn(4)]
		}
		e := l + "@" + id.domain
		dup := false
		for _, x := range out {
			dup = dup || x == e
		}
		if !dup {
			out = append(out, e)
		}
	}
	return out
}

func (g *Generator) socials(r *rng, id *identity, toks []token, city string, reach float64) []string {
	ap := &archProfiles[id.ind.arch]
	f := 0.45 + 0.55*reach
	var handle, slug strings.Builder
	handle.Grow(32)
	slug.Grow(34)
	for k, t := range toks {
		handle.WriteString(t.slug)
		if k > 0 {
			slug.WriteByte('-')
		}
		slug.WriteString(t.slug)
	}
	h, s := handle.String(), slug.String()
	var out []string
	add := func(p float64, url ...string) {
		if r.chance(p * f) {
			out = append(out, strings.Join(url, ""))
		}
	}
	add(ap.linkedin, "https://www.linkedin.com/company/", s)
	if r.chance(0.7) {
		add(ap.x, "https://x.com/", h)
	} else {
		add(ap.x, "https://twitter.com/", h)
	}
	add(ap.facebook, "https://www.facebook.com/", h)
	add(ap.instagram, "https://www.instagram.com/", h, "/")
	add(ap.youtube, "https://www.youtube.com/@", h)
	add(ap.tiktok, "https://www.tiktok.com/@", h)
	add(ap.pinterest, "https://www.pinterest.com/", h, "/")
	switch id.country.code {
	case "DE", "AT", "CH":
		add(0.35, "https://www.xing.com/pages/", s)
	case "RU", "BY", "KZ":
		add(0.6, "https://vk.com/", h)
	case "US", "CA":
		if id.ind.arch == archConsumer || id.ind.arch == archHealth || id.ind.size < 0 {
			add(0.35, "https://www.yelp.com/biz/", s, "-", slugOf(city))
		}
	}
	if ap.apps > 0 {
		add(ap.apps, "https://play.google.com/store/apps/details?id=com.", h, ".app")
		add(ap.apps, "https://apps.apple.com/app/", s, "/id", fmt.Sprint(1000000000+r.intn(900000000)))
	}
	add(0.04, "https://bsky.app/profile/", id.domain)
	add(0.04, "https://www.threads.net/@", h)
	return out
}

func (g *Generator) mxProvider(r *rng, id *identity, sizeIdx int) string {
	if l, ok := mxLocal[id.country.code]; ok && r.chance(0.3) {
		return l
	}
	if sizeIdx >= 5 && r.chance(0.3) {
		return pick(r, []string{"proofpoint.com", "mimecast.com", "outlook.com"})
	}
	if m := mxProviders[mxWeights.sample(r.next())]; m != "" {
		return m
	}
	return id.domain
}

// vendors returns 3-15 tech vendor domains: the web's common tools, the
// archetype's and the industry's own, more for bigger companies.
func (g *Generator) vendors(r *rng, id *identity, sizeIdx int) []string {
	ap := &archProfiles[id.ind.arch]
	want := min(15, 3+sizeIdx+r.intn(5))
	out := make([]string, 0, want)
	add := func(d string) {
		if len(out) >= want {
			return
		}
		for _, x := range out {
			if x == d {
				return
			}
		}
		out = append(out, d)
	}
	add(pick(r, ap.cms))
	for k := 0; k < 1+r.intn(3); k++ {
		add(pick(r, id.ind.vendors))
	}
	for k := 0; k < 1+r.intn(2); k++ {
		add(pick(r, ap.extraVendors))
	}
	if euCountries[id.country.code] && r.chance(0.5) {
		add(pick(r, euConsent))
	}
	scale := 0.6 + 0.15*float64(sizeIdx)
	for _, v := range commonVendors {
		if r.chance(v.p * scale) {
			add(v.domain)
		}
	}
	for len(out) < 3 {
		add(pick(r, commonVendors[:6]).domain)
	}
	return out
}

func subdomains(r *rng, probs []float64, sizeIdx int) []string {
	scale := 0.6 + 0.15*float64(sizeIdx)
	out := make([]string, 0, 6)
	for k, p := range probs {
		s := subdomainOrder[k]
		if s == "investors" && sizeIdx >= 5 {
			p = 0.5
		}
		if k > 0 { // www does not depend on size
			p *= scale
		}
		if p > 0 && r.chance(p) {
			out = append(out, s)
		}
	}
	return out
}

// subdomainProbs lines up an archetype's subdomain probabilities with
// subdomainOrder.
func subdomainProbs(a archetype) []float64 {
	ap := &archProfiles[a]
	out := make([]float64, len(subdomainOrder))
	for k, s := range subdomainOrder {
		out[k] = math.Max(subdomainBase[s], ap.subdomains[s])
	}
	return out
}

// frenchStates and italianStates are the subdivisions whose companies
// write in French or Italian in bilingual countries.
var (
	frenchStates  = map[string]bool{"CA-QC": true, "CH-GE": true, "CH-VD": true, "CH-NE": true, "CH-JU": true, "CH-FR": true, "CH-VS": true, "BE-WBR": true, "BE-WHT": true, "BE-WLG": true, "BE-WLX": true, "BE-WNA": true}
	italianStates = map[string]bool{"CH-TI": true}
)

func languages(r *rng, pc *placeCountry, state string) []string {
	primary := pc.langs[0]
	switch {
	case frenchStates[state]:
		primary = "fr"
	case italianStates[state]:
		primary = "it"
	case state == "BE-BRU" && r.chance(0.5):
		primary = "fr"
	}
	out := []string{primary}
	for _, l := range pc.langs {
		if l != primary && len(out) < 3 && r.chance(0.35) {
			out = append(out, l)
		}
	}
	return out
}

// Source reads the corpus in order as an ingest source (rows are 1-based).
type Source struct {
	g *Generator
	i int
}

// Source returns a reader of the whole corpus.
func (g *Generator) Source() *Source { return &Source{g: g} }

// Next returns the next company and its row, io.EOF at the end.
func (s *Source) Next() (record.Company, int, error) {
	if s.i >= s.g.Len() {
		return record.Company{}, 0, io.EOF
	}
	s.i++
	return s.g.Company(s.i - 1), s.i, nil
}

// Close implements ingest.Source.
func (s *Source) Close() error { return nil }
