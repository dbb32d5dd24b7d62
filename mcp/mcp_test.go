package mcp_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/api"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/jobs"
	"github.com/openprospect/prospectd/mcp"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

// fixture is a loopback server: the REST API with the tool server mounted
// at /v1/mcp, over a real engine and SQLite store.
type fixture struct {
	url  string
	st   store.Store
	keyA string // org A (starter)
	keyB string // org B (starter)
}

var secret = []byte("0123456789abcdef0123456789abcdef")

// unlimited lifts the rate limits (for the benchmark).
var unlimited bool

func newFixture(t testing.TB, configure func(*mcp.Config)) fixture {
	t.Helper()
	return newFixtureWith(t, nil, configure)
}

// newFixtureWith lets deps add services (the email lookups) to the REST
// API before it is built; the tool server gets the same ones.
func newFixtureWith(t testing.TB, deps func(*api.Deps), configure func(*mcp.Config)) fixture {
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
	f := fixture{st: st, keyA: newKey(t, st, "org-a"), keyB: newKey(t, st, "org-b")}

	log := zerolog.Nop()
	names := &namematch.Service{Engine: eng}
	limits := account.DefaultLimits()
	if unlimited {
		limits = account.Limits{KeyPerSecond: 1e6, KeyBurst: 1e6, OrgPerSecond: 1e6, OrgBurst: 1e6}
	}
	d := api.Deps{Engine: eng, Store: st, Names: names, Log: log, Limits: &limits}
	if deps != nil {
		deps(&d)
	}
	tasks := jobs.New(jobs.Config{State: st, Engine: eng, Names: names, Log: log, Workers: 2, Research: d.Research, CRM: d.CRM, Prospecting: d.Prospecting})
	d.Tasks = tasks
	srv := api.New(d)
	companies := &query.Companies{Engine: eng}
	plans := account.DefaultPlans()
	cfg := mcp.Config{
		Companies: companies, Contacts: &query.ContactService{Engine: eng, Companies: companies},
		Biller:  &account.Biller{Store: st, Plans: plans},
		Limiter: &account.Limiter{Limits: limits, Plans: plans},
		Tasks:   tasks, TaskState: st, OpenAPI: srv.OpenAPI(),
		Saved: saved.NewService(st), Email: d.Email, Research: d.Research, Integrations: d.Integrations, Names: names, CRM: d.CRM, Prospecting: d.Prospecting,
		Verify:              mcp.KeyVerifier(st),
		ResourceMetadataURL: "http://127.0.0.1/.well-known/oauth-protected-resource/v1/mcp",
		Secret:              secret, Log: log,
	}
	if configure != nil {
		configure(&cfg)
	}
	m, err := mcp.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv.Mount(mcp.Path, m.Handler(), mcp.BodyLimit)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(runCtx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	f.url = "http://" + ln.Addr().String() + mcp.Path
	return f
}

func newKey(t testing.TB, st store.Store, org string) string {
	t.Helper()
	ctx := context.Background()
	o, err := st.CreateOrg(ctx, org, store.PlanStarter)
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.CreateUser(ctx, o.ID, "ops@"+org+".test", store.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := st.CreateAPIKey(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// bearer adds a bearer token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

type progressLog struct {
	mu  sync.Mutex
	got []float64
}

func connect(t testing.TB, url, token string, pl *progressLog) *sdk.ClientSession {
	t.Helper()
	opts := &sdk.ClientOptions{}
	if pl != nil {
		opts.ProgressNotificationHandler = func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			pl.mu.Lock()
			pl.got = append(pl.got, r.Params.Progress)
			pl.mu.Unlock()
		}
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url,
		HTTPClient: &http.Client{Transport: bearer{token}}}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callTool(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) (map[string]any, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	var out map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("call %s: structured content %s: %v", name, b, err)
	}
	return out, res.IsError
}

func TestToolsListWithSchemasFromTheRESTDeclarations(t *testing.T) {
	f := newFixture(t, nil)
	cs := connect(t, f.url, f.keyA, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*sdk.Tool{}
	for _, tl := range res.Tools {
		tools[tl.Name] = tl
	}
	tests := []struct {
		name     string
		readOnly bool
		spends   bool
		props    []string
	}{
		{"get_company", false, true, []string{"domain"}},
		{"discover_companies", false, true, []string{"icp_prompt", "domain", "country", "max_records"}},
		{"count_companies", true, false, []string{"icp_prompt", "country"}},
		{"discover_contacts", false, true, nil},
		{"count_contacts", true, false, nil},
		{"lookup_contact", false, true, []string{"persona_id", "linkedin", "email"}},
		{"segment_companies", false, true, []string{"domains", "max_segments"}},
		{"match_companies", false, true, []string{"companies"}},
		{"match_contacts", false, true, []string{"queries", "enrich", "limit"}},
		{"append_datasets", false, true, []string{"domains", "dataset"}},
		{"get_task_status", true, false, []string{"task_id"}},
		{"get_usage", true, false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tl := tools[tc.name]
			if tl == nil {
				t.Fatalf("tool %s not listed", tc.name)
			}
			if tl.Annotations == nil || tl.Annotations.ReadOnlyHint != tc.readOnly {
				t.Errorf("readOnlyHint: %+v, want %v", tl.Annotations, tc.readOnly)
			}
			b, _ := json.Marshal(tl.InputSchema)
			var schema struct {
				Type       string                    `json:"type"`
				Properties map[string]map[string]any `json:"properties"`
			}
			if err := json.Unmarshal(b, &schema); err != nil || schema.Type != "object" {
				t.Fatalf("schema %s: %v", b, err)
			}
			for _, p := range tc.props {
				if _, ok := schema.Properties[p]; !ok {
					t.Errorf("no property %q in %s", p, b)
				}
			}
			if _, ok := schema.Properties["confirmation_token"]; ok != tc.spends {
				t.Errorf("confirmation_token property: %v, want %v", ok, tc.spends)
			}
		})
	}
	// The declarations carry their limits: discover's max_records is the
	// route's integer 5-10000.
	b, _ := json.Marshal(tools["discover_companies"].InputSchema)
	if !strings.Contains(string(b), `"maximum":10000`) {
		t.Errorf("discover schema lacks the route's max_records limit: %s", b)
	}
}

func TestSpendingToolsAnswerWithAnEstimateFirst(t *testing.T) {
	f := newFixture(t, nil)
	cs := connect(t, f.url, f.keyA, nil)
	args := map[string]any{"domain": "https://www.acme.com/about"}
	est, isErr := callTool(t, cs, "get_company", args)
	if isErr || est["status"] != "confirmation_required" {
		t.Fatalf("first call: %v", est)
	}
	e := est["estimate"].(map[string]any)
	if e["credits"] != 1.0 || e["price_usd"] != 0.02 {
		t.Errorf("estimate %v, want 1 credit at $0.02 (starter, $20 per 1K)", e)
	}
	token := est["confirmation_token"].(string)
	usage, _ := callTool(t, cs, "get_usage", nil)
	if usage["credits_used"] != 0.0 {
		t.Fatalf("an estimate billed: %v", usage)
	}

	// The token is bound to the exact arguments.
	out, isErr := callTool(t, cs, "get_company", map[string]any{"domain": "wachdienst.de", "confirmation_token": token})
	if !isErr || out["status"] != 422.0 {
		t.Errorf("token with other arguments: %v", out)
	}
	// ... and to the caller: org B cannot replay it.
	csB := connect(t, f.url, f.keyB, nil)
	out, isErr = callTool(t, csB, "get_company", map[string]any{"domain": "https://www.acme.com/about", "confirmation_token": token})
	if !isErr || out["status"] != 422.0 {
		t.Errorf("token of another organization: %v", out)
	}
	// ... and to the tool.
	out, isErr = callTool(t, cs, "lookup_contact", map[string]any{"domain": "https://www.acme.com/about", "confirmation_token": token})
	if !isErr {
		t.Errorf("token of another tool: %v", out)
	}

	out, isErr = callTool(t, cs, "get_company", map[string]any{"domain": "https://www.acme.com/about", "confirmation_token": token})
	if isErr {
		t.Fatalf("confirmed call: %v", out)
	}
	if co := out["company"].(map[string]any); co["domain"] != "acme.com" || out["credits_billed"] != 1.0 {
		t.Errorf("confirmed call: %v", out)
	}
	usage, _ = callTool(t, cs, "get_usage", nil)
	if usage["credits_used"] != 1.0 {
		t.Errorf("usage after one profile: %v", usage)
	}
}

func TestConfirmationTokensExpire(t *testing.T) {
	now := time.Now()
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	f := newFixture(t, func(c *mcp.Config) { c.Now = clock })
	cs := connect(t, f.url, f.keyA, nil)
	est, _ := callTool(t, cs, "get_company", map[string]any{"domain": "acme.com"})
	mu.Lock()
	now = now.Add(mcp.ConfirmationTTL + time.Second)
	mu.Unlock()
	out, isErr := callTool(t, cs, "get_company", map[string]any{"domain": "acme.com", "confirmation_token": est["confirmation_token"]})
	if !isErr || !strings.Contains(out["detail"].(string), "expired") {
		t.Errorf("expired token: %v", out)
	}
}

func TestSessionSpendingCap(t *testing.T) {
	f := newFixture(t, func(c *mcp.Config) { c.SessionCap = 1 })
	cs := connect(t, f.url, f.keyA, nil)
	est, _ := callTool(t, cs, "get_company", map[string]any{"domain": "acme.com"})
	if out, isErr := callTool(t, cs, "get_company", map[string]any{"domain": "acme.com", "confirmation_token": est["confirmation_token"]}); isErr {
		t.Fatalf("first call within the cap: %v", out)
	}
	out, isErr := callTool(t, cs, "get_company", map[string]any{"domain": "wachdienst.de"})
	if !isErr || out["status"] != 403.0 || !strings.Contains(out["detail"].(string), "spending cap") {
		t.Errorf("call over the cap: %v", out)
	}
	// Another key (grant) has its own cap.
	csB := connect(t, f.url, f.keyB, nil)
	if out, isErr := callTool(t, csB, "get_company", map[string]any{"domain": "wachdienst.de"}); isErr {
		t.Errorf("other grant: %v", out)
	}
}

func TestErrorsCarryTheRESTDetail(t *testing.T) {
	f := newFixture(t, nil)
	cs := connect(t, f.url, f.keyA, nil)
	tests := []struct {
		tool   string
		args   map[string]any
		status float64
		detail string
	}{
		{"count_companies", map[string]any{"max_records": 3}, 422, "max_records"},
		{"count_companies", map[string]any{"no_such_param": "x"}, 422, "unknown parameter"},
		{"get_company", map[string]any{"domain": "not a domain"}, 422, "domain:"},
		{"get_company", map[string]any{"domain": "nosuchcompany.com"}, 404, "no company profile"},
		{"lookup_contact", map[string]any{"persona_id": "x1"}, 400, "persona_id"},
		{"lookup_contact", map[string]any{"persona_id": 1, "email": "a@b.c"}, 422, "exactly one"},
		{"match_contacts", map[string]any{"queries": []any{map[string]any{"email": "nope"}}}, 422, "queries[0].email"},
		{"get_task_status", map[string]any{"task_id": "nope"}, 404, "no task"},
	}
	for _, tc := range tests {
		t.Run(tc.tool+"/"+tc.detail, func(t *testing.T) {
			out, isErr := callTool(t, cs, tc.tool, tc.args)
			if !isErr || out["status"] != tc.status || !strings.Contains(out["detail"].(string), tc.detail) {
				t.Errorf("got %v, want %v with %q", out, tc.status, tc.detail)
			}
		})
	}
}

func TestReadOnlyToolsRun(t *testing.T) {
	f := newFixture(t, nil)
	cs := connect(t, f.url, f.keyA, nil)
	out, isErr := callTool(t, cs, "count_companies", map[string]any{"country": []any{"US"}})
	if isErr || out["count"] != 2.0 {
		t.Errorf("count_companies US: %v", out)
	}
	out, isErr = callTool(t, cs, "count_contacts", map[string]any{"domain": "acme.com"})
	if isErr || out["count"] != 3.0 {
		t.Errorf("count_contacts acme.com: %v", out)
	}
}

func TestDiscoverContactsBillsWhatItReturns(t *testing.T) {
	f := newFixture(t, nil)
	cs := connect(t, f.url, f.keyA, nil)
	args := map[string]any{"domain": []any{"acme.com"}}
	est, isErr := callTool(t, cs, "discover_contacts", args)
	if isErr {
		t.Fatalf("estimate: %v", est)
	}
	if c := est["estimate"].(map[string]any)["credits"]; c != 4.0 {
		t.Errorf("estimate credits %v, want 4 (1 company + 3 contacts)", c)
	}
	args["confirmation_token"] = est["confirmation_token"]
	out, isErr := callTool(t, cs, "discover_contacts", args)
	if isErr || out["credits_billed"] != 4.0 {
		t.Fatalf("run: %v", out)
	}
	groups := out["groups"].([]any)
	if len(groups) != 1 || len(groups[0].(map[string]any)["contacts"].([]any)) != 3 {
		t.Errorf("groups: %v", groups)
	}
}

func TestTaskToolsReportProgressAndStayInTheirOrganization(t *testing.T) {
	f := newFixture(t, nil)
	pl := &progressLog{}
	cs := connect(t, f.url, f.keyA, pl)
	params := &sdk.CallToolParams{Name: "match_contacts", Arguments: map[string]any{
		"queries": []any{map[string]any{"email": "ana@acme.com"}, map[string]any{"name": "Bob Stone", "domain": "acme.com"}}}}
	params.SetProgressToken("p1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("match_contacts: %v %+v", err, res)
	}
	var out struct {
		TaskID  string            `json:"task_id"`
		Status  string            `json:"status"`
		Results []json.RawMessage `json:"results"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.Status != store.TaskCompleted || len(out.Results) != 2 {
		t.Fatalf("task: %s", b)
	}
	// The client handles notifications on its own goroutine: give the
	// last one a moment to land.
	var got []float64
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		pl.mu.Lock()
		got = append(got[:0], pl.got...)
		pl.mu.Unlock()
		if len(got) > 0 && got[len(got)-1] == 100 {
			break
		}
	}
	if len(got) == 0 || got[len(got)-1] != 100 {
		t.Errorf("progress notifications %v, want ending at 100", got)
	}

	// The task is org A's: org B's credential cannot read it.
	csB := connect(t, f.url, f.keyB, nil)
	st, isErr := callTool(t, csB, "get_task_status", map[string]any{"task_id": out.TaskID})
	if !isErr || st["status"] != 404.0 {
		t.Errorf("org B reading org A's task: %v", st)
	}
	st, isErr = callTool(t, cs, "get_task_status", map[string]any{"task_id": out.TaskID})
	if isErr || st["status"] != store.TaskCompleted {
		t.Errorf("org A reading its task: %v", st)
	}
}

func TestUnauthenticatedRequestsGet401WithResourceMetadata(t *testing.T) {
	f := newFixture(t, nil)
	for _, token := range []string{"", "pk_live_notakey"} {
		req, _ := http.NewRequest(http.MethodPost, f.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		want := `Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/v1/mcp"`
		if res.StatusCode != http.StatusUnauthorized || res.Header.Get("WWW-Authenticate") != want {
			t.Errorf("token %q: %d %q", token, res.StatusCode, res.Header.Get("WWW-Authenticate"))
		}
	}
}

func TestPlanNoneIsRefused(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	o, _ := f.st.CreateOrg(ctx, "free", store.PlanNone)
	u, _ := f.st.CreateUser(ctx, o.ID, "x@free.test", store.RoleAdmin)
	key, _, _ := f.st.CreateAPIKey(ctx, u.ID)
	cs := connect(t, f.url, key, nil)
	out, isErr := callTool(t, cs, "get_company", map[string]any{"domain": "acme.com"})
	if !isErr || out["status"] != 403.0 {
		t.Errorf("plan none: %v", out)
	}
	if _, isErr := callTool(t, cs, "get_usage", nil); isErr {
		t.Errorf("usage works on every plan")
	}
}

func TestAppendDatasets(t *testing.T) {
	f := newFixture(t, nil)
	cs := connect(t, f.url, f.keyA, nil)
	args := map[string]any{"domains": []any{"acme.com", "https://www.wachdienst.de/", "unknown-company.com"}, "dataset": []any{"bizdata"}}
	est, isErr := callTool(t, cs, "append_datasets", args)
	if isErr || est["estimate"].(map[string]any)["credits"] != 2.0 {
		t.Fatalf("estimate: %v", est)
	}
	args["confirmation_token"] = est["confirmation_token"]
	out, isErr := callTool(t, cs, "append_datasets", args)
	if isErr || out["credits_billed"] != 2.0 {
		t.Fatalf("append: %v", out)
	}
	rows := out["rows"].([]any)
	if len(rows) != 3 || rows[0].(map[string]any)["domain"] != "acme.com" || rows[1].(map[string]any)["name"] != "Wachdienst GmbH" {
		t.Errorf("rows: %v", rows)
	}
	bad, isErr := callTool(t, cs, "append_datasets", map[string]any{"domains": []any{"acme.com"}, "dataset": []any{"nope"}})
	if !isErr || !strings.Contains(bad["detail"].(string), "dataset") {
		t.Errorf("unknown dataset: %v", bad)
	}
}
