package main

import (
	"bytes"
	"context"
	"errors"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/api"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/internal/toolwire"
	"github.com/openprospect/prospectd/jobs"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

// oauthWorld is the server with its authorization server and web app on
// loopback, as prospectd serve mounts them, and a person who can sign in.
type oauthWorld struct {
	base            string // REST root
	email, password string
	st              store.Store
}

func startOAuthWorld(t *testing.T) *oauthWorld {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	eng, err := embedded.Open(filepath.Join(dir, "index"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if err := eng.SetMeta(ctx, index.Meta{EmbedderID: "test", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.UpsertCompanies(ctx, enginetest.Fixtures()); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	log := zerolog.Nop()
	names := &namematch.Service{Engine: eng}
	tasks := jobs.New(jobs.Config{State: st, Engine: eng, Names: names, Log: log, Workers: 1})
	srv := api.New(api.Deps{Engine: eng, Store: st, Tasks: tasks, Names: names, Log: log, WebApp: "/app/confirm"})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	origin := "http://" + ln.Addr().String()
	if _, err := toolwire.Mount(srv, toolwire.Config{PublicURL: origin + "/v1", Secret: []byte("an auth secret of at least 32 bytes!"),
		State: st, Engine: eng, Tasks: tasks, Log: log}); err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(runCtx, ln) }()
	t.Cleanup(func() { cancel(); <-done })

	// A person signs up, confirms and chooses a password in the web app.
	w := &oauthWorld{base: origin + "/v1", email: "pat@acme-corp.com", password: "correct horse battery staple", st: st}
	token := "su_cli-test-confirmation-token"
	if err := st.SaveSignup(ctx, store.Signup{Email: w.email, FirstName: "Pat", LastName: "Doe", Agent: "test"}, store.HashSecret(token)); err != nil {
		t.Fatal(err)
	}
	b := newTestBrowser()
	_, page := b.get(t, origin+"/app/confirm?token="+url.QueryEscape(token))
	if res, page := b.post(t, origin+"/app/password", url.Values{"csrf": {csrfOf(t, page)}, "password": {w.password}, "confirm": {w.password}}); res.StatusCode != http.StatusOK {
		t.Fatalf("set password: %d %s", res.StatusCode, page)
	}
	u, err := st.UserByEmail(ctx, w.email)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetOrgPlan(ctx, u.OrgID, store.PlanStarter); err != nil {
		t.Fatal(err)
	}
	return w
}

type testBrowser struct{ c *http.Client }

func newTestBrowser() *testBrowser {
	jar, _ := cookiejar.New(nil)
	return &testBrowser{&http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

func (b *testBrowser) get(t *testing.T, u string) (*http.Response, string) {
	t.Helper()
	res, err := b.c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

func (b *testBrowser) post(t *testing.T, u string, form url.Values) (*http.Response, string) {
	t.Helper()
	res, err := b.c.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

var (
	csrfField  = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	consentFor = regexp.MustCompile(`<form method="post" action="(/oauth/2.1/authorize[^"]*)">`)
)

func csrfOf(t *testing.T, page string) string {
	t.Helper()
	m := csrfField.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no csrf field in page: %s", page)
	}
	return m[1]
}

// playBrowser does what the person does with the address the CLI opens:
// sign in with the web form, approve the consent page, and follow the
// redirect to the CLI's loopback listener (with tamper applied to it
// first). It returns the listener's status.
func (w *oauthWorld) playBrowser(t *testing.T, authURL string, tamper func(*url.URL)) (int, error) {
	b := newTestBrowser()
	res, err := b.c.Get(authURL)
	if err != nil {
		return 0, err
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(page), `action="/app/login"`) {
		return 0, errors.New("the authorization address did not lead to the sign-in page: " + string(page))
	}
	m := regexp.MustCompile(`name="next" value="([^"]*)"`).FindStringSubmatch(string(page))
	if m == nil {
		return 0, errors.New("no next field on the sign-in page")
	}
	origin := authURL[:strings.Index(authURL, "/oauth/")]
	res, err = b.c.PostForm(origin+"/app/login", url.Values{"csrf": {csrfField.FindStringSubmatch(string(page))[1]},
		"next": {html.UnescapeString(m[1])}, "email": {w.email}, "password": {w.password}})
	if err != nil {
		return 0, err
	}
	page, _ = io.ReadAll(res.Body)
	res.Body.Close()
	action := consentFor.FindStringSubmatch(string(page))
	if action == nil {
		return 0, errors.New("no consent page after sign-in: " + string(page))
	}
	if !strings.Contains(string(page), "prospect command-line client") || !strings.Contains(string(page), w.base) {
		return 0, errors.New("the consent page does not name the CLI and the REST resource: " + string(page))
	}
	noFollow := *b.c
	noFollow.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err = noFollow.PostForm(origin+html.UnescapeString(action[1]), url.Values{"csrf": {csrfField.FindStringSubmatch(string(page))[1]}, "decision": {"approve"}})
	if err != nil {
		return 0, err
	}
	res.Body.Close()
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil || res.StatusCode/100 != 3 || loc.Hostname() != "127.0.0.1" {
		return 0, errors.New("consent did not redirect to the loopback listener: " + res.Header.Get("Location"))
	}
	if tamper != nil {
		tamper(loc)
	}
	res, err = http.Get(loc.String())
	if err != nil {
		return 0, err
	}
	res.Body.Close()
	return res.StatusCode, nil
}

// runLogin runs `prospect login` with the test playing the browser.
func (w *oauthWorld) runLogin(t *testing.T, env map[string]string, tamper func(*url.URL), args ...string) (result, int) {
	t.Helper()
	var out, errb bytes.Buffer
	statusCh := make(chan int, 1)
	opened := false
	a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string { return env[k] },
		loginTimeout: time.Minute,
		openBrowser: func(u string) error {
			opened = true
			go func() {
				status, err := w.playBrowser(t, u, tamper)
				if err != nil {
					t.Error(err)
				}
				statusCh <- status
			}()
			return nil
		}}
	code := a.run(context.Background(), append([]string{"login", "--base-url", w.base}, args...))
	status := 0
	if opened {
		status = <-statusCh
	}
	return result{code, out.String(), errb.String()}, status
}

// TestBrowserLogin: `prospect login` registers, listens on loopback, the
// person signs in and approves, the CLI exchanges the code with its PKCE
// verifier, stores the tokens 0600 and calls the REST API with them; a
// redirect with another state is refused; an expired access token is
// refreshed and the rotated tokens stored; logout revokes and removes them.
func TestBrowserLogin(t *testing.T) {
	w := startOAuthWorld(t)
	cfgDir := t.TempDir()
	env := map[string]string{"XDG_CONFIG_HOME": cfgDir}
	path := filepath.Join(cfgDir, "prospect", "config.json")

	t.Run("wrong state is refused", func(t *testing.T) {
		r, status := w.runLogin(t, env, func(u *url.URL) {
			q := u.Query()
			q.Set("state", "forged-"+q.Get("state"))
			u.RawQuery = q.Encode()
		})
		if r.code != exitAuth || !strings.Contains(r.stderr, "state does not match") || status != http.StatusBadRequest {
			t.Fatalf("forged state: exit %d, listener %d: %s", r.code, status, r.stderr)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Fatalf("tokens stored after a refused login: %v", err)
		}
	})

	r, status := w.runLogin(t, env, nil)
	if r.code != 0 || status != http.StatusOK {
		t.Fatalf("login: exit %d, listener %d: %s", r.code, status, r.stderr)
	}
	if !strings.Contains(r.stderr, "code_challenge_method=S256") || !strings.Contains(r.stderr, "redirect_uri=http%3A%2F%2F127.0.0.1%3A") {
		t.Errorf("the printed address lacks PKCE or the loopback redirect: %s", r.stderr)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("config %v %v", err, fi)
	}
	c, err := loadConfig(path)
	if err != nil || c.OAuth == nil || c.OAuth.Token.AccessToken == "" || c.OAuth.Token.RefreshToken == "" || c.APIKey != "" {
		t.Fatalf("stored login %+v %v", c, err)
	}
	if c.OAuth.Resource != w.base {
		t.Errorf("resource %q, want %q", c.OAuth.Resource, w.base)
	}

	// The REST API with the stored token.
	r = runCLI(t, env, "", "whoami", "-o", "json")
	if r.code != 0 || !strings.Contains(r.stdout, `"plan": "starter"`) || !strings.Contains(r.stderr, "browser login") {
		t.Fatalf("whoami with the token: %+v", r)
	}
	if r = runCLI(t, env, "", "usage", "-o", "json"); r.code != 0 {
		t.Fatalf("usage: %+v", r)
	}

	// Expire the access token: the next command refreshes and stores the
	// rotated tokens; the old access token stays as it was.
	first := *c.OAuth.Token
	c.OAuth.Token.Expiry = time.Now().Add(-time.Minute)
	if err := saveConfig(path, c); err != nil {
		t.Fatal(err)
	}
	if r = runCLI(t, env, "", "usage", "-o", "json"); r.code != 0 {
		t.Fatalf("usage after expiry: %+v", r)
	}
	c2, _ := loadConfig(path)
	if c2.OAuth.Token.AccessToken == first.AccessToken || c2.OAuth.Token.RefreshToken == first.RefreshToken || !c2.OAuth.Token.Valid() {
		t.Fatalf("not refreshed and rotated: %+v", c2.OAuth.Token)
	}

	// Logout revokes the grant and removes the file.
	if r = runCLI(t, env, "", "logout"); r.code != 0 {
		t.Fatalf("logout: %+v", r)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("config left after logout: %v", err)
	}
	req, _ := http.NewRequest(http.MethodGet, w.base+"/usage", nil)
	req.Header.Set("Authorization", "Bearer "+c2.OAuth.Token.AccessToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("access token after logout: %d, want 401", res.StatusCode)
	}
	if r = runCLI(t, env, "", "whoami"); r.code != exitAuth {
		t.Fatalf("whoami after logout: %+v", r)
	}

	t.Run("no-browser prints the address only", func(t *testing.T) {
		var out, errb bytes.Buffer
		a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string { return env[k] },
			loginTimeout: 200 * time.Millisecond, openBrowser: func(string) error { t.Error("a browser was opened"); return nil }}
		code := a.run(context.Background(), []string{"login", "--base-url", w.base, "--no-browser"})
		if code != exitAuth || !strings.Contains(errb.String(), "/oauth/2.1/authorize?") || !strings.Contains(errb.String(), "no answer from the browser") {
			t.Fatalf("--no-browser: exit %d %s", code, errb.String())
		}
	})
}
