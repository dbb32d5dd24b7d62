package toolwire_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
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

// env is the whole server on loopback: the REST API with the
// authorization server, the web app and the tool server mounted, as
// `prospectd serve` runs it.
type env struct {
	origin string
	st     store.Store
	parts  *toolwire.Parts
	logs   *syncBuf
}

type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newEnv(t *testing.T, configure func(*toolwire.Config)) *env {
	t.Helper()
	return newEnvWith(t, nil, configure)
}

// newEnvWith lets deps add services to the REST API before it is built.
func newEnvWith(t *testing.T, deps func(*api.Deps), configure func(*toolwire.Config)) *env {
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
	if _, err := eng.UpsertContacts(ctx, enginetest.ContactFixtures()); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	logs := &syncBuf{}
	log := zerolog.New(logs)
	names := &namematch.Service{Engine: eng}
	d := api.Deps{Engine: eng, Store: st, Names: names, Log: log, WebApp: "/app/confirm"}
	if deps != nil {
		deps(&d)
	}
	tasks := jobs.New(jobs.Config{State: st, Engine: eng, Names: names, Log: log, Workers: 2, CRM: d.CRM})
	d.Tasks = tasks
	srv := api.New(d)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	origin := "http://" + ln.Addr().String()
	cfg := toolwire.Config{PublicURL: origin + "/v1", Secret: []byte("an auth secret of at least 32 bytes!"),
		State: st, Engine: eng, Tasks: tasks, Log: log, SpendCap: 0}
	if configure != nil {
		configure(&cfg)
	}
	parts, err := toolwire.Mount(srv, cfg)
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(runCtx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	e := &env{origin: origin, st: st, parts: parts, logs: logs}
	dbPaths.Store(e, filepath.Join(dir, "state.db"))
	return e
}

// person is someone with a confirmed signup and a password, on a plan.
type person struct {
	email, password string
	user            store.User
	browser         *http.Client
}

const testPassword = "correct horse battery staple"

// signUp confirms a signup through the web app's link, sets the password
// and signs in: the path a person takes after POST /v1/public/signup.
func (e *env) signUp(t *testing.T, email string, plan store.Plan) *person {
	t.Helper()
	ctx := context.Background()
	token := "su_" + strings.ReplaceAll(email, "@", "-") + "-confirmation-token"
	if err := e.st.SaveSignup(ctx, store.Signup{Email: email, FirstName: "Pat", LastName: "Doe", Agent: "test"}, store.HashSecret(token)); err != nil {
		t.Fatal(err)
	}
	p := &person{email: email, password: testPassword, browser: newBrowser()}
	res, body := p.get(t, e.origin+"/app/confirm?token="+url.QueryEscape(token))
	if res.StatusCode != http.StatusOK || !strings.Contains(body, "Choose a password") {
		t.Fatalf("confirm: %d %s", res.StatusCode, body)
	}
	res, body = p.post(t, e.origin+"/app/password", url.Values{"csrf": {csrfOf(t, body)}, "password": {testPassword}, "confirm": {testPassword}})
	if res.StatusCode != http.StatusOK || !strings.Contains(body, "Your account") {
		t.Fatalf("set password: %d %s", res.StatusCode, body)
	}
	u, err := e.st.UserByEmail(ctx, email)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.st.SetOrgPlan(ctx, u.OrgID, plan); err != nil {
		t.Fatal(err)
	}
	p.user = u
	return p
}

func newBrowser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: 30 * time.Second}
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func csrfOf(t *testing.T, page string) string {
	t.Helper()
	m := csrfField.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no csrf field in page: %s", page)
	}
	return m[1]
}

func (p *person) get(t *testing.T, u string) (*http.Response, string) {
	t.Helper()
	res, err := p.browser.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func (p *person) post(t *testing.T, u string, form url.Values) (*http.Response, string) {
	t.Helper()
	res, err := p.browser.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// noRedirect returns the browser's client that stops at the first
// redirect, to read where the authorization server sends the browser.
func (p *person) noRedirect() *http.Client {
	c := *p.browser
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

var dbPaths sync.Map // *env -> path of state.db

func (e *env) stPath() string {
	p, _ := dbPaths.Load(e)
	s, _ := p.(string)
	return s
}
