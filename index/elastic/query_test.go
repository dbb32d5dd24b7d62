package elastic

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/mappings"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// golden compares v, marshalled as indented JSON, with testdata/<name>.golden.
func golden(t *testing.T, name string, v any) {
	t.Helper()
	var got []byte
	if raw, ok := v.([]byte); ok {
		var buf bytes.Buffer
		if err := json.Indent(&buf, raw, "", "  "); err != nil {
			t.Fatalf("%s: output is not JSON: %v", name, err)
		}
		got = buf.Bytes()
	} else {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatalf("%s: marshal: %v", name, err)
		}
		got = b
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./index/elastic -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (run go test ./index/elastic -update if the change is intended):\n%s", name, path, got)
	}
}

func mustSearch(t *testing.T, s index.Search) searchBody {
	t.Helper()
	b, err := buildSearch(s, enginetest.Dim)
	if err != nil {
		t.Fatalf("buildSearch: %v", err)
	}
	return b
}

func mustCount(t *testing.T, f index.Filter) countBody {
	t.Helper()
	b, err := buildCount(f)
	if err != nil {
		t.Fatalf("buildCount: %v", err)
	}
	return b
}

// queryVec is a fixed unit vector of the suite's dimension.
var queryVec = []float32{0.5, 0.5, 0.5, 0.5, 0, 0, 0, 0}

// europe stands in for a region expanded into its countries.
var europe = strings.Fields("AD AL AT BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GI GR HR HU IE IM IS IT LI LT LU LV MC MD ME MK MT NL NO PL PT RO RS RU SE SI SK SM UA VA XK")

func TestGoldenRequestBodies(t *testing.T) {
	us := index.Terms{Field: index.CountryField, Values: []string{"US"}}
	cyber := index.Terms{Field: index.IndustryField, Values: []string{"CYBERSECURITY", "SOFTWARE"}}
	cases := []struct {
		name string
		body func(t *testing.T) any
	}{
		{"search_knn_filter", func(t *testing.T) any {
			return mustSearch(t, index.Search{Vector: queryVec, MinSimilarity: 0.35, Offset: 20, Limit: 10,
				Filter: index.And{us, cyber, index.Range{Field: index.ScoreField, Min: index.IntPtr(100)}}})
		}},
		{"search_knn_with_vectors_no_filter", func(t *testing.T) any {
			return mustSearch(t, index.Search{Vector: queryVec, Limit: 3, WithVectors: true})
		}},
		{"search_knn_total", func(t *testing.T) any {
			b, err := buildKnnTotal(index.Search{Vector: queryVec, MinSimilarity: 0.9, Filter: us, Limit: 5}, enginetest.Dim)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}},
		{"search_match_all_by_score", func(t *testing.T) any {
			return mustSearch(t, index.Search{Offset: 50, Limit: 25})
		}},
		{"count_match_all", func(t *testing.T) any { return mustCount(t, nil) }},
		{"count_terms_region", func(t *testing.T) any {
			return mustCount(t, index.Terms{Field: index.CountryField, Values: europe})
		}},
		{"count_not", func(t *testing.T) any {
			return mustCount(t, index.Not{Filter: index.Or{us, index.Terms{Field: index.VendorField, Values: []string{"hubspot.com"}}}})
		}},
		{"count_and_with_negations", func(t *testing.T) any {
			return mustCount(t, index.And{cyber,
				index.Not{Filter: us},
				index.Not{Filter: index.Terms{Field: index.DomainField, Values: []string{"acme.com", "rival.io"}}},
				index.Not{Filter: index.Phrase{Field: index.TextField, Text: "lead generation"}}})
		}},
		{"count_phrase", func(t *testing.T) any {
			return mustCount(t, index.Phrase{Field: index.TextField, Text: "Straße und Büro"})
		}},
		{"count_date_range", func(t *testing.T) any {
			return mustCount(t, index.Or{
				index.DateRange{Field: index.StartDateField, From: "2004-03-01", To: "2010-01-01"},
				index.DateRange{Field: index.StartDateField, To: "1999-12-31"},
				index.DateRange{Field: index.StartDateField}})
		}},
		{"count_range", func(t *testing.T) any {
			return mustCount(t, index.Or{
				index.Range{Field: index.ScoreField, Min: index.IntPtr(300), Max: index.IntPtr(800)},
				index.Range{Field: index.ScoreField, Max: index.IntPtr(60)}})
		}},
		{"count_exists", func(t *testing.T) any {
			var all index.And
			for _, f := range []index.Field{index.RedirectField, index.PhoneField, index.EmailField, index.SocialURLField, index.StartDateField, index.RevenueField, index.StateField} {
				all = append(all, index.Exists{Field: f})
			}
			return mustCount(t, all)
		}},
		{"count_nested_and_or", func(t *testing.T) any {
			return mustCount(t, index.And{
				index.Not{Filter: index.Exists{Field: index.RedirectField}},
				index.Or{index.Exists{Field: index.PhoneField}, index.Range{Field: index.ScoreField, Min: index.IntPtr(500)},
					index.And{index.Terms{Field: index.SocialField, Values: []string{"linkedin", "x"}}, index.Terms{Field: index.StatusField, Values: []string{"active"}}}},
				index.Or{},
				index.And{}})
		}},
		{"count_every_terms_field", func(t *testing.T) any {
			var or index.Or
			for _, f := range index.KeywordFields {
				or = append(or, index.Terms{Field: f, Values: []string{"v-" + string(f)}})
			}
			return mustCount(t, or)
		}},
		{"alias_swap", func(t *testing.T) any {
			return swapAlias("prospect-companies", "prospect-companies-v1", "prospect-companies-v2")
		}},
		{"company_document", func(t *testing.T) any {
			return newCompanyDoc(enginetest.Fixtures()[3])
		}},
		{"template_companies", func(t *testing.T) any {
			b, err := mappings.Companies(mappings.CompaniesParams{IndexPattern: "prospect-companies-v*", Dims: 256})
			if err != nil {
				t.Fatal(err)
			}
			return b
		}},
		{"index_meta", func(t *testing.T) any {
			b, err := mappings.Meta()
			if err != nil {
				t.Fatal(err)
			}
			return b
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { golden(t, tc.name, tc.body(t)) })
	}
}

func TestTranslateErrors(t *testing.T) {
	cases := []struct {
		name string
		f    index.Filter
		want error
	}{
		{"terms on a numeric field", index.Terms{Field: index.ScoreField, Values: []string{"1"}}, index.ErrInvalid},
		{"range on a keyword field", index.Range{Field: index.CountryField}, index.ErrInvalid},
		{"exists on a keyword field", index.Exists{Field: index.VendorField}, index.ErrInvalid},
		{"phrase on a keyword field", index.Phrase{Field: index.CityField, Text: "x"}, index.ErrInvalid},
		{"malformed date", index.DateRange{Field: index.StartDateField, From: "2020-13-01"}, index.ErrInvalid},
		{"date with time", index.DateRange{Field: index.StartDateField, To: "2020-01-01T00:00:00Z"}, index.ErrInvalid},
		{"deep invalid child", index.Not{Filter: index.Or{index.And{index.Terms{Field: "nope"}}}}, index.ErrInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := translate(tc.f); !errors.Is(err, tc.want) {
				t.Fatalf("translate: err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestTranslateShapes(t *testing.T) {
	us := index.Terms{Field: index.CountryField, Values: []string{"US"}}
	cases := []struct {
		name string
		f    index.Filter
		want string
	}{
		{"nil matches all", nil, `{"match_all":{}}`},
		{"empty and matches all", index.And{}, `{"match_all":{}}`},
		{"empty or matches none", index.Or{}, `{"match_none":{}}`},
		{"not of empty or", index.Not{Filter: index.Or{}}, `{"bool":{"must_not":[{"match_none":{}}]}}`},
		{"single-child and unwraps", index.And{us}, `{"terms":{"address.country":["US"]}}`},
		{"single-child or unwraps", index.Or{us}, `{"terms":{"address.country":["US"]}}`},
		{"and of one negation keeps the bool", index.And{index.Not{Filter: us}}, `{"bool":{"must_not":[{"terms":{"address.country":["US"]}}]}}`},
		{"empty values match none", index.Terms{Field: index.CountryField}, `{"match_none":{}}`},
		{"empty strings dropped", index.Terms{Field: index.CountryField, Values: []string{"", "DE", ""}}, `{"terms":{"address.country":["DE"]}}`},
		{"only empty strings", index.Terms{Field: index.MXProviderField, Values: []string{""}}, `{"match_none":{}}`},
		{"unbounded score range", index.Range{Field: index.ScoreField}, `{"match_all":{}}`},
		{"open date range needs the date", index.DateRange{Field: index.StartDateField}, `{"exists":{"field":"start_date"}}`},
		{"redirect is the flag", index.Exists{Field: index.RedirectField}, `{"term":{"has_redirect":{"value":true}}}`},
		{"field name escaping", index.Terms{Field: index.CityField, Values: []string{`Sankt "Quote" \ Gallen`}}, `{"terms":{"address.city":["Sankt \"Quote\" \\ Gallen"]}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := translate(tc.f)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(q)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Errorf("got  %s\nwant %s", b, tc.want)
			}
		})
	}
}

func TestSearchRequestRules(t *testing.T) {
	cases := []struct {
		name string
		s    index.Search
		want error
	}{
		{"negative offset", index.Search{Offset: -1, Limit: 1}, index.ErrInvalid},
		{"negative limit", index.Search{Limit: -1}, index.ErrInvalid},
		{"past the result window", index.Search{Offset: 9995, Limit: 10}, index.ErrUnsupported},
		{"knn past the window", index.Search{Vector: queryVec, Limit: 10001}, index.ErrUnsupported},
		{"short vector", index.Search{Vector: queryVec[:3], Limit: 1}, index.ErrVectorMismatch},
		{"NaN in vector", index.Search{Vector: []float32{float32(math.NaN()), 0, 0, 0, 0, 0, 0, 1}, Limit: 1}, index.ErrInvalid},
		{"bad filter", index.Search{Filter: index.Range{Field: index.CityField}, Limit: 1}, index.ErrInvalid},
		{"window edge is fine", index.Search{Offset: 9990, Limit: 10}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := buildSearch(tc.s, enginetest.Dim); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestNumCandidates(t *testing.T) {
	for _, tc := range []struct{ k, want int }{
		{1, 100}, {10, 100}, {50, 100}, {51, 102}, {100, 200}, {4999, 9998}, {5000, 10000}, {6000, 10000}, {10000, 10000},
	} {
		got := numCandidates(tc.k)
		if got != tc.want {
			t.Errorf("numCandidates(%d) = %d, want %d", tc.k, got, tc.want)
		}
		if got < tc.k {
			t.Errorf("numCandidates(%d) = %d is below k; Elasticsearch refuses that", tc.k, got)
		}
	}
}

func TestCosineFromScore(t *testing.T) {
	for _, tc := range []struct{ score, want float64 }{
		{1, 1}, {0.5, 0}, {0, -1}, {0.975, 0.95}, {0.75, 0.5}, {1.0000001, 1}, {-0.1, -1},
	} {
		if got := cosineFromScore(tc.score); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("cosineFromScore(%v) = %v, want %v", tc.score, got, tc.want)
		}
	}
}

// TestMappingCoversQueries renders the template and checks that every field
// the translator or the search body names is mapped with a type that
// supports the clause, and that every field of the stored document is
// either mapped or deliberately kept out of the index.
func TestMappingCoversQueries(t *testing.T) {
	raw, err := mappings.Companies(mappings.CompaniesParams{IndexPattern: "p-companies-v*", Dims: enginetest.Dim})
	if err != nil {
		t.Fatal(err)
	}
	var tmpl struct {
		Template struct {
			Mappings struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"mappings"`
		} `json:"template"`
	}
	if err := json.Unmarshal(raw, &tmpl); err != nil {
		t.Fatal(err)
	}
	type fieldMapping struct {
		Type       string                     `json:"type"`
		Analyzer   string                     `json:"analyzer"`
		Enabled    *bool                      `json:"enabled"`
		Dims       int                        `json:"dims"`
		Similarity string                     `json:"similarity"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	mapped := map[string]fieldMapping{}
	var walk func(prefix string, props map[string]json.RawMessage)
	walk = func(prefix string, props map[string]json.RawMessage) {
		for name, r := range props {
			var m fieldMapping
			if err := json.Unmarshal(r, &m); err != nil {
				t.Fatal(err)
			}
			mapped[prefix+name] = m
			walk(prefix+name+".", m.Properties)
		}
	}
	walk("", tmpl.Template.Mappings.Properties)

	want := map[string]string{}
	for _, f := range termsFields {
		want[f] = "keyword"
	}
	for _, f := range existsFields {
		if want[f] == "" {
			want[f] = "any"
		}
	}
	want[startDateField] = "date"
	want[scoreField] = "integer"
	want[domainField] = "keyword"
	want[hasRedirectField] = "boolean"
	want[vectorField] = "dense_vector"
	for _, f := range phraseFields {
		want[f] = "text"
	}
	for field, typ := range want {
		m, ok := mapped[field]
		switch {
		case !ok:
			t.Errorf("field %s is queried but not mapped", field)
		case typ != "any" && m.Type != typ:
			t.Errorf("field %s is mapped as %q, queries need %q", field, m.Type, typ)
		}
	}
	for _, f := range phraseFields {
		if mapped[f].Analyzer != "prospect_folding" {
			t.Errorf("phrase field %s uses analyzer %q, want prospect_folding", f, mapped[f].Analyzer)
		}
	}
	if v := mapped[vectorField]; v.Dims != enginetest.Dim || v.Similarity != "cosine" {
		t.Errorf("vector mapping: dims %d similarity %q", v.Dims, v.Similarity)
	}

	// Every key of a fully populated document must be mapped (or be an
	// object disabled on purpose): a new record field then fails here
	// instead of going silently unindexed.
	doc := newCompanyDoc(enginetest.Fixtures()[0])
	red := "x.com"
	doc.RedirectDomain, doc.EndDate = &red, &red
	b, _ := json.Marshal(doc)
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		t.Fatal(err)
	}
	var missing []string
	for k, v := range keys {
		m, ok := mapped[k]
		if !ok {
			missing = append(missing, k)
			continue
		}
		if m.Properties != nil {
			var sub map[string]json.RawMessage
			_ = json.Unmarshal(v, &sub)
			for sk := range sub {
				if _, ok := mapped[k+"."+sk]; !ok {
					missing = append(missing, k+"."+sk)
				}
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("document fields without a mapping: %v", missing)
	}
	for _, k := range []string{"keywords", "industry_groups"} {
		if m := mapped[k]; m.Enabled == nil || *m.Enabled {
			t.Errorf("%s must be a disabled object (arbitrary keys would grow the mapping without bound)", k)
		}
	}
}

// TestCompanyDocRoundTrip checks that the stored document decodes back into
// the profile it was made from, and carries the derived filter fields.
func TestCompanyDocRoundTrip(t *testing.T) {
	for _, d := range enginetest.Fixtures() {
		b, err := json.Marshal(newCompanyDoc(d))
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			companyDoc
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(d.Company)
		back, _ := json.Marshal(got.Company)
		if !bytes.Equal(want, back) {
			t.Errorf("%s: profile does not round-trip:\n got %s\nwant %s", d.Company.Domain, back, want)
		}
		if !reflect.DeepEqual(got.Vector, d.Vector) {
			t.Errorf("%s: vector does not round-trip", d.Company.Domain)
		}
		if !reflect.DeepEqual(got.IndustryLabels, d.Company.Industries()) || !reflect.DeepEqual(got.Networks, d.Company.SocialNetworks()) {
			t.Errorf("%s: derived fields %v %v", d.Company.Domain, got.IndustryLabels, got.Networks)
		}
		if got.HasRedirect != (d.Company.RedirectDomain != nil) {
			t.Errorf("%s: has_redirect = %v", d.Company.Domain, got.HasRedirect)
		}
	}
}

// FuzzTranslateText feeds arbitrary user text through a phrase and a terms
// filter: the body must always be valid JSON carrying the text unchanged.
func FuzzTranslateText(f *testing.F) {
	for _, s := range []string{"endpoint security", "Straße und Büro", `"quoted" \ back`, "\x00\u2028", "", "}{]["} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		body, err := buildCount(index.Or{
			index.Phrase{Field: index.TextField, Text: s},
			index.Terms{Field: index.CityField, Values: []string{s}},
		})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		var back struct {
			Query struct {
				Bool struct {
					Should []struct {
						MultiMatch *struct {
							Query string `json:"query"`
						} `json:"multi_match"`
						Terms map[string][]string `json:"terms"`
					} `json:"should"`
				} `json:"bool"`
			} `json:"query"`
		}
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("body is not JSON: %v\n%s", err, b)
		}
		if !utf8.ValidString(s) {
			return // encoding/json replaces invalid UTF-8; nothing to compare
		}
		should := back.Query.Bool.Should
		if len(should) != 2 || should[0].MultiMatch == nil {
			t.Fatalf("unexpected shape: %s", b)
		}
		if s == "" {
			// A terms filter of only "" is match_none.
			if should[1].Terms != nil {
				t.Fatalf("empty value kept: %s", b)
			}
			return
		}
		phrase, city := should[0].MultiMatch.Query, should[1].Terms["address.city"]
		if phrase != s || len(city) != 1 || city[0] != s {
			t.Fatalf("text changed: phrase %q city %q, want %q", phrase, city, s)
		}
	})
}
