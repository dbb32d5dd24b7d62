package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	gojson "github.com/goccy/go-json"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
	"github.com/x448/float16"
)

// entry is the part of a company the in-memory index needs: what filters
// read and the vector. It is persisted beside the profile so a restart
// rebuilds the index without decoding profiles.
type entry struct {
	// codes and scale are the int8 vector resident in memory (quant.go).
	codes []int8
	scale float32
	// vector is the full-precision vector when the entry has it at hand
	// (built from a document, or decoded from an old codec); a codec 3
	// decode leaves it nil and half pointing at the stored binary16
	// values (see full).
	vector []float32
	half   []byte
	score  int
	start  int32 // days since 1970-01-01; noDate when unknown
	flags  uint8
	terms  [numKeyword][]string
}

const noDate = math.MinInt32

// Exists flags.
const (
	flagRedirect uint8 = 1 << iota
	flagPhone
	flagEmail
	flagSocialURL
	flagStartDate
	flagRevenue
	flagState
)

var existsFlags = map[index.Field]uint8{
	index.RedirectField: flagRedirect, index.PhoneField: flagPhone, index.EmailField: flagEmail,
	index.SocialURLField: flagSocialURL, index.StartDateField: flagStartDate, index.RevenueField: flagRevenue,
	index.StateField: flagState,
}

const numKeyword = 14

// keywordSlot maps each keyword field to its slot in entry.terms; the order
// is part of the on-disk format (codecVersion).
var keywordSlot = func() map[index.Field]int {
	if len(index.KeywordFields) != numKeyword {
		panic("embedded: keyword field count changed; bump codecVersion and numKeyword")
	}
	m := map[index.Field]int{}
	for i, f := range index.KeywordFields {
		m[f] = i
	}
	return m
}()

// codecVersion 3 stores the int8 vector and its scale first (what opening
// the index reads) and the binary16 vector last (full precision, read only
// by full); versions 2 (binary16 only, see half.go) and 1 (float32) are
// still read, quantized as they are decoded.
const (
	codecVersion   = 3
	codecHalfV2    = 2
	codecFloat32V1 = 1
)

// domainSlot is the terms slot of the domain, which has no postings.
var domainSlot = func() int {
	for i, f := range index.KeywordFields {
		if f == index.DomainField {
			return i
		}
	}
	panic("embedded: no domain field")
}()

// Slots of the keyword fields newEntry fills, in the order it fills them.
var (
	slotCountry       = keywordSlot[index.CountryField]
	slotState         = keywordSlot[index.StateField]
	slotCity          = keywordSlot[index.CityField]
	slotIndustry      = keywordSlot[index.IndustryField]
	slotEmployees     = keywordSlot[index.EmployeesField]
	slotRevenue       = keywordSlot[index.RevenueField]
	slotBusinessModel = keywordSlot[index.BusinessModelField]
	slotSocial        = keywordSlot[index.SocialField]
	slotLanguage      = keywordSlot[index.LanguageField]
	slotVendor        = keywordSlot[index.VendorField]
	slotSubdomain     = keywordSlot[index.SubdomainField]
	slotStatus        = keywordSlot[index.StatusField]
	slotMXProvider    = keywordSlot[index.MXProviderField]
)

func newEntry(c *record.Company, vec []float32) entry {
	e := entry{score: c.Score, start: noDate}
	e.setVector(vec)
	if d, ok := parseDay(c.StartDate); ok {
		e.start = d
		e.flags |= flagStartDate
	}
	if c.RedirectDomain != nil && *c.RedirectDomain != "" {
		e.flags |= flagRedirect
	}
	if len(c.Phones) > 0 {
		e.flags |= flagPhone
	}
	if len(c.PublicEmails) > 0 {
		e.flags |= flagEmail
	}
	if len(c.SocialURLs) > 0 {
		e.flags |= flagSocialURL
	}
	if c.RevenueRange != "" {
		e.flags |= flagRevenue
	}
	if c.Address.State != "" {
		e.flags |= flagState
	}
	// Every term of the entry goes into one array (a slice per field was
	// a dozen allocations per company); each field's slice is capped so
	// an append to it cannot reach the next field's terms. A field without
	// terms stays nil.
	all := make([]string, 0, 9+len(c.IndustryGroups)+len(c.BusinessModels)+len(c.SocialURLs)+
		len(c.Languages)+len(c.Vendors)+len(c.Subdomains))
	from := 0
	done := func(slot int) {
		if len(all) > from {
			e.terms[slot] = all[from:len(all):len(all)]
		}
		from = len(all)
	}
	one := func(slot int, s string) {
		if s != "" {
			all = append(all, s)
		}
		done(slot)
	}
	list := func(slot int, v []string) {
		for _, s := range v {
			if s != "" {
				all = append(all, s)
			}
		}
		done(slot)
	}
	one(domainSlot, c.Domain)
	one(slotCountry, c.Address.Country)
	one(slotState, c.Address.State)
	one(slotCity, c.Address.City)
	appendIndustries(&all, c.IndustryGroups)
	done(slotIndustry)
	one(slotEmployees, c.Employees)
	one(slotRevenue, c.RevenueRange)
	list(slotBusinessModel, c.BusinessModels)
	// c.SocialNetworks(), without its slice.
	for _, u := range c.SocialURLs {
		if n := record.SocialNetworkOf(u); n != "" && !slices.Contains(all[from:], n) {
			all = append(all, n)
		}
	}
	done(slotSocial)
	list(slotLanguage, c.Languages)
	list(slotVendor, c.Vendors)
	list(slotSubdomain, c.Subdomains)
	one(slotStatus, c.Status.Status)
	one(slotMXProvider, c.MXProvider)
	return e
}

// appendIndustries appends the non-empty keys of groups in the order of
// c.Industries(): highest score first, then by name.
func appendIndustries(all *[]string, groups map[string]float64) {
	type group struct {
		name  string
		score float64
	}
	var buf [8]group
	gs := buf[:0]
	for k, v := range groups {
		if k != "" {
			gs = append(gs, group{k, v})
		}
	}
	less := func(a, b *group) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return a.name < b.name
	}
	if len(gs) > 16 {
		slices.SortFunc(gs, func(a, b group) int {
			switch {
			case less(&a, &b):
				return -1
			case less(&b, &a):
				return 1
			}
			return 0
		})
	} else {
		for i := 1; i < len(gs); i++ {
			for j := i; j > 0 && less(&gs[j], &gs[j-1]); j-- {
				gs[j], gs[j-1] = gs[j-1], gs[j]
			}
		}
	}
	for _, g := range gs {
		*all = append(*all, g.name)
	}
}

var epoch = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

// parseDay returns the days from 1970-01-01 to a YYYY-MM-DD date. The
// usual date is read here; anything else (a malformed or impossible date,
// or a year outside 1700-2200, where the time.Duration below saturates)
// goes to time.Parse.
func parseDay(s string) (int32, bool) {
	if len(s) == 10 && s[4] == '-' && s[7] == '-' {
		digit := func(i int) int { return int(s[i]) - '0' }
		ok := true
		for _, i := range [...]int{0, 1, 2, 3, 5, 6, 8, 9} {
			ok = ok && s[i] >= '0' && s[i] <= '9'
		}
		if ok {
			y := digit(0)*1000 + digit(1)*100 + digit(2)*10 + digit(3)
			m := digit(5)*10 + digit(6)
			d := digit(8)*10 + digit(9)
			if y >= 1700 && y <= 2200 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(m, y) {
				return int32(daysFromCivil(y, m, d)), true
			}
		}
	}
	return parseDaySlow(s)
}

func parseDaySlow(s string) (int32, bool) {
	if s == "" {
		return 0, false
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return 0, false
	}
	return int32(t.Sub(epoch).Hours() / 24), true
}

func daysIn(m, y int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil is the day number of a proleptic Gregorian date, 0 at
// 1970-01-01 (Howard Hinnant's days_from_civil).
func daysFromCivil(y, m, d int) int {
	if m <= 2 {
		y--
	}
	era := y / 400 // y > 0 here
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// setVector sets the entry's full-precision vector and its int8 codes.
func (e *entry) setVector(vec []float32) {
	e.vector, e.half = vec, nil
	if cap(e.codes) >= len(vec) {
		e.codes = e.codes[:len(vec)]
	} else {
		e.codes = make([]int8, len(vec))
	}
	e.scale = quantizeInto(e.codes, vec)
}

func (e *entry) marshal(dst []byte) []byte {
	dst = append(dst, codecVersion)
	dst = binary.AppendUvarint(dst, uint64(len(e.codes)))
	dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(e.scale))
	for _, c := range e.codes {
		dst = append(dst, byte(c))
	}
	dst = binary.AppendVarint(dst, int64(e.score))
	dst = binary.AppendVarint(dst, int64(e.start))
	dst = append(dst, e.flags)
	for _, vals := range e.terms {
		dst = binary.AppendUvarint(dst, uint64(len(vals)))
		for _, s := range vals {
			dst = binary.AppendUvarint(dst, uint64(len(s)))
			dst = append(dst, s...)
		}
	}
	if e.vector == nil {
		return append(dst, e.half...)
	}
	at := len(dst)
	dst = slices.Grow(dst, 2*len(e.vector))[:at+2*len(e.vector)]
	putHalfs(dst[at:], e.vector)
	return dst
}

// sketch writes the sign sketch of the entry's full-precision vector at
// binary16 precision into dst: the same bits whether the entry was just
// built or read back, and not the codes', which round a small component
// to 0 and lose its sign (the screen missed neighbours of mixture queries
// with them).
func (e *entry) sketch(dst []uint64) {
	clear(dst)
	set := func(i int, h uint16) {
		// > 0: sign clear, not ±0, not NaN.
		if h&0x8000 == 0 && h&0x7fff != 0 && (h&0x7c00 != 0x7c00 || h&0x3ff == 0) {
			dst[i/64] |= 1 << uint(i%64)
		}
	}
	if e.vector == nil {
		for i := range len(e.half) / 2 {
			set(i, binary.LittleEndian.Uint16(e.half[2*i:]))
		}
		return
	}
	for i, x := range e.vector {
		set(i, float16.Fromfloat32(x).Bits())
	}
}

// full returns the entry's full-precision vector (binary16 precision for
// codec 2 and 3 entries).
func (e *entry) full() []float32 {
	if e.vector != nil {
		return e.vector
	}
	v := make([]float32, len(e.codes))
	getHalfs(v, e.half)
	return v
}

var errCorrupt = errors.New("corrupt index entry")

func (e *entry) unmarshal(b []byte) error { return e.decode(b, nil) }

// interner shares one string per distinct term value across entries, so
// rebuilding the index at open allocates per distinct value, not per
// occurrence.
type interner map[string]string

func (in interner) get(b []byte) string {
	if s, ok := in[string(b)]; ok {
		return s
	}
	s := string(b)
	in[s] = s
	return s
}

// decode is unmarshal reusing e's slices; with an interner, term strings
// (except the unique domain) are shared.
func (e *entry) decode(b []byte, in interner) error {
	if len(b) == 0 || b[0] < codecFloat32V1 || b[0] > codecVersion {
		return fmt.Errorf("%w: unknown codec version", errCorrupt)
	}
	version := b[0]
	b = b[1:]
	next := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, false
		}
		b = b[n:]
		return v, true
	}
	dim, ok := next()
	width := uint64(1)
	switch version {
	case codecHalfV2:
		width = 2
	case codecFloat32V1:
		width = 4
	}
	if !ok || dim > uint64(len(b))/width {
		return fmt.Errorf("%w: vector", errCorrupt)
	}
	if uint64(cap(e.codes)) >= dim {
		e.codes = e.codes[:dim]
	} else {
		e.codes = make([]int8, dim)
	}
	e.vector, e.half = nil, nil
	if version == codecVersion {
		if uint64(len(b)) < 4+dim {
			return fmt.Errorf("%w: vector", errCorrupt)
		}
		e.scale = math.Float32frombits(binary.LittleEndian.Uint32(b))
		for i, c := range b[4 : 4+dim] {
			e.codes[i] = int8(c)
		}
		b = b[4+dim:]
	} else {
		// An old entry: the full vector is here; quantize it as the
		// upsert of a new one does.
		v := make([]float32, dim)
		if width == 2 {
			getHalfs(v, b)
		} else {
			for i := range v {
				v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[i*4:]))
			}
		}
		e.setVector(v)
		b = b[dim*width:]
	}
	score, n := binary.Varint(b)
	if n <= 0 {
		return fmt.Errorf("%w: score", errCorrupt)
	}
	b = b[n:]
	start, n := binary.Varint(b)
	if n <= 0 || len(b) < n+1 {
		return fmt.Errorf("%w: start date", errCorrupt)
	}
	e.score, e.start = int(score), int32(start)
	e.flags = b[n]
	b = b[n+1:]
	for i := range e.terms {
		cnt, ok := next()
		if !ok || cnt > uint64(len(b)) {
			return fmt.Errorf("%w: terms", errCorrupt)
		}
		vals := e.terms[i][:0]
		for j := uint64(0); j < cnt; j++ {
			l, ok := next()
			if !ok || l > uint64(len(b)) {
				return fmt.Errorf("%w: term", errCorrupt)
			}
			if in != nil && i != domainSlot {
				vals = append(vals, in.get(b[:l]))
			} else {
				vals = append(vals, string(b[:l]))
			}
			b = b[l:]
		}
		e.terms[i] = vals
	}
	if version == codecVersion {
		if uint64(len(b)) != 2*dim {
			return fmt.Errorf("%w: full vector", errCorrupt)
		}
		e.half = b
	}
	return nil
}

// marshalProfile appends the profile of c: the bytes json.Marshal(c)
// writes, written by goccy/go-json, which took 3.5 µs a demo profile to
// encoding/json's 9.5 (TestProfileEncoderMatchesJSON holds it to
// encoding/json's bytes; decisions.md, "Hand-written low-level code").
// A pooled Encoder writes straight into dst: gojson.Marshal's fresh
// result per profile (2.7 GB at 1M) cost as much again in allocation and
// collection.
func marshalProfile(dst []byte, c *record.Company) ([]byte, error) {
	p := profileEncoders.Get().(*profileEncoder)
	p.w.b = dst
	err := p.enc.Encode(c)
	out := p.w.b
	p.w.b = nil
	profileEncoders.Put(p)
	if err != nil {
		return dst, err
	}
	return out[:len(out)-1], nil // Encode ends the value with a newline
}

type profileEncoder struct {
	w   appendWriter
	enc *gojson.Encoder
}

var profileEncoders = sync.Pool{New: func() any {
	p := new(profileEncoder)
	p.enc = gojson.NewEncoder(&p.w)
	return p
}}

// appendWriter appends what is written to b.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}
