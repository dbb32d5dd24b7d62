package toolwire_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"

	"github.com/openprospect/prospectd/store"
)

var newKeyPattern = regexp.MustCompile(`<p class="key" id="new-key">([^<]+)</p>`)

func TestWebAppKeys(t *testing.T) {
	e := newEnv(t, nil)
	p := e.signUp(t, "ana@acme-corp.com", store.PlanStarter)
	other := e.signUp(t, "bo@other-corp.com", store.PlanStarter)
	_, page := p.get(t, e.origin+"/app/")
	for _, want := range []string{"starter", "10000 left", "No keys yet"} {
		if !strings.Contains(page, want) {
			t.Errorf("account page lacks %q", want)
		}
	}
	res, keyPage := p.post(t, e.origin+"/app/keys", url.Values{"csrf": {csrfOf(t, page)}})
	m := newKeyPattern.FindStringSubmatch(keyPage)
	if res.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("issue key: %d %s", res.StatusCode, keyPage)
	}
	key := m[1]
	if res.Header.Get("Cache-Control") != "no-store" {
		t.Error("the page showing a key may be cached")
	}
	pr, err := e.st.Authenticate(context.Background(), key)
	if err != nil || pr.User.ID != p.user.ID {
		t.Fatalf("the issued key does not authenticate: %v", err)
	}
	_, page = p.get(t, e.origin+"/app/")
	if strings.Contains(page, key) {
		t.Error("the account page shows the key again")
	}
	keys, _ := e.st.ListAPIKeys(context.Background(), p.user.OrgID)
	if len(keys) != 1 || !strings.Contains(page, keys[0].Prefix) {
		t.Fatalf("keys %+v not listed", keys)
	}

	// Another organization's person cannot revoke it.
	_, otherPage := other.get(t, e.origin+"/app/")
	res, _ = other.post(t, e.origin+"/app/keys/revoke", url.Values{"csrf": {csrfOf(t, otherPage)}, "key_id": {keys[0].ID}})
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("revoking another organization's key: %d", res.StatusCode)
	}
	// Without the session's CSRF token nothing happens.
	res, _ = p.post(t, e.origin+"/app/keys/revoke", url.Values{"key_id": {keys[0].ID}})
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("revoke without CSRF: %d", res.StatusCode)
	}
	if _, err := e.st.Authenticate(context.Background(), key); err != nil {
		t.Fatalf("the key was revoked by a refused request: %v", err)
	}
	res, page = p.post(t, e.origin+"/app/keys/revoke", url.Values{"csrf": {csrfOf(t, page)}, "key_id": {keys[0].ID}})
	if res.StatusCode != http.StatusOK || !strings.Contains(page, "revoked") {
		t.Errorf("revoke: %d", res.StatusCode)
	}
	if _, err := e.st.Authenticate(context.Background(), key); err == nil {
		t.Error("a revoked key still authenticates")
	}
	e.noCredentialAnywhere(t, key, testPassword)
}

func TestWebAppSignIn(t *testing.T) {
	e := newEnv(t, nil)
	e.signUp(t, "cy@acme-corp.com", store.PlanNone)
	b := &person{browser: newBrowser()}
	res, page := b.get(t, e.origin+"/app/")
	if res.Request.URL.Path != "/app/login" {
		t.Fatalf("signed out account page went to %s", res.Request.URL)
	}
	if sc := res.Header.Get("Content-Security-Policy"); !strings.Contains(sc, "default-src 'none'") || res.Header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("security headers: %v", res.Header)
	}
	form := func(pw string) url.Values {
		return url.Values{"csrf": {csrfOf(t, page)}, "email": {"cy@acme-corp.com"}, "password": {pw}, "next": {"/app/"}}
	}
	res, page = b.post(t, e.origin+"/app/login", form("wrong password 1"))
	if res.StatusCode != http.StatusUnauthorized || !strings.Contains(page, "Wrong email or password") {
		t.Fatalf("wrong password: %d", res.StatusCode)
	}
	res, _ = b.post(t, e.origin+"/app/login", url.Values{"csrf": {"forged"}, "email": {"cy@acme-corp.com"}, "password": {testPassword}})
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("login without the form's token: %d", res.StatusCode)
	}
	_, page = b.get(t, e.origin+"/app/login")
	res, page = b.post(t, e.origin+"/app/login", form(testPassword))
	if res.StatusCode != http.StatusOK || !strings.Contains(page, "Your account") || !strings.Contains(page, "need a paid plan") {
		t.Fatalf("sign in: %d %s", res.StatusCode, page)
	}
	// An open redirect through next is refused.
	b2 := &person{browser: newBrowser()}
	_, lp := b2.get(t, e.origin+"/app/login")
	nr := b2.noRedirect()
	r2, err := nr.PostForm(e.origin+"/app/login", url.Values{"csrf": {csrfOf(t, lp)}, "email": {"cy@acme-corp.com"}, "password": {testPassword}, "next": {"//evil.example/x"}})
	if err != nil {
		t.Fatal(err)
	}
	r2.Body.Close()
	if loc := r2.Header.Get("Location"); loc != "/app/" {
		t.Errorf("next=//evil.example redirected to %q", loc)
	}
	sc := r2.Header.Get("Set-Cookie")
	if !strings.Contains(sc, "HttpOnly") || !strings.Contains(sc, "SameSite=Lax") || !strings.Contains(sc, "Max-Age=43200") {
		t.Errorf("session cookie attributes: %s", sc)
	}

	// Sign-in attempts are rate limited per account.
	b3 := &person{browser: newBrowser()}
	limited := false
	for i := 0; i < 12 && !limited; i++ {
		_, lp := b3.get(t, e.origin+"/app/login")
		res, _ := b3.post(t, e.origin+"/app/login", url.Values{"csrf": {csrfOf(t, lp)}, "email": {"cy@acme-corp.com"}, "password": {"guess"}})
		limited = res.StatusCode == http.StatusTooManyRequests
	}
	if !limited {
		t.Error("twelve wrong passwords in a row were never rate limited")
	}
}

func TestPasswordRules(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	token := "su_rules-token-for-the-test"
	if err := e.st.SaveSignup(ctx, store.Signup{Email: "di@acme-corp.com", FirstName: "Di", LastName: "X", Agent: "t"}, store.HashSecret(token)); err != nil {
		t.Fatal(err)
	}
	p := &person{browser: newBrowser()}
	_, page := p.get(t, e.origin+"/app/confirm?token="+token)
	for _, tc := range []struct{ pw, confirm, want string }{
		{"short", "short", "at least 12"},
		{"long enough password", "another password!!", "differ"},
	} {
		res, body := p.post(t, e.origin+"/app/password", url.Values{"csrf": {csrfOf(t, page)}, "password": {tc.pw}, "confirm": {tc.confirm}})
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, tc.want) {
			t.Errorf("%q: %d, want 422 saying %q", tc.pw, res.StatusCode, tc.want)
		}
	}
	res, _ := p.get(t, e.origin+"/app/confirm?token="+token)
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("a used confirmation link: %d", res.StatusCode)
	}
}

func TestOAuthTokenStaysInItsOrganization(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	a := e.signUp(t, "amy@acme-corp.com", store.PlanStarter)
	b := e.signUp(t, "ben@other-corp.com", store.PlanStarter)
	taskB, err := e.st.CreateTask(ctx, b.user.OrgID, "segment", []byte(`{"domains":["acme.com"]}`))
	if err != nil {
		t.Fatal(err)
	}
	conf := e.oauthClient(t)
	v := oauth2.GenerateVerifier()
	tok, err := conf.Exchange(ctx, e.authorize(t, a, conf, v), oauth2.VerifierOption(v))
	if err != nil {
		t.Fatal(err)
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: e.origin + "/v1/mcp",
		HTTPClient: oauth2.NewClient(ctx, oauth2.StaticTokenSource(tok))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_task_status", Arguments: map[string]any{"task_id": taskB.ID}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError {
		t.Fatalf("org A's token read org B's task: %+v", res.StructuredContent)
	}
	if txt := res.Content[0].(*sdk.TextContent).Text; !strings.HasPrefix(txt, "404") {
		t.Errorf("another organization's task: %s, want 404", txt)
	}
}
