// Package namematchtest generates labelled name-matching queries from the
// demo corpus: a company's name perturbed the way lists spell companies
// (legal forms added, dropped or changed, typos, abbreviations, dropped
// words, case, punctuation, accents, word order) with some of its address
// and phone as evidence. Calibration, tests and benchmarks share it.
package namematchtest

import (
	"math/rand/v2"
	"strings"
	"unicode"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/geo"
)

// Labelled is a query with the domain it should match; Want is empty for a
// company that is not in the index (any match is wrong).
type Labelled struct {
	Query namematch.Query
	Want  string
}

// Corpus is the first n companies of a demo corpus as scan keys.
func Corpus(g *demo.Generator, n int) []index.CompanyKey {
	out := make([]index.CompanyKey, n)
	parallel(n, func(i int) { out[i] = Key(g.Company(i)) })
	return out
}

// Key is a company's scan key.
func Key(c record.Company) index.CompanyKey {
	return index.CompanyKey{Domain: c.Domain, Name: c.Name, Country: c.Address.Country, State: c.Address.State,
		City: c.Address.City, Zip: c.Address.Zip, Phones: c.Phones, Score: c.Score, Closed: c.Closed()}
}

// Queries draws n labelled queries: a share absent of companies the
// index does not hold (demo indices at or past indexed; g must be built
// with room for them), the rest from the indexed ones.
func Queries(g *demo.Generator, indexed, n int, absent float64, seed uint64) []Labelled {
	r := rand.New(rand.NewPCG(seed, 0x6e616d65))
	ids := make([]int, n)
	in := make([]bool, n)
	for k := range ids {
		if r.Float64() < absent && g.Len() > indexed {
			ids[k] = indexed + r.IntN(g.Len()-indexed)
		} else {
			ids[k] = r.IntN(indexed)
			in[k] = true
		}
	}
	seeds := make([]uint64, n)
	for k := range seeds {
		seeds[k] = r.Uint64()
	}
	out := make([]Labelled, n)
	parallel(n, func(k int) {
		c := g.Company(ids[k])
		out[k].Query = Perturb(c, rand.New(rand.NewPCG(seeds[k], 1)))
		if in[k] {
			out[k].Want = c.Domain
		}
	})
	return out
}

var legalForms = []string{"Inc", "Inc.", "LLC", "L.L.C.", "Ltd", "Ltd.", "Limited", "Corp", "Corp.", "Corporation", "Co.", "PLC",
	"GmbH", "AG", "GmbH & Co. KG", "S.A.", "SA", "SAS", "SARL", "S.à r.l.", "S.p.A.", "S.r.l.", "B.V.", "N.V.", "AB", "Oy", "A/S", "AS",
	"Pty Ltd", "Pty. Ltd.", "K.K.", "S.L.", "S.A. de C.V.", "Ltda.", "sp. z o.o.", "s.r.o.", "Co., Ltd.", "Pte. Ltd.", "Sdn. Bhd.", "LLP"}

var abbrev = map[string][]string{
	"international": {"Intl", "Int'l", "Intl."}, "technologies": {"Tech", "Techs", "Technology"}, "technology": {"Tech"},
	"manufacturing": {"Mfg", "Mfg."}, "services": {"Svcs", "Service", "Svcs."}, "corporation": {"Corp", "Corp."},
	"company": {"Co", "Co."}, "and": {"&"}, "&": {"and", "And", "+"}, "associates": {"Assoc.", "Assocs"},
	"brothers": {"Bros", "Bros."}, "laboratories": {"Labs", "Lab"}, "systems": {"Sys", "System"}, "solutions": {"Solution"},
	"management": {"Mgmt"}, "engineering": {"Eng", "Engg"}, "partners": {"Partner", "Ptnrs"}, "group": {"Grp"},
	"holdings": {"Hldgs", "Holding"}, "industries": {"Inds", "Industry"}, "consulting": {"Consultants"},
	"center": {"Centre", "Ctr"}, "centre": {"Center"}, "development": {"Dev"}, "national": {"Natl"},
}

// Perturb spells company c as a list might: one to three perturbations and
// a random share of its evidence.
func Perturb(c record.Company, r *rand.Rand) namematch.Query {
	words := strings.Fields(c.Name)
	for n := r.IntN(4); n > 0; n-- {
		words = perturbOnce(words, r)
	}
	if len(words) == 0 {
		words = strings.Fields(c.Name)
	}
	q := namematch.Query{Name: strings.Join(words, " ")}
	a := c.Address
	if r.Float64() < 0.5 && a.Country != "" {
		q.Country = a.Country
		if r.Float64() < 0.5 {
			if ct, ok := geo.LookupCountry(a.Country); ok {
				q.Country = ct.Name
			}
		}
	}
	if r.Float64() < 0.3 {
		q.City = a.City
		if r.Float64() < 0.3 {
			q.City = strings.ToUpper(stripAccents(q.City))
		}
	}
	if r.Float64() < 0.2 && a.State != "" {
		q.State = a.State
		if i := strings.IndexByte(a.State, '-'); i > 0 && r.Float64() < 0.5 {
			q.State = a.State[i+1:]
		}
	}
	if r.Float64() < 0.2 {
		q.Zip = a.Zip
	}
	if r.Float64() < 0.2 && len(c.Phones) > 0 {
		q.Phone = national(c.Phones[0])
	}
	return q
}

func perturbOnce(w []string, r *rand.Rand) []string {
	w = append([]string(nil), w...)
	switch r.IntN(11) {
	case 0, 1: // legal form: add, drop or change
		if n := len(w); n > 1 && isLegal(w[n-1]) {
			if r.Float64() < 0.5 {
				return w[:n-1]
			}
			w[n-1] = legalForms[r.IntN(len(legalForms))]
			return w
		}
		return append(w, legalForms[r.IntN(len(legalForms))])
	case 2, 3: // typo: one or two edits in a word of four letters or more
		var long []int
		for i, x := range w {
			if len([]rune(x)) >= 4 {
				long = append(long, i)
			}
		}
		if len(long) > 0 {
			i := long[r.IntN(len(long))]
			w[i] = typo(w[i], r)
			if r.Float64() < 0.3 {
				w[i] = typo(w[i], r)
			}
		}
	case 4: // abbreviation
		for i, x := range w {
			if v, ok := abbrev[strings.ToLower(strings.Trim(x, ".,"))]; ok {
				w[i] = v[r.IntN(len(v))]
				return w
			}
		}
	case 5: // dropped word (not the first, nor a lone word)
		if len(w) >= 3 || len(w) == 2 && r.Float64() < 0.3 {
			i := 1 + r.IntN(len(w)-1)
			return append(w[:i], w[i+1:]...)
		}
	case 6: // case
		for i := range w {
			if r.Float64() < 0.5 {
				w[i] = strings.ToUpper(w[i])
			} else {
				w[i] = strings.ToLower(w[i])
			}
		}
	case 7: // punctuation
		switch i := r.IntN(len(w)); r.IntN(3) {
		case 0:
			w[i] += ","
		case 1:
			if i+1 < len(w) {
				w[i] += "-" + w[i+1]
				w = append(w[:i+1], w[i+2:]...)
			}
		default:
			w[i] = "\"" + w[i] + "\""
		}
	case 8: // accents added or removed
		i := r.IntN(len(w))
		if stripAccents(w[i]) != w[i] {
			w[i] = stripAccents(w[i])
		} else {
			w[i] = accent(w[i], r)
		}
	case 9: // word order
		if len(w) >= 2 {
			i := r.IntN(len(w) - 1)
			w[i], w[i+1] = w[i+1], w[i]
		}
	case 10: // split or join words
		i := r.IntN(len(w))
		if i+1 < len(w) && r.Float64() < 0.5 {
			w[i] += w[i+1]
			w = append(w[:i+1], w[i+2:]...)
		} else if rs := []rune(w[i]); len(rs) >= 8 {
			k := 3 + r.IntN(len(rs)-5)
			w = append(w[:i], append([]string{string(rs[:k]), string(rs[k:])}, w[i+1:]...)...)
		}
	}
	return w
}

func isLegal(s string) bool {
	n := namematch.Normalize("Zzyzx " + s)
	return len(n.Tokens) == 1
}

func typo(s string, r *rand.Rand) string {
	rs := []rune(s)
	if len(rs) < 3 {
		return s
	}
	i := 1 + r.IntN(len(rs)-1)
	c := rune('a' + r.IntN(26))
	switch r.IntN(4) {
	case 0:
		rs[i] = c
	case 1:
		rs = append(rs[:i], rs[i+1:]...)
	case 2:
		rs = append(rs[:i], append([]rune{c}, rs[i:]...)...)
	default:
		if i+1 < len(rs) {
			rs[i], rs[i+1] = rs[i+1], rs[i]
		}
	}
	return string(rs)
}

var accents = map[rune][]rune{'a': {'á', 'à', 'ä', 'â'}, 'e': {'é', 'è', 'ë', 'ê'}, 'i': {'í', 'ï'}, 'o': {'ó', 'ö', 'ô'}, 'u': {'ú', 'ü'}, 'n': {'ñ'}, 'c': {'ç'}}

func accent(s string, r *rand.Rand) string {
	rs := []rune(s)
	for k := 0; k < 4; k++ {
		i := r.IntN(len(rs))
		if v, ok := accents[rs[i]]; ok {
			rs[i] = v[r.IntN(len(v))]
			break
		}
	}
	return string(rs)
}

func stripAccents(s string) string {
	return namematch.FoldAccents(s)
}

// national writes an E.164 number without its country code, grouped.
func national(e164 string) string {
	d := strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return r
		}
		return -1
	}, e164)
	if len(d) > 9 {
		d = d[len(d)-9:]
	}
	if len(d) > 6 {
		return "(" + d[:3] + ") " + d[3:6] + "-" + d[6:]
	}
	return d
}

func parallel(n int, f func(i int)) {
	const workers = 8
	done := make(chan struct{})
	for w := 0; w < workers; w++ {
		go func(w int) {
			for i := w; i < n; i += workers {
				f(i)
			}
			done <- struct{}{}
		}(w)
	}
	for w := 0; w < workers; w++ {
		<-done
	}
}
