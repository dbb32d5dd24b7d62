package query

import (
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

func parse(t *testing.T, raw string) (Discover, *Error) {
	t.Helper()
	v, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	d, err := ParseDiscover(v)
	if err == nil {
		return d, nil
	}
	var qe *Error
	if !errors.As(err, &qe) {
		t.Fatalf("ParseDiscover(%q) returned %T %v, want *Error", raw, err, err)
	}
	return d, qe
}

func TestParseDiscoverDefaults(t *testing.T) {
	d, qe := parse(t, "")
	if qe != nil {
		t.Fatal(qe)
	}
	if d.MaxRecords != 100 || d.Offset != 0 || d.MinScore != 50 || d.MaxScore != 800 || d.Consensus != 1 ||
		d.Variance != "UNRESTRICTED" || d.Redirect || !d.ExcludeLeadgen || d.IncludeSearchDomains || d.HasVectorInput() {
		t.Fatalf("defaults: %+v", d)
	}
}

func TestParseDiscoverValues(t *testing.T) {
	for _, tc := range []struct {
		query string
		check func(d Discover) bool
	}{
		{"domain=https://www.Stripe.com/pricing&domain=shop.example.co.uk,acme.io", func(d Discover) bool {
			return reflect.DeepEqual(d.Domains, []string{"stripe.com", "example.co.uk", "acme.io"})
		}},
		{"country=DACH&country=fr", func(d Discover) bool { return reflect.DeepEqual(d.Countries, []string{"AT", "CH", "DE", "FR"}) }},
		{"country=Germany", func(d Discover) bool { return reflect.DeepEqual(d.Countries, []string{"DE"}) }},
		{"country=US&state=California&state=TX&negate_state=us-ny", func(d Discover) bool {
			return reflect.DeepEqual(d.States, []string{"US-CA", "US-TX"}) && reflect.DeepEqual(d.NegateStates, []string{"US-NY"})
		}},
		{"state=US-CA", func(d Discover) bool { return reflect.DeepEqual(d.States, []string{"US-CA"}) }},
		{"category=saas,financial services&negate_category=Real-Estate", func(d Discover) bool {
			return reflect.DeepEqual(d.Categories, []string{"SAAS", "FINANCIAL_SERVICES"}) && reflect.DeepEqual(d.NegateCategories, []string{"REAL_ESTATE"})
		}},
		{"phrase_match=payroll, benefits&phrase_match=hr software", func(d Discover) bool {
			return reflect.DeepEqual(d.Phrases, []string{"payroll, benefits", "hr software"})
		}},
		{"exclude_domain=a.com,b.com&exclude_domain=c.com", func(d Discover) bool { return len(d.ExcludeDomains) == 3 }},
		{"icp_text=", func(d Discover) bool { return d.ICPText == "" && !d.HasVectorInput() }},
		{"max_digital_footprint=30", func(d Discover) bool { return d.MinScore == 30 && d.MaxScore == 30 }},
		{"start_date=2020-01-01", func(d Discover) bool { return d.StartFrom == "2020-01-01" && d.StartTo == "" }},
		{"start_date=2010-01-01,2015-12-31", func(d Discover) bool { return d.StartFrom == "2010-01-01" && d.StartTo == "2015-12-31" }},
		{"employee_range=50,", func(d Discover) bool { return *d.Employees.Min == 50 && d.Employees.Max == nil }},
		{"employee_range=abc", func(d Discover) bool { return d.Employees == nil }},
		{"employee_range=500,50", func(d Discover) bool { return d.Employees == nil }},
		{"revenue_range=1000000,1000000000%2B", func(d Discover) bool { return *d.Revenue.Min == 1e6 && d.Revenue.Max == nil }},
		{"social=X&language=DE&business_model=b2b", func(d Discover) bool {
			return d.Social[0] == "x" && d.Languages[0] == "de" && d.BusinessModels[0] == "B2B"
		}},
		{"variance=mid_low&consensus=20&min_similarity=99&offset=9900&max_records=100", func(d Discover) bool {
			return d.Variance == "MID_LOW" && d.Consensus == 20 && d.MinSimilarity == 99 && d.Offset == 9900
		}},
		{"redirect=1&exclude_leadgen=false&enhanced=yes", func(d Discover) bool { return d.Redirect && !d.ExcludeLeadgen && d.Enhanced }},
		{"subdomain=Shop.&tech_stack=www.shopify.com", func(d Discover) bool {
			return d.Subdomains[0] == "shop" && d.TechStack[0] == "shopify.com"
		}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			d, qe := parse(t, tc.query)
			if qe != nil {
				t.Fatal(qe)
			}
			if !tc.check(d) {
				t.Fatalf("parsed %+v", d)
			}
		})
	}
}

func TestParseDiscoverRejects(t *testing.T) {
	long := strings.Repeat("x", 4001)
	for _, tc := range []struct {
		query, param, rule string
	}{
		{"colour=red", "colour", "unknown parameter"},
		{"icp_text=ab", "icp_text", "3-4000 characters"},
		{"icp_text=" + long, "icp_text", "3-4000 characters"},
		{"negate_icp_text=ab&icp_text=abc", "negate_icp_text", "3-4000"},
		{"icp_prompt=" + long, "icp_prompt", "1-4000"},
		{"icp_text=abc&icp_text=def", "icp_text", "given 2 times"},
		{"domain=a.com,b.com,c.com,d.com,e.com,f.com,g.com,h.com,i.com,j.com,k.com", "domain", "at most 10"},
		{"domain=not a domain", "domain", ""},
		{"negate_domain=a.com", "negate_domain", "positive input"},
		{"phrase_match=ab", "phrase_match", "at least 3"},
		{"country=Atlantis", "country", "not an ISO-3166-1"},
		{"country=DACH&state=Bavaria", "state", "single country"},
		{"country=DE&state=Texas", "state", "not a subdivision of DE"},
		{"state=Bavaria", "state", "needs a single country"},
		{"min_digital_footprint=900", "min_digital_footprint", "between 0 and 800"},
		{"min_digital_footprint=500&max_digital_footprint=400", "min_digital_footprint", "must not exceed"},
		{"max_digital_footprint=x", "max_digital_footprint", "integer"},
		{"start_date=2020-13-01", "start_date", "YYYY-MM-DD"},
		{"start_date=2020-01-01,2019-01-01", "start_date", "starts after it ends"},
		{"category=SPACESHIPS", "category", "not one of"},
		{"business_model=B2X", "business_model", "not one of"},
		{"social=myspace", "social", "not one of"},
		{"language=german", "language", "2-letter"},
		{"redirect=maybe", "redirect", "true or false"},
		{"subdomain=ab", "subdomain", "at least 3"},
		{"max_records=4", "max_records", "between 5 and 10000"},
		{"max_records=10001", "max_records", "between 5 and 10000"},
		{"offset=-1", "offset", "between 0"},
		{"offset=9990&max_records=100", "offset", "must not exceed 10000"},
		{"min_similarity=100", "min_similarity", "between 0 and 99"},
		{"consensus=0", "consensus", "between 1 and 20"},
		{"consensus=21", "consensus", "between 1 and 20"},
		{"variance=WIDE", "variance", "one of LOW"},
	} {
		t.Run(tc.query[:min(len(tc.query), 60)], func(t *testing.T) {
			_, qe := parse(t, tc.query)
			if qe == nil {
				t.Fatal("accepted")
			}
			if qe.Status != http.StatusUnprocessableEntity {
				t.Errorf("status %d", qe.Status)
			}
			for _, p := range qe.Params {
				if p.Param == tc.param && strings.Contains(p.Rule, tc.rule) {
					return
				}
			}
			t.Fatalf("errors %v, want %s: ...%s...", qe.Params, tc.param, tc.rule)
		})
	}
}

func TestParseDiscoverReportsEveryProblem(t *testing.T) {
	_, qe := parse(t, "foo=1&bar=2&icp_text=ab&max_records=1")
	if qe == nil || len(qe.Params) != 4 || qe.Params[0].Param != "bar" || qe.Params[1].Param != "foo" {
		t.Fatalf("%v", qe)
	}
}

func TestParseRange(t *testing.T) {
	p := func(n int64) *int64 { return &n }
	for _, tc := range []struct {
		in   string
		want *IntRange
	}{
		{"50,500", &IntRange{p(50), p(500)}},
		{"50,", &IntRange{Min: p(50)}},
		{",50", &IntRange{Max: p(50)}},
		{" 10 , 20 ", &IntRange{p(10), p(20)}},
		{"1000000,1000000000+", &IntRange{Min: p(1000000)}},
		{"1000000000+", &IntRange{Min: p(1000000000)}},
		{",+", nil},
		{"1_000,2_000", &IntRange{p(1000), p(2000)}},
		{"", nil}, {",", nil}, {"50", nil}, {"a,b", nil}, {"-5,10", nil}, {"10,5", nil}, {"1,2,3", nil},
		{"+5,10", nil}, {"5,+10", nil}, {"99999999999999999999,", nil},
	} {
		got, ok := ParseRange(tc.in)
		if ok != (tc.want != nil) || ok && !reflect.DeepEqual(got, *tc.want) {
			t.Errorf("ParseRange(%q) = %+v %v, want %+v", tc.in, got, ok, tc.want)
		}
	}
}

// FuzzParseDiscover: any query string parses to a request or to an *Error
// listing problems, never a panic; accepted requests respect the limits.
func FuzzParseDiscover(f *testing.F) {
	f.Add("domain=a.com&country=DACH&state=Bavaria&employee_range=50,500")
	f.Add("icp_prompt=saas+in+Texas&revenue_range=1000000,%2B&start_date=2020-01-01,")
	f.Add("max_records=10000&offset=0&variance=low&phrase_match=a%2Cb%2Cc")
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		d, err := ParseDiscover(v)
		if err != nil {
			var qe *Error
			if !errors.As(err, &qe) || len(qe.Params) == 0 {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if d.MaxRecords < MinRecords || d.MaxRecords > MaxRecords || d.Offset+d.MaxRecords > MaxRecords ||
			d.MinScore > d.MaxScore || len(d.Domains) > MaxExampleDomains || len(d.Phrases) > MaxPhrases ||
			len(d.States) > 0 && len(d.Countries) > 1 {
			t.Fatalf("accepted out of limits: %+v", d)
		}
	})
}
