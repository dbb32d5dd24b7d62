package query

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

func parseBody(t *testing.T, body string) (ContactDiscover, *Error) {
	t.Helper()
	d, err := ParseContactBody([]byte(body))
	if err == nil {
		return d, nil
	}
	var qe *Error
	if !errors.As(err, &qe) {
		t.Fatalf("%s: %T %v", body, err, err)
	}
	return d, qe
}

func TestParseContactBody(t *testing.T) {
	d, qe := parseBody(t, `{}`)
	if qe != nil || d.MaxRecords != 100 || d.PerCompany != 5 || d.Consensus != 1 || d.Similarity() {
		t.Fatalf("defaults %+v %v", d, qe)
	}
	d, qe = parseBody(t, `{"persona_id": [3, 4], "seniority": "VP", "department": ["Sales - Marketing"], "skills": "Go",
		"title": ["+\"head of\"", "CTO"], "person_country": "DACH", "filter_country": "US", "filter_state": ["California"],
		"has_email": true, "min_connections": 500, "jobstart_date": "2020-01-01,2024-12-31", "employee_range": "50,",
		"max_companies": 10, "results_by_company": 0, "offset": 20, "revenue_range": "1000000,"}`)
	if qe != nil {
		t.Fatal(qe)
	}
	if !reflect.DeepEqual(d.PersonaIDs, []int64{3, 4}) || d.Seniority[0] != "vp" || d.Skills[0] != "go" || len(d.Title) != 2 ||
		!d.Title[0].Required || !d.Title[0].Literal || len(d.PersonCountry) != 3 || d.State[0] != "US-CA" || !d.HasEmail ||
		d.MinConnections != 500 || d.JobTo != "2024-12-31" || d.MaxCompanies != 10 || d.MaxRecords != 0 || d.Offset != 20 ||
		!d.RevenueIgnored || !d.Similarity() {
		t.Fatalf("parsed %+v", d)
	}
	// A non-zero results_by_company forces offset 0.
	if d, _ := parseBody(t, `{"offset": 40}`); d.Offset != 0 {
		t.Errorf("offset with results_by_company 5: %d", d.Offset)
	}
	for _, tc := range []struct {
		body   string
		status int
		param  string
		rule   string
	}{
		{`{"department": "sales - marketing"}`, 422, "department", "canonical"},
		{`{"department": "Sales"}`, 422, "department", "canonical"},
		// Wrong JSON types are refused with 422, never coerced.
		{`{"persona_id": "abc"}`, 422, "persona_id", "must be an integer"},
		{`{"persona_id": [3, "4"]}`, 422, "persona_id", "must be an integer"},
		{`{"persona_id": [1.5]}`, 422, "persona_id", "must be an integer"},
		{`{"persona_id": [0]}`, 422, "persona_id", "positive integer"},
		{`{"icp_prompt": 123}`, 422, "icp_prompt", "must be a string"},
		{`{"icp_text": ["a", "b"]}`, 422, "icp_text", "not an array"},
		{`{"has_email": "yes"}`, 422, "has_email", "must be a boolean"},
		{`{"max_records": "50"}`, 422, "max_records", "must be an integer"},
		{`{"max_records": 50.5}`, 422, "max_records", "must be an integer"},
		{`{"skills": [1]}`, 422, "skills", "must be a string"},
		{`{"persona_id": [1,2,3,4,5,6,7,8,9,10,11]}`, 422, "persona_id", "at most 10"},
		{`{"max_records": 10, "max_companies": 5}`, 422, "max_companies", "not both"},
		{`{"max_records": 19}`, 422, "max_records", "between 20 and 10000"},
		{`{"max_companies": 0}`, 422, "max_companies", "between 1"},
		{`{"results_by_company": 101}`, 422, "results_by_company", "between 0 and 100"},
		{`{"consensus": 21}`, 422, "consensus", "between 1 and 20"},
		{`{"seniority": "intern"}`, 422, "seniority", "not one of"},
		{`{"person_country": ["US", "DE"], "person_state": "Texas"}`, 422, "person_state", "single country"},
		{`{"title": ["\"open"]}`, 422, "title", "unbalanced"},
		{`{"colour": "red"}`, 422, "colour", "unknown parameter"},
		{`{"skills": {"a": 1}}`, 422, "skills", "must be a string"},
		{`[1,2]`, 400, "body", "JSON object"},
		{`{"jobstart_date": "yesterday"}`, 422, "jobstart_date", "YYYY-MM-DD"},
	} {
		_, qe := parseBody(t, tc.body)
		if qe == nil {
			t.Errorf("%s accepted", tc.body)
			continue
		}
		found := false
		for _, p := range qe.Params {
			found = found || p.Param == tc.param && strings.Contains(p.Rule, tc.rule)
		}
		if qe.Status != tc.status || !found {
			t.Errorf("%s: %d %v, want %d %s: ...%s...", tc.body, qe.Status, qe.Params, tc.status, tc.param, tc.rule)
		}
	}
}

func TestParseContactQuery(t *testing.T) {
	v, _ := url.ParseQuery("seniority=vp&seniority=director&title=cto&title=%2Bsecurity&max_records=50")
	d, err := ParseContactQuery(v)
	if err != nil || len(d.Seniority) != 2 || len(d.Title) != 2 || d.MaxRecords != 50 {
		t.Fatalf("%+v %v", d, err)
	}
	v, _ = url.ParseQuery("persona_id=x")
	if _, err := ParseContactQuery(v); err == nil || err.(*Error).Status != http.StatusUnprocessableEntity {
		t.Fatalf("non-integer persona_id: %v", err)
	}
}

func FuzzParseContactBody(f *testing.F) {
	f.Add([]byte(`{"persona_id":[1],"title":["+\"vp sales\"","cto"],"department":"Finance","max_companies":5}`))
	f.Add([]byte(`{"person_country":"EU","person_state":"x","jobstart_date":"2020-01-01,"}`))
	f.Add([]byte(`{"icp_prompt":123,"persona_id":["4",1e3],"has_email":"true","skills":[["go"]],"x":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ParseContactBody(b)
		if err != nil {
			var qe *Error
			if !errors.As(err, &qe) || len(qe.Params) == 0 || (qe.Status != 400 && qe.Status != 422) {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if d.MaxRecords != 0 && d.MaxCompanies != 0 || len(d.PersonaIDs) > MaxPersonaIDs || d.PerCompany > MaxPerCompany ||
			d.PerCompany != 0 && d.Offset != 0 {
			t.Fatalf("accepted out of limits: %+v", d)
		}
		for _, dep := range d.Department {
			if !record.IsDepartment(dep) {
				t.Fatalf("non-canonical department %q", dep)
			}
		}
	})
}

func TestInferEmailPattern(t *testing.T) {
	c := func(name, email string, valid bool) record.Contact {
		return record.Contact{Name: name, Email: email, EmailValidated: valid}
	}
	p := InferEmailPattern("acme.com", []record.Contact{
		c("Ana García", "ana.garcia@acme.com", true),
		c("Bob Stone", "bob.stone@acme.com", false),
		c("Jürgen Müller", "jurgen.muller@acme.com", false),
		c("Cleo Park", "cpark@acme.com", false),
		c("Ayşe Yılmaz", "ayse.yilmaz@acme.com", false),
		c("Other Domain", "other.domain@gmail.com", true),
	})
	if p.Pattern != "{first}.{last}@acme.com" || p.Guess != "jane.doe@acme.com" || p.Confidence != 0.71 {
		t.Fatalf("%+v", p)
	}
	if p := InferEmailPattern("acme.com", nil); p.Pattern != "" || p.Confidence != 0 {
		t.Fatalf("no evidence: %+v", p)
	}
	if p := InferEmailPattern("x.io", []record.Contact{c("Priya Shah", "pshah@x.io", true)}); p.Pattern != "{f}{last}@x.io" || p.Confidence != 0.67 {
		t.Fatalf("one validated address: %+v", p)
	}
}

func TestExtractPersona(t *testing.T) {
	for _, tc := range []struct {
		prompt                string
		seniority, department []string
		titles                []string
	}{
		{"VPs of sales at fintech companies", []string{"vp"}, []string{"Sales - Marketing"}, nil},
		{"CTOs and heads of engineering", []string{"executive", "director"}, []string{"Technology"}, []string{"CTO", "head of engineering"}},
		{"finance directors", []string{"director"}, []string{"Finance"}, nil},
	} {
		x := ExtractPersona(tc.prompt)
		if !reflect.DeepEqual(x.Seniority, tc.seniority) || !reflect.DeepEqual(x.Department, tc.department) || !reflect.DeepEqual(x.Titles, tc.titles) {
			t.Errorf("%q: %+v", tc.prompt, x)
		}
	}
}

func TestContactPromptRunsCompanyDiscovery(t *testing.T) {
	base, ce := contactCorpus(t)
	svc := &ContactService{Engine: ce, Companies: base}
	d, err := ParseContactBody([]byte(`{"icp_prompt": "founders at companies selling software", "max_records": 50}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := svc.Discover(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Notes) == 0 || !strings.Contains(res.Notes[len(res.Notes)-1], "company discovery") {
		t.Fatalf("notes %v", res.Notes)
	}
	cd, _ := ParseDiscover(url.Values{"icp_prompt": {"founders at companies selling software"}, "max_records": {"1000"}})
	cd.MinScore = 0
	companies, _ := base.Discover(context.Background(), cd)
	if len(res.Groups) == 0 {
		t.Fatal("no founders found at software companies")
	}
	found := map[string]bool{}
	for _, m := range companies.Matches {
		found[m.Company.Domain] = true
	}
	for _, g := range res.Groups {
		for _, c := range g.Contacts {
			if !found[c.Contact.Domain] {
				t.Fatalf("%s works at %s, which company discovery did not return", c.Contact.Name, c.Contact.Domain)
			}
			if c.Contact.Seniority != "executive" {
				t.Fatalf("%s is %s, not a founder/executive", c.Contact.Name, c.Contact.Seniority)
			}
		}
	}
}

// searchOnly hides an engine's optional capabilities (the resident
// email-pattern tallies), as an engine without them.
type searchOnly struct{ ContactIndex }

// TestEmailPatternsBatched: the patterns of many domains looked up
// together (several batches, a repeated domain, a domain without contacts,
// some already cached), from the embedded engine's resident tallies and
// from batched searches, equal each domain's pattern inferred from a
// search of that domain alone.
func TestEmailPatternsBatched(t *testing.T) {
	base, ce := contactCorpus(t)
	if _, ok := ce.(index.EmailPatternVoter); !ok {
		t.Fatal("the embedded engine does not tally email-pattern votes")
	}
	for _, eng := range []ContactIndex{ce, searchOnly{ce}} {
		checkEmailPatterns(t, &ContactService{Engine: eng, Companies: base}, ce)
	}
}

func checkEmailPatterns(t *testing.T, svc *ContactService, ce index.ContactEngine) {
	ctx := context.Background()
	var domains []string
	for i := 0; i < 130; i++ {
		domains = append(domains, fixture.gen.ContactsOf(i)[0].Domain)
	}
	domains = append(domains, "no-contacts.example", domains[3])
	if _, err := svc.emailPattern(ctx, domains[7]); err != nil { // cached before the batch
		t.Fatal(err)
	}
	got, err := svc.emailPatterns(ctx, domains)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for i, d := range domains {
		res, err := ce.SearchContacts(ctx, index.ContactSearch{MinSimilarity: -2, Limit: patternSample,
			Filter: index.And{index.Terms{Field: index.DomainField, Values: []string{d}}, index.Exists{Field: index.ContactEmailField}}})
		if err != nil {
			t.Fatal(err)
		}
		var known []record.Contact
		for _, h := range res.Hits {
			known = append(known, h.Contact)
		}
		if want := InferEmailPattern(d, known); got[i] != want {
			t.Errorf("%s: batched %+v, alone %+v", d, got[i], want)
		}
		if got[i].Pattern != "" {
			found++
		}
	}
	if found < 100 {
		t.Fatalf("only %d of %d domains have a pattern: the fixture does not exercise the batches", found, len(domains))
	}
}

// employersSeen is a company index that reports its GetCompanies calls.
type employersSeen struct {
	CompanyIndex
	called chan struct{}
	once   sync.Once
	ranked atomic.Bool // a search called its Ranked hook
}

func (e *employersSeen) GetCompanies(ctx context.Context, domains []string) ([]record.Company, error) {
	e.once.Do(func() { close(e.called) })
	return e.CompanyIndex.GetCompanies(ctx, domains)
}

// hydrationWaits is a contact index whose searches return only once the
// employers' profiles are being read: the engine's reads of the contacts
// and the service's of the employers overlap.
type hydrationWaits struct {
	ContactIndex
	employers *employersSeen
}

func (h hydrationWaits) SearchContacts(ctx context.Context, s index.ContactSearch) (index.ContactResult, error) {
	ranked := s.Ranked
	s.Ranked = nil
	res, err := h.ContactIndex.SearchContacts(ctx, s)
	if err != nil {
		return res, err
	}
	if ranked == nil { // the email patterns' searches
		return res, nil
	}
	h.employers.ranked.Store(true)
	ranked(index.RankedDomains(res.Hits, func(c index.ContactHit) string { return c.Contact.Domain }))
	select {
	case <-h.employers.called:
	case <-time.After(5 * time.Second):
		return res, errors.New("the employers were not read before the search returned")
	}
	return res, nil
}

// TestDiscoverReadsEmployersWhileRanked: contact discovery starts reading
// the groups' employers when the engine has ranked (ContactSearch.Ranked),
// not after the contacts are read; the groups carry the employers' data.
func TestDiscoverReadsEmployersWhileRanked(t *testing.T) {
	base, ce := contactCorpus(t)
	seen := &employersSeen{CompanyIndex: base.Engine, called: make(chan struct{})}
	svc := &ContactService{Engine: hydrationWaits{ContactIndex: ce, employers: seen},
		Companies: &Companies{Engine: seen}}
	d, err := ParseContactBody([]byte(`{"seniority": ["executive", "vp", "director", "manager"], "results_by_company": 2, "max_companies": 5}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := svc.Discover(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Groups) == 0 || !seen.ranked.Load() {
		t.Fatalf("%d groups; the search's Ranked hook set: %v", len(res.Groups), seen.ranked.Load())
	}
	for _, g := range res.Groups {
		cs, err := base.Engine.GetCompanies(context.Background(), []string{g.Domain})
		if err != nil || len(cs) != 1 {
			t.Fatal(err)
		}
		if g.Name != cs[0].Name || g.Employees != cs[0].Employees || g.Country != cs[0].Address.Country {
			t.Errorf("group %s: %q %q %q, its company %q %q %q", g.Domain, g.Name, g.Employees, g.Country,
				cs[0].Name, cs[0].Employees, cs[0].Address.Country)
		}
	}
}
