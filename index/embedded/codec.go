package embedded

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// entry is the part of a company the in-memory index needs: what filters
// read and the vector. It is persisted beside the profile so a restart
// rebuilds the index without decoding profiles.
type entry struct {
	vector []float32
	// halfRounded: vector holds binary16 values already (decoded from a
	// codec 2 entry), so placing it needs no rounding.
	halfRounded bool
	score       int
	start       int32 // days since 1970-01-01; noDate when unknown
	flags       uint8
	terms       [numKeyword][]string
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

// codecVersion 2 stores the vector as binary16 (see half.go); version 1
// entries (float32 vectors) are still read.
const (
	codecVersion   = 2
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

func (e *entry) marshal(dst []byte) []byte {
	dst = append(dst, codecVersion)
	dst = binary.AppendUvarint(dst, uint64(len(e.vector)))
	at := len(dst)
	dst = slices.Grow(dst, 2*len(e.vector))[:at+2*len(e.vector)]
	putHalfs(dst[at:], e.vector)
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
	if len(b) == 0 || (b[0] != codecVersion && b[0] != codecFloat32V1) {
		return fmt.Errorf("%w: unknown codec version", errCorrupt)
	}
	width := uint64(2)
	if b[0] == codecFloat32V1 {
		width = 4
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
	if !ok || dim > uint64(len(b))/width {
		return fmt.Errorf("%w: vector", errCorrupt)
	}
	if uint64(cap(e.vector)) >= dim {
		e.vector = e.vector[:dim]
	} else {
		e.vector = make([]float32, dim)
	}
	e.halfRounded = width == 2
	if width == 2 {
		getHalfs(e.vector, b)
	} else {
		for i := range e.vector {
			e.vector[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[i*4:]))
		}
	}
	b = b[dim*width:]
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

// marshalProfile returns json.Marshal(c), byte for byte, without
// reflection: encoding/json cost a tenth of a bulk load's CPU. When
// record.Company (or a struct in it) no longer has the fields this encoder
// was written for, profileEncoderCurrent is false and encoding/json is used,
// so a new field is never dropped (TestProfileEncoderCurrent then fails,
// asking for the encoder to be updated). A NaN or infinite score, which
// encoding/json refuses, also goes to encoding/json for its error.
func marshalProfile(dst []byte, c *record.Company) ([]byte, error) {
	if profileEncoderCurrent {
		// appendProfile checks the scores as it writes them (a pass of
		// its own over the two maps was a tenth of its time).
		if b, ok := appendProfile(dst, c); ok {
			return b, nil
		}
	}
	b, err := json.Marshal(c)
	return append(dst, b...), err
}

func finite(f float64) bool { return f-f == 0 }

// profileLayout lists the fields (name, type, JSON tag) of the structs
// appendProfile encodes, in order.
const profileLayout = `record.Company{Domain string "domain"; Name string "name"; Status record.Status "status"; Score int "score"; StartDate string "start_date,omitempty"; EndDate *string "end_date"; Address record.Address "address"; Phones []string "phones"; PublicEmails []string "public_emails"; SocialURLs []string "social_urls"; Description string "description"; Keywords map[string]float64 "keywords"; IndustryGroups map[string]float64 "industry_groups"; Employees string "employees"; RedirectDomain *string "redirect_domain"; UpdateDate string "update_date,omitempty"; MXProvider string "mx_provider"; RevenueRange string "revenue_range,omitempty"; BusinessModels []string "business_models,omitempty"; Languages []string "languages,omitempty"; Vendors []string "vendors,omitempty"; Subdomains []string "subdomains,omitempty"; SiteText string "site_text,omitempty"; HTTPStatus *record.HTTPStatus "http_status,omitempty"; RedirectSources []string "redirect_sources,omitempty"; RedirectCount int "redirect_count,omitempty"; Growth *record.Growth "growth,omitempty"; }` +
	`record.Status{Status string "status"; Confidence float64 "confidence"; }` +
	`record.Address{Street string "street,omitempty"; City string "city,omitempty"; State string "state,omitempty"; Zip string "zip,omitempty"; Country string "country,omitempty"; }` +
	`record.HTTPStatus{Code int "status_code"; Reason string "status_reason,omitempty"; RecordDate string "record_date,omitempty"; }` +
	`record.Growth{Through record.Quarter "through"; Scores []int "scores"; Subdomains []int "subdomains"; }`

// layoutOf describes the fields of the given struct types as profileLayout
// does.
func layoutOf(types ...reflect.Type) string {
	var b strings.Builder
	for _, t := range types {
		b.WriteString(t.String() + "{")
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous || !f.IsExported() {
				b.WriteString("unexpected " + f.Name + "; ")
				continue
			}
			fmt.Fprintf(&b, "%s %s %q; ", f.Name, f.Type, f.Tag.Get("json"))
		}
		b.WriteString("}")
	}
	return b.String()
}

var profileEncoderCurrent = layoutOf(reflect.TypeFor[record.Company](), reflect.TypeFor[record.Status](),
	reflect.TypeFor[record.Address](), reflect.TypeFor[record.HTTPStatus](), reflect.TypeFor[record.Growth]()) == profileLayout

// appendProfile appends json.Marshal(c); ok is false, and b undefined,
// when a score is NaN or infinite.
func appendProfile(b []byte, c *record.Company) (_ []byte, ok bool) {
	if !finite(c.Status.Confidence) {
		return b, false
	}
	b = append(b, `{"domain":`...)
	b = appendJSONString(b, c.Domain)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, c.Name)
	b = append(b, `,"status":{"status":`...)
	b = appendJSONString(b, c.Status.Status)
	b = append(b, `,"confidence":`...)
	b = appendJSONFloat(b, c.Status.Confidence)
	b = append(b, `},"score":`...)
	b = strconv.AppendInt(b, int64(c.Score), 10)
	if c.StartDate != "" {
		b = append(b, `,"start_date":`...)
		b = appendJSONString(b, c.StartDate)
	}
	b = append(b, `,"end_date":`...)
	b = appendJSONStringPtr(b, c.EndDate)
	b = append(b, `,"address":{`...)
	first := true
	for _, f := range [...]struct{ key, v string }{
		{`"street":`, c.Address.Street}, {`"city":`, c.Address.City}, {`"state":`, c.Address.State},
		{`"zip":`, c.Address.Zip}, {`"country":`, c.Address.Country},
	} {
		if f.v == "" {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, f.key...)
		b = appendJSONString(b, f.v)
	}
	b = append(b, `},"phones":`...)
	b = appendJSONStrings(b, c.Phones)
	b = append(b, `,"public_emails":`...)
	b = appendJSONStrings(b, c.PublicEmails)
	b = append(b, `,"social_urls":`...)
	b = appendJSONStrings(b, c.SocialURLs)
	b = append(b, `,"description":`...)
	b = appendJSONString(b, c.Description)
	b = append(b, `,"keywords":`...)
	if b, ok = appendJSONScores(b, c.Keywords); !ok {
		return b, false
	}
	b = append(b, `,"industry_groups":`...)
	if b, ok = appendJSONScores(b, c.IndustryGroups); !ok {
		return b, false
	}
	b = append(b, `,"employees":`...)
	b = appendJSONString(b, c.Employees)
	b = append(b, `,"redirect_domain":`...)
	b = appendJSONStringPtr(b, c.RedirectDomain)
	if c.UpdateDate != "" {
		b = append(b, `,"update_date":`...)
		b = appendJSONString(b, c.UpdateDate)
	}
	b = append(b, `,"mx_provider":`...)
	b = appendJSONString(b, c.MXProvider)
	if c.RevenueRange != "" {
		b = append(b, `,"revenue_range":`...)
		b = appendJSONString(b, c.RevenueRange)
	}
	for _, f := range [...]struct {
		key string
		v   []string
	}{
		{`,"business_models":`, c.BusinessModels}, {`,"languages":`, c.Languages},
		{`,"vendors":`, c.Vendors}, {`,"subdomains":`, c.Subdomains},
	} {
		if len(f.v) > 0 {
			b = append(b, f.key...)
			b = appendJSONStrings(b, f.v)
		}
	}
	if c.SiteText != "" {
		b = append(b, `,"site_text":`...)
		b = appendJSONString(b, c.SiteText)
	}
	if h := c.HTTPStatus; h != nil {
		b = append(b, `,"http_status":{"status_code":`...)
		b = strconv.AppendInt(b, int64(h.Code), 10)
		if h.Reason != "" {
			b = append(b, `,"status_reason":`...)
			b = appendJSONString(b, h.Reason)
		}
		if h.RecordDate != "" {
			b = append(b, `,"record_date":`...)
			b = appendJSONString(b, h.RecordDate)
		}
		b = append(b, '}')
	}
	if len(c.RedirectSources) > 0 {
		b = append(b, `,"redirect_sources":`...)
		b = appendJSONStrings(b, c.RedirectSources)
	}
	if c.RedirectCount != 0 {
		b = append(b, `,"redirect_count":`...)
		b = strconv.AppendInt(b, int64(c.RedirectCount), 10)
	}
	if g := c.Growth; g != nil {
		b = append(b, `,"growth":{"through":`...)
		b = appendJSONString(b, string(g.Through))
		b = append(b, `,"scores":`...)
		b = appendJSONInts(b, g.Scores)
		b = append(b, `,"subdomains":`...)
		b = appendJSONInts(b, g.Subdomains)
		b = append(b, '}')
	}
	return append(b, '}'), true
}

func appendJSONStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendJSONString(b, *s)
}

func appendJSONStrings(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

func appendJSONInts(b []byte, list []int) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, ']')
}

// appendJSONScores writes a label -> score map with its keys sorted, as
// encoding/json does; ok is false when a score is NaN or infinite.
func appendJSONScores(b []byte, m map[string]float64) (_ []byte, ok bool) {
	if m == nil {
		return append(b, "null"...), true
	}
	// Pairs, not keys, so the values need no second map lookup; the
	// first eight bytes of each key, big-endian, order most pairs without
	// a string comparison.
	type score struct {
		prefix uint64
		key    string
		v      float64
	}
	var buf [16]score
	kv := buf[:0]
	for k, v := range m {
		if !finite(v) {
			return b, false
		}
		kv = append(kv, score{keyPrefix(k), k, v})
	}
	less := func(a, b *score) bool {
		if a.prefix != b.prefix {
			return a.prefix < b.prefix
		}
		return a.key < b.key
	}
	if len(kv) > 32 {
		slices.SortFunc(kv, func(a, b score) int {
			if a.prefix != b.prefix {
				return cmp.Compare(a.prefix, b.prefix)
			}
			return strings.Compare(a.key, b.key)
		})
	} else {
		for i := 1; i < len(kv); i++ {
			for j := i; j > 0 && less(&kv[j], &kv[j-1]); j-- {
				kv[j], kv[j-1] = kv[j-1], kv[j]
			}
		}
	}
	b = append(b, '{')
	for i := range kv {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, kv[i].key)
		b = append(b, ':')
		b = appendJSONFloat(b, kv[i].v)
	}
	return append(b, '}'), true
}

// keyPrefix returns the first eight bytes of s as a big-endian number,
// zero-padded: a < b as numbers means s < t as strings; equal numbers
// leave the order to the strings.
func keyPrefix(s string) uint64 {
	if len(s) >= 8 {
		return uint64(s[0])<<56 | uint64(s[1])<<48 | uint64(s[2])<<40 | uint64(s[3])<<32 |
			uint64(s[4])<<24 | uint64(s[5])<<16 | uint64(s[6])<<8 | uint64(s[7])
	}
	var p uint64
	for i := range 8 {
		p <<= 8
		if i < len(s) {
			p |= uint64(s[i])
		}
	}
	return p
}

// appendJSONFloat formats a finite float64 as encoding/json does (ES6
// number formatting).
func appendJSONFloat(b []byte, f float64) []byte {
	if f >= 0 && f <= 1 {
		// Scores are mostly thousandths (or hundredths) in [0, 1]; their
		// text is looked up, not formatted, when f is exactly one.
		t := &jsonThousandths[int(f*1000+0.5)]
		if t.bits == math.Float64bits(f) {
			return append(b, t.text[:t.n]...)
		}
	}
	return formatJSONFloat(b, f)
}

// jsonThousandths holds the text formatJSONFloat writes for k/1000, k in
// 0..1000.
var jsonThousandths = func() (t [1001]struct {
	bits uint64
	n    uint8
	text [7]byte
}) {
	for k := range t {
		f := float64(k) / 1000
		t[k].bits = math.Float64bits(f)
		t[k].n = uint8(copy(t[k].text[:], formatJSONFloat(nil, f)))
	}
	return t
}()

func formatJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 -> e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// le64 reads s[i:i+8] as a little-endian word (the compiler merges the
// byte loads into one).
func le64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// jsonSafe8 reports whether every byte of x is one jsonSafe marks: no high
// bit, none below 0x20, none of " \\ < > &. The zero-byte tests may report
// a byte that is safe as unsafe (a borrow), never the reverse, so a false
// answer only means the bytes are looked at one by one. '"' and '&' (and
// '<' and '>') differ in one bit, so one test finds either; the function
// is small enough to inline, not a call per word.
func jsonSafe8(x uint64) bool {
	const ones = 0x0101010101010101
	qa := x | ones*0x04 ^ ones*'&'
	lg := x | ones*0x02 ^ ones*'>'
	bs := x ^ ones*'\\'
	return (x|(x-ones*0x20)&^x|(qa-ones)&^qa|(lg-ones)&^lg|(bs-ones)&^bs)&(ones*0x80) == 0
}

// jsonSafe marks the ASCII bytes encoding/json writes as they are (it
// escapes '"', '\\', control characters and, for HTML safety, '<', '>' and
// '&').
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONString quotes s as encoding/json does: the escapes above,
// invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Profiles are mostly text that needs no escape: a long run of
		// it is skipped 32 bytes at a time, the rest eight at a time.
		if useAVX2 && len(s)-i >= 32 {
			i += jsonPlainAVX2(unsafe.StringData(s[i:]), (len(s)-i)&^31)
		}
		for i+8 <= len(s) && jsonSafe8(le64(s, i)) {
			i += 8
		}
		// A byte of the next eight (or of the tail) needs a look.
		for end := min(i+8, len(s)); i < end && s[i] < utf8.RuneSelf && jsonSafe[s[i]]; {
			i++
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonSafe[c] {
				// A borrow in the word test: nothing to escape here.
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
