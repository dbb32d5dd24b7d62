package embedded

// The encoders as they were before they were tuned, kept as the reference
// the tuned ones must match byte for byte (codec_identity_test.go).

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"time"

	"github.com/x448/float16"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

func refNewEntry(c *record.Company, vec []float32) entry {
	e := entry{vector: vec, score: c.Score, start: noDate}
	e.scale, e.codes = refQuantize(vec)
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
	dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(e.scale))
	for _, c := range e.codes {
		dst = append(dst, uint8(c))
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
	for _, x := range e.vector {
		dst = binary.LittleEndian.AppendUint16(dst, uint16(float16.Fromfloat32(x)))
	}
	return dst
}

// refQuantize is the symmetric per-vector int8 quantizer written plainly:
// the largest magnitude maps to 127; a vector without a finite, non-zero
// scale gets all codes 0.
func refQuantize(v []float32) (float32, []int8) {
	if len(v) == 0 {
		return 0, nil
	}
	m := float32(0)
	bad := false
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			bad = true
		}
		if a := float32(math.Abs(float64(x))); a > m {
			m = a
		}
	}
	codes := make([]int8, len(v))
	s := m / 127
	if bad || s == 0 || math.IsInf(float64(s), 0) {
		return 0, codes
	}
	for i, x := range v {
		codes[i] = int8(math.Round(float64(x / s)))
	}
	return s, codes
}

// refMarshalProfile is the profile encoder's reference: encoding/json,
// which the previous encoder matched byte for byte (TestProfileEncoderMatchesJSON
// held it to that as it holds the current one).
func refMarshalProfile(dst []byte, c *record.Company) ([]byte, error) {
	b, err := json.Marshal(c)
	return append(dst, b...), err
}
