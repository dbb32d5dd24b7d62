package query

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/record"
)

const corpusSize = 4000

var fixture struct {
	once    sync.Once
	err     error
	dir     string
	eng     *embedded.Engine
	gen     *demo.Generator
	all     []record.Company // as stored, in generator order
	byIndex map[string]int
}

// corpus loads a demo corpus into a real embedded engine once per test
// binary; tests only read it.
func corpus(t testing.TB) (*Companies, []record.Company) {
	t.Helper()
	f := &fixture
	f.once.Do(func() {
		f.dir, f.err = os.MkdirTemp("", "query-test-*")
		if f.err != nil {
			return
		}
		f.eng, f.err = embedded.Open(f.dir, embedded.Options{})
		if f.err != nil {
			return
		}
		f.gen = demo.New(demo.Options{Companies: corpusSize, Seed: 7})
		if _, f.err = (&ingest.Loader{Engine: f.eng}).Load(context.Background(), f.gen.Source()); f.err != nil {
			return
		}
		f.all, f.err = f.eng.GetCompanies(context.Background(), f.gen.Domains(corpusSize))
		f.byIndex = map[string]int{}
		for i, c := range f.all {
			f.byIndex[c.Domain] = i
		}
	})
	if f.err != nil {
		t.Fatal(f.err)
	}
	return &Companies{Engine: f.eng}, f.all
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fixture.eng != nil {
		fixture.eng.Close()
		os.RemoveAll(fixture.dir)
	}
	os.Exit(code)
}

func mustParse(t testing.TB, raw string) Discover {
	t.Helper()
	v, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	d, err := ParseDiscover(v)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return d
}

// baseline is what every discovery applies by default: active, not a
// redirect, not lead-gen, score 50-800.
func baseline(c record.Company) bool {
	return c.Status.Status == record.StatusActive && c.RedirectDomain == nil && !c.LeadGen() && c.Score >= 50 && c.Score <= 800
}

func hasAny(list []string, want ...string) bool {
	for _, w := range want {
		if slices.Contains(list, w) {
			return true
		}
	}
	return false
}

func inRange(bucketLo, bucketHi, lo, hi int64) bool { return bucketLo <= hi && bucketHi >= lo }

// TestCountMatchesOracle checks count and filter-only discovery against a
// brute-force evaluation of the same rules over every stored company.
func TestCountMatchesOracle(t *testing.T) {
	svc, all := corpus(t)
	vendor := all[0].Vendors[0]
	for _, tc := range []struct {
		query string
		want  func(c record.Company) bool
	}{
		{"", baseline},
		{"country=DACH&category=SOFTWARE,SAAS", func(c record.Company) bool {
			_, sw := c.IndustryGroups["SOFTWARE"]
			_, saas := c.IndustryGroups["SAAS"]
			return baseline(c) && hasAny([]string{c.Address.Country}, "DE", "AT", "CH") && (sw || saas)
		}},
		{"country=US&negate_state=California,US-TX", func(c record.Company) bool {
			return baseline(c) && c.Address.Country == "US" && c.Address.State != "US-CA" && c.Address.State != "US-TX"
		}},
		{"negate_country=US&negate_category=RETAIL", func(c record.Company) bool {
			_, retail := c.IndustryGroups["RETAIL"]
			return baseline(c) && c.Address.Country != "US" && !retail
		}},
		{"employee_range=50,500", func(c record.Company) bool {
			lo, hi, ok := record.EmployeeBucketRange(c.Employees)
			return baseline(c) && ok && inRange(int64(lo), int64(hi), 50, 500)
		}},
		{"employee_range=garbage", baseline},
		{"revenue_range=,5000000", func(c record.Company) bool {
			if !baseline(c) {
				return false
			}
			if c.RevenueRange == "" {
				return true // unknown revenue is included when the range reaches below 1M
			}
			lo, hi, _ := record.RevenueBucketRange(c.RevenueRange)
			return inRange(lo, hi, 0, 5_000_000)
		}},
		{"revenue_range=10000000,1000000000%2B", func(c record.Company) bool {
			lo, _, ok := record.RevenueBucketRange(c.RevenueRange)
			return baseline(c) && ok && lo >= 10_000_000
		}},
		{"business_model=B2B&business_model=B2G&negate_social=facebook", func(c record.Company) bool {
			return baseline(c) && hasAny(c.BusinessModels, "B2B", "B2G") && !slices.Contains(c.SocialNetworks(), "facebook")
		}},
		{"social=twitter", func(c record.Company) bool { return baseline(c) && hasAny(c.SocialNetworks(), "twitter", "x") }},
		{"language=de&negate_language=en", func(c record.Company) bool {
			return baseline(c) && slices.Contains(c.Languages, "de") && !slices.Contains(c.Languages, "en")
		}},
		{"redirect=true&exclude_leadgen=false&min_digital_footprint=0", func(c record.Company) bool {
			return c.Status.Status == record.StatusActive
		}},
		{"min_digital_footprint=300&max_digital_footprint=500", func(c record.Company) bool {
			return baseline(c) && c.Score >= 300 && c.Score <= 500
		}},
		{"tech_stack=" + vendor, func(c record.Company) bool { return baseline(c) && slices.Contains(c.Vendors, vendor) }},
		{"negate_tech_stack=" + vendor, func(c record.Company) bool { return baseline(c) && !slices.Contains(c.Vendors, vendor) }},
		{"subdomain=blog&negate_subdomain=shop", func(c record.Company) bool {
			return baseline(c) && slices.Contains(c.Subdomains, "blog") && !slices.Contains(c.Subdomains, "shop")
		}},
		{"start_date=2000-01-01,2010-12-31&min_digital_footprint=0", func(c record.Company) bool {
			return baseline(c) && c.StartDate >= "2000-01-01" && c.StartDate <= "2010-12-31"
		}},
		{"exclude_domain=" + all[1].Domain + "," + all[2].Domain, func(c record.Company) bool {
			return baseline(c) && c.Domain != all[1].Domain && c.Domain != all[2].Domain
		}},
		{"phrase_match=cloud&negate_phrase_match=security", func(c record.Company) bool {
			text := strings.ToLower(c.Description + " " + c.SiteText)
			return baseline(c) && containsWord(text, "cloud") && !containsWord(text, "security")
		}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			want := 0
			for _, c := range all {
				if tc.want(c) {
					want++
				}
			}
			d := mustParse(t, tc.query)
			got, _, err := svc.Count(context.Background(), d)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("count %d, oracle %d", got, want)
			}
			if want == 0 || want == len(all) {
				t.Logf("degenerate case: %d of %d match", want, len(all))
			}
			// Filter-only discovery returns the same set, ordered by score.
			d.MaxRecords, d.Offset = 10_000, 0
			res, err := svc.Discover(context.Background(), d)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Matches) != want || res.Total != want {
				t.Fatalf("discover returned %d (total %d), oracle %d", len(res.Matches), res.Total, want)
			}
			for i, m := range res.Matches {
				if !tc.want(m.Company) {
					t.Fatalf("result %s does not match", m.Company.Domain)
				}
				if m.Similarity != 0 || i > 0 && m.Company.Score > res.Matches[i-1].Company.Score {
					t.Fatalf("filter-only results must be ordered by score with similarity 0")
				}
			}
		})
	}
}

func containsWord(text, w string) bool {
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return !('a' <= r && r <= 'z' || '0' <= r && r <= '9') }) {
		if f == w {
			return true
		}
	}
	return false
}

func discover(t *testing.T, svc *Companies, raw string) Result {
	t.Helper()
	res, err := svc.Discover(context.Background(), mustParse(t, raw))
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return res
}

func TestLookalike(t *testing.T) {
	svc, all := corpus(t)
	var ex record.Company
	for _, c := range all {
		if baseline(c) && c.Address.Country == "US" {
			ex = c
			break
		}
	}
	res := discover(t, svc, "domain="+ex.Domain+"&max_records=20")
	if len(res.Matches) != 20 {
		t.Fatalf("%d results", len(res.Matches))
	}
	ind := ex.Industries()[0]
	same := 0
	for i, m := range res.Matches {
		if m.Company.Domain == ex.Domain {
			t.Fatal("the example domain is in its own results without include_search_domains")
		}
		if m.Similarity <= 0 || m.Similarity > 100 || i > 0 && m.Similarity > res.Matches[i-1].Similarity {
			t.Fatalf("similarities not in (0,100] descending: %v", m.Similarity)
		}
		if _, ok := m.Company.IndustryGroups[ind]; ok {
			same++
		}
	}
	if same < 14 {
		t.Errorf("only %d of the top 20 lookalikes share the example's industry %s", same, ind)
	}
	with := discover(t, svc, "domain="+ex.Domain+"&max_records=20&include_search_domains=true")
	if with.Matches[0].Company.Domain != ex.Domain || with.Matches[0].Similarity < 99.9 {
		t.Errorf("include_search_domains: first result %s %.2f", with.Matches[0].Company.Domain, with.Matches[0].Similarity)
	}
	// Filters restrict lookalikes too, and paging is consistent.
	us := discover(t, svc, "domain="+ex.Domain+"&country=US&max_records=10")
	page2 := discover(t, svc, "domain="+ex.Domain+"&country=US&max_records=5&offset=5")
	for i, m := range us.Matches {
		if m.Company.Address.Country != "US" {
			t.Fatalf("%s is not in the US", m.Company.Domain)
		}
		if i >= 5 && page2.Matches[i-5].Company.Domain != m.Company.Domain {
			t.Fatalf("offset page differs at %d", i)
		}
	}
	// exclude_domain leaves the ranking alone and drops the domain.
	first := us.Matches[0].Company.Domain
	ex2 := discover(t, svc, "domain="+ex.Domain+"&country=US&max_records=10&exclude_domain="+first)
	if ex2.Matches[0].Company.Domain != us.Matches[1].Company.Domain {
		t.Errorf("exclude_domain changed the ranking")
	}
	// min_similarity and variance cut the tail.
	cut := discover(t, svc, "domain="+ex.Domain+"&min_similarity=90&max_records=10000")
	for _, m := range cut.Matches {
		if m.Similarity < 90 {
			t.Fatalf("similarity %.2f below min_similarity 90", m.Similarity)
		}
	}
	if cut.Total != len(cut.Matches) {
		t.Errorf("total %d, returned %d", cut.Total, len(cut.Matches))
	}
	low := discover(t, svc, "domain="+ex.Domain+"&variance=LOW&max_records=10000")
	top := low.Matches[0].Similarity
	for _, m := range low.Matches {
		if m.Similarity < top-5.01 {
			t.Fatalf("variance LOW kept %.2f with the best at %.2f", m.Similarity, top)
		}
	}
	n, _, err := svc.Count(context.Background(), mustParse(t, "domain="+ex.Domain+"&variance=LOW"))
	if err != nil || n != low.Total {
		t.Errorf("count with variance %d, discover total %d (%v)", n, low.Total, err)
	}
}

func TestNegationPushesAway(t *testing.T) {
	svc, all := corpus(t)
	var a, b record.Company
	for _, c := range all {
		if !baseline(c) {
			continue
		}
		switch {
		case a.Domain == "":
			a = c
		case b.Domain == "" && c.Industries()[0] != a.Industries()[0]:
			b = c
		}
	}
	plain := discover(t, svc, "domain="+a.Domain+"&max_records=50")
	pushed := discover(t, svc, "domain="+a.Domain+"&negate_domain="+b.Domain+"&max_records=50")
	vecs, _ := svc.Engine.CompanyVectors(context.Background(), []string{b.Domain})
	avgSim := func(r Result) float64 {
		var doms []string
		for _, m := range r.Matches {
			doms = append(doms, m.Company.Domain)
		}
		vs, _ := svc.Engine.CompanyVectors(context.Background(), doms)
		s := 0.0
		for _, v := range vs {
			s += float64(dot(v, vecs[b.Domain]))
		}
		return s / float64(len(vs))
	}
	if avgSim(pushed) >= avgSim(plain) {
		t.Errorf("negate_domain did not move results away: %.3f >= %.3f", avgSim(pushed), avgSim(plain))
	}
}

func TestTextInputs(t *testing.T) {
	svc, all := corpus(t)
	var ex record.Company
	for _, c := range all {
		if baseline(c) && len(c.Keywords) > 3 {
			ex = c
			break
		}
	}
	// icp_text ranks by the text's vector.
	res := discover(t, svc, "icp_text="+url.QueryEscape(ex.Description)+"&max_records=10")
	if len(res.Matches) == 0 || res.Matches[0].Similarity <= 0 {
		t.Fatalf("icp_text: %+v", res)
	}
	// auto_icp_text writes a text from the examples.
	auto := discover(t, svc, "domain="+ex.Domain+"&auto_icp_text=true&max_records=10")
	if !strings.HasPrefix(auto.Applied.ICPText, "Companies offering ") {
		t.Errorf("auto_icp_text: applied icp_text %q", auto.Applied.ICPText)
	}
	// auto_phrase_match keeps only phrases found in the index, and applies them.
	ph := discover(t, svc, "domain="+ex.Domain+"&auto_icp_text=true&auto_phrase_match=true&max_records=50")
	if len(ph.Applied.PhraseMatch) == 0 {
		t.Fatalf("auto_phrase_match generated nothing (notes %v)", ph.Applied.Notes)
	}
	for _, m := range ph.Matches {
		text := strings.ToLower(m.Company.Description + " " + m.Company.SiteText)
		ok := false
		for _, p := range ph.Applied.PhraseMatch {
			ok = ok || strings.Contains(text, strings.ToLower(p))
		}
		if !ok {
			t.Fatalf("%s contains none of %v", m.Company.Domain, ph.Applied.PhraseMatch)
		}
	}
	// enhanced explains matches.
	en := discover(t, svc, "domain="+ex.Domain+"&enhanced=true&max_records=5")
	for _, m := range en.Matches {
		if m.Reasons == nil {
			t.Fatal("enhanced=true without reasons")
		}
	}
	if len(en.Matches[0].Reasons) == 0 {
		t.Error("the best lookalike shares nothing with its example")
	}
	// consensus changes the query but keeps results relevant.
	cons := discover(t, svc, "domain="+ex.Domain+"&consensus=10&max_records=10")
	if cons.Applied.Consensus != 10 || len(cons.Matches) != 10 {
		t.Errorf("consensus: %+v", cons.Applied)
	}
}

func TestPromptDiscovery(t *testing.T) {
	svc, _ := corpus(t)
	res := discover(t, svc, "icp_prompt="+url.QueryEscape("software companies in the United States with 11-200 employees")+"&max_records=20")
	a := res.Applied
	if !slices.Equal(a.Country, []string{"US"}) || !slices.Equal(a.Category, []string{"SOFTWARE"}) ||
		!slices.Equal(a.EmployeeRange, []string{"11-50", "51-200"}) || a.ICPText != "software companies" || len(a.SuggestedDomain) == 0 {
		t.Fatalf("applied %+v", a)
	}
	for _, m := range res.Matches {
		c := m.Company
		if _, ok := c.IndustryGroups["SOFTWARE"]; !ok || c.Address.Country != "US" || (c.Employees != "11-50" && c.Employees != "51-200") {
			t.Fatalf("%s breaks the prompt's filters: %v %s %s", c.Domain, c.IndustryGroups, c.Address.Country, c.Employees)
		}
	}
	// Explicit parameters win over the prompt.
	res = discover(t, svc, "icp_prompt="+url.QueryEscape("software companies in Germany")+"&country=FR")
	if !slices.Equal(res.Applied.Country, []string{"FR"}) {
		t.Errorf("explicit country lost: %v", res.Applied.Country)
	}
}

func TestVendorFromPrompt(t *testing.T) {
	svc, all := corpus(t)
	vendor := all[0].Vendors[0] // e.g. shopify.com
	name := strings.TrimSuffix(vendor, ".com")
	if name == vendor {
		t.Skipf("vendor %s is not a .com", vendor)
	}
	res := discover(t, svc, "icp_prompt="+url.QueryEscape("companies using "+strings.ToUpper(name[:1])+name[1:]))
	if !slices.Equal(res.Applied.TechStack, []string{vendor}) {
		t.Fatalf("tech stack %v, want %s", res.Applied.TechStack, vendor)
	}
	res = discover(t, svc, "icp_prompt="+url.QueryEscape("companies using Nonexistentvendorxyz"))
	if len(res.Applied.TechStack) != 0 || len(res.Applied.Notes) == 0 {
		t.Fatalf("unknown vendor: %+v", res.Applied)
	}
}

func TestScoreFloorCappedByAge(t *testing.T) {
	svc, all := corpus(t)
	// Companies founded in the last two years have small footprints; a
	// floor of 700 with such a start_date is capped, not an empty result.
	from := "2024-01-01"
	young := 0
	for _, c := range all {
		if c.StartDate >= from && c.Status.Status == record.StatusActive {
			young++
		}
	}
	if young < 20 {
		t.Skipf("only %d young companies", young)
	}
	res := discover(t, svc, "start_date="+from+"&min_digital_footprint=700")
	if res.Applied.FootprintFloorCapped == nil || *res.Applied.FootprintFloorCapped != 700 || res.Applied.MinDigitalFootprint >= 700 {
		t.Fatalf("floor not capped: %+v", res.Applied)
	}
	if len(res.Matches) == 0 {
		t.Fatal("capped floor still returns nothing")
	}
	for _, m := range res.Matches {
		if m.Company.Score < res.Applied.MinDigitalFootprint || m.Company.StartDate < from {
			t.Fatalf("%s: score %d start %s", m.Company.Domain, m.Company.Score, m.Company.StartDate)
		}
	}
}

func TestDiscoverErrors(t *testing.T) {
	svc, _ := corpus(t)
	var qe *Error
	_, err := svc.Discover(context.Background(), mustParse(t, "domain=unknown-domain-xyz.com"))
	if !errors.As(err, &qe) || qe.Status != http.StatusUnprocessableEntity || qe.Params[0].Param != "domain" {
		t.Errorf("unknown example domain: %v", err)
	}
	_, err = svc.Discover(context.Background(), mustParse(t, "inclusion_query_id=q1&exclusion_query_id=q2"))
	if !errors.As(err, &qe) || qe.Status != http.StatusNotFound || len(qe.Params) != 1 {
		t.Errorf("unknown saved query: %v", err)
	}
	// An empty index has no embedder: text inputs fail with ErrNoEmbedder.
	eng, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	empty := &Companies{Engine: eng}
	if _, err := empty.Discover(context.Background(), mustParse(t, "icp_text=payroll software")); !errors.Is(err, ErrNoEmbedder) {
		t.Errorf("empty index: %v", err)
	}
	if n, _, err := empty.Count(context.Background(), mustParse(t, "")); err != nil || n != 0 {
		t.Errorf("empty index count: %d %v", n, err)
	}
}

// profileCounter counts the profiles read through GetCompanies.
type profileCounter struct {
	CompanyIndex
	mu    sync.Mutex
	reads int
}

func (p *profileCounter) GetCompanies(ctx context.Context, domains []string) ([]record.Company, error) {
	p.mu.Lock()
	p.reads += len(domains)
	p.mu.Unlock()
	return p.CompanyIndex.GetCompanies(ctx, domains)
}

// TestLookalikeReadsExamplesOnlyWhenUsed: the examples' profiles are read
// for the automatic texts and match reasons only; a plain lookalike reads
// none, and its page is the same.
func TestLookalikeReadsExamplesOnlyWhenUsed(t *testing.T) {
	s, all := corpus(t)
	ctx := context.Background()
	ex := "domain=" + all[10].Domain + "&domain=" + all[11].Domain + "&max_records=20"
	for _, tc := range []struct {
		query string
		reads int
	}{
		{ex, 0},
		{ex + "&icp_text=industrial+tools", 0},
		{ex + "&enhanced=true", 2},
		{ex + "&auto_icp_text=true", 2},
		{ex + "&auto_phrase_match=true&icp_text=industrial+tools", 2},
		{ex + "&auto_phrase_match=true&phrase_match=tools", 0},
		{ex + "&auto_icp_text=true&icp_text=industrial+tools", 0},
	} {
		pc := &profileCounter{CompanyIndex: s.Engine}
		got, err := (&Companies{Engine: pc}).Discover(ctx, mustParse(t, tc.query))
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		if pc.reads != tc.reads {
			t.Errorf("%s: %d example profiles read, want %d", tc.query, pc.reads, tc.reads)
		}
		want, err := s.Discover(ctx, mustParse(t, tc.query))
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Matches) == 0 || !slices.EqualFunc(got.Matches, want.Matches, func(a, b Match) bool {
			return a.Company.Domain == b.Company.Domain && a.Similarity == b.Similarity && slices.Equal(a.Reasons, b.Reasons)
		}) {
			t.Errorf("%s: pages differ", tc.query)
		}
	}
}
