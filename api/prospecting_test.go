package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
)

// prospectingFixture is an API with running task workers and the
// prospecting routes.
func prospectingFixture(t *testing.T, configure ...func(*Deps)) *researchFixture {
	t.Helper()
	box, err := secrets.New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	f := &researchFixture{fixture: newFixtureWith(t, func(d *Deps) {
		ctx := context.Background()
		eng, err := embedded.Open(filepath.Join(t.TempDir(), "demo"), embedded.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { eng.Close() })
		g := demo.New(demo.Options{Companies: 300, Seed: 5})
		if _, err := (&ingest.Loader{Engine: eng}).Load(ctx, g.Source()); err != nil {
			t.Fatal(err)
		}
		d.Engine = eng
		d.Integrations, d.Research = research.New(research.Config{Secrets: box, AllowPrivate: true, MaxRetries: 1}, d.Store.(research.State), eng, d.Log)
		for _, c := range configure {
			c(d)
		}
	})}
	f.unlimited()
	ctx, cancel := context.WithCancel(context.Background())
	if err := f.srv.StartJobs(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); f.srv.StopJobs() })
	return f
}

// sendKey is send with an Idempotency-Key.
func (f *researchFixture) sendKey(t *testing.T, method, target, key, idem, body string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", key)
	if idem != "" {
		req.Header.Set("Idempotency-Key", idem)
	}
	res, err := f.srv.App().Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatalf("%s %s: %d: %v", method, target, res.StatusCode, err)
	}
	return res.StatusCode, out
}

func (f *researchFixture) waitRun(t *testing.T, id, status string) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); ; {
		code, b := f.send(t, "GET", "/v1/prospecting/runs/"+id, f.key, nil)
		if code != 200 {
			t.Fatalf("GET run: %d %v", code, b)
		}
		if b["status"] == status {
			return b
		}
		if time.Now().After(deadline) || b["status"] == "failed" {
			t.Fatalf("run %s is %v, want %s: %v", id, b["status"], status, b["error"])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

const startBody = `{"brief":"Find 3 SaaS companies offering subscription billing","deliverable":"accounts","checkpoints":"auto"}`

func TestProspectingIdempotency(t *testing.T) {
	f := prospectingFixture(t)
	var wg sync.WaitGroup
	ids := make([]string, 20)
	codes := make([]int, 20)
	for i := range ids {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			code, b := f.sendKey(t, "POST", "/v1/prospecting/runs", f.key, "key-1", startBody)
			codes[i] = code
			ids[i], _ = b["run_id"].(string)
		}(i)
	}
	wg.Wait()
	for i := range ids {
		if codes[i] != http.StatusAccepted || ids[i] == "" || ids[i] != ids[0] {
			t.Fatalf("start %d: %d run %q (first %q)", i, codes[i], ids[i], ids[0])
		}
	}
	for _, tc := range []struct {
		name, key, body string
		status          int
		detail          string
	}{
		{"changed body", "key-1", `{"brief":"Find 4 SaaS companies offering subscription billing","deliverable":"accounts","checkpoints":"auto"}`, 409, "Idempotency-Key"},
		{"omitted setting made explicit", "key-1", `{"brief":"Find 3 SaaS companies offering subscription billing","deliverable":"accounts","checkpoints":"auto","goal":"leads"}`, 409, "different request"},
		{"no key", "", startBody, 422, "Idempotency-Key"},
		{"key too long", strings.Repeat("k", 129), startBody, 422, "Idempotency-Key"},
		{"short brief", "key-2", `{"brief":"too short"}`, 422, "brief"},
		{"customer and domains", "key-3", `{"brief":"Find companies like our customers","customer_domains":["acme.com"],"domains":["bright.com"]}`, 422, "customer_domains"},
		{"max candidates below target", "key-4", `{"brief":"Find companies like our customers","target_companies":100,"max_candidates":50}`, 422, "max_candidates"},
		{"unknown field", "key-5", `{"brief":"Find companies like our customers","colour":"red"}`, 422, "colour"},
		{"bad deliverable", "key-6", `{"brief":"Find companies like our customers","deliverable":"people"}`, 422, "deliverable"},
	} {
		code, b := f.sendKey(t, "POST", "/v1/prospecting/runs", f.key, tc.key, tc.body)
		if code != tc.status || !strings.Contains(fmt.Sprint(b), tc.detail) {
			t.Errorf("%s: %d %v", tc.name, code, b)
		}
	}
	// The same key and body again: the same run.
	if code, b := f.sendKey(t, "POST", "/v1/prospecting/runs", f.key, "key-1", startBody); code != 202 || b["run_id"] != ids[0] {
		t.Fatalf("repeat: %d %v", code, b)
	}
	// Another organization cannot see it, and its own key space is separate.
	other := f.keyFor(t, "other", "starter")
	if code, _ := f.send(t, "GET", "/v1/prospecting/runs/"+ids[0], other, nil); code != 404 {
		t.Fatalf("another organization's run: %d", code)
	}
	if code, b := f.sendKey(t, "POST", "/v1/prospecting/runs", other, "key-1", startBody); code != 202 || b["run_id"] == ids[0] {
		t.Fatalf("another organization, same key: %d %v", code, b)
	}
	// A dry run plans without creating a run.
	code, b := f.sendKey(t, "POST", "/v1/prospecting/runs?dry_run=true", f.key, "", startBody)
	plan, _ := b["plan"].(map[string]any)
	if code != 200 || b["dry_run"] != true || plan == nil || plan["estimate"] == nil || plan["target_companies"] != 3.0 {
		t.Fatalf("dry run: %d %v", code, b)
	}
}

func TestProspectingPlanAndApprove(t *testing.T) {
	f := prospectingFixture(t)
	code, b := f.sendKey(t, "POST", "/v1/prospecting/runs", f.key, "k", `{"brief":"Find 2 SaaS companies offering subscription billing and 2 finance leaders at each"}`)
	if code != 202 || b["status"] != "drafting" {
		t.Fatalf("start: %d %v", code, b)
	}
	id := b["run_id"].(string)
	run := f.waitRun(t, id, "proposed")
	plan := run["plan"].(map[string]any)
	if plan["target_companies"] != 2.0 || plan["contacts_per_company"] != 2.0 || run["plan_version"] != 1.0 || plan["ready"] != true {
		t.Fatalf("plan %v", plan)
	}
	if plan["max_candidates"] != 50.0 || plan["max_actions"] != 24.0 {
		t.Fatalf("automatic limits %v %v", plan["max_candidates"], plan["max_actions"])
	}
	if sel := plan["company_check_engine"].(map[string]any)["selected"]; sel != "native-icp" {
		t.Fatalf("check engine %v", sel)
	}
	msgs := run["messages"].([]any)
	planSeq := msgs[0].(map[string]any)["seq"]
	path := "/v1/prospecting/runs/" + id
	for _, tc := range []struct {
		name, body string
		status     int
		detail     string
	}{
		{"unknown field", `{"plan_version":1,"colour":"red"}`, 422, "colour"},
		{"value outside the options", `{"plan_version":1,"validation_integration_id":"gpt-9"}`, 422, "validation_integration_id"},
		{"target out of range", `{"plan_version":1,"target_companies":0}`, 422, "target_companies"},
		{"stale version", `{"plan_version":7,"target_companies":5}`, 409, "stale"},
	} {
		code, b := f.sendKey(t, "PATCH", path+"/plan", f.key, "", tc.body)
		if code != tc.status || !strings.Contains(fmt.Sprint(b), tc.detail) {
			t.Errorf("%s: %d %v", tc.name, code, b)
		}
	}
	// A patch that changes nothing keeps the version.
	if code, b := f.sendKey(t, "PATCH", path+"/plan", f.key, "", `{"plan_version":1,"target_companies":2}`); code != 200 || b["plan_version"] != 1.0 {
		t.Fatalf("no-op patch: %d %v", code, b)
	}
	code, b = f.sendKey(t, "PATCH", path+"/plan", f.key, "", `{"plan_version":1,"target_companies":3,"deliverable":"accounts","max_spend_usd":5}`)
	if code != 200 || b["plan_version"] != 2.0 {
		t.Fatalf("patch: %d %v", code, b)
	}
	p2 := b["plan"].(map[string]any)
	if p2["target_companies"] != 3.0 || p2["deliverable"] != "accounts" || p2["max_spend_usd"] != 5.0 {
		t.Fatalf("patched plan %v", p2)
	}
	m := b["messages"].([]any)[0].(map[string]any)
	if m["seq"] != planSeq || m["plan_version"] != 2.0 {
		t.Fatalf("plan message not rewritten in place: %v (seq was %v)", m, planSeq)
	}
	if code, b := f.send(t, "GET", fmt.Sprintf("%s/messages?messages_after=%v", path, planSeq), f.key, nil); code != 200 || len(b["messages"].([]any)) != 0 {
		t.Fatalf("messages after the plan: %d %v", code, b)
	}
	// Approval: a stale version is 409, the current one queues the run.
	if code, b := f.sendKey(t, "POST", path+"/approve", f.key, "", `{"plan_version":1}`); code != 409 {
		t.Fatalf("stale approval: %d %v", code, b)
	}
	if code, b := f.sendKey(t, "POST", path+"/approve", f.key, "", `{"plan_version":2,"seed_segments":[]}`); code != 422 {
		t.Fatalf("seed_segments on a run without customers: %d %v", code, b)
	}
	if code, b := f.sendKey(t, "POST", path+"/approve", f.key, "", `{"plan_version":2}`); code != 202 {
		t.Fatalf("approve: %d %v", code, b)
	}
	if code, b := f.sendKey(t, "POST", path+"/approve", f.key, "", `{"plan_version":2}`); code != 202 {
		t.Fatalf("repeated approval: %d %v", code, b)
	}
	if code, b := f.sendKey(t, "PATCH", path+"/plan", f.key, "", `{"plan_version":2,"target_companies":4}`); code != 409 {
		t.Fatalf("patch after approval: %d %v", code, b)
	}
	done := f.waitRun(t, id, "completed")
	if done["stop_reason"] == nil || done["results_query_id"] == nil {
		t.Fatalf("ended run %v", done)
	}
	if code, b := f.send(t, "GET", path+"/results", f.key, nil); code != 200 || b["query"] == nil {
		t.Fatalf("results: %d %v", code, b)
	}
	if code, b := f.sendKey(t, "POST", path+"/messages", f.key, "", `{"checkpoint":"top_up","action":"continue"}`); code != 409 {
		t.Fatalf("reply to a run not paused: %d %v", code, b)
	}
}

func TestProspectingWebhookSecretShownOnce(t *testing.T) {
	var logs syncBuffer
	f := prospectingFixture(t, func(d *Deps) { d.Log = zerolog.New(&logs) })
	// The events go to an in-memory transport: no traffic leaves the
	// test, and it shows the run started over REST sends them, signed
	// with the secret shown once.
	var mu sync.Mutex
	var posted []string
	var secret string
	f.srv.deps.Webhooks.Client = &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		if err := saved.Verify(secret, r.Header, b, time.Now(), 5*time.Minute); err != nil {
			t.Errorf("run event signature: %v", err)
		}
		posted = append(posted, r.URL.String()+" "+r.Header.Get("webhook-id"))
		return &http.Response{StatusCode: 204, Body: http.NoBody, Header: http.Header{}}, nil
	})}
	body := `{"brief":"Find 3 SaaS companies offering subscription billing","deliverable":"accounts","webhook_url":"https://hooks.example.com/runs"}`
	mu.Lock()
	code, b := f.sendKey(t, "POST", "/v1/prospecting/runs", f.key, "hook-1", body)
	secret, _ = b["webhook_secret"].(string)
	mu.Unlock()
	if code != 202 || !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("start with a webhook: %d %v", code, b)
	}
	id := b["run_id"].(string)
	if code, b := f.sendKey(t, "POST", "/v1/prospecting/runs", f.key, "hook-1", body); code != 202 || b["run_id"] != id || b["webhook_secret"] != nil {
		t.Fatalf("repeat shows the secret again: %d %v", code, b)
	}
	if code, b := f.send(t, "GET", "/v1/prospecting/runs/"+id, f.key, nil); code != 200 || b["webhook_secret"] != nil ||
		strings.Contains(fmt.Sprint(b), strings.TrimPrefix(secret, "whsec_")) {
		t.Fatalf("get shows the secret: %d %v", code, b)
	}
	f.waitRun(t, id, "proposed")
	f.srv.deps.Prospecting.Webhooks.Wait()
	mu.Lock()
	if len(posted) != 1 || !strings.HasPrefix(posted[0], "https://hooks.example.com/runs run_"+id) {
		t.Errorf("events posted: %v", posted)
	}
	mu.Unlock()
	// At rest the secret is sealed: the run's row holds no trace of it.
	p, err := f.st.Authenticate(context.Background(), f.key)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := f.st.(store.ProspectingRuns).GetRun(context.Background(), p.Org.ID, id)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(rec.Data, []byte(strings.TrimPrefix(secret, "whsec_"))) || !bytes.Contains(rec.Data, []byte(`"webhook_secret":"v1:`)) {
		t.Fatalf("stored run data: %s", rec.Data)
	}
	if strings.Contains(logs.String(), strings.TrimPrefix(secret, "whsec_")) || !strings.Contains(logs.String(), "webhook delivered") {
		t.Fatalf("the logs carry the secret, or logged no delivery:\n%s", logs.String())
	}
	for _, u := range []string{"ftp://hooks.example.com/x", "http://127.0.0.1:9/x"} {
		code, b := f.sendKey(t, "POST", "/v1/prospecting/runs", f.key, "hook-"+u, `{"brief":"Find 3 SaaS companies offering subscription billing","webhook_url":"`+u+`"}`)
		if code != 422 || !strings.Contains(fmt.Sprint(b), "webhook_url") {
			t.Errorf("%s: %d %v", u, code, b)
		}
	}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
