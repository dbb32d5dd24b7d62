package prospecting_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/saved"
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

func TestRunWebhookEvents(t *testing.T) {
	e := newEnv(t, envOpts{})
	hooks := &prospecting.Webhooks{AllowPrivate: true, Backoff: []time.Duration{5 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond}}
	e.svc.Webhooks = hooks
	rc := newReceiver(t, 2)
	ctx := context.Background()

	r, created, err := e.svc.Start(ctx, e.actor, "hook-1", prospecting.Request{Brief: billingBrief, Deliverable: ptr("accounts"),
		TargetCompanies: ptr(10), WebhookURL: rc.url})
	if err != nil || !created {
		t.Fatalf("Start: %v %v", created, err)
	}
	secret := r.Data.WebhookSecret
	if len(secret) < 10 {
		t.Fatalf("no webhook secret on the created run: %q", secret)
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
}

func TestRunWebhookURLRefused(t *testing.T) {
	svc := &prospecting.Service{}
	for _, u := range []string{"ftp://example.com/hook", "http://127.0.0.1:9/hook", "http://localhost/hook", "not a url"} {
		_, _, err := svc.Start(context.Background(), prospecting.Actor{}, "k", prospecting.Request{Brief: billingBrief, WebhookURL: u})
		var fe *prospecting.FieldError
		if !errors.As(err, &fe) || fe.Field != "webhook_url" {
			t.Errorf("%q: %v", u, err)
		}
	}
}
