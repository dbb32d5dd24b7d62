package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/store"
)

// call sends a JSON request with key and decodes a JSON object answer.
func (f fixture) call(t *testing.T, key, method, target, body string) (*http.Response, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-API-Key", key)
	res, err := f.srv.App().Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	var out map[string]any
	if len(b) > 0 && b[0] == '{' {
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, target, err, b)
		}
	}
	return res, out
}

func want(t *testing.T, res *http.Response, body map[string]any, status int, detail string) {
	t.Helper()
	if res.StatusCode != status {
		t.Fatalf("%s %s: status %d, want %d: %v", res.Request.Method, res.Request.URL, res.StatusCode, status, body)
	}
	if d, _ := body["detail"].(string); !strings.Contains(d, detail) {
		t.Fatalf("%s %s: detail %q lacks %q", res.Request.Method, res.Request.URL, d, detail)
	}
}

func domainsJSON(n int) string {
	d := make([]string, n)
	for i := range d {
		d[i] = fmt.Sprintf("%q", fmt.Sprintf("customer%d.com", i))
	}
	return "[" + strings.Join(d, ",") + "]"
}

func TestSavedQueryEndpoints(t *testing.T) {
	f := roomyFixture(t)
	res, body := f.call(t, f.key, http.MethodPost, "/v1/queries/save-results", `{"query_name":"Security shortlist","action":"discover",
		"data":[{"domain":"www.acme.com","score":420},{"domain":"cloudguard.io","note":{"x":1}}],
		"query_params":{"icp_text":"security"},"tags":["Open Deals","CRM"]}`)
	want(t, res, body, 200, "")
	id, _ := body["query_id"].(string)
	if body["action"] != "thin_discover" || body["domain_count"] != 2.0 || body["row_count"] != 2.0 || body["persona_id_count"] != 0.0 ||
		fmt.Sprint(body["tags"]) != "[open-deals crm]" || id == "" {
		t.Fatalf("save-results answered %v", body)
	}
	res, body = f.call(t, f.key, http.MethodPost, "/v1/queries/exclusion-list", `{"query_name":"Customers","domains":`+domainsJSON(25)+`,"tags":["crm"]}`)
	want(t, res, body, 200, "")
	exclID, _ := body["query_id"].(string)
	if body["domain_count"] != 25.0 || body["truncated"] != false {
		t.Fatalf("exclusion-list answered %v", body)
	}
	res, body = f.call(t, f.key, http.MethodPost, "/v1/queries/exclusion-list", `{"query_name":"People","persona_ids":[1,2,2]}`)
	want(t, res, body, 200, "")
	if body["persona_id_count"] != 2.0 || body["domain_count"] != 0.0 {
		t.Fatalf("persona-only exclusion list answered %v", body)
	}

	// Listing: only queries with domains, newest first; tags normalized.
	res, body = f.call(t, f.key, http.MethodGet, "/v1/queries/saved", "")
	want(t, res, body, 200, "")
	results, _ := body["results"].([]any)
	if body["count"] != 2.0 || len(results) != 2 {
		t.Fatalf("listing %v", body)
	}
	first := results[0].(map[string]any)
	if first["query_id"] != exclID || first["action"] != "exclusion" || first["user_name"] != "ops@acme.test" || first["mtime"] == nil {
		t.Fatalf("first listed %v", first)
	}
	second := results[1].(map[string]any)
	if fmt.Sprint(second["domains"]) != "[acme.com cloudguard.io]" || fmt.Sprint(second["query_params"]) != "map[icp_text:security]" {
		t.Fatalf("second listed %v", second)
	}
	for _, tc := range []struct {
		target string
		ids    []string
	}{
		{"/v1/queries/saved?tags=OPEN%20DEALS", []string{id}},
		{"/v1/queries/saved?tags=nothing,crm", []string{exclID, id}},
		{"/v1/queries/saved?tags=nothing&tags=Open+Deals", []string{id}},
		{"/v1/queries/saved?action=exclusion", []string{exclID}},
		{"/v1/queries/saved?action=discover", []string{id}},
		{"/v1/queries/saved?action=THIN_discover", []string{id}},
		{"/v1/queries/saved?action=thin_exclusion", nil},
		{"/v1/queries/saved?max_records=1&offset=1", []string{id}},
		{"/v1/queries/saved?tags=none", nil},
	} {
		res, body := f.call(t, f.key, http.MethodGet, tc.target, "")
		want(t, res, body, 200, "")
		var got []string
		for _, r := range body["results"].([]any) {
			got = append(got, r.(map[string]any)["query_id"].(string))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.ids) {
			t.Errorf("%s: %v, want %v", tc.target, got, tc.ids)
		}
	}
	for _, target := range []string{"/v1/queries/saved?max_records=0", "/v1/queries/saved?max_records=1001", "/v1/queries/saved?offset=-1"} {
		if res, _ := f.call(t, f.key, http.MethodGet, target, ""); res.StatusCode != 422 {
			t.Errorf("%s: %d", target, res.StatusCode)
		}
	}

	// PATCH renames and replaces tags.
	res, body = f.call(t, f.key, http.MethodPatch, "/v1/queries/"+id, `{"tags":["Fintech Leads"]}`)
	want(t, res, body, 200, "")
	if body["query_name"] != "Security shortlist" || fmt.Sprint(body["tags"]) != "[fintech-leads]" {
		t.Fatalf("patch tags: %v", body)
	}
	res, body = f.call(t, f.key, http.MethodPatch, "/v1/queries/"+id, `{"query_name":" Renamed "}`)
	want(t, res, body, 200, "")
	if body["query_name"] != "Renamed" || fmt.Sprint(body["tags"]) != "[fintech-leads]" {
		t.Fatalf("patch name: %v", body)
	}
	res, body = f.call(t, f.key, http.MethodPatch, "/v1/queries/"+id, `{}`)
	want(t, res, body, 400, "query_name and/or tags")
	res, body = f.call(t, f.key, http.MethodPatch, "/v1/queries/"+id, `{"tags":["x"]}`)
	want(t, res, body, 400, "tags:")

	// DELETE: own queries; then 404.
	res, body = f.call(t, f.key, http.MethodDelete, "/v1/queries/"+id, "")
	want(t, res, body, 200, "")
	if msg, _ := body["message"].(string); !strings.Contains(msg, "deleted") {
		t.Fatalf("delete: %v", body)
	}
	res, body = f.call(t, f.key, http.MethodDelete, "/v1/queries/"+id, "")
	want(t, res, body, 404, "not found")
}

// roomyFixture is a fixture whose Starter plan has a rate multiplier
// of 100, so a test's many requests fit within the rate limits.
func roomyFixture(t *testing.T) fixture {
	return newFixtureWith(t, func(d *Deps) {
		d.Plans = account.DefaultPlans()
		p := d.Plans[store.PlanStarter]
		p.RateMultiplier = 100
		d.Plans[store.PlanStarter] = p
	})
}

func TestSavedQueryRules(t *testing.T) {
	f := roomyFixture(t)
	for _, tc := range []struct {
		path, body string
		status     int
		detail     string
	}{
		{"save-results", `{"query_name":"x","action":"discover","data":[{"domain":"acme.com"},{"domain":"no domain"},{"domain":7}]}`, 400, `row 1: "no domain"; row 2: 7`},
		{"save-results", `{"query_name":"x","action":"discover","data":[{"persona_id":3}]}`, 400, "at least one domain"},
		{"save-results", `{"query_name":"x","action":"contacts","data":[{"persona_id":3}]}`, 200, ""},
		{"save-results", `{"query_name":"x","action":"contacts","data":[{"persona_id":3.5}]}`, 400, "persona_id"},
		{"save-results", `{"query_name":"x","action":"contacts","data":[{"persona_id":"3"}]}`, 400, "persona_id"},
		{"save-results", `{"query_name":"x","action":"contacts","data":[{"persona_id":false}]}`, 400, "persona_id"},
		{"save-results", `{"query_name":"x","action":"append","domain_column":"site","data":[{"site":"acme.com"}]}`, 200, ""},
		{"save-results", `{"query_name":"x","action":"other","data":[{"domain":"acme.com"}]}`, 400, "action"},
		{"save-results", `{"query_name":"","action":"discover","data":[{"domain":"acme.com"}]}`, 400, "query_name"},
		{"save-results", `{"query_name":"x","action":"discover"}`, 400, "data"},
		{"save-results", `{"query_name":"x","action":"discover","data":"acme.com"}`, 400, "data: must be an array"},
		{"save-results", `not json`, 400, "body"},
		{"exclusion-list", `{"query_name":"x","domains":` + domainsJSON(19) + `}`, 400, "at least 20"},
		{"exclusion-list", `{"query_name":"x"}`, 400, "domains or persona_ids"},
		{"exclusion-list", `{"query_name":"x","domains":["a.com","a.com"],"persona_ids":[5]}`, 200, ""},
		{"exclusion-list", `{"query_name":"x","domains":` + domainsJSON(20) + `,"tags":["a","b"]}`, 400, "tags"},
	} {
		res, body := f.call(t, f.key, http.MethodPost, "/v1/queries/"+tc.path, tc.body)
		if res.StatusCode != tc.status {
			t.Errorf("%s %s: %d, want %d: %v", tc.path, tc.body, res.StatusCode, tc.status, body)
			continue
		}
		if d, _ := body["detail"].(string); !strings.Contains(d, tc.detail) {
			t.Errorf("%s %s: detail %q lacks %q", tc.path, tc.body, d, tc.detail)
		}
	}
}

func TestSaveResultsCaps(t *testing.T) {
	f := roomyFixture(t)
	rows := func(n int) string {
		var b bytes.Buffer
		b.WriteString(`{"query_name":"big","action":"discover","data":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"domain":"c%d.com"}`, i)
		}
		b.WriteString("]}")
		return b.String()
	}
	res, body := f.call(t, f.key, http.MethodPost, "/v1/queries/save-results", rows(50_001))
	want(t, res, body, 413, "50000")
	res, body = f.call(t, f.key, http.MethodPost, "/v1/queries/save-results", rows(50_000))
	want(t, res, body, 200, "")
	if body["domain_count"] != 50_000.0 {
		t.Fatalf("50,000 rows: %v", body)
	}
	// Over 50 MB the server answers 413 from the headers and closes the
	// connection unread, which only a real connection shows (app.Test
	// reports the closed connection as an error).
	addr, _ := serveLoopback(t, f)
	if code, p := rawPost(t, addr, "/v1/queries/save-results", "application/json", 50<<20+1<<10, map[string]string{"X-API-Key": f.key}); code != 413 {
		t.Fatalf("over 50 MB: %d %v", code, p)
	}
}

func TestSaveResultsRateLimit(t *testing.T) {
	f := newFixture(t)
	body := `{"query_name":"x","action":"discover","data":[{"domain":"acme.com"}]}`
	for i := 0; i < SaveResultsPerMinute; i++ {
		if res, b := f.call(t, f.key, http.MethodPost, "/v1/queries/save-results", body); res.StatusCode != 200 {
			t.Fatalf("request %d: %d %v", i+1, res.StatusCode, b)
		}
	}
	res, b := f.call(t, f.key, http.MethodPost, "/v1/queries/save-results", body)
	want(t, res, b, 429, "10 requests a minute")
	if res.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	// Other saved-query endpoints are not held by this limit.
	if res, _ := f.call(t, f.key, http.MethodGet, "/v1/queries/saved", ""); res.StatusCode != 200 {
		t.Fatalf("listing after the save-results limit: %d", res.StatusCode)
	}
	// The limit is per organization: another organization still saves.
	other := f.keyFor(t, "other", store.PlanStarter)
	if res, b := f.call(t, other, http.MethodPost, "/v1/queries/save-results", body); res.StatusCode != 200 {
		t.Fatalf("another organization: %d %v", res.StatusCode, b)
	}
}

func TestSavedQueriesNeedStarter(t *testing.T) {
	f := newFixture(t)
	free := f.keyFor(t, "free", store.PlanNone)
	for _, c := range [][3]string{
		{http.MethodGet, "/v1/queries/saved", ""},
		{http.MethodPost, "/v1/queries/save-results", `{"query_name":"x","action":"discover","data":[{"domain":"acme.com"}]}`},
		{http.MethodPost, "/v1/queries/exclusion-list", `{"query_name":"x","persona_ids":[1]}`},
		{http.MethodPatch, "/v1/queries/00000000-0000-0000-0000-000000000000", `{"query_name":"x"}`},
		{http.MethodDelete, "/v1/queries/00000000-0000-0000-0000-000000000000", ""},
	} {
		if res, _ := f.call(t, free, c[0], c[1], c[2]); res.StatusCode != http.StatusForbidden {
			t.Errorf("%s %s on plan none: %d", c[0], c[1], res.StatusCode)
		}
		if res, _ := f.call(t, "", c[0], c[1], c[2]); res.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s %s without a key: %d", c[0], c[1], res.StatusCode)
		}
	}
}

// TestSavedQueryIsolation: another organization's query id is a 404 on
// every endpoint that takes one, and works for its own organization.
func TestSavedQueryIsolation(t *testing.T) {
	f := newFixture(t)
	other := f.keyFor(t, "other", store.PlanStarter)
	res, body := f.call(t, f.key, http.MethodPost, "/v1/queries/save-results", `{"query_name":"mine","action":"contacts","data":[{"domain":"acme.com","persona_id":1}]}`)
	want(t, res, body, 200, "")
	id := body["query_id"].(string)

	gets := []string{
		"/v1/discover?min_digital_footprint=0&inclusion_query_id=", "/v1/discover?min_digital_footprint=0&exclusion_query_id=",
		"/v1/count?inclusion_query_id=", "/v1/count?exclusion_query_id=",
		"/v1/contacts/count?inclusion_query_id=", "/v1/contacts/count?exclusion_query_id=",
		"/v1/contacts?max_records=20&inclusion_query_id=", "/v1/contacts?max_records=20&exclusion_query_id=",
	}
	for _, g := range gets {
		res, body := f.call(t, other, http.MethodGet, g+id, "")
		want(t, res, body, 404, id)
		if res, body := f.call(t, f.key, http.MethodGet, g+id, ""); res.StatusCode != 200 {
			t.Errorf("owner: GET %s: %d %v", g+id, res.StatusCode, body)
		}
	}
	for _, param := range []string{"inclusion_query_id", "exclusion_query_id"} {
		res, body := f.call(t, other, http.MethodPost, "/v1/contacts/discover", `{"max_records":20,"`+param+`":"`+id+`"}`)
		want(t, res, body, 404, id)
		if res, body := f.call(t, f.key, http.MethodPost, "/v1/contacts/discover", `{"max_records":20,"`+param+`":"`+id+`"}`); res.StatusCode != 200 {
			t.Errorf("owner: contacts discover %s: %d %v", param, res.StatusCode, body)
		}
	}
	res, b := f.uploadWith(t, other, "/v1/segment", map[string]string{"query_id": id}, "", nil)
	if res.StatusCode != 404 || !strings.Contains(string(b), id) {
		t.Errorf("segment with another organization's query: %d %s", res.StatusCode, b)
	}
	res, b = f.uploadWith(t, other, "/v1/append?dataset=bizdata&query_id="+id, nil, "a.csv", []byte("domain\nacme.com\n"))
	if res.StatusCode != 404 || !strings.Contains(string(b), id) {
		t.Errorf("append with another organization's query: %d %s", res.StatusCode, b)
	}
	res, body = f.call(t, other, http.MethodPatch, "/v1/queries/"+id, `{"query_name":"stolen"}`)
	want(t, res, body, 404, "not found")
	res, body = f.call(t, other, http.MethodDelete, "/v1/queries/"+id, "")
	want(t, res, body, 404, "not found")
	if res, body := f.call(t, other, http.MethodGet, "/v1/queries/saved", ""); body["count"] != 0.0 {
		t.Errorf("another organization lists %v (%d)", body, res.StatusCode)
	}
	// A colleague (not an admin) sees and uses the query but may not change it.
	ctx := context.Background()
	org, _ := f.st.OrgByName(ctx, "acme")
	u, _ := f.st.CreateUser(ctx, org.ID, "sales@acme.test", store.RoleMember)
	colleague, _, _ := f.st.CreateAPIKey(ctx, u.ID)
	if res, _ := f.call(t, colleague, http.MethodGet, "/v1/count?inclusion_query_id="+id, ""); res.StatusCode != 200 {
		t.Errorf("colleague uses the query: %d", res.StatusCode)
	}
	res, body = f.call(t, colleague, http.MethodDelete, "/v1/queries/"+id, "")
	want(t, res, body, 404, "not found")
	res, body = f.call(t, f.key, http.MethodDelete, "/v1/queries/"+id, "")
	want(t, res, body, 200, "")
}

func TestSavedQueriesInDiscovery(t *testing.T) {
	f := newFixture(t)
	const base = "/v1/discover?min_digital_footprint=0&exclude_leadgen=false"
	var all []map[string]any
	res := f.getJSON(t, base, &all)
	if res.StatusCode != 200 || len(all) < 3 {
		t.Fatalf("discover: %d, %d results", res.StatusCode, len(all))
	}
	first := all[0]["domain"].(string)
	_, body := f.call(t, f.key, http.MethodPost, "/v1/queries/save-results", `{"query_name":"top","action":"discover","data":[{"domain":"`+first+`"}]}`)
	id := body["query_id"].(string)

	var got []map[string]any
	res = f.getJSON(t, base+"&exclusion_query_id="+id, &got)
	if res.StatusCode != 200 || len(got) != len(all)-1 {
		t.Fatalf("with exclusion: %d, %d results of %d", res.StatusCode, len(got), len(all))
	}
	for _, c := range got {
		if c["domain"] == first {
			t.Fatalf("%s excluded yet returned", first)
		}
	}
	if h := res.Header.Get("X-Applied-Filters"); strings.Contains(h, first) {
		t.Errorf("X-Applied-Filters lists the saved domains: %s", h)
	}
	var count struct{ Count int }
	if res = f.getJSON(t, "/v1/count?min_digital_footprint=0&exclude_leadgen=false&exclusion_query_id="+id, &count); count.Count != len(all)-1 {
		t.Fatalf("count with exclusion: %d, want %d", count.Count, len(all)-1)
	}
	res = f.getJSON(t, base+"&inclusion_query_id="+id, &got)
	if res.StatusCode != 200 || len(got) != 1 || got[0]["domain"] != first {
		t.Fatalf("with inclusion: %v", got)
	}

	// segment takes the saved domains without a file.
	res2, b := f.uploadWith(t, f.key, "/v1/segment", map[string]string{"query_id": id}, "", nil)
	if res2.StatusCode != http.StatusAccepted || !strings.Contains(string(b), "task_id") {
		t.Fatalf("segment with query_id only: %d %s", res2.StatusCode, b)
	}
	// append with query_id and no file appends the saved domains.
	res2, b = f.uploadWith(t, f.key, "/v1/append?dataset=bizdata&query_id="+id, nil, "", nil)
	if res2.StatusCode != 200 || !strings.Contains(string(b), `"domain":"`+first+`"`) {
		t.Fatalf("append with query_id only: %d %s", res2.StatusCode, b)
	}
	// ... and unions them with the file's.
	res2, b = f.uploadWith(t, f.key, "/v1/append?dataset=bizdata&query_id="+id, nil, "a.csv", []byte("domain\nwachdienst.de\n"+first+"\n"))
	var rows []map[string]any
	json.Unmarshal(b, &rows)
	if res2.StatusCode != 200 || len(rows) != 2 {
		t.Fatalf("append with query_id and a file: %d %s", res2.StatusCode, b)
	}
}
