// Package enginetest is the one behavioural suite every index.Engine backend
// runs. A backend opts in from its own _test.go:
//
//	func TestConformance(t *testing.T) {
//		enginetest.RunAll(t, func(t *testing.T) index.Engine { return openFresh(t) })
//	}
//
// open must return a new, empty engine and arrange its cleanup.
package enginetest

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"sort"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// Dim is the vector dimension the fixtures use.
const Dim = 8

// RunAll runs every conformance test against fresh engines from open.
func RunAll(t *testing.T, open func(t *testing.T) index.Engine) {
	tests := []struct {
		name string
		fn   func(t *testing.T, e index.Engine)
	}{
		{"Meta", testMeta},
		{"UpsertGet", testUpsertGet},
		{"UpsertReplaces", testUpsertReplaces},
		{"UpsertRejectsBadVector", testBadVector},
		{"Delete", testDelete},
		{"Vectors", testVectors},
		{"FilterTerms", testFilterTerms},
		{"FilterRangeAndDates", testFilterRanges},
		{"FilterExists", testFilterExists},
		{"FilterUnknownScore", testFilterUnknownScore},
		{"FilterPhrase", testFilterPhrase},
		{"FilterBoolean", testFilterBoolean},
		{"SearchByVector", testSearchByVector},
		{"SearchByScore", testSearchByScore},
		{"SearchPaging", testSearchPaging},
		{"ScanCompanies", testScanCompanies},
		{"ExclusionList", testExclusionList},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := open(t)
			ctx := context.Background()
			if tc.name != "Meta" {
				if err := e.SetMeta(ctx, index.Meta{EmbedderID: "test-embedder", Dimension: Dim}); err != nil {
					t.Fatalf("SetMeta: %v", err)
				}
			}
			tc.fn(t, e)
		})
	}
}

// axis returns a unit vector mostly along axis i, tilted by w towards axis 7.
func axis(i int, w float64) []float32 {
	v := make([]float32, Dim)
	v[i] = 1
	v[Dim-1] += float32(w)
	return unit(v)
}

func unit(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	n := math.Sqrt(s)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out
}

func ptr(s string) *string { return &s }

// Fixtures returns the suite's companies: small, hand-made, covering every
// filterable field.
func Fixtures() []index.CompanyDoc {
	return []index.CompanyDoc{
		{Vector: axis(0, 0), Company: record.Company{
			Domain: "acme.com", Name: "Acme Security", Status: record.Status{Status: "active", Confidence: 0.98}, Score: 420,
			StartDate: "2004-03-01", Address: record.Address{Street: "1 Main St", City: "Austin", State: "US-TX", Zip: "78701", Country: "US"},
			Phones: []string{"+15125550100"}, PublicEmails: []string{"info@acme.com"}, SocialURLs: []string{"https://www.linkedin.com/company/acme"},
			Description: "Acme builds endpoint security for banks.", Keywords: map[string]float64{"endpoint security": 0.9, "banking": 0.5},
			IndustryGroups: map[string]float64{"CYBERSECURITY": 0.9, "SOFTWARE": 0.4}, Employees: "201-500", UpdateDate: "2026-10-01",
			MXProvider: "google.com", RevenueRange: "10-100M", BusinessModels: []string{"B2B"}, Languages: []string{"en"},
			Vendors: []string{"salesforce.com", "hubspot.com"}, Subdomains: []string{"www", "app"}, SiteText: "Zero-trust Endpoint Protection for financial institutions.",
			HTTPStatus:      &record.HTTPStatus{Code: 200, Reason: "OK", RecordDate: "2026-10-02"},
			RedirectSources: []string{"acme.net", "acmesecurity.com"}, RedirectCount: 2,
			Growth: &record.Growth{Through: "2026-Q3", Scores: []int{400, 410, 420}, Subdomains: []int{1, 2, 2}},
		}},
		{Vector: axis(0, 0.3), Company: record.Company{
			Domain: "wachdienst.de", Name: "Wachdienst GmbH", Status: record.Status{Status: "active", Confidence: 0.9}, Score: 300,
			StartDate: "2015-06-15", Address: record.Address{City: "München", State: "DE-BY", Country: "DE"},
			Phones: []string{"+49891234567"}, Description: "Netzwerksicherheit für den Mittelstand.",
			IndustryGroups: map[string]float64{"CYBERSECURITY": 0.8}, Employees: "51-200", MXProvider: "outlook.com",
			BusinessModels: []string{"B2B", "B2G"}, Languages: []string{"de", "en"}, Vendors: []string{"hubspot.com"},
			Subdomains: []string{"www"}, SiteText: "Wir schützen Ihr Netzwerk. Sicherheit für Straße und Büro.",
		}},
		{Vector: axis(1, 0), Company: record.Company{
			Domain: "brightbank.co.uk", Name: "Bright Bank", Status: record.Status{Status: "active", Confidence: 1}, Score: 700,
			StartDate: "1990-01-01", Address: record.Address{City: "London", State: "GB-LND", Country: "GB"},
			PublicEmails: []string{"hello@brightbank.co.uk"}, SocialURLs: []string{"https://twitter.com/brightbank", "https://www.facebook.com/brightbank"},
			Description: "A retail bank for families.", IndustryGroups: map[string]float64{"BANKING": 0.9, "FINANCIAL_SERVICES": 0.7},
			Employees: "5001-10000", RevenueRange: ">1B", MXProvider: "brightbank.co.uk", BusinessModels: []string{"B2C"},
			Languages: []string{"en"}, Vendors: []string{"salesforce.com"}, Subdomains: []string{"www", "online", "careers"},
			SiteText: "Open a savings account in minutes.",
		}},
		{Vector: axis(2, 0), Company: record.Company{
			Domain: "closedco.com", Name: "Closed Co", Status: record.Status{Status: "closed", Confidence: 0.7}, Score: 60,
			StartDate: "2010-01-01", EndDate: ptr("2019-12-31"), Address: record.Address{City: "Paris", Country: "FR"},
			Description: "Used to sell widgets.", IndustryGroups: map[string]float64{"RETAIL": 0.6}, Employees: "1-10",
			RedirectDomain: ptr("acme.com"), MXProvider: "zoho.com", BusinessModels: []string{"D2C"}, Languages: []string{"fr"},
		}},
		{Vector: axis(3, 0), Company: record.Company{
			Domain: "tinyleads.net", Name: "Tiny Leads", Status: record.Status{Status: "active", Confidence: 0.5}, Score: 20,
			Address: record.Address{Country: "US"}, Description: "Get quotes now.", IndustryGroups: map[string]float64{"ADVERTISING_MARKETING": 0.5},
			Employees: "1-10", MXProvider: "google.com",
		}},
		{Vector: axis(0, 0.6), Company: record.Company{
			Domain: "cloudguard.io", Name: "CloudGuard", Status: record.Status{Status: "active", Confidence: 0.95}, Score: 300,
			StartDate: "2020-09-09", Address: record.Address{City: "Austin", State: "US-TX", Country: "US"},
			SocialURLs: []string{"https://x.com/cloudguard"}, Description: "Cloud security posture management.",
			IndustryGroups: map[string]float64{"CYBERSECURITY": 0.7, "CLOUD_COMPUTING": 0.6}, Employees: "51-200", RevenueRange: "1-10M",
			MXProvider: "google.com", BusinessModels: []string{"B2B"}, Languages: []string{"en"}, Vendors: []string{"stripe.com"},
			Subdomains: []string{"www", "docs"}, SiteText: "Posture management for AWS, Azure and GCP.",
		}},
	}
}

func load(t *testing.T, e index.Engine) []index.CompanyDoc {
	t.Helper()
	docs := Fixtures()
	ctx := context.Background()
	failed, err := e.UpsertCompanies(ctx, docs)
	if err != nil || len(failed) > 0 {
		t.Fatalf("UpsertCompanies: failed=%v err=%v", failed, err)
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatalf("Refresh: %v", err)
	}
	return docs
}

// normalized round-trips through JSON so nil and empty collections compare
// equal, as they do on the wire.
func normalized(t *testing.T, c record.Company) record.Company {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var out record.Company
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func testMeta(t *testing.T, e index.Engine) {
	ctx := context.Background()
	if _, err := e.Meta(ctx); !errors.Is(err, index.ErrNotFound) {
		t.Fatalf("Meta on a new index: err = %v, want ErrNotFound", err)
	}
	model := make([]byte, 1<<20)
	for i := range model {
		model[i] = byte(i * 7)
	}
	want := index.Meta{EmbedderID: "tfidf-x", Dimension: Dim, Model: model}
	if err := e.SetMeta(ctx, want); err != nil {
		t.Fatalf("SetMeta: %v", err)
	}
	got, err := e.Meta(ctx)
	if err != nil {
		t.Fatalf("Meta: %v", err)
	}
	if got.EmbedderID != want.EmbedderID || got.Dimension != want.Dimension || !reflect.DeepEqual(got.Model, want.Model) {
		t.Fatalf("Meta = %+v (model %d bytes), want %s/%d (model %d bytes)", got.EmbedderID, len(got.Model), want.EmbedderID, want.Dimension, len(want.Model))
	}
}

func testUpsertGet(t *testing.T, e index.Engine) {
	docs := load(t, e)
	ctx := context.Background()
	got, err := e.GetCompanies(ctx, []string{"cloudguard.io", "missing.example", "acme.com"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Domain != "cloudguard.io" || got[1].Domain != "acme.com" {
		t.Fatalf("GetCompanies order/skip: got %v", domains(got))
	}
	for _, d := range docs {
		if d.Company.Domain != "acme.com" {
			continue
		}
		if want := normalized(t, d.Company); !reflect.DeepEqual(normalized(t, got[1]), want) {
			t.Errorf("round trip differs:\n got %+v\nwant %+v", got[1], want)
		}
	}
	n, err := e.CountCompanies(ctx, nil)
	if err != nil || n != len(docs) {
		t.Fatalf("CountCompanies(nil) = %d, %v; want %d", n, err, len(docs))
	}
}

func testUpsertReplaces(t *testing.T, e index.Engine) {
	docs := load(t, e)
	ctx := context.Background()
	upd := docs[0]
	upd.Company.Name = "Acme Renamed"
	upd.Company.Address.Country = "CA"
	upd.Company.Address.State = ""
	upd.Vector = axis(4, 0)
	if failed, err := e.UpsertCompanies(ctx, []index.CompanyDoc{upd, upd}); err != nil || len(failed) > 0 {
		t.Fatalf("re-upsert: %v %v", failed, err)
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if n, _ := e.CountCompanies(ctx, nil); n != len(docs) {
		t.Fatalf("count after re-upsert = %d, want %d (upsert must not duplicate)", n, len(docs))
	}
	got, _ := e.GetCompanies(ctx, []string{"acme.com"})
	if len(got) != 1 || got[0].Name != "Acme Renamed" {
		t.Fatalf("replaced record not returned: %+v", got)
	}
	assertMatch(t, e, index.Terms{Field: index.CountryField, Values: []string{"US"}}, "cloudguard.io", "tinyleads.net")
	assertMatch(t, e, index.Terms{Field: index.CountryField, Values: []string{"CA"}}, "acme.com")
	res, err := e.SearchCompanies(ctx, index.Search{Vector: axis(4, 0), Limit: 1})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Company.Domain != "acme.com" {
		t.Fatalf("vector of the replaced record not updated: %+v %v", res.Hits, err)
	}
}

func testBadVector(t *testing.T, e index.Engine) {
	ctx := context.Background()
	doc := Fixtures()[0]
	doc.Vector = make([]float32, Dim+1)
	good := Fixtures()[1]
	failed, err := e.UpsertCompanies(ctx, []index.CompanyDoc{doc, good})
	if err == nil && (len(failed) != 1 || failed[0].Domain != doc.Company.Domain || failed[0].Reason == "") {
		t.Fatalf("a vector of the wrong dimension must be refused; failed=%v", failed)
	}
	_ = e.Refresh(ctx)
	if got, _ := e.GetCompanies(ctx, []string{doc.Company.Domain}); len(got) != 0 {
		t.Fatalf("refused document was stored")
	}
}

func testDelete(t *testing.T, e index.Engine) {
	docs := load(t, e)
	ctx := context.Background()
	n, err := e.DeleteCompanies(ctx, []string{"acme.com", "nope.example"})
	if err != nil || n != 1 {
		t.Fatalf("DeleteCompanies = %d, %v; want 1", n, err)
	}
	_ = e.Refresh(ctx)
	if c, _ := e.CountCompanies(ctx, nil); c != len(docs)-1 {
		t.Fatalf("count after delete = %d", c)
	}
	assertMatch(t, e, index.Terms{Field: index.VendorField, Values: []string{"salesforce.com"}}, "brightbank.co.uk")
	res, err := e.SearchCompanies(ctx, index.Search{Vector: axis(0, 0), Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if h.Company.Domain == "acme.com" {
			t.Fatal("deleted company still searchable")
		}
	}
}

func testVectors(t *testing.T, e index.Engine) {
	docs := load(t, e)
	got, err := e.CompanyVectors(context.Background(), []string{"acme.com", "wachdienst.de", "none.example"})
	if err != nil || len(got) != 2 {
		t.Fatalf("CompanyVectors = %d vectors, %v", len(got), err)
	}
	for i, d := range []string{"acme.com", "wachdienst.de"} {
		want := docs[i].Vector
		for j := range want {
			if math.Abs(float64(got[d][j]-want[j])) > 1e-3 {
				t.Fatalf("vector of %s = %v, want %v", d, got[d], want)
			}
		}
	}
}

func assertMatch(t *testing.T, e index.Engine, f index.Filter, want ...string) {
	t.Helper()
	ctx := context.Background()
	res, err := e.SearchCompanies(ctx, index.Search{Filter: f, Limit: 100})
	if err != nil {
		t.Fatalf("SearchCompanies(%#v): %v", f, err)
	}
	var got []string
	for _, h := range res.Hits {
		got = append(got, h.Company.Domain)
	}
	sort.Strings(got)
	sort.Strings(want)
	if len(got) == 0 && len(want) == 0 {
		got, want = nil, nil
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("filter %#v matched %v, want %v", f, got, want)
	}
	if res.Total != len(want) {
		t.Errorf("filter %#v: Total = %d, want %d", f, res.Total, len(want))
	}
	n, err := e.CountCompanies(ctx, f)
	if err != nil || n != len(want) {
		t.Errorf("CountCompanies(%#v) = %d, %v; want %d", f, n, err, len(want))
	}
}

func testFilterTerms(t *testing.T, e index.Engine) {
	load(t, e)
	cases := []struct {
		f    index.Filter
		want []string
	}{
		{index.Terms{Field: index.DomainField, Values: []string{"acme.com", "cloudguard.io"}}, []string{"acme.com", "cloudguard.io"}},
		{index.Terms{Field: index.CountryField, Values: []string{"US", "DE"}}, []string{"acme.com", "cloudguard.io", "tinyleads.net", "wachdienst.de"}},
		{index.Terms{Field: index.StateField, Values: []string{"US-TX"}}, []string{"acme.com", "cloudguard.io"}},
		{index.Terms{Field: index.CityField, Values: []string{"München"}}, []string{"wachdienst.de"}},
		{index.Terms{Field: index.IndustryField, Values: []string{"CYBERSECURITY"}}, []string{"acme.com", "cloudguard.io", "wachdienst.de"}},
		{index.Terms{Field: index.IndustryField, Values: []string{"FINANCIAL_SERVICES"}}, []string{"brightbank.co.uk"}},
		{index.Terms{Field: index.EmployeesField, Values: []string{"51-200"}}, []string{"cloudguard.io", "wachdienst.de"}},
		{index.Terms{Field: index.RevenueField, Values: []string{">1B", "1-10M"}}, []string{"brightbank.co.uk", "cloudguard.io"}},
		{index.Terms{Field: index.BusinessModelField, Values: []string{"B2G", "D2C"}}, []string{"closedco.com", "wachdienst.de"}},
		{index.Terms{Field: index.SocialField, Values: []string{"twitter"}}, []string{"brightbank.co.uk"}},
		{index.Terms{Field: index.SocialField, Values: []string{"x", "linkedin"}}, []string{"acme.com", "cloudguard.io"}},
		{index.Terms{Field: index.LanguageField, Values: []string{"de"}}, []string{"wachdienst.de"}},
		{index.Terms{Field: index.VendorField, Values: []string{"hubspot.com"}}, []string{"acme.com", "wachdienst.de"}},
		{index.Terms{Field: index.SubdomainField, Values: []string{"docs", "careers"}}, []string{"brightbank.co.uk", "cloudguard.io"}},
		{index.Terms{Field: index.StatusField, Values: []string{"closed"}}, []string{"closedco.com"}},
		{index.Terms{Field: index.MXProviderField, Values: []string{"google.com"}}, []string{"acme.com", "cloudguard.io", "tinyleads.net"}},
		{index.Terms{Field: index.CountryField, Values: []string{"JP"}}, nil},
		{index.Terms{Field: index.CountryField}, nil},
	}
	for _, tc := range cases {
		assertMatch(t, e, tc.f, tc.want...)
	}
}

func testFilterRanges(t *testing.T, e index.Engine) {
	load(t, e)
	assertMatch(t, e, index.Range{Field: index.ScoreField, Min: index.IntPtr(300)}, "acme.com", "brightbank.co.uk", "cloudguard.io", "wachdienst.de")
	assertMatch(t, e, index.Range{Field: index.ScoreField, Min: index.IntPtr(300), Max: index.IntPtr(300)}, "cloudguard.io", "wachdienst.de")
	assertMatch(t, e, index.Range{Field: index.ScoreField, Max: index.IntPtr(60)}, "closedco.com", "tinyleads.net")
	assertMatch(t, e, index.DateRange{Field: index.StartDateField, From: "2010-01-01"}, "closedco.com", "cloudguard.io", "wachdienst.de")
	assertMatch(t, e, index.DateRange{Field: index.StartDateField, From: "2004-03-01", To: "2010-01-01"}, "acme.com", "closedco.com")
	assertMatch(t, e, index.DateRange{Field: index.StartDateField, To: "1999-12-31"}, "brightbank.co.uk")
}

func testFilterExists(t *testing.T, e index.Engine) {
	load(t, e)
	assertMatch(t, e, index.Exists{Field: index.RedirectField}, "closedco.com")
	assertMatch(t, e, index.Exists{Field: index.PhoneField}, "acme.com", "wachdienst.de")
	assertMatch(t, e, index.Exists{Field: index.EmailField}, "acme.com", "brightbank.co.uk")
	assertMatch(t, e, index.Exists{Field: index.SocialURLField}, "acme.com", "brightbank.co.uk", "cloudguard.io")
	assertMatch(t, e, index.Exists{Field: index.StartDateField}, "acme.com", "brightbank.co.uk", "closedco.com", "cloudguard.io", "wachdienst.de")
	assertMatch(t, e, index.Exists{Field: index.RevenueField}, "acme.com", "brightbank.co.uk", "cloudguard.io")
	assertMatch(t, e, index.Exists{Field: index.StateField}, "acme.com", "brightbank.co.uk", "cloudguard.io", "wachdienst.de")
}

// testFilterUnknownScore: a score of 0 is unknown. Exists on the score
// matches known scores only, a range from 1 up excludes unknown ones, a
// range from 0 includes them, and a range or-ed with "no score" (how
// discovery applies its default floor) keeps them.
func testFilterUnknownScore(t *testing.T, e index.Engine) {
	load(t, e)
	ctx := context.Background()
	noScore := index.CompanyDoc{Vector: axis(1, 0), Company: record.Company{
		Domain: "noscore.org", Name: "No Score", Status: record.Status{Status: "active", Confidence: 1}, Address: record.Address{Country: "FR"},
	}}
	if failed, err := e.UpsertCompanies(ctx, []index.CompanyDoc{noScore}); err != nil || len(failed) > 0 {
		t.Fatalf("UpsertCompanies: failed=%v err=%v", failed, err)
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatalf("Refresh: %v", err)
	}
	known := []string{"acme.com", "brightbank.co.uk", "closedco.com", "cloudguard.io", "tinyleads.net", "wachdienst.de"}
	unknown := index.Not{Filter: index.Exists{Field: index.ScoreField}}
	for _, tc := range []struct {
		name string
		f    index.Filter
		want []string
	}{
		{"known scores", index.Exists{Field: index.ScoreField}, known},
		{"unknown scores", unknown, []string{"noscore.org"}},
		{"range from 1", index.Range{Field: index.ScoreField, Min: index.IntPtr(1)}, known},
		{"range from 0", index.Range{Field: index.ScoreField, Min: index.IntPtr(0), Max: index.IntPtr(60)}, []string{"closedco.com", "noscore.org", "tinyleads.net"}},
		{"default floor keeps unknown", index.Or{index.Range{Field: index.ScoreField, Min: index.IntPtr(300)}, unknown},
			[]string{"acme.com", "brightbank.co.uk", "cloudguard.io", "noscore.org", "wachdienst.de"}},
		{"low known score", index.And{index.Exists{Field: index.ScoreField}, index.Range{Field: index.ScoreField, Max: index.IntPtr(99)}},
			[]string{"closedco.com", "tinyleads.net"}},
	} {
		t.Run(tc.name, func(t *testing.T) { assertMatch(t, e, tc.f, tc.want...) })
	}
}

func testFilterPhrase(t *testing.T, e index.Engine) {
	load(t, e)
	assertMatch(t, e, index.Phrase{Field: index.TextField, Text: "endpoint protection"}, "acme.com")
	assertMatch(t, e, index.Phrase{Field: index.TextField, Text: "ENDPOINT security"}, "acme.com")
	assertMatch(t, e, index.Phrase{Field: index.TextField, Text: "strasse und buro"}, "wachdienst.de")
	assertMatch(t, e, index.Phrase{Field: index.TextField, Text: "security for"}, "acme.com")
	assertMatch(t, e, index.Phrase{Field: index.TextField, Text: "protection endpoint"})
	assertMatch(t, e, index.Phrase{Field: index.TextField, Text: "posture management"}, "cloudguard.io")
}

func testFilterBoolean(t *testing.T, e index.Engine) {
	load(t, e)
	us := index.Terms{Field: index.CountryField, Values: []string{"US"}}
	cyber := index.Terms{Field: index.IndustryField, Values: []string{"CYBERSECURITY"}}
	assertMatch(t, e, index.And{us, cyber}, "acme.com", "cloudguard.io")
	assertMatch(t, e, index.Or{us, cyber}, "acme.com", "cloudguard.io", "tinyleads.net", "wachdienst.de")
	assertMatch(t, e, index.Not{Filter: us}, "brightbank.co.uk", "closedco.com", "wachdienst.de")
	assertMatch(t, e, index.And{cyber, index.Not{Filter: us}}, "wachdienst.de")
	assertMatch(t, e, index.And{}, "acme.com", "brightbank.co.uk", "closedco.com", "cloudguard.io", "tinyleads.net", "wachdienst.de")
	assertMatch(t, e, index.Or{})
	assertMatch(t, e, index.Not{Filter: index.Or{}}, "acme.com", "brightbank.co.uk", "closedco.com", "cloudguard.io", "tinyleads.net", "wachdienst.de")
	assertMatch(t, e, index.And{index.Not{Filter: index.Exists{Field: index.RedirectField}}, index.Or{index.Exists{Field: index.PhoneField}, index.Range{Field: index.ScoreField, Min: index.IntPtr(500)}}},
		"acme.com", "brightbank.co.uk", "wachdienst.de")
}

func testSearchByVector(t *testing.T, e index.Engine) {
	docs := load(t, e)
	ctx := context.Background()
	q := axis(0, 0)
	res, err := e.SearchCompanies(ctx, index.Search{Vector: q, Limit: 3, WithVectors: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"acme.com", "wachdienst.de", "cloudguard.io"}
	if got := hitDomains(res.Hits); !reflect.DeepEqual(got, want) {
		t.Fatalf("ranking = %v, want %v", got, want)
	}
	for _, h := range res.Hits {
		var v []float32
		for _, d := range docs {
			if d.Company.Domain == h.Company.Domain {
				v = d.Vector
			}
		}
		if cos := dot(q, v); math.Abs(cos-h.Similarity) > 0.01 {
			t.Errorf("%s similarity = %.4f, want cosine %.4f", h.Company.Domain, h.Similarity, cos)
		}
		if len(h.Vector) != Dim {
			t.Errorf("WithVectors: hit %s has %d-dim vector", h.Company.Domain, len(h.Vector))
		}
	}
	// Filters restrict vector search; MinSimilarity cuts the tail.
	res, err = e.SearchCompanies(ctx, index.Search{Vector: q, Limit: 10, Filter: index.Terms{Field: index.CountryField, Values: []string{"US"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitDomains(res.Hits); len(got) != 3 || got[0] != "acme.com" || got[1] != "cloudguard.io" {
		t.Fatalf("filtered ranking = %v", got)
	}
	res, err = e.SearchCompanies(ctx, index.Search{Vector: q, Limit: 10, MinSimilarity: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitDomains(res.Hits); !reflect.DeepEqual(got, []string{"acme.com", "wachdienst.de"}) || res.Total != 2 {
		t.Fatalf("MinSimilarity 0.9: hits %v total %d", got, res.Total)
	}
	// Limit 0 asks only for the total above the threshold.
	res, err = e.SearchCompanies(ctx, index.Search{Vector: q, Limit: 0, MinSimilarity: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 0 || res.Total != 2 {
		t.Fatalf("Limit 0, MinSimilarity 0.9: %d hits, total %d, want 0 and 2", len(res.Hits), res.Total)
	}
}

func testSearchByScore(t *testing.T, e index.Engine) {
	load(t, e)
	res, err := e.SearchCompanies(context.Background(), index.Search{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"brightbank.co.uk", "acme.com", "cloudguard.io", "wachdienst.de", "closedco.com", "tinyleads.net"}
	if got := hitDomains(res.Hits); !reflect.DeepEqual(got, want) {
		t.Fatalf("score order = %v, want %v (score desc, then domain)", got, want)
	}
	if res.Total != len(want) {
		t.Fatalf("Total = %d", res.Total)
	}
}

func testSearchPaging(t *testing.T, e index.Engine) {
	load(t, e)
	ctx := context.Background()
	all, err := e.SearchCompanies(ctx, index.Search{Vector: axis(0, 0.1), Limit: 6})
	if err != nil {
		t.Fatal(err)
	}
	page, err := e.SearchCompanies(ctx, index.Search{Vector: axis(0, 0.1), Offset: 2, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := hitDomains(page.Hits), hitDomains(all.Hits)[2:4]; !reflect.DeepEqual(got, want) {
		t.Fatalf("page 2 = %v, want %v", got, want)
	}
	if page.Total != 6 {
		t.Fatalf("Total with paging = %d, want 6", page.Total)
	}
	past, err := e.SearchCompanies(ctx, index.Search{Offset: 50, Limit: 5})
	if err != nil || len(past.Hits) != 0 {
		t.Fatalf("offset past the end: %v %v", past.Hits, err)
	}
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func hitDomains(h []index.Hit) []string {
	out := make([]string, len(h))
	for i := range h {
		out[i] = h[i].Company.Domain
	}
	return out
}

func domains(cs []record.Company) []string {
	out := make([]string, len(cs))
	for i := range cs {
		out[i] = cs[i].Domain
	}
	return out
}

// testScanCompanies checks index.CompanyScanner, for engines that have it:
// every company once, with its name, address evidence, phones and score.
func testScanCompanies(t *testing.T, e index.Engine) {
	sc, ok := e.(index.CompanyScanner)
	if !ok {
		t.Skipf("%s has no company scan", e.Name())
	}
	docs := load(t, e)
	got := map[string]index.CompanyKey{}
	err := sc.ScanCompanies(context.Background(), func(k index.CompanyKey) error {
		if _, dup := got[k.Domain]; dup {
			t.Errorf("scan returned %s twice", k.Domain)
		}
		got[k.Domain] = k
		return nil
	})
	if err != nil {
		t.Fatalf("ScanCompanies: %v", err)
	}
	if len(got) != len(docs) {
		t.Fatalf("scanned %d companies, want %d", len(got), len(docs))
	}
	for _, d := range docs {
		c := d.Company
		want := index.CompanyKey{Domain: c.Domain, Name: c.Name, Country: c.Address.Country, State: c.Address.State,
			City: c.Address.City, Zip: c.Address.Zip, Phones: c.Phones, Score: c.Score, Closed: c.Closed()}
		if k := got[c.Domain]; !reflect.DeepEqual(k, want) {
			t.Errorf("scan of %s = %+v, want %+v", c.Domain, k, want)
		}
	}
	stop := errors.New("stop")
	n := 0
	err = sc.ScanCompanies(context.Background(), func(index.CompanyKey) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("a callback error must end the scan: %v after %d", err, n)
	}
}
