package embedded

// The encoders as they were before they were tuned, kept as the reference
// the tuned ones must match byte for byte (codec_identity_test.go).

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

func refNewEntry(c *record.Company, vec []float32) entry {
	e := entry{vector: vec, score: c.Score, start: noDate}
	if d, ok := refParseDay(c.StartDate); ok {
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

func refParseDay(s string) (int32, bool) {
	if s == "" {
		return 0, false
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return 0, false
	}
	return int32(t.Sub(epoch).Hours() / 24), true
}

func refMarshalEntry(e *entry, dst []byte) []byte {
	dst = append(dst, codecVersion)
	dst = binary.AppendUvarint(dst, uint64(len(e.vector)))
	at := len(dst)
	dst = slices.Grow(dst, 2*len(e.vector))[:at+2*len(e.vector)]
	for i, x := range e.vector {
		binary.LittleEndian.PutUint16(dst[at+2*i:], halfBits(x))
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

func refMarshalProfile(dst []byte, c *record.Company) ([]byte, error) {
	if !profileEncoderCurrent || !refFiniteProfile(c) {
		b, err := json.Marshal(c)
		return append(dst, b...), err
	}
	return refAppendProfile(dst, c), nil
}

func refAppendProfile(b []byte, c *record.Company) []byte {
	b = append(b, `{"domain":`...)
	b = refAppendJSONString(b, c.Domain)
	b = append(b, `,"name":`...)
	b = refAppendJSONString(b, c.Name)
	b = append(b, `,"status":{"status":`...)
	b = refAppendJSONString(b, c.Status.Status)
	b = append(b, `,"confidence":`...)
	b = refAppendJSONFloat(b, c.Status.Confidence)
	b = append(b, `},"score":`...)
	b = strconv.AppendInt(b, int64(c.Score), 10)
	if c.StartDate != "" {
		b = append(b, `,"start_date":`...)
		b = refAppendJSONString(b, c.StartDate)
	}
	b = append(b, `,"end_date":`...)
	b = refAppendJSONStringPtr(b, c.EndDate)
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
		b = refAppendJSONString(b, f.v)
	}
	b = append(b, `},"phones":`...)
	b = refAppendJSONStrings(b, c.Phones)
	b = append(b, `,"public_emails":`...)
	b = refAppendJSONStrings(b, c.PublicEmails)
	b = append(b, `,"social_urls":`...)
	b = refAppendJSONStrings(b, c.SocialURLs)
	b = append(b, `,"description":`...)
	b = refAppendJSONString(b, c.Description)
	b = append(b, `,"keywords":`...)
	b = refAppendJSONScores(b, c.Keywords)
	b = append(b, `,"industry_groups":`...)
	b = refAppendJSONScores(b, c.IndustryGroups)
	b = append(b, `,"employees":`...)
	b = refAppendJSONString(b, c.Employees)
	b = append(b, `,"redirect_domain":`...)
	b = refAppendJSONStringPtr(b, c.RedirectDomain)
	if c.UpdateDate != "" {
		b = append(b, `,"update_date":`...)
		b = refAppendJSONString(b, c.UpdateDate)
	}
	b = append(b, `,"mx_provider":`...)
	b = refAppendJSONString(b, c.MXProvider)
	if c.RevenueRange != "" {
		b = append(b, `,"revenue_range":`...)
		b = refAppendJSONString(b, c.RevenueRange)
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
			b = refAppendJSONStrings(b, f.v)
		}
	}
	if c.SiteText != "" {
		b = append(b, `,"site_text":`...)
		b = refAppendJSONString(b, c.SiteText)
	}
	if h := c.HTTPStatus; h != nil {
		b = append(b, `,"http_status":{"status_code":`...)
		b = strconv.AppendInt(b, int64(h.Code), 10)
		if h.Reason != "" {
			b = append(b, `,"status_reason":`...)
			b = refAppendJSONString(b, h.Reason)
		}
		if h.RecordDate != "" {
			b = append(b, `,"record_date":`...)
			b = refAppendJSONString(b, h.RecordDate)
		}
		b = append(b, '}')
	}
	if len(c.RedirectSources) > 0 {
		b = append(b, `,"redirect_sources":`...)
		b = refAppendJSONStrings(b, c.RedirectSources)
	}
	if c.RedirectCount != 0 {
		b = append(b, `,"redirect_count":`...)
		b = strconv.AppendInt(b, int64(c.RedirectCount), 10)
	}
	if g := c.Growth; g != nil {
		b = append(b, `,"growth":{"through":`...)
		b = refAppendJSONString(b, string(g.Through))
		b = append(b, `,"scores":`...)
		b = refAppendJSONInts(b, g.Scores)
		b = append(b, `,"subdomains":`...)
		b = refAppendJSONInts(b, g.Subdomains)
		b = append(b, '}')
	}
	return append(b, '}')
}

func refAppendJSONStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return refAppendJSONString(b, *s)
}

func refAppendJSONStrings(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = refAppendJSONString(b, s)
	}
	return append(b, ']')
}

func refAppendJSONInts(b []byte, list []int) []byte {
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

func refAppendJSONScores(b []byte, m map[string]float64) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	var buf [16]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = refAppendJSONString(b, k)
		b = append(b, ':')
		b = refAppendJSONFloat(b, m[k])
	}
	return append(b, '}')
}

func refAppendJSONFloat(b []byte, f float64) []byte {
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

func refLe64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func refJsonSafe8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zero := func(v uint64) uint64 { return (v - ones) & ^v & highs }
	bad := x&highs | (x-ones*0x20)&^x&highs |
		zero(x^(ones*'"')) | zero(x^(ones*'\\')) | zero(x^(ones*'<')) | zero(x^(ones*'>')) | zero(x^(ones*'&'))
	return bad == 0
}

func refAppendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight plain ASCII bytes at a time: profiles are mostly text
		// that needs no escape.
		if i+8 <= len(s) && refJsonSafe8(refLe64(s, i)) {
			i += 8
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonSafe[c] {
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

func refFiniteProfile(c *record.Company) bool {
	ok := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	if !ok(c.Status.Confidence) {
		return false
	}
	for _, m := range [2]map[string]float64{c.Keywords, c.IndustryGroups} {
		for _, v := range m {
			if !ok(v) {
				return false
			}
		}
	}
	return true
}
