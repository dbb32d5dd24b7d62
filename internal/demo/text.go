package demo

import (
	"strings"
)

// Texts are written from templates whose slots take vocabulary:
//
//	{N} a niche term        {I} an industry term     {G} a generic term
//	{C} a customer type     {K} what the company is  {A} an adjective
//	{D} the niche's name    {S} the short name       {T} the city
//	{R} the country         {Y} the founding year    {X} a call to action
//	{E} the first e-mail    {F} the full name
//
// Niche terms dominate (they make lookalikes of a niche close), industry
// terms come second and generic words add noise shared by everyone.
// Within one text a term is not repeated while unused ones remain.

type slotKind byte

type segment struct {
	lit  string
	slot slotKind // 0 for a literal
}

type template []segment

func compile(s string) template {
	var t template
	for s != "" {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			t = append(t, segment{lit: s})
			break
		}
		if i > 0 {
			t = append(t, segment{lit: s[:i]})
		}
		j := strings.IndexByte(s[i:], '}')
		if j != 2 {
			panic("demo: bad template slot in " + s)
		}
		t = append(t, segment{slot: slotKind(s[i+1])})
		s = s[i+3:]
	}
	return t
}

func compileAll(ss []string) []template {
	out := make([]template, len(ss))
	for i, s := range ss {
		out[i] = compile(s)
	}
	return out
}

// Description: an identity sentence, then one to three detail sentences.
var (
	descOpeners = compileAll([]string{
		"{S} is a {T}-based {K} specializing in {N} and {N}.",
		"Founded in {Y}, {S} is a {K} focused on {N} for {C}.",
		"{S} provides {N}, {N} and {N} to {C} across {R}.",
		"{S} helps {C} with {N} and {N}.",
		"{S} is an independent {K} offering {N} and {I}.",
		"Headquartered in {T}, {S} works on {N} for {C} and {C}.",
		"{S} is a {A} {K} in {T} known for {N} and {N}.",
		"{S} ({D}) serves {C} with {N}, {N} and {I}.",
	})
	descDetails = compileAll([]string{
		"Its services include {N}, {N} and {I}.",
		"The company works with {C}, {C} and {C}.",
		"Core capabilities span {N}, {I} and {N}.",
		"{S} is known for its {G} and expertise in {N}.",
		"The team combines {I} with {N} to deliver {G}.",
		"Its offering covers {N} and {N}.",
		"Clients rely on {S} for {N}, {I} and {G}.",
		"It also provides {N} and {N} for {C}.",
		"The firm puts {G} at the center of its {N} work.",
		"Recent work includes {N} for {C}.",
		"{S} operates in {R} and internationally.",
		"Specialties: {N}, {N}, {N}.",
	})
)

// Site text: a homepage, section by section.
var (
	siteHeroes = compileAll([]string{
		"{S} | {A} {N} for {C}. ",
		"{D} for {C} — {S}. ",
		"{S}: {N}, {N} and {N}. ",
		"Welcome to {S}. {A} {D} in {T}. ",
		"{N} that works for {C}. ",
		"{S} — {N} and {N}, done right. ",
	})
	siteIntros = compileAll([]string{
		"We help {C} get more from {N} and {N}. ",
		"Since {Y}, our team has delivered {N} and {I} to {C}. ",
		"{S} is your partner for {N}, {N} and {I}. ",
		"From {N} to {N}, we take care of {I} so you can focus on what matters. ",
		"Our {K} brings together {N}, {I} and {G}. ",
		"We are a {A} {K} serving {C} in {T} and beyond. ",
	})
	siteServices = compileAll([]string{
		"Our services: {N}, {N}, {N}, {N} and {N}. ",
		"What we offer — {N} · {N} · {N} · {N}. ",
		"Solutions: {N}, {N}, {N} and {I}. ",
		"Products and services: {N}; {N}; {N}; {N}. ",
		"We specialize in {N}, {N}, {N} and {N}. ",
	})
	siteWhy = compileAll([]string{
		"Why {S}? {G}, {G} and deep experience in {I}. ",
		"What sets us apart: {G}, {N} expertise and {G}. ",
		"Clients choose us for {G}, {I} and {G}. ",
		"Our promise: {G} and {G} on every project. ",
	})
	siteCustomers = compileAll([]string{
		"Trusted by {C}, {C} and {C} since {Y}. ",
		"Who we serve: {C}, {C} and {C}. ",
		"We work with {C} and {C} across {R}. ",
		"Built for {C}, {C} and {C}. ",
	})
	siteDetails = compileAll([]string{
		"Learn how our {N} helps {C} achieve {G}. ",
		"Ask about {N} and {N}. ",
		"Our {N} experts handle {N} and {I}. ",
		"New: {N} for {C}. ",
		"{N}, backed by {G}. ",
		"We also offer {N}, {N} and {I}. ",
		"Every engagement starts with {N} and a clear plan for {N}. ",
		"Read our latest guide to {N} and {N}. ",
		"Case study: how {C} improved {I} with {N}. ",
		"From {I} to {N}, one team handles it all. ",
		"Explore {N}, {N} and more. ",
		"Serving {T} and the surrounding area with {N} and {I}. ",
		"Our {I} and {N} meet the standards {C} expect. ",
		"FAQ: What does {N} include? It covers {N}, {N} and {I}. ",
		"Partnering with {C} on {N} since {Y}. ",
		"Discover why {C} choose {S} for {N}. ",
	})
	siteCTAs = compileAll([]string{
		"{X} — call us or email {E}. ",
		"{X} today. ",
		"Ready to talk about {N}? {X}. ",
		"{X}: {E}. ",
	})
	siteFooters = []string{
		"© 2026 {F}. All rights reserved.",
		"© 2026 {F} · Privacy Policy · Terms of Use",
		"Copyright 2026 {F}. Privacy · Cookies · Imprint",
		"© {F} 2026. Sitemap · Accessibility · Privacy",
	}
	siteFooterTemplates = compileAll(siteFooters)
)

// termPicker draws distinct indices from a list until it runs out.
type termPicker struct {
	used  [2]uint64
	order [24]uint8
	n     int
}

func (p *termPicker) pick(r *rng, size int) int {
	k := r.intn(size)
	if size > 128 {
		return k
	}
	for try := 0; p.isUsed(k); try++ {
		if try == 4 {
			// Few left: take the next unused one, or start over when
			// the list is exhausted.
			k = p.nextUnused(k, size)
			break
		}
		k = r.intn(size)
	}
	p.used[k>>6] |= 1 << (k & 63)
	if p.n < len(p.order) {
		p.order[p.n] = uint8(k)
		p.n++
	}
	return k
}

func (p *termPicker) isUsed(k int) bool { return p.used[k>>6]&(1<<(k&63)) != 0 }

func (p *termPicker) nextUnused(from, size int) int {
	for j := 1; j <= size; j++ {
		if k := (from + j) % size; !p.isUsed(k) {
			return k
		}
	}
	p.used = [2]uint64{}
	return from
}

// textCtx is everything the templates can refer to.
type textCtx struct {
	r        *rng
	ind      *industry
	nc       *niche
	short    string
	full     string
	city     string
	country  string
	year     int
	email    string
	cta      string
	nPick    termPicker
	iPick    termPicker
	gPick    termPicker
	cPick    termPicker
	capFirst bool
	pendingA bool
}

func (x *textCtx) write(b *strings.Builder, t template) {
	x.capFirst = true
	for _, s := range t {
		if s.slot == 0 {
			lit := s.lit
			// "Inc." before ". All rights reserved" must not give "..".
			if lit[0] == '.' && b.Len() > 0 && lastByte(b) == '.' {
				lit = lit[1:]
			}
			// "a" before a slot waits for the slot: "a clinic", "an agency".
			x.pendingA = strings.HasSuffix(lit, " a ")
			if x.pendingA {
				lit = lit[:len(lit)-2]
			}
			b.WriteString(lit)
			// A slot right after a sentence end starts a sentence.
			n := len(lit)
			x.capFirst = n >= 2 && lit[n-1] == ' ' && strings.IndexByte(".?!", lit[n-2]) >= 0
			continue
		}
		var v string
		switch s.slot {
		case 'N':
			v = x.nc.terms[x.nPick.pick(x.r, len(x.nc.terms))]
		case 'I':
			v = x.ind.terms[x.iPick.pick(x.r, len(x.ind.terms))]
		case 'G':
			v = genericTerms[x.gPick.pick(x.r, len(genericTerms))]
		case 'C':
			v = x.nc.customers[x.cPick.pick(x.r, len(x.nc.customers))]
		case 'K':
			v = pick(x.r, x.ind.kinds)
		case 'A':
			v = pick(x.r, adjectives)
		case 'D':
			v = x.nc.name
		case 'S':
			v = x.short
		case 'F':
			v = x.full
		case 'T':
			v = x.city
		case 'R':
			v = x.country
		case 'Y':
			var buf [4]byte
			v = string(appendInt(buf[:0], x.year))
		case 'X':
			v = x.cta
		case 'E':
			v = x.email
		}
		if x.pendingA {
			if startsWithVowelSound(v) {
				b.WriteString("an ")
			} else {
				b.WriteString("a ")
			}
			x.pendingA = false
		}
		if x.capFirst && v != "" && v[0] >= 'a' && v[0] <= 'z' {
			b.WriteByte(v[0] - 'a' + 'A')
			b.WriteString(v[1:])
		} else {
			b.WriteString(v)
		}
		x.capFirst = false
	}
}

// description writes two to four sentences.
func (x *textCtx) description() string {
	var b strings.Builder
	b.Grow(420)
	x.write(&b, pick(x.r, descOpeners))
	n := 1 + x.r.intn(3)
	first := x.r.intn(len(descDetails))
	for k := 0; k < n; k++ {
		b.WriteByte(' ')
		// Consecutive templates never repeat within one description.
		x.write(&b, descDetails[(first+k*5)%len(descDetails)])
	}
	return b.String()
}

// siteText writes homepage text of roughly 600-1200 characters.
func (x *textCtx) siteText() string {
	var b strings.Builder
	b.Grow(1300)
	target := 600 + x.r.intn(450)
	x.write(&b, pick(x.r, siteHeroes))
	x.write(&b, pick(x.r, siteIntros))
	x.write(&b, pick(x.r, siteServices))
	if x.r.chance(0.7) {
		x.write(&b, pick(x.r, siteWhy))
	}
	x.write(&b, pick(x.r, siteCustomers))
	first := x.r.intn(len(siteDetails))
	for k := 0; b.Len() < target && k < len(siteDetails); k++ {
		x.write(&b, siteDetails[(first+k*7)%len(siteDetails)])
	}
	x.write(&b, pick(x.r, siteCTAs))
	x.write(&b, pick(x.r, siteFooterTemplates))
	return b.String()
}

// keywords returns 5-12 keyword phrases with confidences, niche terms
// used in the texts first.
func (x *textCtx) keywords() map[string]float64 {
	n := 5 + x.r.intn(8)
	out := make(map[string]float64, n)
	conf := 0.9 + 0.09*x.r.float()
	add := func(k string) {
		if _, dup := out[k]; dup || len(out) >= n {
			return
		}
		out[k] = round2(conf)
		conf = max(0.3, conf-0.03-0.05*x.r.float())
	}
	nn := (n*2 + 2) / 3
	for k := 0; k < x.nPick.n && len(out) < nn; k++ {
		add(x.nc.termsLow[x.nPick.order[k]])
	}
	for k := 0; k < x.iPick.n && len(out) < n; k++ {
		add(x.ind.termsLow[x.iPick.order[k]])
	}
	for tries := 0; len(out) < n && tries < 40; tries++ {
		add(x.nc.termsLow[x.r.intn(len(x.nc.termsLow))])
	}
	return out
}

func round2(v float64) float64 {
	return float64(int(v*100+0.5)) / 100
}

func lastByte(b *strings.Builder) byte {
	s := b.String()
	return s[len(s)-1]
}

// startsWithVowelSound is the a/an rule for the words the templates use.
func startsWithVowelSound(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] | 0x20 {
	case 'a', 'e', 'i', 'o':
		return true
	case 'u':
		return !strings.HasPrefix(s, "uni") && !strings.HasPrefix(s, "use") && !strings.HasPrefix(s, "uti")
	}
	return false
}
