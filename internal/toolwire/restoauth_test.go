package toolwire_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"golang.org/x/oauth2"

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
