package api

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestJSONBodiesRefuseWrongTypes: a JSON body field of the wrong type is a
// 422 naming the field, never coerced (POST /v1/contacts/discover, read
// by its own parser, has its own test).
func TestJSONBodiesRefuseWrongTypes(t *testing.T) {
	f := unlimitedFixture(t)
	for _, tc := range []struct {
		path, body, field string
	}{
		{"/v1/public/signup", `{"email": 123}`, "body.email"},
		{"/v1/public/signup", `{"email": "a@acme.test", "first_name": ["Ann"]}`, "body.first_name"},
		{"/v1/public/signup", `{"email": "a@acme.test", "agent": {"name": "x"}}`, "body.agent"},
		{"/v1/public/signup", `{"email": true}`, "body.email"},
		{"/v1/contacts/bulk-match", `{"queries": [{"name": 5}]}`, "body.queries[0].name"},
		{"/v1/contacts/bulk-match", `{"queries": [{"name": "Ann Lee", "email": ["a@b.c"]}]}`, "body.queries[0].email"},
		{"/v1/contacts/bulk-match", `{"queries": {"name": "Ann Lee"}}`, "body.queries"},
		{"/v1/contacts/bulk-match", `{"queries": "Ann Lee"}`, "body.queries"},
		{"/v1/contacts/bulk-match", `{"queries": [{"name": "Ann Lee"}], "limit": "10"}`, "body.limit"},
		{"/v1/contacts/bulk-match", `{"queries": [{"name": "Ann Lee"}], "limit": 2.5}`, "body.limit"},
		{"/v1/contacts/bulk-match", `{"queries": [{"name": "Ann Lee"}], "enrich": "yes"}`, "body.enrich"},
		{"/v1/contacts/bulk-match", `{"queries": [{"name": "Ann Lee"}], "enrich": 1}`, "body.enrich"},
		{"/v1/contacts/bulk-match", `[{"name": "Ann Lee"}]`, "body"},
	} {
		t.Run(tc.path+" "+tc.body, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, tc.path, bytes.NewBufferString(tc.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-API-Key", f.key)
			res, err := f.srv.App().Test(req, -1)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			var p problem
			json.Unmarshal(b, &p)
			named := false
			for _, e := range p.Errors {
				named = named || e.Location == tc.field
			}
			if res.StatusCode != http.StatusUnprocessableEntity || !named {
				t.Fatalf("%d %s, want 422 naming %s", res.StatusCode, b, tc.field)
			}
			if strings.Contains(strings.ToLower(string(b)), "internal") {
				t.Fatalf("an internal error for user input: %s", b)
			}
		})
	}
}
