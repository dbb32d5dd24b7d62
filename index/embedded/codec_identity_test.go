package embedded

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/record"
)

// checkIdentity asserts that the profile and the entry of c encode to the
// bytes the reference encoders (codec_ref_test.go) write, and that
// newEntry builds the entry refNewEntry builds.
func checkIdentity(t *testing.T, c *record.Company, vec []float32) {
	t.Helper()
	got, err := marshalProfile([]byte("prefix"), c)
	want, wantErr := refMarshalProfile([]byte("prefix"), c)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("profile error %v, reference %v", err, wantErr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("profile\n%s\nreference\n%s", got, want)
	}
	if err != nil {
		// UpsertCompanies builds no entry for a company whose profile
		// does not encode (a NaN score, whose order among the
		// industries is not even defined).
		return
	}
	e, re := newEntry(c, vec), refNewEntry(c, vec)
	if !reflect.DeepEqual(e, re) {
		t.Fatalf("entry\n%+v\nreference\n%+v", e, re)
	}
	gotX, wantX := e.marshal([]byte("prefix")), refMarshalEntry(&re, []byte("prefix"))
	if !bytes.Equal(gotX, wantX) {
		t.Fatalf("entry bytes\n%x\nreference\n%x", gotX, wantX)
	}
}

var identityDates = []string{
	"", "2025-07-24", "1970-01-01", "1969-12-31", "2000-02-29", "1900-02-29", "2024-02-29", "2023-02-29",
	"2023-04-31", "2023-13-01", "2023-00-10", "2023-01-00", "1700-01-01", "1699-12-31", "2200-12-31",
	"2201-01-01", "1677-09-21", "2262-04-12", "0000-01-01", "9999-12-31", "2025-7-24", "2025-07-4",
	"+025-07-24", "2025/07/24", "2025-07-24T00:00:00Z", "２０２５-07-24", "2025-07-2x", " 2025-07-24",
}

// identityVector returns a vector whose values cover what binary16
// rounding treats apart: unit-vector values, zeros, subnormals, overflow,
// infinities, NaN and raw random bits.
func identityVector(r *rand.Rand, n int) []float32 {
	special := []float32{0, float32(math.Copysign(0, -1)), 1e-8, 6e-5, 6.1e-5, 65504, 65519, 65520, 1e10,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.Float32frombits(0x7f800001),
		math.Float32frombits(0xffc00001), math.Float32frombits(1), math.SmallestNonzeroFloat32, math.MaxFloat32}
	v := make([]float32, n)
	for i := range v {
		switch r.IntN(4) {
		case 0:
			v[i] = special[r.IntN(len(special))]
		case 1:
			v[i] = math.Float32frombits(r.Uint32())
		default:
			v[i] = float32(r.NormFloat64() / 16)
		}
	}
	return v
}

// identityText returns up to n bytes of plain runs of random lengths
// mixed with the strings of profileStrings.
func identityText(r *rand.Rand, n int) string {
	var b []byte
	for len(b) < n {
		if r.IntN(3) == 0 {
			b = append(b, profileStrings[r.IntN(len(profileStrings))]...)
		} else {
			run := strings.Repeat("plain text ", 12)
			b = append(b, run[:r.IntN(len(run))]...)
		}
	}
	return string(b[:r.IntN(len(b)+1)])
}

func TestCodecIdentity(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	networks := []string{"https://www.linkedin.com/company/acme", "https://twitter.com/acme", "https://x.com/acme",
		"https://www.facebook.com/acme", "https://www.instagram.com/acme/", "https://example.com/", "", "not a url"}
	scores := []float64{0, 0.5, 0.87, 0.9, 0.51, 1, -0.0, 0.001, 0.0005, 0.1 + 0.2, 1e-7, 2, -1}
	for i := range 30000 {
		var c record.Company
		fill(rng, reflect.ValueOf(&c).Elem(), 0)
		c.StartDate = identityDates[rng.IntN(len(identityDates))]
		if i%2 == 0 {
			// Realistic score maps, with ties and thousandths.
			for _, m := range []*map[string]float64{&c.Keywords, &c.IndustryGroups} {
				if rng.IntN(5) == 0 {
					continue
				}
				*m = map[string]float64{}
				for range rng.IntN(20) {
					(*m)[fmt.Sprintf("%s%d", profileStrings[rng.IntN(len(profileStrings))], rng.IntN(30))] = scores[rng.IntN(len(scores))]
				}
				if rng.IntN(3) == 0 {
					(*m)[record.Industries[rng.IntN(len(record.Industries))]] = float64(rng.IntN(1001)) / 1000
				}
			}
			c.SocialURLs = nil
			for range rng.IntN(6) {
				c.SocialURLs = append(c.SocialURLs, networks[rng.IntN(len(networks))])
			}
		}
		if i%50 == 0 {
			// Maps larger than the insertion sorts take.
			for _, m := range []*map[string]float64{&c.Keywords, &c.IndustryGroups} {
				*m = map[string]float64{}
				for range 17 + rng.IntN(200) {
					(*m)[fmt.Sprintf("%s%d", profileStrings[rng.IntN(len(profileStrings))], rng.IntN(1000))] = scores[rng.IntN(len(scores))]
				}
			}
		}
		if i%3 == 0 {
			// Long text.
			c.SiteText, c.Description = identityText(rng, 400), identityText(rng, 100)
		}
		checkIdentity(t, &c, identityVector(rng, rng.IntN(40)))
	}
	checkIdentity(t, &record.Company{}, nil)
}

func FuzzCodecIdentity(f *testing.F) {
	f.Add("acme.com", "Acme <&>", "caf\u00e9 \xff \u2014 \u00b7", "k\u2028", 0.87, 12, "2025-07-24", uint32(0x7f800001), uint64(1), true)
	f.Add("", "", "", "", 1e-7, -1, "2023-02-29", uint32(0), uint64(2), false)
	f.Add("x.com", strings.Repeat("long name ", 8)+"&", strings.Repeat("plain — text · ", 10)+"\u2028"+strings.Repeat("a", 70)+"\x7f",
		strings.Repeat("k", 64)+"<", 0.25, 3, "2024-02-29", uint32(0x33000001), uint64(4), true)
	f.Add("a", "b", "https://www.linkedin.com/company/a", "SAAS", 0.5, 0, "1677-09-21", uint32(0x387fe000), uint64(3), true)
	f.Fuzz(func(t *testing.T, domain, name, text, key string, score float64, n int, date string, bits uint32, seed uint64, ptrs bool) {
		c := record.Company{
			Domain: domain, Name: name, Description: text, SiteText: text, Score: n, StartDate: date,
			Status:         record.Status{Status: key, Confidence: score},
			Address:        record.Address{City: name, Country: key, State: text},
			Phones:         []string{text, key},
			Keywords:       map[string]float64{key: score, text: 1, name: -score, domain: float64(n%1001) / 1000},
			IndustryGroups: map[string]float64{key: score, name: 0.5, text: float64(n%1001) / 1000},
			Vendors:        []string{domain, ""},
			SocialURLs:     []string{text, domain, text},
			Languages:      []string{key},
		}
		if ptrs {
			c.EndDate, c.RedirectDomain = &text, &key
			c.HTTPStatus = &record.HTTPStatus{Code: n, Reason: text}
			c.Growth = &record.Growth{Through: record.Quarter(key), Scores: []int{n, 1}}
			c.RedirectSources, c.RedirectCount = []string{name}, n
		}
		r := rand.New(rand.NewPCG(seed, uint64(bits)))
		vec := identityVector(r, int(seed%48))
		for i := range vec {
			if i%3 == 0 {
				vec[i] = math.Float32frombits(bits + uint32(i))
			}
		}
		checkIdentity(t, &c, vec)
	})
}

// TestParseDayIdentity compares parseDay with the reference on every
// calendar position of the years around its fast path's bounds, valid or
// not.
func TestParseDayIdentity(t *testing.T) {
	check := func(s string) {
		got, ok := parseDay(s)
		want, wantOK := refParseDay(s)
		if got != want || ok != wantOK {
			t.Fatalf("parseDay(%q) = %d, %v; reference %d, %v", s, got, ok, want, wantOK)
		}
	}
	for _, s := range identityDates {
		check(s)
	}
	for _, years := range [][2]int{{0, 30}, {1600, 2300}, {9970, 9999}} {
		for y := years[0]; y <= years[1]; y++ {
			for m := 0; m <= 13; m++ {
				for d := 0; d <= 32; d++ {
					check(fmt.Sprintf("%04d-%02d-%02d", y, m, d))
				}
			}
		}
	}
}
