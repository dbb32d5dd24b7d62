package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

// hookReceiver records the webhooks it gets, by webhook-id.
type hookReceiver struct {
	mu  sync.Mutex
	got map[string]received
	srv *httptest.Server
}

type received struct {
	header http.Header
	body   []byte
}

func newHookReceiver(t *testing.T) *hookReceiver {
	r := &hookReceiver{got: map[string]received{}}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got[req.Header.Get("webhook-id")] = received{req.Header.Clone(), body}
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// wait returns the first webhook whose id has prefix.
func (r *hookReceiver) wait(t *testing.T, prefix string, within time.Duration) received {
	t.Helper()
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		r.mu.Lock()
		for id, g := range r.got {
			if strings.HasPrefix(id, prefix) {
				r.mu.Unlock()
				return g
			}
		}
		r.mu.Unlock()
	}
	t.Fatalf("no webhook %s* within %s", prefix, within)
	return received{}
}

// TestServeSealsWebhookSecrets: a data dir left by a version before
// sealing (a monitor, a run and a queued run event with their secrets in
// plaintext) is served: serve seals them before serving, and the queued
// event is still delivered signed with its secret; a run started with a
// webhook signs its events with the secret shown once. Afterwards neither
// the database's files nor anything serve printed hold any of the secrets.
func TestServeSealsWebhookSecrets(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test builds and runs the binary")
	}
	ctx := context.Background()
	bin := buildBinary(t)
	dir, addr := t.TempDir(), freeAddr(t)
	rcv := newHookReceiver(t)
	const monSecret, runSecret = "whsec_bGVnYWN5LW1vbml0b3Itc2VjcmV0", "whsec_bGVnYWN5LXJ1bi1zZWNyZXQ="

	dbPath := filepath.Join(dir, "state.db")
	st, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := st.CreateOrg(ctx, "legacy", store.PlanTeam)
	u, _ := st.CreateUser(ctx, o.ID, "ops@legacy.test", store.RoleAdmin)
	q, err := st.CreateSavedQuery(ctx, saved.Query{OrgID: o.ID, UserID: u.ID, Name: "watch", Action: "discover", Domains: []string{"a.com"}, Params: []byte(`{"icp_text":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.PutMonitor(ctx, saved.Monitor{OrgID: o.ID, UserID: u.ID, QueryID: q.ID, Schedule: "@daily", WebhookURL: rcv.srv.URL,
		Secret: monSecret, NextRunAt: time.Now().Add(24 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	run, _, err := st.CreateRun(ctx, store.ProspectingRun{OrgID: o.ID, UserID: u.ID, IdemKey: "k", ReqHash: "h", Status: "completed",
		Data: json.RawMessage(`{"request":{"brief":"b","webhook_url":"` + rcv.srv.URL + `"},"plan_version":1,"webhook_secret":"` + runSecret + `"}`)})
	if err != nil {
		t.Fatal(err)
	}
	legacyEvent := "run_" + run.ID + "_legacy"
	if _, err := st.UpdateRun(ctx, run, store.WebhookEvent{Source: store.RunWebhookSource(run.ID), ID: legacyEvent, URL: rcv.srv.URL, Secret: runSecret,
		Body: []byte(`{"type":"prospecting_run.status"}`), At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	// Written by one goroutine (exec's, stdout and stderr being one
	// writer), read once serve has stopped.
	var out bytes.Buffer
	sctx, cancel := context.WithCancel(ctx)
	cmd := exec.CommandContext(sctx, bin, "serve", "--demo", "300", "--addr", addr, "--data-dir", dir, "--log-format", "json", "--webhook-allow-private")
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			cmd.Wait()
		}
	}
	t.Cleanup(stop)
	for deadline := time.Now().Add(90 * time.Second); !healthy(addr); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			stop()
			t.Fatalf("serve did not come up:\n%s", out.String())
		}
	}
	rawKey, err := os.ReadFile(filepath.Join(dir, "demo-api-key"))
	if err != nil {
		t.Fatal(err)
	}
	key := strings.TrimSpace(string(rawKey))

	// The legacy queued event, sealed at start-up, still signs.
	g := rcv.wait(t, legacyEvent, 30*time.Second)
	if err := saved.Verify(runSecret, g.header, g.body, time.Now(), 5*time.Minute); err != nil {
		t.Fatalf("legacy event: %v", err)
	}
	// A new run's events are signed with the secret shown once.
	started := startRun(t, addr, key, "hook-run", map[string]any{"brief": "Find 3 SaaS companies offering subscription billing",
		"deliverable": "accounts", "webhook_url": rcv.srv.URL})
	secret, _ := started["webhook_secret"].(string)
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("start: %v", started)
	}
	g = rcv.wait(t, "run_"+started["run_id"].(string), 30*time.Second)
	if err := saved.Verify(secret, g.header, g.body, time.Now(), 5*time.Minute); err != nil {
		t.Fatalf("new run's event: %v", err)
	}
	stop()

	if !strings.Contains(out.String(), "webhook signing secrets sealed") {
		t.Errorf("serve did not report sealing the legacy secrets:\n%s", out.String())
	}
	for _, s := range []string{monSecret, runSecret, secret} {
		s = strings.TrimPrefix(s, "whsec_")
		if strings.Contains(out.String(), s) {
			t.Errorf("serve printed a webhook secret")
		}
		for _, p := range []string{dbPath, dbPath + "-wal"} {
			raw, err := os.ReadFile(p)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			if bytes.Contains(raw, []byte(s)) {
				t.Errorf("%s holds a webhook secret in plaintext", filepath.Base(p))
			}
		}
	}
	st, err = sqlite.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m, err := st.MonitorOf(ctx, o.ID, q.ID)
	if err != nil || !secrets.IsSealed(m.Secret) {
		t.Fatalf("monitor secret %q, %v", m.Secret, err)
	}
	r, err := st.GetRun(ctx, o.ID, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := store.RunSecret(r.Data); !secrets.IsSealed(s) {
		t.Fatalf("run secret %q", s)
	}
}

func healthy(addr string) bool {
	res, err := http.Get("http://" + addr + "/v1/health")
	if err != nil {
		return false
	}
	res.Body.Close()
	return res.StatusCode == http.StatusOK
}
