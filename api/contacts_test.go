package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
)

func contactFixture(t *testing.T) fixture {
	f := newFixture(t)
	ce := f.srv.deps.Engine.(index.ContactEngine)
	if _, err := ce.UpsertContacts(context.Background(), enginetest.ContactFixtures()); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f fixture) postJSON(t *testing.T, target, body string, out any) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, target, bytes.NewBufferString(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", f.key)
	res, err := f.srv.App().Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("POST %s: %d %s", target, res.StatusCode, b)
		}
	}
	return res
}

func TestContactsDiscover(t *testing.T) {
	f := contactFixture(t)
	// Filter mode: groups in rank order (seniority, connections), raw
	// JSON keeps that order.
	// No content type: curl -d style bodies are read as JSON.
	req := httptest.NewRequest(http.MethodPost, "/v1/contacts/discover", strings.NewReader(`{"results_by_company": 2}`))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-API-Key", f.key)
	res, _ := f.srv.App().Test(req, -1)
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", res.StatusCode, raw)
	}
	iBank, iAcme, iWach := bytes.Index(raw, []byte(`"brightbank.co.uk":`)), bytes.Index(raw, []byte(`"acme.com":`)), bytes.Index(raw, []byte(`"wachdienst.de":`))
	if !(iBank >= 0 && iBank < iAcme && iAcme < iWach) {
		t.Errorf("groups out of rank order: %s", raw[:min(len(raw), 300)])
	}
	var body ContactResultsBody
	var decoded struct {
		Results       map[string]ContactGroupOut `json:"results"`
		TotalContacts int                        `json:"total_contacts"`
		TotalDomains  int                        `json:"total_domains"`
	}
	json.Unmarshal(raw, &decoded)
	acme := decoded.Results["acme.com"]
	if decoded.TotalContacts != 7 || decoded.TotalDomains != 3 || len(acme.Contacts) != 2 || acme.Name != "Acme Security" {
		t.Fatalf("decoded %+v", decoded)
	}
	if acme.EmailPattern != "{first}@acme.com" || acme.EmailPatternGuess != "jane@acme.com" || acme.EmailPatternConfidence != 0.75 {
		t.Errorf("email pattern %q %v %q", acme.EmailPattern, acme.EmailPatternConfidence, acme.EmailPatternGuess)
	}
	ana := acme.Contacts[0]
	if ana.PersonaID != 1 || len(ana.Phone) != 1 || ana.Phone[0].Type != "mobile" || ana.Similarity != nil || ana.Title == nil {
		t.Errorf("ana %+v", ana)
	}
	if res.Header.Get("X-Credits-Billed") != "9" { // 3 companies + 6 contacts
		t.Errorf("billed %s", res.Header.Get("X-Credits-Billed"))
	}

	// Similarity mode from a persona: the persona itself is left out.
	body = ContactResultsBody{}
	var sim struct {
		Results map[string]ContactGroupOut `json:"results"`
	}
	res = f.postJSON(t, "/v1/contacts/discover", `{"persona_id": 1, "max_records": 20}`, &sim)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("similarity: %d", res.StatusCode)
	}
	for _, g := range sim.Results {
		for _, c := range g.Contacts {
			if c.PersonaID == 1 || c.Similarity == nil || *c.Similarity < 0 || *c.Similarity > 100 {
				t.Errorf("similarity hit %+v", c)
			}
		}
	}
	_ = body

	for _, tc := range []struct {
		body   string
		status int
		detail string
	}{
		{`{"department": "sales"}`, 422, "canonical departments"},
		// Wrong JSON types are refused with 422 naming the body field
		// (docs/decisions.md, "Input errors").
		{`{"persona_id": "x"}`, 422, "body.persona_id: must be an integer"},
		{`{"icp_prompt": 123}`, 422, "body.icp_prompt: must be a string"},
		{`{"has_email": "true"}`, 422, "body.has_email: must be a boolean"},
		{`{"department": "sales", "max_records": 5}`, 422, "body.max_records: must be between 20"},
		{`{"icp_text": "x"`, 400, "body"},
		{`[1]`, 400, "body: must be a JSON object"},
		{`{"persona_id": 999}`, 404, "no contact with these ids"},
		{`{"max_records": 50, "max_companies": 5}`, 422, "not both"},
		{`{"icp_text": "security leaders"}`, 503, "embedder"},
		{`{"bogus": 1}`, 422, "body.bogus: unknown parameter"},
	} {
		var e map[string]any
		res := f.postJSON(t, "/v1/contacts/discover", tc.body, &e)
		if res.StatusCode != tc.status || !strings.Contains(e["detail"].(string), tc.detail) {
			t.Errorf("%s: %d %v", tc.body, res.StatusCode, e["detail"])
		}
	}
}

func TestContactsLookupCountLegacy(t *testing.T) {
	f := contactFixture(t)
	var lk ContactLookupBody
	for _, q := range []string{"persona_id=20", "email=PRIYA@brightbank.co.uk"} {
		if res := f.getJSON(t, "/v1/contacts/lookup?"+q, &lk); res.StatusCode != http.StatusOK || lk.PersonaID != 20 || lk.CompanyName != "Bright Bank" {
			t.Errorf("%s: %d %+v", q, res.StatusCode, lk)
		}
	}
	for _, q := range []string{"linkedin=https://de.linkedin.com/in/juergen-mueller/", "linkedin=juergen-mueller"} {
		if res := f.getJSON(t, "/v1/contacts/lookup?"+q, &lk); res.StatusCode != http.StatusOK || lk.PersonaID != 10 {
			t.Errorf("%s: %d %+v", q, res.StatusCode, lk)
		}
	}
	for _, tc := range []struct {
		q      string
		status int
	}{
		{"email=nobody@acme.com", 404}, {"persona_id=abc", 422}, {"persona_id=0", 422}, {"persona_id=1&email=a@b.c", 422}, {"", 422},
		{"linkedin=https://example.com/x", 422}, {"linkedin=a", 422}, {"email=not-an-email", 422},
	} {
		if res := f.getJSON(t, "/v1/contacts/lookup?"+tc.q, nil); res.StatusCode != tc.status {
			t.Errorf("lookup %q: %d, want %d", tc.q, res.StatusCode, tc.status)
		}
	}
	var count CountBody
	if res := f.getJSON(t, "/v1/contacts/count?seniority=executive&has_email=true", &count); res.StatusCode != http.StatusOK || count.Count != 3 {
		t.Errorf("count: %d %+v", res.StatusCode, count)
	}
	var list []ContactOut
	if res := f.getJSON(t, "/v1/contacts?filter_country=US&title=%2Bsales&max_records=20", &list); res.StatusCode != http.StatusOK || len(list) != 1 || list[0].PersonaID != 2 {
		t.Errorf("legacy: %d %+v", res.StatusCode, list)
	}
	if res := f.getJSON(t, "/v1/contacts?max_records=20&max_companies=2", nil); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("legacy both caps: %d", res.StatusCode)
	}
}
