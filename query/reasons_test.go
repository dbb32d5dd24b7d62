package query

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

func TestFilterReasons(t *testing.T) {
	c := record.Company{
		Address:        record.Address{Country: "DE", State: "DE-BY"},
		IndustryGroups: map[string]float64{"SOFTWARE": 0.9, "RETAIL": 0.2},
		Employees:      "51-200",
		BusinessModels: []string{"B2B"},
		SocialURLs:     []string{"https://x.com/acme", "https://www.linkedin.com/company/acme"},
		Languages:      []string{"de", "en"},
		Vendors:        []string{"stripe.com"},
		Subdomains:     []string{"shop"},
		StartDate:      "2015-03-01",
	}
	tests := []struct {
		name string
		d    Discover
		a    Applied
		want []string
	}{
		{"no filters", Discover{}, Applied{}, nil},
		{"country and state", Discover{Countries: []string{"FR", "DE"}, States: []string{"DE-BY"}}, Applied{},
			[]string{"filter country: DE", "filter state: DE-BY"}},
		{"category matches one industry", Discover{Categories: []string{"RETAIL"}}, Applied{}, []string{"filter category: RETAIL"}},
		{"employee buckets", Discover{}, Applied{EmployeeRange: []string{"11-50", "51-200"}}, []string{"filter employee_range: 51-200"}},
		{"unknown revenue kept", Discover{}, Applied{RevenueRange: []string{"<1M"}, RevenueIncludeUnknown: true},
			[]string{"filter revenue_range: unknown (kept with the lowest bucket)"}},
		{"twitter asks for x too", Discover{Social: []string{"twitter"}}, Applied{}, []string{"filter social: x"}},
		{"models, languages, vendors, subdomains, start date",
			Discover{BusinessModels: []string{"B2B"}, Languages: []string{"en"}, TechStack: []string{"stripe.com"}, Subdomains: []string{"shop"}, StartFrom: "2010-01-01"}, Applied{},
			[]string{"filter business_model: B2B", "filter language: en", "filter tech_stack: stripe.com", "filter subdomain: shop", "filter start_date: 2015-03-01"}},
		{"negations say nothing", Discover{NegateCountries: []string{"FR"}, NegateCategories: []string{"BANKING"}}, Applied{}, nil},
	}
	for _, tc := range tests {
		got := filterReasons(c, &tc.d, &tc.a)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestExplainerReasons(t *testing.T) {
	c := record.Company{
		Description:    "We build Cloud Security tools for banks.",
		IndustryGroups: map[string]float64{"SOFTWARE": 0.9},
		Keywords:       map[string]float64{"cloud security": 0.9, "banking software": 0.5, "gardening": 0.4},
	}
	e := &explainer{
		seeds:      []seed{{"far.com", []float32{0, 1}}, {"near.com", []float32{0.8, 0.6}}},
		terms:      []string{"security", "banking software"},
		industries: []string{"SOFTWARE"},
		phrases:    []string{"cloud security", "quantum"},
	}
	tests := []struct {
		name string
		vec  []float32
		want []string
	}{
		{"with the hit's vector", []float32{1, 0}, []string{"nearest example: near.com (similarity 80.00)", "industry: SOFTWARE",
			"keyword: cloud security", "keyword: banking software", "phrase: cloud security"}},
		{"without it", nil, []string{"industry: SOFTWARE", "keyword: cloud security", "keyword: banking software", "phrase: cloud security"}},
		{"a vector of another length is no example", []float32{1, 0, 0}, []string{"industry: SOFTWARE",
			"keyword: cloud security", "keyword: banking software", "phrase: cloud security"}},
	}
	for _, tc := range tests {
		if got := e.reasons(c, tc.vec); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := (&explainer{}).reasons(record.Company{}, nil); got == nil || len(got) != 0 {
		t.Errorf("nothing shared: %#v, want an empty list (JSON [])", got)
	}
	var none *explainer
	if none.needVectors() || (&explainer{}).needVectors() || !e.needVectors() {
		t.Error("needVectors: hit vectors are for naming the nearest example only")
	}
}

// vectorSpy records whether discovery asked the engine for hit vectors.
type vectorSpy struct {
	CompanyIndex
	withVectors []bool
}

func (s *vectorSpy) SearchCompanies(ctx context.Context, q index.Search) (index.Result, error) {
	if q.Offset > 0 || q.Limit > 1 {
		s.withVectors = append(s.withVectors, q.WithVectors)
	}
	return s.CompanyIndex.SearchCompanies(ctx, q)
}

// TestEnhancedLookalikeReasons: a domain-seeded lookalike names its
// nearest example and the filters it satisfies; without enhanced nothing
// is computed, not even the hit vectors.
func TestEnhancedLookalikeReasons(t *testing.T) {
	svc, all := corpus(t)
	a, b := all[10], all[11]
	spy := &vectorSpy{CompanyIndex: svc.Engine}
	s := &Companies{Engine: spy}
	q := "domain=" + a.Domain + "&domain=" + b.Domain + "&country=" + a.Address.Country + "&max_records=10&min_digital_footprint=0"
	res := discover(t, s, q+"&enhanced=true")
	if len(res.Matches) == 0 {
		t.Fatal("no matches")
	}
	for _, m := range res.Matches {
		if len(m.Reasons) < 2 || !strings.HasPrefix(m.Reasons[0], "nearest example: ") {
			t.Fatalf("%s: reasons %q, want the nearest example first", m.Company.Domain, m.Reasons)
		}
		if !strings.Contains(m.Reasons[0], a.Domain) && !strings.Contains(m.Reasons[0], b.Domain) {
			t.Errorf("%s: nearest example %q is not one of the examples", m.Company.Domain, m.Reasons[0])
		}
		if !slices.Contains(m.Reasons, "filter country: "+a.Address.Country) {
			t.Errorf("%s: reasons %q lack the country filter", m.Company.Domain, m.Reasons)
		}
	}
	if !slices.Equal(spy.withVectors, []bool{true}) {
		t.Errorf("enhanced page search WithVectors = %v, want [true]", spy.withVectors)
	}
	spy.withVectors = nil
	plain := discover(t, s, q)
	for _, m := range plain.Matches {
		if m.Reasons != nil {
			t.Fatalf("reasons without enhanced: %q", m.Reasons)
		}
	}
	if !slices.Equal(spy.withVectors, []bool{false}) {
		t.Errorf("default page search WithVectors = %v, want [false]", spy.withVectors)
	}
}

// BenchmarkDiscoverReasons measures what enhanced=true adds to a
// domain-seeded lookalike page of 100 (go test -run '^$' -bench
// DiscoverReasons ./query/).
func BenchmarkDiscoverReasons(b *testing.B) {
	svc, all := corpus(b)
	base := "domain=" + all[3].Domain + "&domain=" + all[4].Domain + "&max_records=100&min_digital_footprint=0"
	for _, bc := range []struct{ name, q string }{{"default", base}, {"enhanced", base + "&enhanced=true"}} {
		b.Run(bc.name, func(b *testing.B) {
			v, err := url.ParseQuery(bc.q)
			if err != nil {
				b.Fatal(err)
			}
			d, err := ParseDiscover(v)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := svc.Discover(context.Background(), d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
