package main

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// The browser login (OAuth 2.1, RFC 8252 native app): the CLI finds the
// authorization server from the REST API's protected resource metadata
// (RFC 9728), registers itself as a public client (RFC 7591) with a
// loopback redirect on a random port, and runs the authorization code
// flow with PKCE S256 and the REST API as the resource (RFC 8707).
// golang.org/x/oauth2 builds the authorization URL, the PKCE verifier
// and challenge, and does the code exchange and the refreshes.

// oauthLogin is the stored browser login.
type oauthLogin struct {
	ClientID      string        `json:"client_id"`
	TokenURL      string        `json:"token_url"`
	RevocationURL string        `json:"revocation_url,omitempty"`
	Resource      string        `json:"resource"`
	Token         *oauth2.Token `json:"token"`
}

// resourceMeta is the part of RFC 9728 metadata the login reads.
type resourceMeta struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
}

// serverMeta is the part of RFC 8414 metadata the login reads.
type serverMeta struct {
	Issuer                        string   `json:"issuer"`
	AuthorizationEndpoint         string   `json:"authorization_endpoint"`
	TokenEndpoint                 string   `json:"token_endpoint"`
	RegistrationEndpoint          string   `json:"registration_endpoint"`
	RevocationEndpoint            string   `json:"revocation_endpoint"`
	CodeChallengeMethodsSupported []string `json:"code_challenge_methods_supported"`
}

// errLoginRefused: the authorization server or the browser's redirect
// refused the login (error parameter, wrong state).
var errLoginRefused = errors.New("login refused")

// wellKnown is the RFC 8414 / RFC 9728 metadata address of id: the
// well-known prefix inserted between the host and id's path.
func wellKnown(id, suffix string) (string, error) {
	u, err := url.Parse(id)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("%q is not an http(s) URL", id)
	}
	return u.Scheme + "://" + u.Host + "/.well-known/" + suffix + strings.TrimRight(u.Path, "/"), nil
}

func (a *app) getJSON(ctx context.Context, hc *http.Client, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	res, err := hc.Do(req)
	if err != nil {
		return withCode(exitServer, fmt.Errorf("GET %s: %w", u, err))
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
		return withCode(statusCode(res.StatusCode), fmt.Errorf("GET %s: %s", u, problemText(res.StatusCode, b)))
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(v); err != nil {
		return fmt.Errorf("read %s: %w", u, err)
	}
	return nil
}

// discover finds the authorization server protecting the REST root base.
func (a *app) discover(ctx context.Context, hc *http.Client, base string) (resourceMeta, serverMeta, error) {
	var rm resourceMeta
	var sm serverMeta
	resource := strings.TrimRight(base, "/")
	u, err := wellKnown(resource, "oauth-protected-resource")
	if err != nil {
		return rm, sm, withCode(exitUsage, fmt.Errorf("base URL: %w", err))
	}
	if err := a.getJSON(ctx, hc, u, &rm); err != nil {
		return rm, sm, fmt.Errorf("find the authorization server (the server may not offer browser login; use --with-key): %w", err)
	}
	if strings.TrimRight(rm.Resource, "/") != resource || len(rm.AuthorizationServers) == 0 {
		return rm, sm, fmt.Errorf("resource metadata at %s names %q, not %s, or no authorization server", u, rm.Resource, resource)
	}
	issuer := rm.AuthorizationServers[0]
	if u, err = wellKnown(issuer, "oauth-authorization-server"); err != nil {
		return rm, sm, fmt.Errorf("authorization server: %w", err)
	}
	if err := a.getJSON(ctx, hc, u, &sm); err != nil {
		return rm, sm, fmt.Errorf("read the authorization server's metadata: %w", err)
	}
	switch {
	case strings.TrimRight(sm.Issuer, "/") != strings.TrimRight(issuer, "/"):
		return rm, sm, fmt.Errorf("authorization server metadata names issuer %q, want %q", sm.Issuer, issuer)
	case !contains(sm.CodeChallengeMethodsSupported, "S256"):
		return rm, sm, fmt.Errorf("the authorization server %s does not support PKCE S256", issuer)
	case sm.RegistrationEndpoint == "" || sm.AuthorizationEndpoint == "" || sm.TokenEndpoint == "":
		return rm, sm, fmt.Errorf("the authorization server %s offers no client registration", issuer)
	}
	return rm, sm, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// register registers the CLI as a public client with one redirect URI.
func register(ctx context.Context, hc *http.Client, endpoint, redirect string) (string, error) {
	host, _ := os.Hostname()
	name := "prospect command-line client"
	if host != "" {
		name += " on " + host
	}
	body, _ := json.Marshal(map[string]any{
		"client_name": name, "redirect_uris": []string{redirect}, "token_endpoint_auth_method": "none",
		"grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"},
		"scope": "offline_access",
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(string(body)))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := hc.Do(req)
	if err != nil {
		return "", withCode(exitServer, fmt.Errorf("register client: %w", err))
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if res.StatusCode != http.StatusCreated && res.StatusCode != http.StatusOK {
		return "", withCode(statusCode(res.StatusCode), fmt.Errorf("register client: %s", problemText(res.StatusCode, b)))
	}
	var reg struct {
		ClientID string `json:"client_id"`
	}
	if err := json.Unmarshal(b, &reg); err != nil || reg.ClientID == "" {
		return "", fmt.Errorf("register client: no client_id in the answer")
	}
	return reg.ClientID, nil
}

func randomState() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// callback is what the loopback redirect brought.
type callback struct {
	code string
	err  error
}

// callbackHandler answers the browser's redirect: the first request to
// /callback decides the login (a code with the expected state, or an
// error); later ones are told the login is over.
func callbackHandler(state string, out chan<- callback) http.Handler {
	var once sync.Once
	page := func(w http.ResponseWriter, status int, msg string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		fmt.Fprintf(w, "<!doctype html><title>prospect login</title><p>%s</p>", html.EscapeString(msg))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		var cb callback
		status, msg := http.StatusOK, "Signed in. You can close this window and return to the terminal."
		switch {
		case subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(state)) != 1:
			// A redirect this login did not start (RFC 6749 §10.12).
			cb.err = fmt.Errorf("%w: the redirect's state does not match this login's", errLoginRefused)
			status, msg = http.StatusBadRequest, "This sign-in answer does not belong to the login the terminal started; the login is stopped."
		case q.Get("error") != "":
			cb.err = fmt.Errorf("%w: %s %s", errLoginRefused, q.Get("error"), q.Get("error_description"))
			status, msg = http.StatusBadRequest, "The sign-in was not completed: "+q.Get("error")
		case q.Get("code") == "":
			cb.err = fmt.Errorf("%w: the redirect carries no code", errLoginRefused)
			status, msg = http.StatusBadRequest, "The sign-in answer carries no code."
		default:
			cb.code = q.Get("code")
		}
		decided := false
		once.Do(func() { decided = true; out <- cb })
		if !decided {
			status, msg = http.StatusGone, "This login is already over."
		}
		page(w, status, msg)
	})
}

// loginBrowser runs the authorization code flow and stores the tokens.
func (a *app) loginBrowser(ctx context.Context, base string, noBrowser bool) error {
	hc := a.httpClient
	if hc == nil {
		hc = &http.Client{Timeout: time.Minute}
	}
	rm, sm, err := a.discover(ctx, hc, base)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("listen for the browser's redirect: %w", err)
	}
	defer ln.Close()
	redirect := fmt.Sprintf("http://127.0.0.1:%d/callback", ln.Addr().(*net.TCPAddr).Port)
	clientID, err := register(ctx, hc, sm.RegistrationEndpoint, redirect)
	if err != nil {
		return err
	}
	conf := &oauth2.Config{ClientID: clientID, RedirectURL: redirect, Scopes: []string{"offline_access"},
		Endpoint: oauth2.Endpoint{AuthURL: sm.AuthorizationEndpoint, TokenURL: sm.TokenEndpoint, AuthStyle: oauth2.AuthStyleInParams}}
	verifier, state := oauth2.GenerateVerifier(), randomState()
	resource := oauth2.SetAuthURLParam("resource", rm.Resource)
	authURL := conf.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), resource)

	results := make(chan callback, 1)
	srv := &http.Server{Handler: callbackHandler(state, results), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	fmt.Fprintf(a.stderr, "Sign in to %s in your browser:\n\n  %s\n\nWaiting for the browser (Ctrl-C to stop)…\n", base, authURL)
	if !noBrowser {
		if err := a.openBrowser(authURL); err != nil {
			fmt.Fprintf(a.stderr, "could not open a browser (%v); open the address above yourself\n", err)
		}
	}
	wait := a.loginTimeout
	if wait <= 0 {
		wait = 10 * time.Minute
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	var cb callback
	select {
	case cb = <-results:
	case <-ctx.Done():
		return withCode(exitAuth, fmt.Errorf("login stopped: %w", ctx.Err()))
	case <-timer.C:
		return withCode(exitAuth, fmt.Errorf("login: no answer from the browser within %s", wait))
	}
	if cb.err != nil {
		return withCode(exitAuth, cb.err)
	}
	tok, err := conf.Exchange(context.WithValue(ctx, oauth2.HTTPClient, hc), cb.code, oauth2.VerifierOption(verifier), resource)
	if err != nil {
		return withCode(exitAuth, fmt.Errorf("exchange the authorization code: %w", err))
	}
	login := &oauthLogin{ClientID: clientID, TokenURL: sm.TokenEndpoint, RevocationURL: sm.RevocationEndpoint, Resource: rm.Resource, Token: tok}
	path, err := configPath(a.getenv)
	if err != nil {
		return err
	}
	c := &client{base: base, http: hc, retries: a.retries, stderr: a.stderr, sleep: sleepCtx,
		tokens: a.tokenSource(path, base, login)}
	if _, err := c.do(ctx, http.MethodGet, "/v1/usage", nil, "", nil); err != nil {
		return fmt.Errorf("check the new token: %w", err)
	}
	if err := saveConfig(path, config{BaseURL: base, OAuth: login}); err != nil {
		return err
	}
	fmt.Fprintf(a.stderr, "logged in to %s; tokens stored in %s\n", base, path)
	return nil
}

// storedTokens is a token source over the stored login: it refreshes an
// expired access token and writes the rotated tokens back, so the next
// command starts from them (a refresh token is good for one use).
type storedTokens struct {
	mu     sync.Mutex
	conf   *oauth2.Config
	hc     *http.Client
	path   string
	base   string
	login  *oauthLogin
	source oauth2.TokenSource
}

func (a *app) tokenSource(path, base string, login *oauthLogin) *storedTokens {
	hc := a.httpClient
	if hc == nil {
		hc = &http.Client{Timeout: time.Minute}
	}
	conf := &oauth2.Config{ClientID: login.ClientID, Scopes: []string{"offline_access"},
		Endpoint: oauth2.Endpoint{TokenURL: login.TokenURL, AuthStyle: oauth2.AuthStyleInParams}}
	return &storedTokens{conf: conf, hc: hc, path: path, base: base, login: login}
}

// Token returns a valid access token, refreshing when needed.
func (s *storedTokens) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.login.Token.Valid() {
		return s.login.Token, nil
	}
	// Another prospect process may have refreshed already: its refresh
	// token replaced ours, and replaying ours would revoke the grant.
	if c, err := loadConfig(s.path); err == nil && c.OAuth != nil && c.OAuth.Token != nil &&
		c.OAuth.ClientID == s.login.ClientID && c.OAuth.Token.Valid() {
		s.login.Token = c.OAuth.Token
		return s.login.Token, nil
	}
	if s.login.Token.RefreshToken == "" {
		return nil, errors.New("the login has expired and has no refresh token: run `prospect login` again")
	}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, s.hc)
	tok, err := s.conf.TokenSource(ctx, &oauth2.Token{RefreshToken: s.login.Token.RefreshToken}).Token()
	if err != nil {
		return nil, fmt.Errorf("refresh the login (run `prospect login` again): %w", err)
	}
	if tok.RefreshToken == "" {
		tok.RefreshToken = s.login.Token.RefreshToken
	}
	s.login.Token = tok
	if err := saveConfig(s.path, config{BaseURL: s.base, OAuth: s.login}); err != nil {
		return nil, fmt.Errorf("store the refreshed login: %w", err)
	}
	return tok, nil
}

// revoke asks the authorization server to revoke the refresh token (and
// with it the grant's access tokens, RFC 7009 §2.1); best effort.
func (a *app) revoke(ctx context.Context, login *oauthLogin) error {
	if login == nil || login.RevocationURL == "" || login.Token == nil {
		return nil
	}
	tok, hint := login.Token.RefreshToken, "refresh_token"
	if tok == "" {
		tok, hint = login.Token.AccessToken, "access_token"
	}
	form := url.Values{"token": {tok}, "token_type_hint": {hint}, "client_id": {login.ClientID}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, login.RevocationURL, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	hc := a.httpClient
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	res, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("revoke the login: %w", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("revoke the login: status %d", res.StatusCode)
	}
	return nil
}
