package api

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/internal/randfill"
	"github.com/openprospect/prospectd/record"
)

// stdPage is what huma's default JSON format writes for v.
func stdPage(t *testing.T, v any) ([]byte, error) {
	t.Helper()
	var b bytes.Buffer
	err := huma.DefaultJSONFormat.Marshal(&b, v)
	return b.Bytes(), err
}

func checkPage(t *testing.T, page []DiscoveredCompany) {
	t.Helper()
	want, wantErr := stdPage(t, page)
	var got bytes.Buffer
	err := jsonFormat.Marshal(&got, page)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("error %v, encoding/json %v", err, wantErr)
	}
	if err == nil && !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("encoded\n%s\nencoding/json\n%s", got.Bytes(), want)
	}
}

// TestDiscoverPageEncodingMatchesJSON holds the discovery page's encoder
// to encoding/json's bytes: random values in every field (HTML and control
// characters, invalid UTF-8, line separators, extreme floats, nil and empty
// lists), and real profiles of the demo corpus with what discover adds.
func TestDiscoverPageEncodingMatchesJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for range 3000 {
		page := make([]DiscoveredCompany, rng.IntN(4))
		for i := range page {
			randfill.Fill(rng, reflect.ValueOf(&page[i]).Elem())
		}
		checkPage(t, page)
	}
	checkPage(t, nil)
	checkPage(t, []DiscoveredCompany{})
	checkPage(t, []DiscoveredCompany{{}})

	var page []DiscoveredCompany
	g := demo.New(demo.Options{Companies: 500, Seed: 2})
	for i := range g.Len() {
		c := g.Company(i)
		dc := DiscoveredCompany{Profile: ProfileOf(c), Similarity: float64(rng.IntN(10001)) / 100,
			MatchReasons: []string{"nearest example: " + c.Domain + " (similarity 82.5)", "filter country: " + c.Address.Country}}
		if rng.IntN(2) == 0 {
			dc.Vendors = nonNil(c.Vendors)
			dc.SiteText = &c.SiteText
		}
		page = append(page, dc)
	}
	checkPage(t, page)
}

// TestJSONFormatOtherBodies: bodies other than the discovery page are
// written by huma's default format, unchanged.
func TestJSONFormatOtherBodies(t *testing.T) {
	for _, v := range []any{
		record.ProfileOf(record.Company{Domain: "acme.com", Name: "Acme <&>"}),
		map[string]any{"x": "<b>\u2028", "n": 1.5},
		CountBody{Count: 7},
	} {
		want, _ := stdPage(t, v)
		var got bytes.Buffer
		if err := jsonFormat.Marshal(&got, v); err != nil || !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("%T: %q, %v; want %q", v, got.Bytes(), err, want)
		}
	}
	if f := jsonFormats()["application/json"]; f.Unmarshal == nil {
		t.Fatal("no JSON unmarshal")
	}
}

func FuzzDiscoverPageEncoding(f *testing.F) {
	f.Add("acme.com", "Acme <&>", "caf\u00e9 \xff", "k\u2028", 82.5, 12, true)
	f.Add("", "", "", "", 1e-7, -1, false)
	f.Fuzz(func(t *testing.T, domain, name, text, key string, sim float64, n int, ptrs bool) {
		dc := DiscoveredCompany{Profile: record.Profile{Domain: domain, Name: name, Description: text, Score: n,
			Status: record.Status{Status: key, Confidence: sim}, Address: record.Address{City: name, Country: key},
			Phones: []string{text, key}, Keywords: map[string]float64{key: sim, text: 1, name: -sim}},
			Similarity: sim, MatchReasons: []string{text}}
		if ptrs {
			dc.EndDate, dc.RedirectDomain, dc.SiteText = &text, &key, &name
			dc.Vendors = []string{domain}
		}
		checkPage(t, []DiscoveredCompany{dc})
	})
}

// demoPage is a discovery page of n demo companies as the handler shapes it.
func demoPage(n int) []DiscoveredCompany {
	g := demo.New(demo.Options{Companies: n, Seed: 1})
	page := make([]DiscoveredCompany, 0, n)
	for i := range n {
		page = append(page, DiscoveredCompany{Profile: ProfileOf(g.Company(i)), Similarity: 80 - float64(i)/10})
	}
	return page
}

// BenchmarkDiscoverPageEncode writes a page of 100 demo profiles with
// huma's default JSON format (encoding/json) and with jsonFormat.
func BenchmarkDiscoverPageEncode(b *testing.B) {
	page := demoPage(100)
	var buf bytes.Buffer
	for _, f := range []struct {
		name string
		f    huma.Format
	}{{"encoding-json", huma.DefaultJSONFormat}, {"goccy", jsonFormat}} {
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				buf.Reset()
				if err := f.f.Marshal(&buf, page); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
	}
}
