package namematch

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/openprospect/prospectd/index"
)

// Index is the in-memory candidate index over every indexed company: each
// company's domain, normalized name and evidence (country, state, city,
// zip, phones, score) in flat arrays, token postings with IDF weights and
// character-trigram postings of the compact name. Variable-length data
// (domains, names, postings, interned strings) lives in a few flat arrays
// addressed by offsets (CSR), not in one Go string or slice per company,
// token or trigram: the index costs about 150 bytes a company instead of
// 220 and the collector has almost no pointers to trace in it. It is
// read-only once built and safe for concurrent use.
type Index struct {
	n int

	domOff  []uint32 // domain of doc i: domData[domOff[i]:domOff[i+1]]
	domData []byte

	tokOff   []uint32 // tokens of doc i: tokData[tokOff[i]:tokOff[i+1]]
	tokData  []uint32
	compOff  []uint32 // compact name of doc i: compData[compOff[i]:compOff[i+1]]
	compData []byte

	country []uint16 // two ASCII letters packed; 0 unknown
	state   []uint32 // id of an interned string (upper-case ISO 3166-2); 0 unknown
	city    []uint32 // id of an interned string (folded); 0 unknown
	zip     []uint32 // id of an interned string (upper-case alphanumerics); 0 unknown
	phone   [][2]uint32
	score   []int16
	closed  []bool

	vocab   map[string]uint32
	tokStr  []string
	idf     []float32
	tokPost postings // docs with token t: list t

	gramKeys []uint32 // trigram keys, ascending
	gramList []uint32 // postings list of gramKeys[i]
	gramPost postings // docs with a trigram

	strOff    []uint32 // interned string i: strData[strOff[i]:strOff[i+1]]; 0 is ""
	strData   []byte
	strSorted []uint32 // interned string ids in string order, for lookups

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

// builder appends companies to an index; finish builds the postings and
// trims every array to its length.
type builder struct {
	x      *Index
	strIDs map[string]uint32 // interned strings, build only
}

func newBuilder() *builder {
	x := &Index{
		vocab:  map[string]uint32{},
		strOff: []uint32{0, 0},
		domOff: []uint32{0}, tokOff: []uint32{0}, compOff: []uint32{0},
	}
	return &builder{x: x, strIDs: map[string]uint32{"": 0}}
}

func (b *builder) intern(s string) uint32 {
	if id, ok := b.strIDs[s]; ok {
		return id
	}
	x := b.x
	id := uint32(len(x.strOff) - 1)
	x.strData = append(x.strData, s...)
	x.strOff = append(x.strOff, uint32(len(x.strData)))
	b.strIDs[s] = id
	return id
}

func (b *builder) add(k index.CompanyKey) {
	x := b.x
	x.n++
	x.domData = append(x.domData, k.Domain...)
	x.domOff = append(x.domOff, uint32(len(x.domData)))
	nm := Normalize(k.Name)
	for _, t := range nm.Tokens {
		id, ok := x.vocab[t]
		if !ok {
			id = uint32(len(x.tokStr))
			x.vocab[t] = id
			x.tokStr = append(x.tokStr, t)
		}
		x.tokData = append(x.tokData, id)
	}
	x.tokOff = append(x.tokOff, uint32(len(x.tokData)))
	x.compData = append(x.compData, nm.Compact...)
	x.compOff = append(x.compOff, uint32(len(x.compData)))
	x.country = append(x.country, packCountry(k.Country))
	st := uint32(0)
	if k.State != "" {
		st = b.intern(strings.ToUpper(k.State))
	}
	x.state = append(x.state, st)
	x.city = append(x.city, b.intern(foldPlace(k.City)))
	x.zip = append(x.zip, b.intern(normZip(k.Zip)))
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

// finish builds the token and trigram postings from the per-company
// arrays (each company's distinct tokens and trigrams, in company order),
// the IDF weights and the interned strings' lookup order, and trims every
// array to its length so the build's growth slack is garbage.
func (b *builder) finish() *Index {
	x := b.x
	// Token postings: each company's distinct tokens, counted then put.
	tb := newPostingsBuilder(len(x.tokStr))
	eachToken := func(f func(t, doc uint32)) {
		for doc := range uint32(x.n) {
			ts := x.tokens(doc)
			for i, t := range ts {
				if !slices.Contains(ts[:i], t) {
					f(t, doc)
				}
			}
		}
	}
	eachToken(tb.count)
	tb.layout()
	eachToken(tb.put)
	x.tokPost = tb.finish()
	// Trigram postings: the same over each compact name's distinct
	// trigrams, numbered in order of first occurrence while counting; the
	// keys are then sorted with their list numbers for binary search.
	var grams []uint32
	ids := map[uint32]uint32{}
	gb := newPostingsBuilder(0)
	eachGram := func(f func(g, doc uint32)) {
		for doc := range uint32(x.n) {
			grams = distinctGrams(x.compactBytes(doc), grams[:0])
			for _, g := range grams {
				f(g, doc)
			}
		}
	}
	eachGram(func(g, doc uint32) {
		id, ok := ids[g]
		if !ok {
			id = uint32(len(ids))
			ids[g] = id
			gb.grow()
		}
		gb.count(id, doc)
	})
	x.gramKeys = make([]uint32, 0, len(ids))
	for g := range ids {
		x.gramKeys = append(x.gramKeys, g)
	}
	slices.Sort(x.gramKeys)
	x.gramList = make([]uint32, len(x.gramKeys))
	for i, g := range x.gramKeys {
		x.gramList[i] = ids[g]
	}
	gb.layout()
	eachGram(func(g, doc uint32) { gb.put(ids[g], doc) })
	x.gramPost = gb.finish()
	x.idf = make([]float32, len(x.tokStr))
	for t := range x.tokStr {
		df := x.tokPost.df[t]
		x.idf[t] = float32(math.Log(float64(x.n+1) / float64(df+1)))
	}
	x.strSorted = make([]uint32, len(x.strOff)-1)
	for i := range x.strSorted {
		x.strSorted[i] = uint32(i)
	}
	slices.SortFunc(x.strSorted, func(a, b uint32) int { return strings.Compare(x.str(a), x.str(b)) })
	b.strIDs = nil
	x.domOff, x.domData = exact(x.domOff), exact(x.domData)
	x.tokOff, x.tokData = exact(x.tokOff), exact(x.tokData)
	x.compOff, x.compData = exact(x.compOff), exact(x.compData)
	x.country, x.state, x.city, x.zip = exact(x.country), exact(x.state), exact(x.city), exact(x.zip)
	x.phone, x.score, x.closed = exact(x.phone), exact(x.score), exact(x.closed)
	x.tokStr = exact(x.tokStr)
	x.strOff, x.strData = exact(x.strOff), exact(x.strData)
	return x
}

// exact returns s in an array of its length (a copy when append left
// spare capacity).
func exact[S ~[]E, E any](s S) S {
	if cap(s) == len(s) {
		return s
	}
	return append(make(S, 0, len(s)), s...)
}

// distinctGrams appends the distinct trigrams of compact name s, in the
// order of their first occurrence.
func distinctGrams(s []byte, dst []uint32) []uint32 {
	start := len(dst)
	dst = trigrams(string(s), dst)
	out := dst[:start]
	for i, g := range dst[start:] {
		if !slices.Contains(dst[start:start+i], g) {
			out = append(out, g)
		}
	}
	return out
}

// domain is the domain of doc.
func (x *Index) domain(doc uint32) string { return string(x.domainBytes(doc)) }

func (x *Index) domainBytes(doc uint32) []byte { return x.domData[x.domOff[doc]:x.domOff[doc+1]] }

// str is interned string id.
func (x *Index) str(id uint32) string { return string(x.strData[x.strOff[id]:x.strOff[id+1]]) }

// strID is the id of interned string s; 0 (the empty string's) when s was
// not interned.
func (x *Index) strID(s string) uint32 {
	i, ok := slices.BinarySearchFunc(x.strSorted, s, func(id uint32, s string) int {
		return strings.Compare(string(x.strData[x.strOff[id]:x.strOff[id+1]]), s)
	})
	if !ok {
		return 0
	}
	return x.strSorted[i]
}

// gramPosting is the postings list of trigram g; false when no name has it.
func (x *Index) gramPosting(g uint32) (uint32, bool) {
	i, ok := slices.BinarySearch(x.gramKeys, g)
	if !ok {
		return 0, false
	}
	return x.gramList[i], true
}
func (x *Index) tokens(doc uint32) []uint32 { return x.tokData[x.tokOff[doc]:x.tokOff[doc+1]] }

func (x *Index) compact(doc uint32) string { return string(x.compactBytes(doc)) }

func (x *Index) compactBytes(doc uint32) []byte { return x.compData[x.compOff[doc]:x.compOff[doc+1]] }

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
