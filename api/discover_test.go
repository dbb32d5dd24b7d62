package api

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func (f fixture) getJSON(t *testing.T, target string, out any) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	req.Header.Set("X-API-Key", f.key)
	res, err := f.srv.App().Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("GET %s: %d %s", target, res.StatusCode, b)
		}
	}
	return res
}

func TestDiscoverEndpoint(t *testing.T) {
	f := newFixture(t)
	var got []map[string]any
	res := f.getJSON(t, "/v1/discover?tech_stack=hubspot.com&retrieval=true&min_digital_footprint=0", &got)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	if len(got) != 2 || res.Header.Get("X-Total-Count") != "2" {
		t.Fatalf("%d results, X-Total-Count %q", len(got), res.Header.Get("X-Total-Count"))
	}
	if got[0]["domain"] != "acme.com" || got[1]["domain"] != "wachdienst.de" {
		t.Errorf("order: %v, %v (want by score)", got[0]["domain"], got[1]["domain"])
	}
	for _, c := range got {
		if _, ok := c["vendors"].([]any); !ok {
			t.Errorf("%v: no vendors with tech_stack", c["domain"])
		}
		if _, ok := c["site_text"].(string); !ok {
			t.Errorf("%v: no site_text with retrieval", c["domain"])
		}
		if c["similarity"] != 0.0 {
			t.Errorf("filter-only similarity %v", c["similarity"])
		}
	}
	var applied map[string]any
	if err := json.Unmarshal([]byte(res.Header.Get("X-Applied-Filters")), &applied); err != nil {
		t.Fatalf("X-Applied-Filters %q: %v", res.Header.Get("X-Applied-Filters"), err)
	}
	if applied["min_digital_footprint"] != 0.0 || applied["exclude_leadgen"] != true {
		t.Errorf("applied %v", applied)
	}

	// Lookalikes from stored vectors, with the example left out.
	got = nil
	res = f.getJSON(t, "/v1/discover?domain=acme.com&min_digital_footprint=0", &got)
	if res.StatusCode != http.StatusOK || len(got) == 0 {
		t.Fatalf("lookalike: %d, %d results", res.StatusCode, len(got))
	}
	for _, c := range got {
		if c["domain"] == "acme.com" {
			t.Error("example domain returned")
		}
		if _, ok := c["vendors"]; ok {
			t.Error("vendors without tech_stack")
		}
	}

	// The count variant.
	var count CountBody
	res = f.getJSON(t, "/v1/count?country=DACH&min_digital_footprint=0", &count)
	if res.StatusCode != http.StatusOK || count.Count != 1 {
		t.Errorf("count: %d %+v", res.StatusCode, count)
	}
}

func TestDiscoverErrors(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		target string
		status int
		detail []string
	}{
		{"/v1/discover?colour=red&max_records=2", 422, []string{"query.colour: unknown parameter", "query.max_records: must be between 5 and 10000"}},
		{"/v1/count?state=Bavaria&country=DACH", 422, []string{"query.state: applies only with a single country"}},
		{"/v1/discover?inclusion_query_id=nope", 404, []string{`saved query "nope" not found`}},
		{"/v1/discover?domain=unknown-company.com", 422, []string{"query.domain: none of the example domains is in the index"}},
		// The fixture index has vectors but no stored embedder model.
		{"/v1/discover?icp_text=endpoint+security", 503, []string{"embedder"}},
		{"/v1/discover?%zz", 422, []string{"malformed query string"}},
	} {
		t.Run(tc.target, func(t *testing.T) {
			var body map[string]any
			res := f.getJSON(t, tc.target, &body)
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %v", res.StatusCode, tc.status, body)
			}
			detail, _ := body["detail"].(string)
			for _, want := range tc.detail {
				if !strings.Contains(detail, want) {
					t.Errorf("detail %q lacks %q", detail, want)
				}
			}
		})
	}
	res, _ := f.do(t, http.MethodGet, "/v1/discover", nil)
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("no key: %d", res.StatusCode)
	}
}

func TestDiscoverOpenAPI(t *testing.T) {
	f := newFixture(t)
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct{ Name string }
		}
	}
	f.getJSON(t, "/v1/openapi.json", &doc)
	for _, path := range []string{"/v1/discover", "/v1/count"} {
		params := doc.Paths[path]["get"].Parameters
		if len(params) != 43 {
			t.Errorf("%s documents %d parameters, want 43", path, len(params))
		}
	}
}
