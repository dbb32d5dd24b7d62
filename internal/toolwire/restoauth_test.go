package toolwire_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/store"
)

// restStatus is the status of GET /v1/usage with a bearer token.
func (e *env) restStatus(t *testing.T, token string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.origin+"/v1/usage", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestRESTAcceptsTokensForItsResource: a token granted for the REST
// resource ({origin}/v1) is accepted by the REST routes and not by the
// tool server; a tool server token is not accepted by the REST routes;
// a token for both is accepted by both.
func TestRESTAcceptsTokensForItsResource(t *testing.T) {
	e := newEnv(t, nil)
	p := e.signUp(t, "lee@acme-corp.com", store.PlanStarter)
	conf := e.oauthClient(t)
	token := func(resources ...string) string {
		t.Helper()
		v := oauth2.GenerateVerifier()
		st := state()
		opts := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(v)}
		opts = append(opts, oauth2.SetAuthURLParam("resource", resources[0]))
		u := conf.AuthCodeURL(st, opts...)
		for _, r := range resources[1:] { // SetAuthURLParam keeps one value
			u += "&resource=" + url.QueryEscape(r)
		}
		loc, _ := p.approve(t, u, "approve")
		if loc.Query().Get("state") != st {
			t.Fatalf("authorization answer: %s", loc)
		}
		tok, err := conf.Exchange(context.Background(), loc.Query().Get("code"), oauth2.VerifierOption(v))
		if err != nil {
			t.Fatalf("exchange for %v: %v", resources, err)
		}
		return tok.AccessToken
	}
	rest, mcpOnly, both := token(e.origin+"/v1"), token(e.origin+"/v1/mcp"), token(e.origin+"/v1", e.origin+"/v1/mcp")
	for _, tc := range []struct {
		name       string
		token      string
		rest, tool int
	}{
		{"REST token", rest, http.StatusOK, http.StatusUnauthorized},
		{"tool server token", mcpOnly, http.StatusUnauthorized, http.StatusOK},
		{"token for both", both, http.StatusOK, http.StatusOK},
		{"unknown token", "ory_at_nope.nope", http.StatusUnauthorized, http.StatusUnauthorized},
	} {
		if got := e.restStatus(t, tc.token); got != tc.rest {
			t.Errorf("%s on REST: %d, want %d", tc.name, got, tc.rest)
		}
		if got := e.mcpStatus(t, tc.token); got != tc.tool {
			t.Errorf("%s on the tool server: %d, want %d", tc.name, got, tc.tool)
		}
	}
	res, err := http.Get(e.origin + "/.well-known/oauth-protected-resource/v1")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("REST resource metadata: %d", res.StatusCode)
	}
}

// TestEstimateRoute: POST /v1/estimate quotes the tool's estimate of a
// REST operation without billing it; an operation without a rule is 422.
func TestEstimateRoute(t *testing.T) {
	e := newEnv(t, nil)
	p := e.signUp(t, "max@acme-corp.com", store.PlanStarter)
	conf := e.oauthClient(t)
	v := oauth2.GenerateVerifier()
	st := state()
	loc, _ := p.approve(t, conf.AuthCodeURL(st, oauth2.S256ChallengeOption(v), oauth2.SetAuthURLParam("resource", e.origin+"/v1")), "approve")
	tok, err := conf.Exchange(context.Background(), loc.Query().Get("code"), oauth2.VerifierOption(v))
	if err != nil {
		t.Fatal(err)
	}
	post := func(body string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, e.origin+"/v1/estimate", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(res.Body).Decode(&m)
		return res.StatusCode, m
	}
	for _, tc := range []struct {
		name, body string
		status     int
		check      func(map[string]any) bool
	}{
		{"discover", `{"operation":"discover","arguments":{"country":["US"],"max_records":"5"}}`, http.StatusOK,
			func(m map[string]any) bool {
				c, _ := m["credits"].(float64)
				return c >= 1 && c <= 5 && m["price_usd"].(float64) > 0 && m["credits_left"].(float64) == 10000
			}},
		{"profile", `{"operation":"get-bizdata","arguments":{"domain":"` + enginetestDomain(t, e) + `"}}`, http.StatusOK,
			func(m map[string]any) bool { return m["credits"].(float64) == 1 }},
		{"bad argument", `{"operation":"discover","arguments":{"max_records":"many"}}`, http.StatusUnprocessableEntity,
			func(m map[string]any) bool { return strings.Contains(m["detail"].(string), "max_records") }},
		{"free operation", `{"operation":"get-usage"}`, http.StatusUnprocessableEntity,
			func(m map[string]any) bool { return strings.Contains(m["detail"].(string), "has no estimate") }},
	} {
		status, m := post(tc.body)
		if status != tc.status || !tc.check(m) {
			t.Errorf("%s: %d %v\n%s", tc.name, status, m, e.logs.String())
		}
	}
	// Nothing was billed.
	req, _ := http.NewRequest(http.MethodGet, e.origin+"/v1/usage", nil)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var u map[string]any
	_ = json.NewDecoder(res.Body).Decode(&u)
	if u["credits_used"].(float64) != 0 {
		t.Errorf("estimates billed: %v", u)
	}
}

// enginetestDomain is a domain of the fixture index.
func enginetestDomain(t *testing.T, _ *env) string {
	t.Helper()
	return enginetest.Fixtures()[0].Company.Domain
}
