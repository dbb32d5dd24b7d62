package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

var updateOpenAPI = flag.Bool("update-openapi", false, "rewrite openapi.json from the live server's document")

// result of one CLI run.
type result struct {
	code           int
	stdout, stderr string
}

// runCLI runs the CLI in-process with env as its whole environment.
func runCLI(t *testing.T, env map[string]string, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	a := &app{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb,
		getenv: func(k string) string { return env[k] }}
	code := a.run(context.Background(), args)
	return result{code, out.String(), errb.String()}
}

func commandsByName(t *testing.T) map[string]*cobra.Command {
	t.Helper()
	a := &app{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, getenv: func(string) string { return "" }}
	root, err := a.root()
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]*cobra.Command{}
	for _, c := range root.Commands() {
		m[c.Name()] = c
	}
	return m
}

// checkCoverage fails for every operation of doc without a command, and
// for every parameter or body field without a flag.
func checkCoverage(t *testing.T, doc []byte) {
	t.Helper()
	s, ops, err := parseSpec(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) == 0 {
		t.Fatal("document has no operations")
	}
	cmds := commandsByName(t)
	for _, op := range ops {
		c, ok := cmds[op.ID]
		if !ok {
			t.Errorf("operation %s (%s %s) has no command", op.ID, op.Method, op.Path)
			continue
		}
		fields, _ := opFields(s, op)
		for _, p := range op.Parameters {
			if p.In == "header" {
				continue
			}
			found := false
			for _, f := range fields {
				if f.name == p.Name && c.Flags().Lookup(f.flag) != nil {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: parameter %s has no flag", op.ID, p.Name)
			}
		}
	}
}

func TestCommandsCoverOperations(t *testing.T) {
	checkCoverage(t, openapiDoc)
	cmds := commandsByName(t)
	for _, alias := range []string{"bizdata", "usage"} {
		found := false
		for _, c := range cmds {
			if c.HasAlias(alias) {
				found = true
			}
		}
		if !found {
			t.Errorf("no command has the alias %s", alias)
		}
	}
}

// TestWaitersCoverTasks: every POST answering a task, job or batch id has
// a waiter, and every waiter names an operation and a GET status route.
func TestWaitersCoverTasks(t *testing.T) {
	s, ops, err := parseSpec(openapiDoc)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*operation{}
	gets := map[string]bool{}
	var raw struct {
		Paths map[string]map[string]struct {
			Responses map[string]struct {
				Content map[string]struct{ Schema *schema } `json:"content"`
			} `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(openapiDoc, &raw); err != nil {
		t.Fatal(err)
	}
	resolved := resolveWaiters(s, ops)
	for _, op := range ops {
		byID[op.ID] = op
		if op.Method == http.MethodGet {
			gets[op.Path] = true
		}
		if op.Method != http.MethodPost {
			continue
		}
		for code, r := range raw.Paths[op.Path][strings.ToLower(op.Method)].Responses {
			if !strings.HasPrefix(code, "2") {
				continue
			}
			for _, c := range r.Content {
				sc := s.resolve(c.Schema)
				if sc == nil {
					continue
				}
				for _, id := range []string{"task_id", "job_id", "batch_id"} {
					if _, ok := sc.Properties[id]; ok {
						if _, ok := resolved[op.ID]; !ok {
							t.Errorf("%s answers %s but has no waiter (none in the table, and no unique status route to infer)", op.ID, id)
						}
					}
				}
			}
		}
	}
	for id, w := range waiters {
		if byID[id] == nil {
			t.Errorf("waiter %s names no operation", id)
		}
		found := false
		for p := range gets {
			if trimParams(w.statusPath) == trimParams(p) {
				found = true
			}
		}
		if !found {
			t.Errorf("waiter %s: %s is no GET route", id, w.statusPath)
		}
	}
}

// TestInferredWaiters: a task route the table lacks gets a waiter from
// the document (a new route reaches --wait by refreshing openapi.json);
// where the table's entries can be inferred, inference agrees with them.
func TestInferredWaiters(t *testing.T) {
	doc := `{"paths": {
	  "/v1/widgets/build": {"post": {"operationId": "widgets-build", "responses": {"202": {"content": {"application/json": {"schema": {"properties": {"task_id": {"type": "string"}}}}}}}}},
	  "/v1/widgets/status/{task_id}": {"get": {"operationId": "widgets-status", "responses": {}}},
	  "/v1/gadgets/status/{task_id}": {"get": {"operationId": "gadgets-status", "responses": {}}},
	  "/v1/other/start": {"post": {"operationId": "other-start", "responses": {"202": {"content": {"application/json": {"schema": {"properties": {"task_id": {"type": "string"}}}}}}}}}
	}}`
	s, ops, err := parseSpec([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	got := resolveWaiters(s, ops)
	if w := got["widgets-build"]; w.idField != "task_id" || w.statusPath != "/v1/widgets/status/{id}" {
		t.Errorf("widgets-build: %+v", w)
	}
	if w, ok := got["other-start"]; ok {
		t.Errorf("other-start has two equally near status routes, inferred %+v", w)
	}
	s, ops, err = parseSpec(openapiDoc)
	if err != nil {
		t.Fatal(err)
	}
	saved := waiters
	waiters = map[string]waiter{}
	inferred := resolveWaiters(s, ops)
	waiters = saved
	for id, w := range inferred {
		if tw, ok := waiters[id]; ok && tw != w {
			t.Errorf("%s: inferred %+v, the table says %+v", id, w, tw)
		}
	}
	if len(inferred) < 5 {
		t.Errorf("only %d waiters inferred from the document: %v", len(inferred), inferred)
	}
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		status, code int
	}{
		{400, exitUsage}, {401, exitAuth}, {402, exitPayment}, {403, exitAuth}, {404, exitError},
		{413, exitUsage}, {422, exitUsage}, {429, exitRateLimit}, {500, exitServer}, {503, exitServer},
	} {
		if got := statusCode(tc.status); got != tc.code {
			t.Errorf("status %d: exit %d, want %d", tc.status, got, tc.code)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   time.Duration
	}{
		{"", 3 * time.Second}, {"2", 2 * time.Second}, {"0", 0}, {"soon", 3 * time.Second},
	} {
		h := http.Header{}
		if tc.header != "" {
			h.Set("Retry-After", tc.header)
		}
		if got := retryAfter(h, 3*time.Second); got != tc.want {
			t.Errorf("Retry-After %q: %s, want %s", tc.header, got, tc.want)
		}
	}
}

// TestRateLimitRetries against a loopback server answering 429 first: the
// CLI waits the Retry-After and succeeds, or gives exit 5 without retries.
func TestRateLimitRetries(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1)%2 == 1 {
			w.Header().Set("Retry-After", "1")
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"title":"Too Many Requests","status":429,"detail":"rate limit"}`)
			return
		}
		fmt.Fprint(w, `{"plan":"team","credits_left":5}`)
	}))
	defer srv.Close()
	env := map[string]string{"PROSPECT_API_KEY": "k", "PROSPECT_BASE_URL": srv.URL + "/v1", "XDG_CONFIG_HOME": t.TempDir()}
	start := time.Now()
	r := runCLI(t, env, "", "usage", "-o", "json")
	if r.code != 0 || !strings.Contains(r.stdout, `"credits_left": 5`) || !strings.Contains(r.stderr, "retrying in 1s") {
		t.Fatalf("retry: %+v", r)
	}
	if time.Since(start) < time.Second {
		t.Errorf("did not wait the Retry-After second: %s", time.Since(start))
	}
	r = runCLI(t, env, "", "usage", "--retries", "0")
	if r.code != exitRateLimit || !strings.Contains(r.stderr, "rate limit") {
		t.Fatalf("no retries: %+v", r)
	}
}

func TestUsageErrors(t *testing.T) {
	env := map[string]string{"PROSPECT_API_KEY": "k", "PROSPECT_BASE_URL": "http://127.0.0.1:1/v1", "XDG_CONFIG_HOME": t.TempDir()}
	for _, args := range [][]string{
		{"no-such-command"},
		{"get-bizdata", "--no-such-flag"},
		{"get-bizdata"}, // --domain required
		{"email-find", "--body", "{not json"},
		{"bulkmatch", "--file", "/no/such/file.csv", "--name-column", "n"},
		{"bulkmatch-status", "a", "b"},
	} {
		if r := runCLI(t, env, "", args...); r.code != exitUsage {
			t.Errorf("%v: exit %d, want %d; %s", args, r.code, exitUsage, r.stderr)
		}
	}
	if r := runCLI(t, env, "", "get-bizdata", "--domain", "a.com"); r.code != exitServer {
		t.Errorf("unreachable server: exit %d, want %d; %s", r.code, exitServer, r.stderr)
	}
	delete(env, "PROSPECT_API_KEY")
	if r := runCLI(t, env, "", "get-bizdata", "--domain", "a.com"); r.code != exitAuth {
		t.Errorf("no key: exit %d, want %d; %s", r.code, exitAuth, r.stderr)
	}
}

func TestDryRun(t *testing.T) {
	env := map[string]string{"PROSPECT_API_KEY": "pk_live_0123456789abcdef", "PROSPECT_BASE_URL": "http://127.0.0.1:1/v1", "XDG_CONFIG_HOME": t.TempDir()}
	r := runCLI(t, env, "", "--dry-run", "discover", "--icp-text", "dental clinics", "--country", "US", "--country", "IE", "--max-records", "5")
	want := "GET http://127.0.0.1:1/v1/discover?country=US&country=IE&icp_text=dental+clinics&max_records=5\nX-API-Key: pk_live_…cdef\n"
	if r.code != 0 || !strings.HasPrefix(r.stdout, want) || !strings.Contains(r.stdout, "estimated credits: unavailable") {
		t.Fatalf("dry run: %+v\nwant %q and an unavailable estimate", r, want)
	}
	r = runCLI(t, env, "", "email-find", "--dry-run", "--body", `{"domain":"a.com"}`, "--first-name", "Ada")
	if r.code != 0 || !strings.Contains(r.stdout, "POST http://127.0.0.1:1/v1/email/find") || !strings.Contains(r.stdout, `"first_name":"Ada"`) || !strings.Contains(r.stdout, `"domain":"a.com"`) {
		t.Fatalf("dry run body: %+v", r)
	}
	r = runCLI(t, env, "", "bulkmatch-status", "--dry-run", "t 1")
	if r.code != 0 || !strings.Contains(r.stdout, "/v1/bulkmatch/status/t%201\n") {
		t.Fatalf("dry run path: %+v", r)
	}
}

// FuzzJSONValue: converting a flag's text to a body value never panics,
// and what it accepts as an integer prints back the same.
func FuzzJSONValue(f *testing.F) {
	for _, s := range []string{"12", "-3", "1e3", "true", "[1,2]", `{"a":1}`, "", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, kind := range []string{"integer", "number", "boolean", "object", "array", "string"} {
			v, err := jsonValue(kind, text, "f")
			if err != nil {
				if exitCode(err) != exitUsage {
					t.Fatalf("%s %q: exit %d", kind, text, exitCode(err))
				}
				continue
			}
			if n, ok := v.(int64); ok && kind == "integer" && fmt.Sprint(n) != strings.TrimPrefix(text, "+") && text != "-0" && !strings.HasPrefix(strings.TrimLeft(text, "+-"), "0") {
				t.Fatalf("integer %q became %d", text, n)
			}
		}
	})
}

func TestOutputFormats(t *testing.T) {
	body := []byte(`{"status":"completed","results":[{"domain":"a.com","score":5,"tags":["x"]},{"domain":"b.com","name":"B"}]}`)
	for _, tc := range []struct {
		format string
		want   []string
	}{
		{"json", []string{`"domain": "a.com"`}},
		{"jsonl", []string{`{"domain":"a.com","score":5,"tags":["x"]}` + "\n" + `{"domain":"b.com","name":"B"}` + "\n"}},
		{"csv", []string{"domain,score,tags,name\n", `a.com,5,"[""x""]",` + "\n", "b.com,,,B\n"}},
		{"table", []string{"status: completed", "DOMAIN", "a.com"}},
	} {
		var out bytes.Buffer
		a := &app{stdout: &out, output: tc.format}
		if err := a.print(body); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: %q lacks %q", tc.format, out.String(), w)
			}
		}
	}
	var out bytes.Buffer
	keyed := &app{stdout: &out, output: "jsonl"}
	if err := keyed.print([]byte(`{"results":{"b.com":{"domain":"b.com"},"a.com":{"domain":"a.com"}}}`)); err != nil {
		t.Fatal(err)
	}
	if out.String() != `{"domain":"a.com"}`+"\n"+`{"domain":"b.com"}`+"\n" {
		t.Errorf("results keyed by domain: %q", out.String())
	}
	a := &app{stdout: &bytes.Buffer{}, output: "xml"}
	if err := a.print(body); exitCode(err) != exitUsage {
		t.Errorf("--output xml: %v", err)
	}
}

// liveServer is a prospectd serve --demo process on a loopback port.
type liveServer struct {
	base, demoKey, smallKey, dataDir string
}

func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startServer builds prospectd and serves a demo corpus; smallKey is a
// starter organization whose plan allows 2 credits per period, for 402.
func startServer(t *testing.T) *liveServer {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and starts prospectd")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "prospectd")
	build := exec.Command("go", "build", "-o", bin, "./cmd/prospectd")
	build.Dir = repoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build prospectd: %v\n%s", err, out)
	}
	data := filepath.Join(dir, "data")
	plans := filepath.Join(dir, "plans.json")
	if err := os.WriteFile(plans, []byte(`{"starter":{"credits_per_period":2}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	keyOut, err := exec.Command(bin, "keys", "create", "--org", "small", "--plan", "starter", "--data-dir", data).Output()
	if err != nil {
		t.Fatalf("create key: %v", err)
	}
	lines := strings.Fields(strings.TrimSpace(string(keyOut)))
	smallKey := lines[len(lines)-1]
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	srv := exec.Command(bin, "serve", "--demo", "300", "--data-dir", data, "--addr", addr, "--plans", plans, "--log-format", "json")
	logf, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	srv.Stdout, srv.Stderr = logf, logf
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = srv.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = srv.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = srv.Process.Kill()
		}
		logf.Close()
	})
	base := "http://" + addr + "/v1"
	deadline := time.Now().Add(2 * time.Minute)
	for {
		res, err := http.Get(base + "/health")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(filepath.Join(dir, "server.log"))
			t.Fatalf("server did not become healthy: %v\n%s", err, b)
		}
		time.Sleep(200 * time.Millisecond)
	}
	key, err := os.ReadFile(filepath.Join(data, "demo-api-key"))
	if err != nil {
		t.Fatal(err)
	}
	return &liveServer{base: base, demoKey: strings.TrimSpace(string(key)), smallKey: smallKey, dataDir: data}
}

func TestLiveServer(t *testing.T) {
	s := startServer(t)
	cfgDir := t.TempDir()
	env := map[string]string{"PROSPECT_API_KEY": s.demoKey, "PROSPECT_BASE_URL": s.base, "XDG_CONFIG_HOME": cfgDir}

	t.Run("every served operation has a command", func(t *testing.T) {
		res, err := http.Get(s.base + "/openapi.json")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(res.Body); err != nil {
			t.Fatal(err)
		}
		if *updateOpenAPI {
			if err := os.WriteFile("openapi.json", buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		checkCoverage(t, buf.Bytes())
		if !bytes.Equal(buf.Bytes(), openapiDoc) {
			t.Errorf("cmd/prospect/openapi.json differs from the served document: go test ./cmd/prospect -run TestLiveServer -update-openapi")
		}
	})

	t.Run("discover", func(t *testing.T) {
		r := runCLI(t, env, "", "discover", "--icp-text", "dental clinic", "--max-records", "5", "-o", "jsonl")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		if len(lines) != 5 {
			t.Fatalf("want 5 rows, got %d: %s", len(lines), r.stdout)
		}
		var row map[string]any
		if err := json.Unmarshal([]byte(lines[0]), &row); err != nil || row["domain"] == "" {
			t.Fatalf("row %q: %v", lines[0], err)
		}
		r = runCLI(t, env, "", "count", "--icp-text", "dental clinic", "--country", "US", "--country", "IE")
		if r.code != 0 || !strings.Contains(r.stdout, "count") {
			t.Fatalf("count: %+v", r)
		}
	})

	var domain string
	t.Run("bizdata", func(t *testing.T) {
		r := runCLI(t, env, "", "discover", "--icp-text", "software", "--max-records", "5", "-o", "json")
		var rows []map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || len(rows) == 0 {
			t.Fatalf("discover: %v %+v", err, r)
		}
		domain = rows[0]["domain"].(string)
		r = runCLI(t, env, "", "bizdata", "--domain", domain, "-o", "json")
		var p map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &p); r.code != 0 || err != nil || p["domain"] != domain {
			t.Fatalf("bizdata %s: %v %+v", domain, err, r)
		}
		r = runCLI(t, env, "", "bizdata", "--domain", domain, "-o", "table")
		if r.code != 0 || !strings.Contains(r.stdout, "domain") || !strings.Contains(r.stdout, domain) {
			t.Fatalf("table: %+v", r)
		}
	})

	t.Run("bulkmatch upload with wait", func(t *testing.T) {
		r := runCLI(t, env, "", "bizdata", "--domain", domain, "-o", "json")
		var p map[string]any
		_ = json.Unmarshal([]byte(r.stdout), &p)
		csvPath := filepath.Join(t.TempDir(), "in.csv")
		body := fmt.Sprintf("company\n%q\nNo Such Company Zzyzx\n", p["name"])
		if err := os.WriteFile(csvPath, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		r = runCLI(t, env, "", "bulkmatch", "--file", csvPath, "--name-column", "company", "--wait", "--poll-interval", "100ms", "-o", "json")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		var st struct {
			Status  string           `json:"status"`
			Results []map[string]any `json:"results"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
			t.Fatalf("%v: %s", err, r.stdout)
		}
		if st.Status != "completed" || len(st.Results) != 2 || st.Results[0]["domain"] != domain {
			t.Fatalf("status %+v", st)
		}
		if !strings.Contains(r.stderr, "100% completed") {
			t.Errorf("no progress on stderr: %s", r.stderr)
		}
		// Without --wait: the task id, then its status by a positional id.
		r = runCLI(t, env, "", "bulkmatch", "--file", csvPath, "--name-column", "company", "-o", "json")
		var acc map[string]string
		if err := json.Unmarshal([]byte(r.stdout), &acc); err != nil || acc["task_id"] == "" {
			t.Fatalf("accepted: %v %+v", err, r)
		}
		if r = runCLI(t, env, "", "bulkmatch-status", acc["task_id"], "--wait", "--poll-interval", "100ms", "-o", "json"); r.code != 0 || !strings.Contains(r.stdout, `"status": "completed"`) {
			t.Fatalf("status --wait: %+v", r)
		}
	})

	t.Run("README: append a CSV of domains", func(t *testing.T) {
		csvPath := filepath.Join(t.TempDir(), "domains.csv")
		if err := os.WriteFile(csvPath, []byte("domain\n"+domain+"\nno-such-domain-zzyzx.com\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		r := runCLI(t, env, "", "append", "--file", csvPath, "--dataset", "domain_status", "--dataset", "growth", "-o", "csv")
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		if r.code != 0 || len(lines) != 3 || !strings.Contains(lines[0], "domain") || !strings.Contains(r.stdout, domain) {
			t.Fatalf("append: %+v", r)
		}
	})

	t.Run("dry run with the server's estimate", func(t *testing.T) {
		before := runCLI(t, env, "", "usage", "-o", "json")
		r := runCLI(t, env, "", "--dry-run", "discover", "--icp-text", "dental clinic", "--max-records", "5")
		if r.code != 0 || !strings.Contains(r.stdout, "GET "+s.base+"/discover?") || !strings.Contains(r.stdout, "estimated credits: at most 5 for 5 records") {
			t.Fatalf("dry run: %+v", r)
		}
		if r := runCLI(t, env, "", "--dry-run", "usage"); r.code != 0 || !strings.Contains(r.stdout, "estimated credits: none known") {
			t.Fatalf("dry run of a free operation: %+v", r)
		}
		after := runCLI(t, env, "", "usage", "-o", "json")
		if before.stdout != after.stdout {
			t.Errorf("the dry run spent credits: %s then %s", before.stdout, after.stdout)
		}
	})

	t.Run("json body from flags and file", func(t *testing.T) {
		r := runCLI(t, env, "", "contacts-discover", "--icp-text", "dentist", "--max-records", "20", "--seniority", "director", "-o", "json")
		if r.code != 0 {
			t.Fatalf("flags: %+v", r)
		}
		bodyFile := filepath.Join(t.TempDir(), "body.json")
		if err := os.WriteFile(bodyFile, []byte(`{"icp_text":"dentist","max_records":20}`), 0o600); err != nil {
			t.Fatal(err)
		}
		if r := runCLI(t, env, "", "contacts-discover", "--body", "@"+bodyFile, "-o", "json"); r.code != 0 {
			t.Fatalf("--body @file: %+v", r)
		}
		if r := runCLI(t, env, "", "contacts-discover", "--icp-text", "dentist", "--max-records", "many"); r.code != exitUsage {
			t.Fatalf("bad integer: %+v", r)
		}
	})

	t.Run("exit codes", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			key  string
			args []string
			code int
		}{
			{"401 unknown key", "pk_live_nope", []string{"bizdata", "--domain", "a.com"}, exitAuth},
			{"422 invalid domain", s.demoKey, []string{"bizdata", "--domain", "not a domain"}, exitUsage},
			{"422 max_records out of range", s.demoKey, []string{"discover", "--icp-text", "x", "--max-records", "1"}, exitUsage},
			{"404 unknown task", s.demoKey, []string{"bulkmatch-status", "no-such-task"}, exitError},
		} {
			e := map[string]string{"PROSPECT_API_KEY": tc.key, "PROSPECT_BASE_URL": s.base, "XDG_CONFIG_HOME": cfgDir}
			if r := runCLI(t, e, "", tc.args...); r.code != tc.code {
				t.Errorf("%s: exit %d, want %d; %s", tc.name, r.code, tc.code, r.stderr)
			}
		}
		// The small organization has 2 credits: spend them, then 402.
		e := map[string]string{"PROSPECT_API_KEY": s.smallKey, "PROSPECT_BASE_URL": s.base, "XDG_CONFIG_HOME": cfgDir}
		r := runCLI(t, env, "", "discover", "--icp-text", "software", "--max-records", "5", "-o", "json")
		var rows []map[string]any
		_ = json.Unmarshal([]byte(r.stdout), &rows)
		if len(rows) < 4 {
			t.Fatalf("discover: %+v", r)
		}
		var last result
		for _, row := range rows[:4] {
			last = runCLI(t, e, "", "bizdata", "--domain", row["domain"].(string))
			if last.code == exitPayment {
				break
			}
		}
		if last.code != exitPayment || !strings.Contains(last.stderr, "402") {
			t.Errorf("credits spent: exit %d, want %d; %s", last.code, exitPayment, last.stderr)
		}
	})

	t.Run("login whoami logout", func(t *testing.T) {
		dir := t.TempDir()
		e := map[string]string{"XDG_CONFIG_HOME": dir}
		if r := runCLI(t, e, "", "login", "--api-key", "pk_live_nope", "--base-url", s.base); r.code != exitAuth {
			t.Fatalf("login with a bad key: %+v", r)
		}
		path := filepath.Join(dir, "prospect", "config.json")
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Fatalf("bad key stored: %v", err)
		}
		if r := runCLI(t, e, s.demoKey+"\n", "login", "--with-key", "--base-url", s.base); r.code != 0 {
			t.Fatalf("login from stdin: %+v", r)
		}
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("config %v mode %v", err, fi)
		}
		r := runCLI(t, e, "", "whoami", "-o", "json")
		if r.code != 0 || !strings.Contains(r.stdout, `"plan": "team"`) || !strings.Contains(r.stderr, s.base) || strings.Contains(r.stderr, s.demoKey) {
			t.Fatalf("whoami: %+v", r)
		}
		if r := runCLI(t, e, "", "usage", "-o", "csv"); r.code != 0 || !strings.HasPrefix(r.stdout, "credits_left") {
			t.Fatalf("usage csv: %+v", r)
		}
		if r := runCLI(t, e, "", "logout"); r.code != 0 {
			t.Fatalf("logout: %+v", r)
		}
		if r := runCLI(t, e, "", "whoami"); r.code != exitAuth {
			t.Fatalf("whoami after logout: %+v", r)
		}
	})
}
