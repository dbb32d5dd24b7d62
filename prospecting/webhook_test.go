package prospecting_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
	"github.com/openprospect/prospectd/store/storetest"
)

// receiver is a loopback webhook endpoint that fails the first attempts
// of every event.
type receiver struct {
	url     string
	failing int
	mu      sync.Mutex
	tries   map[string]int // by webhook-id
	got     []received     // accepted deliveries, in order
}

type received struct {
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T, failing int) *receiver {
	t.Helper()
	rc := &receiver{failing: failing, tries: map[string]int{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		id := r.Header.Get("webhook-id")
		rc.tries[id]++
		if rc.tries[id] <= rc.failing {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		rc.got = append(rc.got, received{header: r.Header.Clone(), body: body})
		w.WriteHeader(http.StatusNoContent)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	rc.url = "http://" + ln.Addr().String() + "/hook"
	return rc
}

// sender is a loopback-reaching sender sealing with box.
func sender(box *secrets.Box, log zerolog.Logger, backoff []time.Duration, lease time.Duration) *saved.Webhooks {
	return &saved.Webhooks{Client: saved.WebhookClient(true), Secrets: box, Log: log, Backoff: backoff, Lease: lease}
}

// holds reports whether the files of a SQLite database (its WAL too)
// hold b anywhere.
func holds(t *testing.T, dbPath string, b string) bool {
	t.Helper()
	for _, p := range []string{dbPath, dbPath + "-wal"} {
		raw, err := os.ReadFile(p)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		if bytes.Contains(raw, []byte(b)) {
			return true
		}
	}
	return false
}

func TestRunWebhookEvents(t *testing.T) {
	e := newEnv(t, envOpts{})
	var logs bytes.Buffer
	hooks := &prospecting.Webhooks{AllowPrivate: true, Sender: sender(storetest.Box(t, 1), zerolog.New(&logs),
		[]time.Duration{5 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond}, 0)}
	e.svc.Webhooks = hooks
	rc := newReceiver(t, 2)
	ctx := context.Background()

	r, created, err := e.svc.Start(ctx, e.actor, "hook-1", prospecting.Request{Brief: billingBrief, Deliverable: ptr("accounts"),
		TargetCompanies: ptr(10), WebhookURL: rc.url})
	if err != nil || !created {
		t.Fatalf("Start: %v %v", created, err)
	}
	secret := r.Secret
	if len(secret) < 10 || !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("no webhook secret on the created run: %q", secret)
	}
	if !secrets.IsSealed(r.Data.WebhookSecret) || strings.Contains(r.Data.WebhookSecret, secret) {
		t.Fatalf("the run's stored secret is not sealed: %q", r.Data.WebhookSecret)
	}
	if got, _ := e.svc.Get(ctx, e.actor.Org.ID, r.ID); got.Secret != "" {
		t.Fatal("a run read again carries the plaintext secret")
	}
	r = e.waitStatus(t, r.ID, 10*time.Second, prospecting.StatusProposed)
	if _, err := e.svc.Approve(ctx, e.actor, r.ID, prospecting.ApproveRequest{PlanVersion: r.Data.PlanVersion}); err != nil {
		t.Fatal(err)
	}
	done := e.waitStatus(t, r.ID, 60*time.Second, prospecting.StatusCompleted)
	hooks.Wait()

	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.got) < 3 {
		t.Fatalf("got %d events, want proposed, queued/running and completed", len(rc.got))
	}
	// Events of a run leave in order, each after the earlier ones were
	// delivered, though each is retried.
	if !sort.SliceIsSorted(rc.got, func(i, j int) bool {
		var a, b prospecting.Event
		json.Unmarshal(rc.got[i].body, &a)
		json.Unmarshal(rc.got[j].body, &b)
		return a.Timestamp.Before(b.Timestamp)
	}) {
		t.Fatal("events accepted out of order")
	}
	seen := map[string]bool{}
	var statuses []string
	var last prospecting.Event
	for _, g := range rc.got {
		id := g.header.Get("webhook-id")
		if seen[id] {
			t.Fatalf("event %s accepted twice", id)
		}
		seen[id] = true
		if rc.tries[id] != 3 {
			t.Errorf("event %s tried %d times, want 2 failures and 1 success", id, rc.tries[id])
		}
		if err := saved.Verify(secret, g.header, g.body, time.Now(), 5*time.Minute); err != nil {
			t.Fatalf("event %s: %v", id, err)
		}
		if err := saved.Verify("whsec_"+"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", g.header, g.body, time.Now(), 5*time.Minute); !errors.Is(err, saved.ErrBadSignature) {
			t.Fatalf("a wrong secret verified: %v", err)
		}
		if err := json.Unmarshal(g.body, &last); err != nil {
			t.Fatal(err)
		}
		if last.Type != prospecting.EventStatus || last.Data.RunID != r.ID {
			t.Fatalf("event %+v", last)
		}
		statuses = append(statuses, last.Data.Status)
	}
	t.Logf("events: %v", statuses)
	if statuses[0] != prospecting.StatusProposed || last.Data.Status != prospecting.StatusCompleted {
		t.Fatalf("statuses %v", statuses)
	}
	if last.Data.StopReason == nil || *last.Data.StopReason != done.Data.StopReason || last.Data.ResultsQueryID == nil {
		t.Fatalf("completed event %+v, run stop %s", last.Data, done.Data.StopReason)
	}
	running := false
	for _, s := range statuses {
		running = running || s == prospecting.StatusRunning
	}
	if !running {
		t.Fatalf("no running event in %v", statuses)
	}
	// At rest, the secret is sealed everywhere: the run's data and the
	// queued events (read from the database's files themselves).
	if holds(t, e.dbPath, secret) || holds(t, e.dbPath, strings.TrimPrefix(secret, "whsec_")) {
		t.Fatal("the database holds the webhook secret in plaintext")
	}
	if !holds(t, e.dbPath, "webhook_secret") {
		t.Fatal("the database check reads nothing (no run data found)")
	}
	if strings.Contains(logs.String(), strings.TrimPrefix(secret, "whsec_")) || !strings.Contains(logs.String(), "webhook delivered") {
		t.Fatalf("the logs carry the secret, or no deliveries were logged:\n%s", logs.String())
	}
}

func TestRunWebhookURLRefused(t *testing.T) {
	svc := &prospecting.Service{Webhooks: &prospecting.Webhooks{Sender: sender(storetest.Box(t, 1), zerolog.Nop(), nil, 0)}}
	for _, u := range []string{"ftp://example.com/hook", "http://127.0.0.1:9/hook", "http://localhost/hook", "not a url"} {
		_, _, err := svc.Start(context.Background(), prospecting.Actor{}, "k", prospecting.Request{Brief: billingBrief, WebhookURL: u})
		var fe *prospecting.FieldError
		if !errors.As(err, &fe) || fe.Field != "webhook_url" {
			t.Errorf("%q: %v", u, err)
		}
	}
	// Without a sender holding a key, no secret could be stored sealed:
	// a webhook is refused, naming the field.
	for _, w := range []*prospecting.Webhooks{nil, {}, {Sender: &saved.Webhooks{}}} {
		svc := &prospecting.Service{Webhooks: w}
		_, _, err := svc.Start(context.Background(), prospecting.Actor{}, "k", prospecting.Request{Brief: billingBrief, WebhookURL: "https://hooks.example.com/x"})
		var fe *prospecting.FieldError
		if !errors.As(err, &fe) || fe.Field != "webhook_url" || !strings.Contains(fe.Rule, "secrets key") {
			t.Errorf("%+v: %v", w, err)
		}
	}
}

// submitter queues nothing: it hands out task ids.
type submitter struct{ n int }

func (s *submitter) Submit(context.Context, string, string, any) (store.Task, error) {
	s.n++
	return store.Task{ID: fmt.Sprintf("task-%d", s.n)}, nil
}

// TestRunWebhookSurvivesARestart: a run's status event is queued with the
// change that records it; its first delivery fails and the process dies
// during the backoff (its state store closed under it); a new process on
// the same database resumes the queued event from the durable queue, and
// the receiver gets it exactly once, after the failures, signed with the
// run's secret. The run was stored by a version before sealing (its
// secret in plaintext): it still signs, and the write that queues the
// event seals it.
func TestRunWebhookSurvivesARestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := st.CreateOrg(ctx, "acme", store.PlanTeam)
	u, _ := st.CreateUser(ctx, o.ID, "ops@acme.test", store.RoleAdmin)
	rc := newReceiver(t, 3)
	secret, _ := saved.NewSecret()
	data, _ := json.Marshal(prospecting.Data{Request: prospecting.Request{Brief: billingBrief, WebhookURL: rc.url}, WebhookSecret: secret,
		PlanVersion: 1, Checkpoint: prospecting.CheckpointContactsReview, Progress: prospecting.Progress{Round: 1, Step: "people"}})
	rec, _, err := st.CreateRun(ctx, store.ProspectingRun{OrgID: o.ID, UserID: u.ID, IdemKey: "k", ReqHash: "h", Status: prospecting.StatusPaused, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	backoff := []time.Duration{400 * time.Millisecond, 100 * time.Millisecond, 100 * time.Millisecond, 100 * time.Millisecond}
	box := storetest.Box(t, 1)
	hooks := func() *prospecting.Webhooks {
		return &prospecting.Webhooks{AllowPrivate: true, Sender: sender(box, zerolog.Nop(), backoff, 300*time.Millisecond)}
	}
	first := &prospecting.Service{State: st, Tasks: &submitter{}, Webhooks: hooks()}
	actor := prospecting.Actor{Org: o, UserID: u.ID}
	if _, err := first.Reply(ctx, actor, rec.ID, prospecting.ReplyRequest{Checkpoint: prospecting.CheckpointContactsReview, Action: "continue"}); err != nil {
		t.Fatal(err)
	}
	calls := func() (n int, ok int) {
		rc.mu.Lock()
		defer rc.mu.Unlock()
		for _, c := range rc.tries {
			n += c
		}
		return n, len(rc.got)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if n, _ := calls(); n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no first attempt")
		}
	}
	time.Sleep(50 * time.Millisecond) // the retry is queued
	st.Close()
	first.Webhooks.Wait()
	if n, _ := calls(); n != 1 {
		t.Fatalf("%d calls before the restart", n)
	}

	st2, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	second := hooks()
	runCtx, stop := context.WithCancel(ctx)
	go second.Sender.ResumeEvery(runCtx, st2, 20*time.Millisecond)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, ok := calls(); ok > 0 || time.Now().After(deadline) {
			break
		}
	}
	time.Sleep(300 * time.Millisecond) // room for a duplicate to show
	stop()
	second.Wait()

	n, ok := calls()
	if n != 4 || ok != 1 {
		t.Fatalf("receiver: %d calls, %d accepted; want the event once after 3 failures", n, ok)
	}
	rc.mu.Lock()
	g := rc.got[0]
	rc.mu.Unlock()
	if err := saved.Verify(secret, g.header, g.body, time.Now(), 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	var ev prospecting.Event
	if err := json.Unmarshal(g.body, &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Data.RunID != rec.ID || ev.Data.Status != prospecting.StatusQueued || ev.Data.PreviousStatus != prospecting.StatusPaused ||
		g.header.Get("webhook-id") != fmt.Sprintf("run_%s_%d", rec.ID, rec.Rev+1) {
		t.Fatalf("event %s %+v", g.header.Get("webhook-id"), ev.Data)
	}
	if ps, err := st2.ClaimDeliveries(ctx, "check", time.Now().Add(time.Hour), time.Minute, 10); err != nil || len(ps) != 0 {
		t.Fatalf("still queued after delivery: %+v %v", ps, err)
	}
	after, err := st2.GetRun(ctx, o.ID, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored, _ := store.RunSecret(after.Data); !secrets.IsSealed(stored) {
		t.Fatalf("the legacy secret was not sealed by the next write: %q", stored)
	}
}
