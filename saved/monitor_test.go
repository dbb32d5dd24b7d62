package saved_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
	"github.com/openprospect/prospectd/store/storetest"
)

func TestParseSchedule(t *testing.T) {
	for _, tc := range []struct {
		spec string
		ok   bool
	}{
		{"0 * * * *", true}, {"@daily", true}, {"30 8 * * 1-5", true}, {"@hourly", true},
		{"*/5 * * * *", false}, {"* * * * *", false}, {"@every 10m", false}, {"not cron", false}, {"0 0 31 2 *", false},
	} {
		_, err := saved.ParseSchedule(tc.spec)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, saved.ErrInvalid)) {
			t.Errorf("ParseSchedule(%q) = %v, want ok=%v", tc.spec, err, tc.ok)
		}
	}
}

func TestSignVerify(t *testing.T) {
	// The Standard Webhooks reference vector.
	sig, err := saved.Sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, []byte(`{"test": 2432232314}`))
	if err != nil || sig != "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" {
		t.Fatalf("Sign = %q, %v", sig, err)
	}
	h := http.Header{}
	h.Set("webhook-id", "msg_p5jXN8AQM9LWM0D4loKWxJek")
	h.Set("webhook-timestamp", "1614265330")
	h.Set("webhook-signature", "v1,bogus "+sig)
	at := time.Unix(1614265330, 0)
	if err := saved.Verify("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", h, []byte(`{"test": 2432232314}`), at, 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := saved.Verify("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", h, []byte(`{"test": 1}`), at, 5*time.Minute); !errors.Is(err, saved.ErrBadSignature) {
		t.Fatalf("tampered body: %v", err)
	}
	if err := saved.Verify("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", h, []byte(`{"test": 2432232314}`), at.Add(time.Hour), 5*time.Minute); !errors.Is(err, saved.ErrBadSignature) {
		t.Fatalf("replayed late: %v", err)
	}
}

// receiver is a webhook endpoint on loopback that fails the first fail
// deliveries with 503.
type receiver struct {
	mu      sync.Mutex
	fail    int
	calls   int
	ok      []http.Header
	bodies  [][]byte
	srv     *httptest.Server
	secret  string
	badSigs int
}

func newReceiver(t *testing.T, fail int) *receiver {
	r := &receiver{fail: fail}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.calls++
		if r.calls <= r.fail {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		if saved.Verify(r.secret, req.Header, body, time.Now(), 5*time.Minute) != nil {
			r.badSigs++
		}
		r.ok = append(r.ok, req.Header.Clone())
		r.bodies = append(r.bodies, body)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func TestMonitorRunsAndDelivers(t *testing.T) {
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "state.db")
	st, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	o, _ := st.CreateOrg(ctx, "acme", store.PlanStarter)
	u, _ := st.CreateUser(ctx, o.ID, "ops@acme.test", store.RoleMember)
	c := saved.Caller{OrgID: o.ID, UserID: u.ID}
	svc := saved.NewService(st)
	q, err := svc.SaveResults(ctx, c, saved.SaveResults{Name: "watch", Action: "discover", Params: json.RawMessage(`{"icp_text":"payroll"}`),
		Data: rows(t, `[{"domain":"a.com"},{"domain":"b.com"}]`)})
	if err != nil {
		t.Fatal(err)
	}
	results := [][]string{{"a.com", "b.com"}, {"b.com", "c.com", "d.com"}, {"b.com", "c.com", "d.com"}}
	var runs int
	now := time.Date(2026, 11, 25, 9, 30, 0, 0, time.UTC)
	rcv := newReceiver(t, 3)
	var logs bytes.Buffer
	ms := &saved.Monitors{Store: st, Queries: st, Now: func() time.Time { return now }, Log: zerolog.New(&logs),
		Discover: func(_ context.Context, m saved.Monitor, params json.RawMessage) ([]string, error) {
			if string(params) != `{"icp_text":"payroll"}` || m.OrgID != o.ID {
				t.Errorf("discover with %s for %s", params, m.OrgID)
			}
			runs++
			return results[runs-1], nil
		},
		Webhooks: &saved.Webhooks{Client: saved.WebhookClient(true), Secrets: storetest.Box(t, 1), Log: zerolog.New(&logs),
			Backoff: []time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond, 8 * time.Millisecond}},
	}
	check := func(json.RawMessage) error { return nil }
	if _, err := ms.Put(ctx, c, q.ID, saved.MonitorRequest{Schedule: "*/5 * * * *", WebhookURL: rcv.srv.URL}, check); !errors.Is(err, saved.ErrInvalid) {
		t.Fatalf("5-minute schedule: %v", err)
	}
	if _, err := ms.Put(ctx, c, q.ID, saved.MonitorRequest{Schedule: "@hourly", WebhookURL: "ftp://x"}, check); !errors.Is(err, saved.ErrInvalid) {
		t.Fatalf("ftp webhook: %v", err)
	}
	excl, _, _ := svc.CreateExclusionList(ctx, c, saved.ExclusionList{Name: "x", PersonaIDs: []int64{1}})
	if _, err := ms.Put(ctx, c, excl.ID, saved.MonitorRequest{Schedule: "@hourly", WebhookURL: rcv.srv.URL}, check); !errors.Is(err, saved.ErrInvalid) {
		t.Fatalf("exclusion list monitored: %v", err)
	}
	m, err := ms.Put(ctx, c, q.ID, saved.MonitorRequest{Schedule: "@hourly", WebhookURL: rcv.srv.URL}, check)
	if err != nil || !strings.HasPrefix(m.Secret, "whsec_") || !m.NextRunAt.Equal(time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("put: %+v %v", m, err)
	}
	rcv.secret = m.Secret
	// At rest the secret is sealed, bound to the query.
	stored, err := st.MonitorOf(ctx, o.ID, q.ID)
	if err != nil || !secrets.IsSealed(stored.Secret) {
		t.Fatalf("stored monitor secret %q, %v", stored.Secret, err)
	}
	if p, err := ms.Webhooks.Secrets.Open(stored.Secret, store.MonitorSecretAAD(q.ID)); err != nil || p != m.Secret {
		t.Fatalf("the stored secret opens to %q, %v", p, err)
	}

	tick := func(at time.Time, want int) {
		t.Helper()
		now = at
		n, err := ms.Tick(ctx)
		if err != nil || n != want {
			t.Fatalf("tick at %s: %d runs (%v), want %d", at, n, err, want)
		}
		ms.Wait()
	}
	tick(time.Date(2026, 11, 25, 9, 59, 0, 0, time.UTC), 0)  // not due
	tick(time.Date(2026, 11, 25, 10, 0, 30, 0, time.UTC), 1) // baseline: no event
	tick(time.Date(2026, 11, 25, 10, 30, 0, 0, time.UTC), 0)
	tick(time.Date(2026, 11, 25, 11, 0, 5, 0, time.UTC), 1) // a.com dropped, c.com and d.com added
	tick(time.Date(2026, 11, 25, 12, 0, 5, 0, time.UTC), 1) // no change: no event

	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	if rcv.calls != 4 || len(rcv.ok) != 1 || rcv.badSigs != 0 {
		t.Fatalf("receiver: %d calls, %d accepted, %d bad signatures; want the event once after 3 failures", rcv.calls, len(rcv.ok), rcv.badSigs)
	}
	var ev saved.ChangeEvent
	if err := json.Unmarshal(rcv.bodies[0], &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Type != saved.EventChanged || ev.Data.QueryID != q.ID || !slices.Equal(ev.Data.Added, []string{"c.com", "d.com"}) ||
		!slices.Equal(ev.Data.Dropped, []string{"a.com"}) || ev.Data.Total != 3 || rcv.ok[0].Get("webhook-id") != ev.Data.ChangeID {
		t.Fatalf("event %+v", ev)
	}
	changes, err := st.Changes(ctx, o.ID, q.ID, 10)
	if err != nil || len(changes) != 1 || len(changes[0].Deliveries) != 4 || changes[0].Deliveries[0].Status != 503 || changes[0].Deliveries[3].Status != 204 {
		t.Fatalf("history %+v %v", changes, err)
	}
	// Neither the database's files nor the logs hold the secret.
	key := strings.TrimPrefix(m.Secret, "whsec_")
	for _, p := range []string{dbPath, dbPath + "-wal"} {
		raw, err := os.ReadFile(p)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		if bytes.Contains(raw, []byte(key)) {
			t.Fatalf("%s holds the webhook secret", p)
		}
	}
	if strings.Contains(logs.String(), key) || !strings.Contains(logs.String(), "webhook failed") {
		t.Fatalf("the logs carry the secret, or logged no attempt:\n%s", logs.String())
	}

	// A monitor cannot be stored without a key to seal its secret.
	ms.Webhooks = &saved.Webhooks{}
	if _, err := ms.Put(ctx, c, q.ID, saved.MonitorRequest{Schedule: "@hourly", WebhookURL: rcv.srv.URL}, check); !errors.Is(err, saved.ErrNoSecretsKey) {
		t.Fatalf("put without a key: %v", err)
	}
}

// TestSealedSecretSigns: the delivery loop opens a stored secret only to
// sign — a sealed one with the sender's key (or a rotated-out key it still
// holds), a plaintext one stored before sealing as it is — and a secret it
// cannot open fails the attempt with an error that says why, in the
// delivery log, without the secret.
func TestSealedSecretSigns(t *testing.T) {
	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	seal := func(box *secrets.Box, aad string) string {
		v, err := saved.SealSecret(box, secret, aad)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	a := storetest.Box(t, 1)
	monAAD, evAAD := store.MonitorSecretAAD("q"), store.EventSecretAAD("", "ev")
	for _, tc := range []struct {
		name   string
		event  bool // an Event of another source, not a monitor change
		stored string
		sender *secrets.Box
		err    string // "" when delivered
	}{
		{"sealed", false, seal(a, monAAD), a, ""},
		{"sealed event", true, seal(a, evAAD), a, ""},
		{"legacy plaintext", false, secret, a, ""},
		{"legacy plaintext event", true, secret, nil, ""},
		{"rotated, old key kept", false, seal(a, monAAD), storetest.Box(t, 2, 1), ""},
		{"rotated out", false, seal(a, monAAD), storetest.Box(t, 2), "sealed with an unknown key"},
		{"rotated out event", true, seal(a, evAAD), storetest.Box(t, 2), "sealed with an unknown key"},
		{"no key", false, seal(a, monAAD), nil, "no secrets key"},
		{"bound to another monitor", false, seal(a, store.MonitorSecretAAD("other")), a, "does not open"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rcv := newReceiver(t, 0)
			rcv.secret = secret
			p := saved.PendingDelivery{Change: saved.Change{ID: "c"}, Monitor: saved.Monitor{ID: "m", QueryID: "q", WebhookURL: rcv.srv.URL, Secret: tc.stored}}
			id := "c"
			if tc.event {
				id = "ev"
				p = saved.PendingDelivery{Event: &saved.Event{ID: id, URL: rcv.srv.URL, Secret: tc.stored, Body: []byte(`{}`)}}
			}
			var logs bytes.Buffer
			dl := &fakeLog{pending: p}
			w := &saved.Webhooks{Client: saved.WebhookClient(true), Secrets: tc.sender, Backoff: []time.Duration{}, Log: zerolog.New(&logs)}
			w.Deliver(context.Background(), dl, id)
			rcv.mu.Lock()
			defer rcv.mu.Unlock()
			if tc.err == "" {
				if len(rcv.ok) != 1 || rcv.badSigs != 0 {
					t.Fatalf("%d delivered, %d bad signatures; log %s", len(rcv.ok), rcv.badSigs, logs.String())
				}
				return
			}
			if rcv.calls != 0 || !strings.Contains(logs.String(), tc.err) || !strings.Contains(logs.String(), "webhook given up") {
				t.Fatalf("%d calls; log %s", rcv.calls, logs.String())
			}
			if !tc.event && (len(dl.ds) != 1 || !strings.Contains(dl.ds[0].Error, tc.err)) {
				t.Fatalf("delivery log %+v", dl.ds)
			}
			if strings.Contains(logs.String(), strings.TrimPrefix(secret, "whsec_")) || strings.Contains(fmt.Sprint(dl.ds), strings.TrimPrefix(secret, "whsec_")) {
				t.Fatal("an error carries the secret")
			}
		})
	}
}

// fakeLog records delivery attempts.
type fakeLog struct {
	saved.MonitorStore
	mu      sync.Mutex
	ds      []saved.Delivery
	pending saved.PendingDelivery
}

func (l *fakeLog) AddDelivery(_ context.Context, d saved.Delivery) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ds = append(l.ds, d)
	return nil
}

// ClaimDelivery hands out the one pending delivery of the fake.
func (l *fakeLog) ClaimDelivery(context.Context, string, string, time.Time, time.Duration) (saved.PendingDelivery, bool, error) {
	return l.pending, true, nil
}

func (l *fakeLog) FinishDelivery(context.Context, string, string) error { return nil }

func (l *fakeLog) ClaimDeliveries(context.Context, string, time.Time, time.Duration, int) ([]saved.PendingDelivery, error) {
	return nil, nil
}

func TestWebhookRefusesPrivateAddresses(t *testing.T) {
	rcv := newReceiver(t, 0)
	log := &fakeLog{pending: saved.PendingDelivery{Change: saved.Change{ID: "c"},
		Monitor: saved.Monitor{ID: "m", QueryID: "q", WebhookURL: rcv.srv.URL, Secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}}}
	w := &saved.Webhooks{Backoff: []time.Duration{}} // the default client: public addresses only
	w.Deliver(context.Background(), log, "c")
	if rcv.calls != 0 || len(log.ds) != 1 || !strings.Contains(log.ds[0].Error, "not public") {
		t.Fatalf("loopback webhook: %d calls, log %+v", rcv.calls, log.ds)
	}
}

// TestWebhookRetriesSurviveARestart: the first delivery of a change fails
// and the process dies during the backoff (its state store closed under
// it); a new process on the same database resumes the queued delivery
// when it is due, and the receiver gets the event exactly once, after
// the failures, with every attempt in the delivery log.
func TestWebhookRetriesSurviveARestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := st.CreateOrg(ctx, "acme", store.PlanStarter)
	u, _ := st.CreateUser(ctx, o.ID, "ops@acme.test", store.RoleMember)
	c := saved.Caller{OrgID: o.ID, UserID: u.ID}
	q, err := saved.NewService(st).SaveResults(ctx, c, saved.SaveResults{Name: "watch", Action: "discover", Params: json.RawMessage(`{"icp_text":"payroll"}`),
		Data: rows(t, `[{"domain":"a.com"}]`)})
	if err != nil {
		t.Fatal(err)
	}
	rcv := newReceiver(t, 3)
	now := time.Date(2026, 11, 25, 9, 30, 0, 0, time.UTC)
	results := [][]string{{"a.com"}, {"a.com", "b.com"}}
	runs := 0
	backoff := []time.Duration{400 * time.Millisecond, 100 * time.Millisecond, 100 * time.Millisecond, 100 * time.Millisecond}
	box := storetest.Box(t, 1)
	newMonitors := func(st *sqlite.Store) *saved.Monitors {
		return &saved.Monitors{Store: st, Queries: st, Now: func() time.Time { return now }, DeliveryEvery: 20 * time.Millisecond,
			Discover: func(context.Context, saved.Monitor, json.RawMessage) ([]string, error) {
				runs++
				return results[runs-1], nil
			},
			Webhooks: &saved.Webhooks{Client: saved.WebhookClient(true), Secrets: box, Backoff: backoff, Lease: 300 * time.Millisecond}}
	}
	first := newMonitors(st)
	m, err := first.Put(ctx, c, q.ID, saved.MonitorRequest{Schedule: "@hourly", WebhookURL: rcv.srv.URL}, func(json.RawMessage) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	rcv.mu.Lock()
	rcv.secret = m.Secret
	rcv.mu.Unlock()
	now = time.Date(2026, 11, 25, 10, 0, 1, 0, time.UTC)
	if n, err := first.Tick(ctx); err != nil || n != 1 {
		t.Fatalf("baseline: %d %v", n, err)
	}
	now = now.Add(time.Hour)
	if n, err := first.Tick(ctx); err != nil || n != 1 {
		t.Fatalf("change: %d %v", n, err)
	}
	// The first attempt fails; the process dies while it waits to retry.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		rcv.mu.Lock()
		calls := rcv.calls
		rcv.mu.Unlock()
		if calls == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no first attempt")
		}
	}
	time.Sleep(50 * time.Millisecond) // the attempt is logged and the retry queued
	st.Close()
	first.Wait()
	rcv.mu.Lock()
	if rcv.calls != 1 {
		t.Fatalf("%d calls before the restart", rcv.calls)
	}
	rcv.mu.Unlock()

	st2, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	second := newMonitors(st2)
	runCtx, stop := context.WithCancel(ctx)
	second.Start(runCtx, time.Hour)
	deadline := time.Now().Add(10 * time.Second)
	for {
		rcv.mu.Lock()
		done := len(rcv.ok) > 0
		rcv.mu.Unlock()
		if done || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // room for a duplicate to show
	stop()
	second.Wait()

	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	if rcv.calls != 4 || len(rcv.ok) != 1 || rcv.badSigs != 0 {
		t.Fatalf("receiver: %d calls, %d accepted, %d bad signatures; want the event once after 3 failures", rcv.calls, len(rcv.ok), rcv.badSigs)
	}
	changes, err := st2.Changes(ctx, o.ID, q.ID, 10)
	if err != nil || len(changes) != 1 {
		t.Fatalf("changes %+v %v", changes, err)
	}
	var attempts []int
	for _, d := range changes[0].Deliveries {
		attempts = append(attempts, d.Attempt)
	}
	if !slices.Equal(attempts, []int{1, 2, 3, 4}) || changes[0].Deliveries[3].Status != 204 || rcv.ok[0].Get("webhook-id") != changes[0].ID {
		t.Fatalf("delivery log %+v", changes[0].Deliveries)
	}
	if ps, err := st2.ClaimDeliveries(ctx, "check", time.Now().Add(time.Hour), time.Minute, 10); err != nil || len(ps) != 0 {
		t.Fatalf("still queued after delivery: %+v %v", ps, err)
	}
}
