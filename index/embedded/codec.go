package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// entry is the part of a company the in-memory index needs: what filters
// read and the vector. It is persisted beside the profile so a restart
// rebuilds the index without decoding profiles.
type entry struct {
	vector []float32
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
var keywordSlot = map[index.Field]int{}

func init() {
	if len(index.KeywordFields) != numKeyword {
		panic("embedded: keyword field count changed; bump codecVersion and numKeyword")
	}
	for i, f := range index.KeywordFields {
		keywordSlot[f] = i
	}
}

const codecVersion = 1

// domainSlot is the terms slot of the domain, which has no postings.
var domainSlot = func() int {
	for i, f := range index.KeywordFields {
		if f == index.DomainField {
			return i
		}
	}
	panic("embedded: no domain field")
}()

func newEntry(c *record.Company, vec []float32) entry {
	e := entry{vector: vec, score: c.Score, start: noDate}
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
	set := func(f index.Field, v ...string) {
		var out []string
		for _, s := range v {
			if s != "" {
				out = append(out, s)
			}
		}
		e.terms[keywordSlot[f]] = out
	}
	set(index.DomainField, c.Domain)
	set(index.CountryField, c.Address.Country)
	set(index.StateField, c.Address.State)
	set(index.CityField, c.Address.City)
	set(index.IndustryField, c.Industries()...)
	set(index.EmployeesField, c.Employees)
	set(index.RevenueField, c.RevenueRange)
	set(index.BusinessModelField, c.BusinessModels...)
	set(index.SocialField, c.SocialNetworks()...)
	set(index.LanguageField, c.Languages...)
	set(index.VendorField, c.Vendors...)
	set(index.SubdomainField, c.Subdomains...)
	set(index.StatusField, c.Status.Status)
	set(index.MXProviderField, c.MXProvider)
	return e
}

var epoch = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

func parseDay(s string) (int32, bool) {
	if s == "" {
		return 0, false
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return 0, false
	}
	return int32(t.Sub(epoch).Hours() / 24), true
}

func (e *entry) marshal(dst []byte) []byte {
	dst = append(dst, codecVersion)
	dst = binary.AppendUvarint(dst, uint64(len(e.vector)))
	for _, x := range e.vector {
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(x))
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
	return dst
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
	if len(b) == 0 || b[0] != codecVersion {
		return fmt.Errorf("%w: unknown codec version", errCorrupt)
	}
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
	if !ok || uint64(len(b)) < dim*4 {
		return fmt.Errorf("%w: vector", errCorrupt)
	}
	if uint64(cap(e.vector)) >= dim {
		e.vector = e.vector[:dim]
	} else {
		e.vector = make([]float32, dim)
	}
	for i := range e.vector {
		e.vector[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[i*4:]))
	}
	b = b[dim*4:]
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
	return nil
}
