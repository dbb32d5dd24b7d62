package demo

import (
	"bytes"
	"io"
	"math"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/openprospect/prospectd/record"
)

// Contacts: the people of each company. ContactsOf(i) is, like Company(i),
// a pure function of (Seed, i): it reads company i and then draws from a
// stream of its own, so adding contacts changed no company. The people of
// a company are generated one after the other (names are distinct within
// a company, executive titles are not repeated), all strings of a company
// share one allocation, and nothing is kept between calls, so generating
// tens of millions of contacts needs no memory proportional to the corpus.

// MaxContactsPerCompany bounds ContactsOf; PersonaID relies on it.
const MaxContactsPerCompany = 64

const (
	contactSalt = 0x3C6EF372FE94F82B
	patternSalt = 0xA54FF53A5F1D36F1
	slugSalt    = 0x510E527FADE682D1
	slugBits    = 40 // persona ids below 2^40: 17 billion companies
)

// PersonaID is the id of the k-th contact of company i (0 <= k < 64):
// unique across the corpus and stable across corpus sizes.
func PersonaID(i, k int) int64 { return int64(i)*MaxContactsPerCompany + int64(k) + 1 }

// CompanyOfPersona inverts PersonaID. ok is false for ids PersonaID never
// returns; whether company i has a k-th contact is for ContactsOf to say
// (see Generator.Persona).
func CompanyOfPersona(id int64) (i, k int, ok bool) {
	if id < 1 {
		return 0, 0, false
	}
	id--
	return int(id / MaxContactsPerCompany), int(id % MaxContactsPerCompany), true
}

// Persona returns the contact with the given id, false when there is none.
func (g *Generator) Persona(id int64) (record.Contact, bool) {
	i, k, ok := CompanyOfPersona(id)
	if !ok || i >= g.n {
		return record.Contact{}, false
	}
	cs := g.ContactsOf(i)
	if k >= len(cs) {
		return record.Contact{}, false
	}
	return cs[k], true
}

// emailPatterns are the address templates companies use, with weights.
var emailPatterns = []struct {
	tpl string
	w   int
}{
	{"{first}.{last}", 42}, {"{f}{last}", 18}, {"{first}{last}", 8}, {"{f}.{last}", 7}, {"{first}", 6},
	{"{first}_{last}", 4}, {"{first}{l}", 4}, {"{last}.{first}", 3}, {"{first}-{last}", 3}, {"{last}{f}", 3},
	{"{last}", 2},
}

// EmailPattern is company i's e-mail address template with its domain,
// like "{first}.{last}@example.com": {first} is the first name and {last}
// the last word of the surname, folded to a-z as query.InferEmailPattern
// reads them ("Müller" -> "muller", "van der Berg" -> "berg"); {f} and {l}
// are their initials.
func (g *Generator) EmailPattern(i int) string {
	g.check(i)
	r := newRNG(g.seed, i)
	return emailPatterns[g.patternIndex(i)].tpl + "@" + g.identity(&r, i).domain
}

func (g *Generator) patternIndex(i int) int {
	r := newRNG(g.seed^patternSalt, i)
	return loadContactTables().patternPick.sample(r.next())
}

// ContactsOf returns the contacts of company i, 0 <= i < Len(). The
// contacts share their Industry slice (the company's labels).
func (g *Generator) ContactsOf(i int) []record.Contact {
	c := g.Company(i)
	return g.contactsOf(i, &c)
}

// contactTables are the seed-independent lookup tables of contacts.
type contactTables struct {
	byCode      map[string]*placeCountry
	regions     map[string]*nameRegion
	mixes       map[string]*nameMix
	indIdx      map[*industry]int
	nicheSkills map[*niche][]string
	titles      [][15]*[7][]string // per industry, department, seniority
	skills      [][15][]string     // per industry and department
	archSkills  [numArchetypes][]string
	deptPick    []weighted // per industry
	execPick    []weighted
	senPick     [4]weighted
	patternPick weighted
	leads       map[string][]string
}

type nameRegion struct {
	male, female, lastM, lastF []personName
}

// personName is a name with its forms for addresses: slug for profile
// URLs ("van-der-berg"), mail for e-mail local parts ("berg": the last
// word, as address conventions and pattern inference use it).
type personName struct {
	disp, slug, mail string
}

func newPersonName(s string, last bool) personName {
	words := strings.Fields(foldName(s))
	p := personName{disp: s, slug: strings.Join(words, "-"), mail: strings.Join(words, "")}
	if last && len(words) > 0 {
		p.mail = words[len(words)-1]
	}
	return p
}

func personNames(ss []string) []personName {
	out := make([]personName, len(ss))
	for k, s := range ss {
		out[k] = newPersonName(s, false)
	}
	return out
}

type nameMix struct {
	regions []*nameRegion
	pick    weighted
}

var (
	contactTablesOnce sync.Once
	sharedContacts    *contactTables
)

func loadContactTables() *contactTables {
	contactTablesOnce.Do(func() { sharedContacts = buildContactTables(loadTables()) })
	return sharedContacts
}

const deptExecutive = 1 // index in record.Departments

func deptIndex(name string) int {
	for k, d := range record.Departments {
		if d == name {
			return k
		}
	}
	panic("demo: unknown department " + name)
}

func buildContactTables(t *tables) *contactTables {
	ct := &contactTables{byCode: map[string]*placeCountry{}, regions: map[string]*nameRegion{},
		mixes: map[string]*nameMix{}, indIdx: map[*industry]int{}, nicheSkills: map[*niche][]string{},
		leads: map[string][]string{}}
	for _, pc := range t.countries {
		ct.byCode[pc.code] = pc
	}
	for code, s := range nameSpecs {
		nr := &nameRegion{male: personNames(strings.Fields(s.male)), female: personNames(strings.Fields(s.female))}
		for _, l := range splitList(s.last) {
			m, f, ok := strings.Cut(l, "/")
			if !ok {
				f = m
			}
			nr.lastM = append(nr.lastM, newPersonName(m, true))
			nr.lastF = append(nr.lastF, newPersonName(f, true))
		}
		ct.regions[code] = nr
	}
	for key, spec := range nameMixes {
		ct.mixes[key] = ct.parseMix(spec)
	}
	// Countries without an entry: by primary language.
	for _, pc := range t.countries {
		if _, ok := ct.mixes[pc.code]; ok {
			continue
		}
		reg := "en"
		if r, ok := nameByLanguage[pc.langs[0]]; ok {
			reg = r
		}
		if pc.langs[0] == "fr" && europeanFrench[pc.code] {
			reg = "fr"
		}
		ct.mixes[pc.code] = ct.parseMix(reg + ":1")
	}

	// Titles and skills per industry.
	rows := map[string]*titleRow{}
	for k := range titleRows {
		rows[titleRows[k].dept+"/"+titleRows[k].variant] = &titleRows[k]
	}
	ct.titles = make([][15]*[7][]string, len(t.industries))
	ct.skills = make([][15][]string, len(t.industries))
	for a := range ct.archSkills {
		ct.archSkills[a] = splitList(archSkills[a])
	}
	tableCache := map[string]*[7][]string{}
	for ix, ind := range t.industries {
		ct.indIdx[ind] = ix
		tech, med, legal, other, ops := titleVariants(ind.label, ind.arch)
		for d, dept := range record.Departments {
			variant := ""
			switch dept {
			case "Technology":
				variant = tech
			case "Medical - Science":
				variant = med
			case "Legal":
				variant = legal
			case "Other":
				variant = other
			case "Operations":
				variant = ops
			}
			key := dept + "/" + variant
			tt, ok := tableCache[key]
			if !ok {
				tt = &[7][]string{}
				base := rows[dept+"/"]
				if base == nil {
					panic("demo: no titles for department " + dept)
				}
				for s := range tt {
					cell := base.titles[s]
					if v := rows[key]; v != nil && v.titles[s] != "" {
						cell = v.titles[s]
					}
					tt[s] = strings.Split(cell, ";")
				}
				tableCache[key] = tt
			}
			ct.titles[ix][d] = tt
			sk, ok := deptSkills[key]
			if !ok {
				sk = deptSkills[dept]
			}
			ct.skills[ix][d] = splitList(sk)
			if len(ct.skills[ix][d]) == 0 {
				panic("demo: no skills for department " + dept)
			}
		}
		for n := range ind.niches {
			nc := &ind.niches[n]
			ct.nicheSkills[nc] = skillCase(nc.terms)
		}
		ct.deptPick = append(ct.deptPick, deptWeights(ind, deptBase, 1))
		ct.execPick = append(ct.execPick, deptWeights(ind, execBase, 0.5))
	}
	for s := range ct.senPick {
		ct.senPick[s] = newWeighted(seniorityWeights[s][:])
	}
	w := make([]int, len(emailPatterns))
	for k, p := range emailPatterns {
		w[k] = p.w
	}
	ct.patternPick = newWeighted(w)
	for name, list := range map[string]string{"tiny": leadTiny, "company": leadCompany, "young": leadYoung, "md": leadMD,
		"partner": leadPartner, "nonprofit": leadNonprofit, "government": leadGovernment, "education": leadEducation} {
		ct.leads[name] = strings.Split(list, ";")
	}
	return ct
}

func (ct *contactTables) parseMix(spec string) *nameMix {
	m := &nameMix{}
	var w []int
	for _, f := range strings.Fields(spec) {
		code, n, _ := strings.Cut(f, ":")
		nr := ct.regions[code]
		if nr == nil {
			panic("demo: unknown naming region " + code)
		}
		m.regions = append(m.regions, nr)
		w = append(w, atoiSafe(n))
	}
	m.pick = newWeighted(w)
	return m
}

// mixFor returns the naming mix of a person's country and subdivision.
func (ct *contactTables) mixFor(pc *placeCountry, state string) *nameMix {
	if state != "" {
		if m, ok := ct.mixes[state]; ok {
			return m
		}
	}
	return ct.mixes[pc.code]
}

// deptWeights multiplies base weights by the archetype's and the
// industry's multipliers raised to the power exp.
func deptWeights(ind *industry, base [15]float64, exp float64) weighted {
	ws := base
	for _, key := range []string{"arch" + string(rune('0'+ind.arch)), ind.label} {
		// "Name:factor" pairs; names contain spaces, factors do not.
		spec := deptMult[key]
		for spec != "" {
			colon := strings.IndexByte(spec, ':')
			name := spec[:colon]
			rest := spec[colon+1:]
			end := strings.IndexByte(rest, ' ')
			num := rest
			if end >= 0 {
				num, spec = rest[:end], rest[end+1:]
			} else {
				spec = ""
			}
			ws[deptIndex(name)] *= math.Pow(parseFloat(num), exp)
		}
	}
	out := make([]int, len(ws))
	for k, x := range ws {
		out[k] = int(x*100 + 0.5)
	}
	return newWeighted(out)
}

func parseFloat(s string) float64 {
	v, frac, div := 0.0, false, 1.0
	for _, c := range s {
		switch {
		case c == '.':
			frac = true
		case c >= '0' && c <= '9':
			if frac {
				div *= 10
				v += float64(c-'0') / div
			} else {
				v = v*10 + float64(c-'0')
			}
		default:
			panic("demo: bad number " + s)
		}
	}
	return v
}

// skillCase capitalizes the words of vocabulary terms for use as skills
// ("recurring billing" -> "Recurring Billing"), leaving acronyms and
// small words alone.
func skillCase(terms []string) []string {
	small := map[string]bool{"and": true, "of": true, "for": true, "to": true, "with": true, "in": true, "on": true, "the": true, "a": true}
	out := make([]string, len(terms))
	for k, t := range terms {
		words := strings.Fields(t)
		for j, w := range words {
			if (j > 0 && small[w]) || w == "" || w[0] < 'a' || w[0] > 'z' {
				continue
			}
			words[j] = strings.ToUpper(w[:1]) + w[1:]
		}
		out[k] = strings.Join(words, " ")
	}
	return out
}

// contactRange is the number of contacts by size bucket.
var contactRange = [8][2]int{{1, 4}, {3, 9}, {6, 16}, {10, 24}, {14, 32}, {20, 48}, {28, 60}, {36, 64}}

func sizeClass(sizeIdx int) int {
	switch {
	case sizeIdx == 0:
		return 0
	case sizeIdx == 1:
		return 1
	case sizeIdx <= 4:
		return 2
	}
	return 3
}

// Per-seniority figures: mean tenure in years, years of experience
// (range), connection multipliers.
var (
	meanTenure = [7]float64{6, 4, 3.5, 3, 3, 2.5, 1.2}
	experience = [7][2]int{{15, 30}, {12, 25}, {10, 20}, {6, 15}, {5, 12}, {3, 7}, {1, 2}}
	senConn    = [7]float64{1.6, 1.6, 1.35, 1.15, 1, 0.8, 0.45}
	deptConn   = [15]float64{0.75, 1.3, 0.85, 1.7, 0.8, 0.9, 1.5, 0.55, 0.7, 0.8, 0.55, 1.3, 1.2, 1.1, 0.8}
)

type span struct{ a, b int32 }

func (s span) of(str string) string { return str[s.a:s.b] }

// draft is a contact under construction: strings are spans of the
// company's byte arena until the arena becomes one string.
type draft struct {
	first, last                               *personName
	name, email, phone, li, x, summary, start span
	title, country, state                     string
	dept, sen                                 int8
	validated                                 bool
	conns                                     int32
	sk0, sk1                                  int32
}

type contactScratch struct {
	buf    []byte
	drafts [MaxContactsPerCompany]draft
	skills []string
}

var scratchPool = sync.Pool{New: func() any {
	return &contactScratch{buf: make([]byte, 0, 16<<10), skills: make([]string, 0, 10*MaxContactsPerCompany)}
}}

// ContactCount is len(ContactsOf(i)) at a fraction of the cost.
func (g *Generator) ContactCount(i int) int {
	c := g.Company(i)
	r := newRNG(g.seed^contactSalt, i)
	return contactCount(&r, bucketIndex(c.Employees))
}

// contactCount is the first draw of a company's contact stream.
func contactCount(r *rng, sizeIdx int) int {
	cr := contactRange[sizeIdx]
	return cr[0] + r.intn(cr[1]-cr[0]+1)
}

// contactsOf generates the contacts of company i, c being Company(i).
func (g *Generator) contactsOf(i int, c *record.Company) []record.Contact {
	ct := loadContactTables()
	lr := newRNG(g.seed, i)
	ind, nc, _ := g.classify(&lr, i)
	ix := ct.indIdx[ind]
	r := newRNG(g.seed^contactSalt, i)
	home := ct.byCode[c.Address.Country]
	sizeIdx := bucketIndex(c.Employees)
	n := contactCount(&r, sizeIdx)
	sc := scratchPool.Get().(*contactScratch)
	defer scratchPool.Put(sc)
	sc.buf, sc.skills = sc.buf[:0], sc.skills[:0]

	startDay := parseDay(c.StartDate)
	lastDay := refDayNum - 1
	if c.EndDate != nil {
		lastDay = min(lastDay, parseDay(*c.EndDate)-1)
	}
	lastDay = max(lastDay, startDay+1)
	years := float64(refDayNum-startDay) / daysPerYear
	pattern := emailPatterns[g.patternIndex(i)].tpl
	perm := newPermuter(1<<slugBits, g.seed^slugSalt)
	nSkills := ct.nicheSkills[nc]
	compKind := pick(&r, ind.kinds)

	for k := 0; k < n; k++ {
		d := &sc.drafts[k]
		*d = draft{}

		// Where the person is.
		// The first person (founder, chief executive) nearly always works
		// at the head office.
		pc, state, place := home, c.Address.State, c.Address.City
		remote, moved := 0.9, 0.84
		if k == 0 {
			remote, moved = 0.99, 0.97
		}
		switch u := r.float(); {
		case u >= remote || pc == nil:
			pc = g.t.countries[g.t.countryPick.sample(r.next())]
			cty := pc.cities[pc.cityPick.sample(r.next())]
			state, place = cty.state, cty.name
		case u >= moved:
			cty := pc.cities[pc.cityPick.sample(r.next())]
			state, place = cty.state, cty.name
		}
		if place == "" {
			place = pc.name
		}
		d.country, d.state = pc.code, state

		// Name, distinct within the company.
		mix := ct.mixFor(pc, state)
		for try := 0; ; try++ {
			nr := mix.regions[mix.pick.sample(r.next())]
			j := r.intn(len(nr.lastM))
			if r.chance(0.5) {
				d.first, d.last = &nr.female[r.intn(len(nr.female))], &nr.lastF[j]
			} else {
				d.first, d.last = &nr.male[r.intn(len(nr.male))], &nr.lastM[j]
			}
			dup := false
			for p := 0; p < k && !dup; p++ {
				dup = sc.drafts[p].first.disp == d.first.disp && sc.drafts[p].last.disp == d.last.disp
			}
			if !dup || try >= 8 {
				break
			}
		}
		first, last := d.first.mail, d.last.mail
		d.name = sc.add2(d.first.disp, " ", d.last.disp)

		// Seniority, department and title.
		var sen, dept int
		if k == 0 {
			sen, dept = 0, deptExecutive
			d.title = g.leadTitle(&r, ct, ind.label, sizeIdx, years, c.Address.Country)
		} else {
			sen = ct.senPick[sizeClass(sizeIdx)].sample(r.next())
			if sen == 0 {
				dept = ct.execPick[ix].sample(r.next())
			} else {
				dept = ct.deptPick[ix].sample(r.next())
			}
			d.title = pick(&r, ct.titles[ix][dept][sen])
			if sen == 0 && !repeatableTitle(d.title) {
				for p := 0; p < k; p++ {
					if sc.drafts[p].sen == 0 && sameOffice(sc.drafts[p].title, d.title) {
						sen = 1
						d.title = pick(&r, ct.titles[ix][dept][sen])
						break
					}
				}
			}
		}
		d.sen, d.dept = int8(sen), int8(dept)

		// Skills: the department's, the archetype's and the niche's.
		d.sk0 = int32(len(sc.skills))
		want := 3 + r.intn(8)
		for try := 0; try < 4*want && int(int32(len(sc.skills))-d.sk0) < want; try++ {
			var s string
			switch u := r.float(); {
			case u >= domainShare[dept]:
				s = pick(&r, ct.skills[ix][dept])
			case u < domainShare[dept]/2:
				s = pick(&r, ct.archSkills[ind.arch])
			default:
				s = pick(&r, nSkills)
			}
			dup := false
			for _, x := range sc.skills[d.sk0:] {
				dup = dup || x == s
			}
			if !dup {
				sc.skills = append(sc.skills, s)
			}
		}
		d.sk1 = int32(len(sc.skills))

		// Job start: after the company's start, before the reference
		// date (and the company's end); unknown for some.
		if !r.chance(0.08) {
			lo, hi := startDay+1, lastDay
			var day int
			if k == 0 && (sizeIdx == 0 || years < 15 || strings.Contains(d.title, "Founder")) {
				day = lo + r.intn(min(90, hi-lo+1))
			} else {
				tenure := -math.Log(1-r.float()) * meanTenure[sen] * daysPerYear
				day = hi - int(tenure)
				if day < lo {
					day = lo + r.intn(hi-lo+1)
				}
			}
			a := len(sc.buf)
			sc.buf = appendDate(sc.buf, day)
			d.start = span{int32(a), int32(len(sc.buf))}
		}

		// E-mail on the company's pattern, distinct within the company.
		if r.chance(0.7) {
			a := len(sc.buf)
			sc.buf = appendLocal(sc.buf, pattern, first, last)
			local := sc.buf[a:]
			dup := len(local) == 0
			for p := 0; p < k && !dup; p++ {
				if e := sc.drafts[p].email; e.b > e.a {
					at := bytes.IndexByte(sc.buf[e.a:e.b], '@')
					dup = bytes.Equal(sc.buf[e.a:int(e.a)+at], local)
				}
			}
			if dup {
				sc.buf = sc.buf[:a]
			} else {
				sc.buf = append(sc.buf, '@')
				sc.buf = append(sc.buf, c.Domain...)
				d.email = span{int32(a), int32(len(sc.buf))}
				d.validated = r.chance(0.6)
			}
		}

		// Phone of the person's country.
		if r.chance(0.4) {
			kind := phoneFixed
			if r.chance(0.65) {
				kind = phoneMobile
			}
			a := len(sc.buf)
			sc.buf = pc.phones.appendNumber(sc.buf, &r, kind)
			d.phone = span{int32(a), int32(len(sc.buf))}
		}

		// Social profiles.
		if r.chance(0.85) {
			a := len(sc.buf)
			sc.buf = append(sc.buf, "https://www.linkedin.com/in/"...)
			sc.buf = append(sc.buf, d.first.slug...)
			sc.buf = append(sc.buf, '-')
			sc.buf = append(sc.buf, d.last.slug...)
			sc.buf = append(sc.buf, '-')
			sc.buf = appendBase36(sc.buf, perm.apply(uint64(PersonaID(i, k))))
			d.li = span{int32(a), int32(len(sc.buf))}
		}
		if r.chance(0.15) {
			a := len(sc.buf)
			sc.buf = append(sc.buf, "https://x.com/"...)
			h := len(sc.buf)
			// Handles have at most 15 characters.
			switch {
			case len(first)+len(last) <= 12:
				sc.buf = append(sc.buf, first...)
				if r.chance(0.3) {
					sc.buf = append(sc.buf, '_')
				}
				sc.buf = append(sc.buf, last...)
			case len(last) < 12:
				sc.buf = append(sc.buf, first[:min(1, len(first))]...)
				sc.buf = append(sc.buf, last...)
			default:
				sc.buf = append(sc.buf, last[:12]...)
			}
			if len(sc.buf)-h < 5 || r.chance(0.6) {
				sc.buf = appendInt(sc.buf, 1+r.intn(99))
			}
			d.x = span{int32(a), int32(len(sc.buf))}
		}

		// Connections: log-normal, median about 400, more for sales and seniors.
		x := 430 * deptConn[dept] * senConn[sen] * math.Exp(0.95*r.normal())
		if r.chance(0.04) {
			x = float64(r.intn(40))
		}
		d.conns = int32(min(x, 30000))

		// Summary.
		a := len(sc.buf)
		sx := summaryCtx{sc: sc, r: &r, d: d, company: c.Name, kind: compKind, niche: nc,
			country: home, place: place, city: c.Address.City, skills: sc.skills[d.sk0:d.sk1]}
		if k == 0 {
			sx.write(pick(&r, summaryLead))
		} else {
			sx.write(pick(&r, summaryOpeners[sen]))
		}
		if r.chance(0.65) {
			sx.sentence(pick(&r, summaryDetails))
		}
		if r.chance(0.3) {
			cl := r.intn(len(summaryClosers))
			if cl == 2 && (home == nil || place == home.name) {
				cl = 0
			}
			sx.sentence(summaryClosers[cl])
		}
		d.summary = span{int32(a), int32(len(sc.buf))}
	}

	// Materialize: one string for all texts, one slice for all skills,
	// one for all URLs and phones.
	all := string(sc.buf)
	out := make([]record.Contact, n)
	skills := append([]string(nil), sc.skills...)
	nURL, nPhone := 0, 0
	for k := 0; k < n; k++ {
		d := &sc.drafts[k]
		if d.li.b > d.li.a {
			nURL++
		}
		if d.x.b > d.x.a {
			nURL++
		}
		if d.phone.b > d.phone.a {
			nPhone++
		}
	}
	urls := make([]string, 0, nURL)
	phones := make([]string, 0, nPhone)
	industries := c.Industries()
	for k := range out {
		d := &sc.drafts[k]
		o := &out[k]
		*o = record.Contact{
			PersonaID: PersonaID(i, k), Domain: c.Domain, Name: d.name.of(all), Title: d.title,
			Department: record.Departments[d.dept], Seniority: record.Seniorities[d.sen],
			Email: d.email.of(all), EmailValidated: d.validated, Connections: int(d.conns),
			Country: d.country, State: d.state, JobStartDate: d.start.of(all), Summary: d.summary.of(all),
			CompanyName: c.Name, Industry: industries, Employees: c.Employees, RevenueRange: c.RevenueRange,
			CompanyCountry: c.Address.Country, CompanyState: c.Address.State,
		}
		if d.sk1 > d.sk0 {
			o.Skills = skills[d.sk0:d.sk1:d.sk1]
		}
		if d.phone.b > d.phone.a {
			phones = append(phones, d.phone.of(all))
			o.Phones = phones[len(phones)-1 : len(phones) : len(phones)]
		}
		u0 := len(urls)
		if d.li.b > d.li.a {
			urls = append(urls, d.li.of(all))
		}
		if d.x.b > d.x.a {
			urls = append(urls, d.x.of(all))
		}
		if len(urls) > u0 {
			o.SocialURLs = urls[u0:len(urls):len(urls)]
		}
	}
	return out
}

// add2 appends a+b+c to the arena and returns its span.
func (sc *contactScratch) add2(a, b, c string) span {
	s := len(sc.buf)
	sc.buf = append(sc.buf, a...)
	sc.buf = append(sc.buf, b...)
	sc.buf = append(sc.buf, c...)
	return span{int32(s), int32(len(sc.buf))}
}

// sameOffice reports whether two executive titles name the same office
// ("COO" and "Chief Operating Officer", "CEO" and "President & CEO").
func sameOffice(a, b string) bool {
	if a == b {
		return true
	}
	for acr, long := range cLevel {
		if strings.Contains(a, long) {
			a = strings.Replace(a, long, acr, 1)
		}
		if strings.Contains(b, long) {
			b = strings.Replace(b, long, acr, 1)
		}
	}
	for _, acr := range cLevelOrder {
		if containsWord(a, acr) && containsWord(b, acr) {
			return true
		}
	}
	return a == b
}

var (
	cLevel = map[string]string{"CEO": "Chief Executive Officer", "CTO": "Chief Technology Officer", "CFO": "Chief Financial Officer",
		"COO": "Chief Operating Officer", "CMO": "Chief Marketing Officer", "CIO": "Chief Information Officer",
		"CISO": "Chief Information Security Officer", "CHRO": "Chief Human Resources Officer"}
	cLevelOrder = []string{"CEO", "CTO", "CFO", "COO", "CMO", "CIO", "CISO", "CHRO", "President", "Managing Director"}
)

func containsWord(s, w string) bool {
	for i := strings.Index(s, w); i >= 0; {
		end := i + len(w)
		if (i == 0 || s[i-1] == ' ') && (end == len(s) || s[end] == ' ' || s[end] == ',') {
			return true
		}
		j := strings.Index(s[end:], w)
		if j < 0 {
			break
		}
		i = end + j
	}
	return false
}

// repeatableTitle reports executive titles several people can hold.
func repeatableTitle(t string) bool {
	switch t {
	case "Co-Founder", "Partner", "Senior Partner", "Equity Partner", "Founding Partner", "Board Member":
		return true
	}
	return false
}

// leadTitle is the title of a company's first contact: its founder,
// owner or chief executive.
func (g *Generator) leadTitle(r *rng, ct *contactTables, label string, sizeIdx int, years float64, country string) string {
	list := "company"
	switch {
	case label == "NONPROFIT":
		list = "nonprofit"
	case label == "GOVERNMENT":
		list = "government"
	case label == "EDUCATION" && sizeIdx > 0:
		list = "education"
	case (label == "LEGAL_SERVICES" || label == "CONSULTING" || label == "ARCHITECTURE_DESIGN") && r.chance(0.7):
		list = "partner"
	case sizeIdx == 0:
		list = "tiny"
	case years < 12 && r.chance(0.5):
		list = "young"
	case mdCountries[country] && r.chance(0.6):
		list = "md"
	}
	return pick(r, ct.leads[list])
}

// foldName folds a name to lower-case a-z words: accents are stripped
// ("Müller" -> "muller", "Łukasz" -> "lukasz"), hyphens and apostrophes
// dropped ("Jean-Baptiste" -> "jeanbaptiste", "O'Brien" -> "obrien").
func foldName(s string) string {
	// A transform.Chain keeps state between calls: one per call, since
	// generator workers fold names concurrently.
	s, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), s)
	if err != nil {
		panic("demo: cannot fold " + s)
	}
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z':
			b.WriteRune(r)
		case r == '-' || r == '\'':
		default:
			if f, ok := letterFolds[r]; ok {
				b.WriteString(f)
			} else {
				b.WriteByte(' ')
			}
		}
	}
	return b.String()
}

var (
	// letterFolds spell out the letters without a decomposition.
	letterFolds = map[rune]string{'ß': "ss", 'ø': "o", 'æ': "ae", 'ł': "l", 'đ': "d", 'ı': "i", 'œ': "oe", 'ð': "d", 'þ': "th"}
)

// appendLocal expands an e-mail template with folded names.
func appendLocal(b []byte, tpl string, first, last string) []byte {
	for k := 0; k < len(tpl); k++ {
		if tpl[k] != '{' {
			b = append(b, tpl[k])
			continue
		}
		end := k + strings.IndexByte(tpl[k:], '}')
		switch tpl[k+1 : end] {
		case "first":
			b = append(b, first...)
		case "last":
			b = append(b, last...)
		case "f":
			b = append(b, first[:min(1, len(first))]...)
		case "l":
			b = append(b, last[:min(1, len(last))]...)
		}
		k = end
	}
	return b
}

func appendBase36(b []byte, x uint64) []byte {
	var tmp [16]byte
	n := len(tmp)
	for {
		n--
		tmp[n] = "0123456789abcdefghijklmnopqrstuvwxyz"[x%36]
		x /= 36
		if x == 0 {
			break
		}
	}
	return append(b, tmp[n:]...)
}

func appendDate(b []byte, day int) []byte {
	y, m, d := civilFromDays(day)
	return append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10))
}

// parseDay reads a YYYY-MM-DD date as a day number.
func parseDay(s string) int {
	if len(s) != 10 {
		return refDayNum - 2
	}
	num := func(t string) int {
		n := 0
		for _, c := range t {
			n = n*10 + int(c-'0')
		}
		return n
	}
	return daysFromCivil(num(s[:4]), num(s[5:7]), num(s[8:]))
}

// appendNumber appends a phone number of the given line type (nothing
// when the region has none).
func (pb *phoneBook) appendNumber(b []byte, r *rng, kind int) []byte {
	pb.init()
	pl := &pb.lines[kind]
	if len(pl.prefixes) > 0 {
		b = append(b, pick(r, pl.prefixes)...)
		d := r.intn(1000)
		return append(b, byte('0'+d/100), byte('0'+d/10%10), byte('0'+d%10))
	}
	if len(pl.full) > 0 {
		return append(b, pick(r, pl.full)...)
	}
	return b
}

// summaryCtx fills summary templates.
type summaryCtx struct {
	sc      *contactScratch
	r       *rng
	d       *draft
	company string
	kind    string
	niche   *niche
	country *placeCountry
	place   string
	city    string
	skills  []string
	nextSk  int
}

func (x *summaryCtx) sentence(tpl string) {
	x.sc.buf = append(x.sc.buf, ' ')
	x.write(tpl)
}

func (x *summaryCtx) write(tpl string) {
	b := x.sc.buf
	for k := 0; k < len(tpl); k++ {
		c := tpl[k]
		if c != '{' || k+2 >= len(tpl) || tpl[k+2] != '}' {
			if c == '.' && len(b) > 0 && b[len(b)-1] == '.' {
				continue // "Acme Inc." ends the sentence
			}
			b = append(b, c)
			continue
		}
		switch tpl[k+1] {
		case 'T':
			b = append(b, x.d.title...)
		case 'C':
			b = append(b, x.company...)
		case 'K':
			b = appendArticle(b, x.kind)
		case 'D':
			b = append(b, x.niche.name...)
		case 'U':
			b = append(b, pick(x.r, x.niche.customers)...)
		case 'S':
			if len(x.skills) > 0 {
				s := x.skills[x.nextSk%len(x.skills)]
				x.nextSk++
				b = append(b, s...)
			}
		case 'Y':
			e := experience[x.d.sen]
			b = appendInt(b, e[0]+x.r.intn(e[1]-e[0]+1))
		case 'L':
			b = append(b, deptTeam[x.d.dept]...)
		case 'P':
			b = append(b, x.place...)
		case 'R':
			if x.country != nil {
				b = append(b, x.country.name...)
			}
		case 'H':
			b = append(b, x.city...)
		}
		k += 2
	}
	x.sc.buf = b
}

// appendArticle writes "a" or "an" and the noun phrase.
func appendArticle(b []byte, s string) []byte {
	an := false
	if s != "" {
		switch s[0] {
		case 'a', 'e', 'i', 'o', 'A', 'E', 'I', 'O':
			an = true
		case 'H', 'M', 'S', 'F', 'L', 'N', 'R', 'X':
			// Acronyms read letter by letter: "an HR", "an MSP".
			an = len(s) > 1 && s[1] >= 'A' && s[1] <= 'Z'
		}
	}
	if an {
		b = append(b, "an "...)
	} else {
		b = append(b, "a "...)
	}
	return append(b, s...)
}

// ContactSource reads the contacts of all companies in order as an ingest
// source; rows are 1-based.
type ContactSource struct {
	g   *Generator
	i   int
	buf []record.Contact
	j   int
	row int
}

// ContactSource returns a reader of every contact of the corpus.
func (g *Generator) ContactSource() *ContactSource { return &ContactSource{g: g} }

// Next returns the next contact and its row, io.EOF at the end.
func (s *ContactSource) Next() (record.Contact, int, error) {
	for s.j >= len(s.buf) {
		if s.i >= s.g.Len() {
			s.buf = nil
			return record.Contact{}, 0, io.EOF
		}
		s.buf, s.j = s.g.ContactsOf(s.i), 0
		s.i++
	}
	s.j++
	s.row++
	return s.buf[s.j-1], s.row, nil
}

// Close implements ingest.Source.
func (s *ContactSource) Close() error { return nil }
