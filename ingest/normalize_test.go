package ingest

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
)

func ptr(s string) *string { return &s }

func TestNormalizeFullRecord(t *testing.T) {
	c := record.Company{
		Domain: "https://www.Shop.Acme.co.uk/about", Name: "  Acme  ", Status: record.Status{Status: "Closed"}, EndDate: ptr("2020-05-01T23:30:00-02:00"),
		StartDate: "1999-12-31 10:00:00", Address: record.Address{Country: "United Kingdom", State: "aberdeenshire", City: " Aberdeen "},
		Phones:         []string{"020 7946 0018", "not a phone", "+44 20 7946 0018", "+442079460018"},
		PublicEmails:   []string{"Info@Acme.co.uk", "bad@", "Sales <SALES@acme.co.uk>", "info@acme.co.uk"},
		SocialURLs:     []string{"linkedin.com/company/acme", "https://x.com/acme", "not a url"},
		IndustryGroups: map[string]float64{"financial services": 0.9, "saas": 0.5, "Banking": 0.2},
		Employees:      "1,200", RevenueRange: "$25,000,000", BusinessModels: []string{"b2b", "B2B"}, Languages: []string{"EN", "en-GB", "fra"},
		Vendors:    []string{"https://stripe.com", "not a domain", "www.stripe.com", "js.hubspot.com"},
		Subdomains: []string{"shop.acme.co.uk", "WWW", "https://blog.acme.co.uk/post", "acme.co.uk", "eu.API", "bad label!"},
		Keywords:   map[string]float64{" Payments ": 1, "payments": 0.5}, RedirectDomain: ptr("acme.co.uk"), MXProvider: "ASPMX.L.GOOGLE.COM",
		Description: "caf\xe9",
	}
	if err := Normalize(&c); err != nil {
		t.Fatal(err)
	}
	want := record.Company{
		Domain: "acme.co.uk", Name: "Acme", Status: record.Status{Status: "closed", Confidence: 1}, EndDate: ptr("2020-05-02"), StartDate: "1999-12-31",
		Address: record.Address{Country: "GB", State: "GB-ABD", City: "Aberdeen"}, Phones: []string{"+442079460018"},
		PublicEmails: []string{"info@acme.co.uk", "sales@acme.co.uk"}, SocialURLs: []string{"https://linkedin.com/company/acme", "https://x.com/acme"},
		IndustryGroups: map[string]float64{"FINANCIAL_SERVICES": 0.9, "SAAS": 0.5}, Employees: "1001-5000", RevenueRange: "10-100M",
		BusinessModels: []string{"B2B"}, Languages: []string{"en", "fr"}, Vendors: []string{"stripe.com", "hubspot.com"},
		Subdomains: []string{"shop", "www", "blog", "eu.api"}, Keywords: map[string]float64{"payments": 1}, MXProvider: "google.com",
		Description: "caf\uFFFD",
	}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("Normalize:\n got %+v\nwant %+v", c, want)
	}
	// Normalizing a normalized record changes nothing.
	again := c
	if err := Normalize(&again); err != nil || !reflect.DeepEqual(again, c) {
		t.Fatalf("not idempotent: %v\n%+v\n%+v", err, again, c)
	}
}

func TestNormalizeFields(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    record.Company
		check func(c record.Company) bool
	}{
		{"name defaults to the domain", record.Company{Domain: "acme.com"}, func(c record.Company) bool { return c.Name == "acme.com" }},
		{"status defaults to active with confidence 1", record.Company{Domain: "a.com"}, func(c record.Company) bool {
			return c.Status == record.Status{Status: "active", Confidence: 1}
		}},
		{"an active company has no end date", record.Company{Domain: "a.com", EndDate: ptr("2020-01-01")}, func(c record.Company) bool { return c.EndDate == nil }},
		{"empty end date is null", record.Company{Domain: "a.com", Status: record.Status{Status: "closed"}, EndDate: ptr("")}, func(c record.Company) bool { return c.EndDate == nil }},
		{"country by alpha-3 and state by local code", record.Company{Domain: "a.com", Address: record.Address{Country: "usa", State: "ca"}},
			func(c record.Company) bool { return c.Address.Country == "US" && c.Address.State == "US-CA" }},
		{"state by name with accents", record.Company{Domain: "a.de", Address: record.Address{Country: "DE", State: "Baden-Wurttemberg"}},
			func(c record.Company) bool { return c.Address.State == "DE-BW" }},
		{"national phone needs the country", record.Company{Domain: "a.com", Phones: []string{"(512) 555-0100"}},
			func(c record.Company) bool { return c.Phones == nil }},
		{"national phone in its country", record.Company{Domain: "a.com", Address: record.Address{Country: "US"}, Phones: []string{"(201) 555-0123"}},
			func(c record.Company) bool { return reflect.DeepEqual(c.Phones, []string{"+12015550123"}) }},
		{"industry labels with separators", record.Company{Domain: "a.com", IndustryGroups: map[string]float64{"Food & Beverage": 1, "e-commerce": 0.5}},
			func(c record.Company) bool {
				return reflect.DeepEqual(c.IndustryGroups, map[string]float64{"FOOD_BEVERAGE": 1, "E_COMMERCE": 0.5})
			}},
		{"head count to bucket", record.Company{Domain: "a.com", Employees: "10"}, func(c record.Company) bool { return c.Employees == "1-10" }},
		{"bucket with thousands separator", record.Company{Domain: "a.com", Employees: "10,001+"}, func(c record.Company) bool { return c.Employees == "10001+" }},
		{"revenue with suffix", record.Company{Domain: "a.com", RevenueRange: "2.5B"}, func(c record.Company) bool { return c.RevenueRange == ">1B" }},
		{"revenue bucket", record.Company{Domain: "a.com", RevenueRange: "<1M"}, func(c record.Company) bool { return c.RevenueRange == "<1M" }},
		{"redirect to another domain", record.Company{Domain: "a.com", RedirectDomain: ptr("https://www.b.com/x")},
			func(c record.Company) bool { return c.RedirectDomain != nil && *c.RedirectDomain == "b.com" }},
		{"invalid redirect dropped", record.Company{Domain: "a.com", RedirectDomain: ptr("nope")}, func(c record.Company) bool { return c.RedirectDomain == nil }},
		{"mail provider that is not a domain", record.Company{Domain: "a.com", MXProvider: " Google Workspace "},
			func(c record.Company) bool { return c.MXProvider == "google workspace" }},
		{"lists are capped", record.Company{Domain: "a.com", Vendors: manyDomains(150)}, func(c record.Company) bool { return len(c.Vendors) == MaxVendors }},
		{"long lists are de-duplicated", record.Company{Domain: "a.com", Vendors: append(manyDomains(20), manyDomains(20)...)},
			func(c record.Company) bool { return len(c.Vendors) == 20 }},
		{"email in a domain column gives its domain", record.Company{Domain: "jane@acme.com"}, func(c record.Company) bool { return c.Domain == "acme.com" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.in
			if err := Normalize(&c); err != nil {
				t.Fatal(err)
			}
			if !tc.check(c) {
				t.Fatalf("normalized to %+v", c)
			}
		})
	}
}

func manyDomains(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "vendor" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ".com"
	}
	return out
}

func TestNormalizeRejects(t *testing.T) {
	for _, tc := range []struct {
		in   record.Company
		want string
	}{
		{record.Company{}, "domain: invalid domain: empty"},
		{record.Company{Domain: "not a domain"}, `domain: invalid domain "not a domain"`},
		{record.Company{Domain: "localhost"}, "domain: invalid domain"},
		{record.Company{Domain: "a.com", Address: record.Address{Country: "Narnia"}}, `country: "Narnia" is not an ISO 3166-1 code or a country name`},
		{record.Company{Domain: "a.com", Address: record.Address{Country: "US", State: "Bavaria"}}, `state: "Bavaria" is not a subdivision of US`},
		{record.Company{Domain: "a.com", Address: record.Address{State: "CA"}}, `state: "CA" needs a country`},
		{record.Company{Domain: "a.com", IndustryGroups: map[string]float64{"ROCKETRY": 1}}, `industry_groups: "ROCKETRY" is not one of the 53 industry labels`},
		{record.Company{Domain: "a.com", IndustryGroups: map[string]float64{"SAAS": math.NaN()}}, "industry_groups: score NaN of SAAS"},
		{record.Company{Domain: "a.com", Employees: "lots"}, `employees: "lots" is neither a head count nor one of 1-10, 11-50`},
		{record.Company{Domain: "a.com", Employees: "0"}, `employees: "0" is neither`},
		{record.Company{Domain: "a.com", RevenueRange: "big"}, `revenue_range: "big" is neither a USD amount`},
		{record.Company{Domain: "a.com", Score: 900}, "score: 900 is outside 0-800"},
		{record.Company{Domain: "a.com", Score: -1}, "score: -1 is outside 0-800"},
		{record.Company{Domain: "a.com", StartDate: "yesterday"}, `start_date: "yesterday" is not a YYYY-MM-DD date`},
		{record.Company{Domain: "a.com", UpdateDate: "2021-02-30"}, `update_date: "2021-02-30" is not a YYYY-MM-DD date`},
		{record.Company{Domain: "a.com", EndDate: ptr("31/12/2020")}, `end_date: "31/12/2020"`},
		{record.Company{Domain: "a.com", Status: record.Status{Status: "bankrupt"}}, `status: "bankrupt" is not active or closed`},
		{record.Company{Domain: "a.com", Status: record.Status{Confidence: 1.5}}, "status confidence: 1.5 is outside 0-1"},
		{record.Company{Domain: "a.com", BusinessModels: []string{"B2B", "B2X"}}, `business_models: "B2X" is not one of B2B, B2C`},
		{record.Company{Domain: "a.com", Languages: []string{"english"}}, `languages: "english" is not a two-letter ISO 639-1 language code`},
		{record.Company{Domain: "a.com", Keywords: map[string]float64{"x": math.Inf(1)}}, `keywords: score of "x" is not a number`},
	} {
		c := tc.in
		err := Normalize(&c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Normalize(%+v) = %v, want %q", tc.in, err, tc.want)
		}
	}
	c := record.Company{Domain: "bad domain"}
	if err := Normalize(&c); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("a domain error does not wrap domain.ErrInvalid: %v", err)
	}
}

// TestNormalizeRejectsInKeyOrder: with several bad entries in a map, the
// reason names the first in key order, the same on every run whatever the
// map's iteration order.
func TestNormalizeRejectsInKeyOrder(t *testing.T) {
	for range 50 {
		c := record.Company{Domain: "a.com", IndustryGroups: map[string]float64{"ZOOLOGY": 1, "SAAS": 0.5, "ROCKETRY": 0.9, "Alchemy": 0.2}}
		if err := Normalize(&c); err == nil || !strings.Contains(err.Error(), `"Alchemy"`) {
			t.Fatalf("industries: %v, want the reason to name Alchemy", err)
		}
		c = record.Company{Domain: "a.com", Keywords: map[string]float64{"zeta": math.NaN(), "beta": math.Inf(-1), "alpha": 1, "gamma": math.NaN()}}
		if err := Normalize(&c); err == nil || !strings.Contains(err.Error(), `"beta"`) {
			t.Fatalf("keywords: %v, want the reason to name beta", err)
		}
	}
}

// TestNormalizeLeavesInputSlices: lists are rewritten into new slices, so a
// caller's shared slices (a generator's vocabulary) are not modified.
func TestNormalizeLeavesInputSlices(t *testing.T) {
	vendors := []string{"https://stripe.com", "stripe.com", "hubspot.com"}
	c := record.Company{Domain: "a.com", Vendors: vendors}
	if err := Normalize(&c); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(vendors, []string{"https://stripe.com", "stripe.com", "hubspot.com"}) {
		t.Fatalf("input slice modified: %v", vendors)
	}
	if !reflect.DeepEqual(c.Vendors, []string{"stripe.com", "hubspot.com"}) {
		t.Fatalf("vendors %v", c.Vendors)
	}
}

// FuzzNormalize: any record from the JSON decoder normalizes without
// panicking, and a normalized record normalizes to itself.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		`{"domain":"https://www.acme.co.uk","status":"closed","end_date":"2020-01-01T00:00:00Z","address":{"country":"gb","state":"aberdeenshire"},"phones":["020 7946 0018"]}`,
		`{"domain":"a.com","industry_groups":["saas","food & beverage"],"employees":"1,200","revenue_range":"3.5M","languages":["en-US"]}`,
		`{"domain":"a.com","vendors":["stripe.com","x"],"subdomains":["www.a.com","shop"],"public_emails":["A <a@A.com>"],"keywords":{" K ":1}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var c record.Company
		if decodeJSONCompany(b, &c) != nil {
			return
		}
		if Normalize(&c) != nil {
			return
		}
		again := c
		if err := Normalize(&again); err != nil {
			t.Fatalf("a normalized record is refused: %v\n%+v", err, c)
		}
		if !reflect.DeepEqual(again, c) {
			t.Fatalf("not idempotent:\n%+v\n%+v", c, again)
		}
	})
}

func TestPlainQuarter(t *testing.T) {
	for _, q := range []record.Quarter{"2025-Q4", "1900-Q1", "1899-Q4", "2025-Q0", "2025-Q5", "2025-q4", "+025-Q4", "2025-Q44", "2025Q4", "", "0999-Q1", "9999-Q4", " 202-Q1"} {
		_, _, err := q.Parse()
		if plainQuarter(q) && err != nil {
			t.Errorf("plainQuarter(%q) but Parse: %v", q, err)
		}
		if len(q) == 7 && q[4] == '-' && !plainQuarter(q) && err == nil && q[0] != '+' && q[0] != ' ' {
			t.Errorf("plainQuarter(%q) false, Parse accepts it", q)
		}
	}
}

// plainDate agrees with time.Parse on every day of four centuries and on
// strings near the format.
func TestPlainDate(t *testing.T) {
	check := func(s string) {
		t.Helper()
		d, err := time.Parse(time.DateOnly, s)
		want := err == nil && d.Format(time.DateOnly) == s
		if got := plainDate(s); got != want {
			t.Fatalf("plainDate(%q) = %v, time.Parse %v", s, got, err)
		}
	}
	for y := 1800; y <= 2200; y++ {
		for m := 0; m <= 13; m++ {
			for d := 0; d <= 32; d++ {
				check(fmt.Sprintf("%04d-%02d-%02d", y, m, d))
			}
		}
	}
	for _, s := range []string{"0000-01-01", "9999-12-31", "2024-1-01", "2024-01-1", "2024/01/01", "2024-01-01 ", "+024-01-01",
		"2024-0a-01", "20240101", "", "2024-02-29", "2023-02-29", "1900-02-29", "2000-02-29", "-024-01-01"} {
		check(s)
	}
}

// normalizeSocialURLReference is normalizeSocialURL without plainWebURL.
func normalizeSocialURLReference(s string) string {
	if strings.ContainsAny(s, " \t\r\n\"<>") {
		return ""
	}
	if !strings.Contains(s, "://") {
		s = "https://" + strings.TrimPrefix(s, "//")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.Contains(u.Hostname(), ".") {
		return ""
	}
	return s
}

func FuzzSocialURL(f *testing.F) {
	for _, s := range []string{
		"https://www.facebook.com/acme", "http://x.com/acme?ref=1#top", "linkedin.com/company/acme", "//x.com/a",
		"https://a.com:443/x", "https://user@a.com/x", "https://a.com/%zz", "https://a.com/%41", "https://a.com?x=%", "https://a.com#%",
		"https://[::1]/x", "https://localhost/x", "HTTPS://A.COM/", "ftp://a.com/", "https://a_b.com/ü", "https://a.com/\x7f",
		"https://.com", "https://a.com./x", "https://a..com/", "https:///a.com", "https://a.com\\x", "https://a.com/#\x01",
		"https://a.com/\"x", "https://a.com/<x>", "https://a.com/x>", "a.com/<x", "https://a.com/x y", "https://a.com/x\ty",
		"http://a.com/\r", "//a.com/\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := normalizeSocialURL(s), normalizeSocialURLReference(s); got != want {
			t.Fatalf("normalizeSocialURL(%q) = %q, reference %q", s, got, want)
		}
	})
}

// canonicalIndustries relies on the labels being their own canonical form.
func TestIndustryLabelsCanonical(t *testing.T) {
	for _, l := range record.Industries {
		if got := industryLabel(l); got != l {
			t.Errorf("industryLabel(%q) = %q", l, got)
		}
	}
	for _, in := range []map[string]float64{
		{"SAAS": 1}, {"SAAS": 1, "SOFTWARE": 0.5}, {"SAAS": 0}, {"SAAS": math.Copysign(0, -1)}, {"SAAS": -1},
		{"SAAS": math.NaN()}, {"SAAS": math.Inf(1)}, {"saas": 1}, {"SAAS ": 1}, {"SAAS": 1, "saas": 2}, {"NOPE": 1},
		{"SAAS": 1, "SOFTWARE": 0.5, "FINTECH": 0.7},
	} {
		got, err := normalizeIndustries(in)
		canon := len(in) <= 2 && canonicalIndustries(in)
		if canon && (err != nil || !reflect.DeepEqual(got, in)) {
			t.Errorf("canonical %v normalizes to %v, %v", in, got, err)
		}
	}
}

var keywordCases = []string{
	"", " ", "a", "stem toys", "Stem toys", " stem", "stem ", "stem\t", "\vstem", "stem\f", "\rstem", "stem\n",
	"a\tb", "a  b", "x\x00", "\x00x", "zürich", "Zürich", "ZÜRICH", "\u00a0stem", "stem\u0085", "stem\u2003",
	"\xff", "a\xffb", "İstanbul", "ǅ", "ǆ", "ꭰ", "\u212a", "k8s", "c++", "@home", "[x]", "Z", "z", "_",
}

// TestCanonicalKeyword compares the ASCII pass with the general check.
func TestCanonicalKeyword(t *testing.T) {
	for _, k := range keywordCases {
		if got, want := canonicalKeyword(k), canonicalKeywordUnicode(k); got != want {
			t.Errorf("canonicalKeyword(%q) = %v, want %v", k, got, want)
		}
	}
}

func FuzzCanonicalKeyword(f *testing.F) {
	for _, k := range keywordCases {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, k string) {
		if got, want := canonicalKeyword(k), canonicalKeywordUnicode(k); got != want {
			t.Errorf("canonicalKeyword(%q) = %v, want %v", k, got, want)
		}
	})
}

var subdomainCases = [][2]string{
	{"www", "acme.com"}, {"blog", "acme.com"}, {"WWW", "acme.com"}, {"eu.api", "acme.com"}, {"shop.acme.com", "acme.com"},
	{"https://shop.acme.com/x", "acme.com"}, {"acme.com", "acme.com"}, {"-x", "acme.com"}, {"x-", "acme.com"},
	{"a_b", "acme.com"}, {"", "acme.com"}, {"x:80", "acme.com"}, {"shop.", "acme.com"}, {"com", "com"}, {"acme", "acme"},
	{strings.Repeat("a", 63), "acme.com"}, {strings.Repeat("a", 64), "acme.com"}, {"ünï", "acme.com"}, {"a b", "acme.com"},
	{"x.acme.com.acme.com", "acme.com"}, {"0", "acme.com"}, {"xn--mnchen-3ya", "acme.com"}, {"a/b", "acme.com"},
}

// TestSubdomainOf compares subdomainOf, with its one-label fast path, with
// the general path.
func TestSubdomainOf(t *testing.T) {
	for _, tc := range subdomainCases {
		if got, want := subdomainOf(tc[0], tc[1]), subdomainOfHost(tc[0], tc[1]); got != want {
			t.Errorf("subdomainOf(%q, %q) = %q, want %q", tc[0], tc[1], got, want)
		}
	}
}

func FuzzSubdomainOf(f *testing.F) {
	for _, tc := range subdomainCases {
		f.Add(tc[0], tc[1])
	}
	f.Fuzz(func(t *testing.T, s, root string) {
		if got, want := subdomainOf(s, root), subdomainOfHost(s, root); got != want {
			t.Errorf("subdomainOf(%q, %q) = %q, want %q", s, root, got, want)
		}
	})
}
