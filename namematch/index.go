package namematch

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/openprospect/prospectd/index"
)

// Index is the in-memory candidate index over every indexed company: each
// company's normalized name and evidence (country, state, city, zip,
// phones, score) in flat arrays, token postings with IDF weights and
// character-trigram postings of the compact name. It is read-only once
// built and safe for concurrent use.
type Index struct {
	n       int
	domains []string

	tokOff   []uint32 // tokens of doc i: tokData[tokOff[i]:tokOff[i+1]]
	tokData  []uint32
	compOff  []uint32 // compact name of doc i: compData[compOff[i]:compOff[i+1]]
	compData []byte

	country []uint16 // two ASCII letters packed; 0 unknown
	state   []uint32 // id in strs (upper-case ISO 3166-2); 0 unknown
	city    []uint32 // id in strs (folded); 0 unknown
	zip     []uint32 // id in strs (upper-case alphanumerics); 0 unknown
	phone   [][2]uint32
	score   []int16
	closed  []bool

	vocab   map[string]uint32
	tokStr  []string
	idf     []float32
	tokPost [][]uint32
	triPost map[uint32][]uint32

	strIDs map[string]uint32
	strs   []string

	matchers sync.Pool // *Matcher, for MatchOne
}

// Len is the number of companies indexed.
func (x *Index) Len() int { return x.n }

// Build reads every company of the engine through its scan capability.
// Closed companies are indexed too (a list may name a closed company); the
// scorer ranks them a little lower.
func Build(ctx context.Context, sc index.CompanyScanner) (*Index, error) {
	b := newBuilder()
	if err := sc.ScanCompanies(ctx, func(k index.CompanyKey) error {
		b.add(k)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("build name index: %w", err)
	}
	return b.finish(), nil
}

// BuildFrom indexes the given companies (tests, calibration).
func BuildFrom(keys []index.CompanyKey) *Index {
	b := newBuilder()
	for _, k := range keys {
		b.add(k)
	}
	return b.finish()
}

type builder struct{ x *Index }

func newBuilder() *builder {
	x := &Index{
		vocab: map[string]uint32{}, triPost: map[uint32][]uint32{},
		strIDs: map[string]uint32{"": 0}, strs: []string{""},
		tokOff: []uint32{0}, compOff: []uint32{0},
	}
	return &builder{x: x}
}

func (x *Index) intern(s string) uint32 {
	if id, ok := x.strIDs[s]; ok {
		return id
	}
	id := uint32(len(x.strs))
	x.strIDs[s] = id
	x.strs = append(x.strs, s)
	return id
}

func (b *builder) add(k index.CompanyKey) {
	x := b.x
	doc := uint32(x.n)
	x.n++
	x.domains = append(x.domains, k.Domain)
	nm := Normalize(k.Name)
	seen := map[uint32]bool{}
	for _, t := range nm.Tokens {
		id, ok := x.vocab[t]
		if !ok {
			id = uint32(len(x.tokStr))
			x.vocab[t] = id
			x.tokStr = append(x.tokStr, t)
			x.tokPost = append(x.tokPost, nil)
		}
		x.tokData = append(x.tokData, id)
		if !seen[id] {
			seen[id] = true
			x.tokPost[id] = append(x.tokPost[id], doc)
		}
	}
	x.tokOff = append(x.tokOff, uint32(len(x.tokData)))
	x.compData = append(x.compData, nm.Compact...)
	x.compOff = append(x.compOff, uint32(len(x.compData)))
	grams := trigrams(nm.Compact, nil)
	for i, g := range grams {
		dup := false
		for _, h := range grams[:i] {
			if h == g {
				dup = true
				break
			}
		}
		if !dup {
			x.triPost[g] = append(x.triPost[g], doc)
		}
	}
	x.country = append(x.country, packCountry(k.Country))
	st := uint32(0)
	if k.State != "" {
		st = x.intern(strings.ToUpper(k.State))
	}
	x.state = append(x.state, st)
	x.city = append(x.city, x.intern(foldPlace(k.City)))
	x.zip = append(x.zip, x.intern(normZip(k.Zip)))
	var ph [2]uint32
	for i, p := range k.Phones {
		if i == 2 {
			break
		}
		ph[i] = phoneKey(p)
	}
	x.phone = append(x.phone, ph)
	x.score = append(x.score, int16(min(max(k.Score, 0), math.MaxInt16)))
	x.closed = append(x.closed, k.Closed)
}

func (b *builder) finish() *Index {
	x := b.x
	x.idf = make([]float32, len(x.tokStr))
	for i, p := range x.tokPost {
		x.idf[i] = float32(math.Log(float64(x.n+1) / float64(len(p)+1)))
	}
	return x
}

func (x *Index) tokens(doc uint32) []uint32 { return x.tokData[x.tokOff[doc]:x.tokOff[doc+1]] }

func (x *Index) compact(doc uint32) string {
	return string(x.compData[x.compOff[doc]:x.compOff[doc+1]])
}

// maxIDF is the weight of a word no company has.
func (x *Index) maxIDF() float32 { return float32(math.Log(float64(x.n + 1))) }

// trigrams appends the character trigrams of "^s$" (boundary-marked) as
// packed keys.
func trigrams(s string, dst []uint32) []uint32 {
	rs := make([]rune, 0, len(s)+2)
	rs = append(rs, '^')
	rs = append(rs, []rune(s)...)
	rs = append(rs, '$')
	for i := 0; i+3 <= len(rs); i++ {
		dst = append(dst, gramKey(rs[i], rs[i+1], rs[i+2]))
	}
	return dst
}

func gramKey(a, b, c rune) uint32 {
	if a < 128 && b < 128 && c < 128 {
		return uint32(a)<<16 | uint32(b)<<8 | uint32(c)
	}
	h := uint32(2166136261)
	for _, r := range [3]rune{a, b, c} {
		h = (h ^ uint32(r)) * 16777619
	}
	return h | 1<<31
}

func packCountry(c string) uint16 {
	if len(c) != 2 {
		return 0
	}
	c = strings.ToUpper(c)
	return uint16(c[0])<<8 | uint16(c[1])
}

// foldPlace folds a city name: "Saint-Étienne" and "saint etienne" meet.
func foldPlace(s string) string { return strings.Join(strings.Fields(fold(s)), " ") }

// normZip keeps a postal code's letters and digits, upper-cased.
func normZip(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9', r >= 'A' && r <= 'Z':
			b.WriteRune(r)
		case r >= 'a' && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
		}
	}
	return b.String()
}

// phoneKey is the last 8 digits of a phone number (national and
// international spellings of one number agree on them); 0 when it has
// fewer than 6 digits.
func phoneKey(s string) uint32 {
	var d []byte
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			d = append(d, s[i])
		}
	}
	if len(d) < 6 {
		return 0
	}
	if len(d) > 8 {
		d = d[len(d)-8:]
	}
	v := uint32(1) // a leading 1 keeps "0123456" and "123456" apart
	for _, c := range d {
		v = v*10 + uint32(c-'0')
	}
	return v
}
