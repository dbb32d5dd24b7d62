package toolwire_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/openprospect/prospectd/internal/toolwire"
	"github.com/openprospect/prospectd/store"
)

const redirectURI = "http://127.0.0.1:1/callback" // never contacted: the tests read the redirect

var actionAttr = regexp.MustCompile(`<form method="post" action="(/oauth/2.1/authorize[^"]*)">`)

// approve drives the consent page of an authorization URL as the signed-in
// person and returns the redirect the authorization server answers with.
func (p *person) approve(t *testing.T, authURL, decision string) (*url.URL, string) {
	t.Helper()
	res, page := p.get(t, authURL)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("consent page: %d %s", res.StatusCode, page)
	}
	m := actionAttr.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no consent form: %s", page)
	}
	action, err := url.Parse(html.UnescapeString(m[1]))
	if err != nil {
		t.Fatal(err)
	}
	base, _ := url.Parse(authURL)
	post, err := p.noRedirect().PostForm(base.ResolveReference(action).String(), url.Values{"csrf": {csrfOf(t, page)}, "decision": {decision}})
	if err != nil {
		t.Fatal(err)
	}
	post.Body.Close()
	loc, err := url.Parse(post.Header.Get("Location"))
	if err != nil || post.StatusCode/100 != 3 {
		t.Fatalf("consent answer: %d %q", post.StatusCode, post.Header.Get("Location"))
	}
	return loc, page
}

// mcpStatus is the HTTP status of a tools/list with token.
func (e *env) mcpStatus(t *testing.T, token string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.origin+"/v1/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func TestSDKClientCompletesTheOAuthFlow(t *testing.T) {
	e := newEnv(t, nil)
	p := e.signUp(t, "pat@acme-corp.com", store.PlanStarter)
	ctx := context.Background()
	var clientID, consentPage string
	fetch := func(_ context.Context, a *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		u, _ := url.Parse(a.URL)
		q := u.Query()
		clientID = q.Get("client_id")
		if q.Get("code_challenge_method") != "S256" || q.Get("resource") != e.origin+"/v1/mcp" {
			t.Errorf("authorization request lacks S256 PKCE or the resource: %s", a.URL)
		}
		loc, page := p.approve(t, a.URL, "approve")
		consentPage = page
		return &auth.AuthorizationResult{Code: loc.Query().Get("code"), State: loc.Query().Get("state")}, nil
	}
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "Test Agent", RedirectURIs: []string{redirectURI}, TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"}}},
		RedirectURL: redirectURI, AuthorizationCodeFetcher: fetch, RequestRefreshToken: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: e.origin + "/v1/mcp", OAuthHandler: h}, nil)
	if err != nil {
		t.Fatalf("connect with OAuth: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_usage"})
	if err != nil || res.IsError {
		t.Fatalf("get_usage: %v %+v", err, res)
	}
	var usage map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &usage)
	if usage["plan"] != "starter" {
		t.Errorf("usage through OAuth: %s", b)
	}
	if !strings.Contains(consentPage, "Test Agent") || !strings.Contains(consentPage, "offline_access") || !strings.Contains(consentPage, "pat@acme-corp.com") {
		t.Errorf("the consent page does not name the client, the scope and the person: %s", consentPage)
	}

	// Refresh with rotation: the old refresh token is spent, a replay of
	// it revokes the whole grant.
	ts, err := h.TokenSource(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tok1, err := ts.Token()
	if err != nil || tok1.RefreshToken == "" {
		t.Fatalf("no refresh token for offline_access: %+v %v", tok1, err)
	}
	conf := &oauth2.Config{ClientID: clientID, Endpoint: oauth2.Endpoint{TokenURL: e.origin + "/oauth/2.1/token", AuthStyle: oauth2.AuthStyleInParams}}
	refresh := func(rt string) (*oauth2.Token, error) {
		return conf.TokenSource(ctx, &oauth2.Token{RefreshToken: rt, Expiry: time.Now().Add(-time.Hour)}).Token()
	}
	tok2, err := refresh(tok1.RefreshToken)
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	if tok2.RefreshToken == "" || tok2.RefreshToken == tok1.RefreshToken || tok2.AccessToken == tok1.AccessToken {
		t.Fatalf("refresh did not rotate: %+v", tok2)
	}
	if s := e.mcpStatus(t, tok2.AccessToken); s != http.StatusOK {
		t.Errorf("new access token: %d", s)
	}
	if s := e.mcpStatus(t, tok1.AccessToken); s != http.StatusUnauthorized {
		t.Errorf("access token of the rotated refresh: %d, want 401", s)
	}
	if _, err := refresh(tok1.RefreshToken); err == nil {
		t.Fatal("a spent refresh token was accepted again")
	}
	if _, err := refresh(tok2.RefreshToken); err == nil {
		t.Error("after a replay the grant's newest refresh token still works")
	}
	if s := e.mcpStatus(t, tok2.AccessToken); s != http.StatusUnauthorized {
		t.Errorf("after a replay the grant's access token: %d, want 401", s)
	}
	e.noCredentialAnywhere(t, tok1.AccessToken, tok1.RefreshToken, tok2.AccessToken, tok2.RefreshToken, testPassword)
}

// noCredentialAnywhere checks the logs and the database files hold none
// of the secrets.
func (e *env) noCredentialAnywhere(t *testing.T, secrets ...string) {
	t.Helper()
	logs := e.logs.String()
	var db strings.Builder
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(e.stPath()), "state.db*"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		db.Write(b)
	}
	if db.Len() == 0 {
		t.Fatal("no database files to inspect")
	}
	for _, s := range secrets {
		if s == "" {
			continue
		}
		if strings.Contains(logs, s) {
			t.Errorf("a credential is in the logs: %.12s…", s)
		}
		if strings.Contains(db.String(), s) {
			t.Errorf("a credential is stored in clear: %.12s…", s)
		}
	}
}

// oauthClient registers a public client and returns an oauth2 config.
func (e *env) oauthClient(t *testing.T) *oauth2.Config {
	t.Helper()
	return e.oauthClientWith(t, redirectURI, "Manual")
}

func (e *env) oauthClientWith(t *testing.T, redirect, name string) *oauth2.Config {
	t.Helper()
	body := `{"client_name":"` + name + `","redirect_uris":["` + redirect + `"],"token_endpoint_auth_method":"none","scope":"offline_access"}`
	res, err := http.Post(e.origin+"/oauth/2.1/register", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var reg struct {
		ClientID string `json:"client_id"`
	}
	if err := json.NewDecoder(res.Body).Decode(&reg); err != nil || res.StatusCode != http.StatusCreated || reg.ClientID == "" {
		t.Fatalf("register: %d %v", res.StatusCode, err)
	}
	return &oauth2.Config{ClientID: reg.ClientID, RedirectURL: redirect, Scopes: []string{"offline_access"},
		Endpoint: oauth2.Endpoint{AuthURL: e.origin + "/oauth/2.1/authorize", TokenURL: e.origin + "/oauth/2.1/token", AuthStyle: oauth2.AuthStyleInParams}}
}

func state() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// authorize runs the front channel and returns the code.
func (e *env) authorize(t *testing.T, p *person, conf *oauth2.Config, verifier string) string {
	t.Helper()
	st := state()
	loc, _ := p.approve(t, conf.AuthCodeURL(st, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", e.origin+"/v1/mcp")), "approve")
	if loc.Query().Get("state") != st || loc.Query().Get("code") == "" {
		t.Fatalf("authorization answer: %s", loc)
	}
	return loc.Query().Get("code")
}

func TestAuthorizationRefusals(t *testing.T) {
	e := newEnv(t, nil)
	p := e.signUp(t, "kim@acme-corp.com", store.PlanStarter)
	ctx := context.Background()
	conf := e.oauthClient(t)
	noFollow := p.noRedirect()
	frontChannel := func(params url.Values) (*http.Response, url.Values) {
		t.Helper()
		q := url.Values{"response_type": {"code"}, "client_id": {conf.ClientID}, "redirect_uri": {redirectURI},
			"state": {state()}, "scope": {"offline_access"}}
		for k, v := range params {
			q[k] = v
		}
		res, err := noFollow.Get(conf.Endpoint.AuthURL + "?" + q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		loc, _ := url.Parse(res.Header.Get("Location"))
		return res, loc.Query()
	}

	t.Run("PKCE plain is refused", func(t *testing.T) {
		_, q := frontChannel(url.Values{"code_challenge": {strings.Repeat("a", 43)}, "code_challenge_method": {"plain"}})
		if q.Get("error") != "invalid_request" || q.Get("code") != "" {
			t.Errorf("plain PKCE: %v", q)
		}
	})
	t.Run("no PKCE is refused", func(t *testing.T) {
		_, q := frontChannel(nil)
		if q.Get("error") == "" || q.Get("code") != "" {
			t.Errorf("without PKCE: %v", q)
		}
	})
	t.Run("redirect URI mismatch is not redirected to", func(t *testing.T) {
		res, _ := frontChannel(url.Values{"redirect_uri": {"https://evil.example/cb"}, "code_challenge": {oauth2.S256ChallengeFromVerifier(oauth2.GenerateVerifier())}, "code_challenge_method": {"S256"}})
		if res.StatusCode/100 == 3 && strings.Contains(res.Header.Get("Location"), "evil.example") {
			t.Errorf("redirected to an unregistered URI: %s", res.Header.Get("Location"))
		}
		if res.StatusCode != http.StatusBadRequest {
			t.Errorf("status %d, want 400", res.StatusCode)
		}
	})
	t.Run("another resource is refused", func(t *testing.T) {
		_, q := frontChannel(url.Values{"resource": {"https://other.example/mcp"}, "code_challenge": {oauth2.S256ChallengeFromVerifier(oauth2.GenerateVerifier())}, "code_challenge_method": {"S256"}})
		if q.Get("error") != "invalid_target" {
			t.Errorf("foreign resource: %v", q)
		}
	})
	t.Run("denied consent", func(t *testing.T) {
		v := oauth2.GenerateVerifier()
		loc, _ := p.approve(t, conf.AuthCodeURL(state(), oauth2.S256ChallengeOption(v)), "deny")
		if loc.Query().Get("error") != "access_denied" || loc.Query().Get("code") != "" {
			t.Errorf("deny: %s", loc)
		}
	})
	t.Run("consent without CSRF token", func(t *testing.T) {
		v := oauth2.GenerateVerifier()
		res, err := noFollow.PostForm(conf.AuthCodeURL(state(), oauth2.S256ChallengeOption(v)), url.Values{"decision": {"approve"}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("forged consent: %d %s", res.StatusCode, res.Header.Get("Location"))
		}
	})
	t.Run("wrong verifier, then code reuse", func(t *testing.T) {
		v := oauth2.GenerateVerifier()
		code := e.authorize(t, p, conf, v)
		if _, err := conf.Exchange(ctx, code, oauth2.VerifierOption(oauth2.GenerateVerifier())); err == nil {
			t.Error("a wrong code_verifier was accepted")
		}
		code = e.authorize(t, p, conf, v)
		tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(v))
		if err != nil {
			t.Fatalf("exchange: %v", err)
		}
		if s := e.mcpStatus(t, tok.AccessToken); s != http.StatusOK {
			t.Fatalf("access token: %d", s)
		}
		if _, err := conf.Exchange(ctx, code, oauth2.VerifierOption(v)); err == nil {
			t.Error("an authorization code was accepted twice")
		}
		if s := e.mcpStatus(t, tok.AccessToken); s != http.StatusUnauthorized {
			t.Errorf("after code reuse the code's access token: %d, want 401 (revoked)", s)
		}
	})
	t.Run("revoked token", func(t *testing.T) {
		v := oauth2.GenerateVerifier()
		tok, err := conf.Exchange(ctx, e.authorize(t, p, conf, v), oauth2.VerifierOption(v))
		if err != nil {
			t.Fatal(err)
		}
		res, err := http.PostForm(e.origin+"/oauth/2.1/revoke", url.Values{"token": {tok.AccessToken}, "client_id": {conf.ClientID}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("revoke: %d", res.StatusCode)
		}
		if s := e.mcpStatus(t, tok.AccessToken); s != http.StatusUnauthorized {
			t.Errorf("revoked access token: %d, want 401", s)
		}
	})
	t.Run("API keys are not bearer tokens of the tool server by default", func(t *testing.T) {
		key, _, err := e.st.CreateAPIKey(ctx, p.user.ID)
		if err != nil {
			t.Fatal(err)
		}
		if s := e.mcpStatus(t, key); s != http.StatusUnauthorized {
			t.Errorf("API key on /v1/mcp: %d, want 401", s)
		}
	})
}

func TestExpiredAccessTokenIsRefused(t *testing.T) {
	e := newEnv(t, func(c *toolwire.Config) { c.AccessTTL = time.Second })
	p := e.signUp(t, "lee@acme-corp.com", store.PlanStarter)
	conf := e.oauthClient(t)
	v := oauth2.GenerateVerifier()
	tok, err := conf.Exchange(context.Background(), e.authorize(t, p, conf, v), oauth2.VerifierOption(v))
	if err != nil {
		t.Fatal(err)
	}
	if s := e.mcpStatus(t, tok.AccessToken); s != http.StatusOK {
		t.Fatalf("fresh token: %d", s)
	}
	time.Sleep(1500 * time.Millisecond)
	if s := e.mcpStatus(t, tok.AccessToken); s != http.StatusUnauthorized {
		t.Errorf("expired token: %d, want 401", s)
	}
}

func TestRefusalsDoNotEchoCredentials(t *testing.T) {
	e := newEnv(t, nil)
	const bogus = "ory_at_bogus-token-value.signature-part"
	for _, tc := range []struct{ method, path, ctype, body string }{
		{http.MethodPost, "/v1/mcp", "application/json", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{http.MethodPost, "/oauth/2.1/token", "application/x-www-form-urlencoded", "grant_type=refresh_token&client_id=nope&refresh_token=" + bogus},
		{http.MethodPost, "/oauth/2.1/token", "application/x-www-form-urlencoded", "grant_type=authorization_code&client_id=nope&code=" + bogus + "&code_verifier=" + bogus},
	} {
		req, _ := http.NewRequest(tc.method, e.origin+tc.path, strings.NewReader(tc.body))
		req.Header.Set("Content-Type", tc.ctype)
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+bogus)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode < 400 {
			t.Errorf("%s: %d", tc.path, res.StatusCode)
		}
		if strings.Contains(string(b), bogus) || strings.Contains(res.Header.Get("WWW-Authenticate"), bogus) {
			t.Errorf("%s echoes the credential: %s", tc.path, b)
		}
	}
	e.noCredentialAnywhere(t, bogus)
}
