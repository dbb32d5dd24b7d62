package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

// ProspectingStore is a state store that also keeps prospecting runs.
type ProspectingStore interface {
	store.Store
	store.ProspectingRuns
}

// RunProspecting runs the prospecting-run suite; open must return a
// fresh, empty store.
func RunProspecting(t *testing.T, open func(t *testing.T) ProspectingStore) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, s ProspectingStore)
	}{
		{"CreateIdempotent", testRunCreate},
		{"UpdateCAS", testRunUpdate},
		{"OneActivePerUser", testRunActive},
		{"Messages", testRunMessages},
		{"QueuedEvents", testRunEvents},
		{"FinishedRuns", testFinishedRuns},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

func testRunCreate(t *testing.T, s ProspectingStore) {
	ctx := context.Background()
	m := newMember(t, s, "Acme", "a@acme.test")
	other := newMember(t, s, "Other", "o@other.test")
	rec := store.ProspectingRun{OrgID: m.org, UserID: m.user, IdemKey: "k1", ReqHash: "h1", Status: "drafting", Data: json.RawMessage(`{"a":1}`)}
	var wg sync.WaitGroup
	ids := make([]string, 20)
	created := make([]bool, 20)
	for i := range ids {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r, c, err := s.CreateRun(ctx, rec)
			if err != nil {
				t.Error(err)
				return
			}
			ids[i], created[i] = r.ID, c
		}(i)
	}
	wg.Wait()
	n := 0
	for i := range ids {
		if ids[i] != ids[0] {
			t.Fatalf("one key gave runs %s and %s", ids[0], ids[i])
		}
		if created[i] {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d creations reported for one key", n)
	}
	got, err := s.GetRun(ctx, m.org, ids[0])
	if err != nil || got.ReqHash != "h1" || got.Rev != 1 || string(got.Data) != `{"a":1}` || got.Status != "drafting" {
		t.Fatalf("GetRun = %+v, %v", got, err)
	}
	if byKey, ok, err := s.RunByKey(ctx, m.org, "k1"); err != nil || !ok || byKey.ID != ids[0] {
		t.Fatalf("RunByKey = %+v %v %v", byKey, ok, err)
	}
	if _, ok, err := s.RunByKey(ctx, other.org, "k1"); err != nil || ok {
		t.Fatalf("RunByKey of another organization: %v %v", ok, err)
	}
	if _, err := s.GetRun(ctx, other.org, ids[0]); !errors.Is(err, store.ErrRunNotFound) {
		t.Fatalf("another organization's run: %v", err)
	}
	if _, err := s.GetRun(ctx, m.org, "not-a-run"); !errors.Is(err, store.ErrRunNotFound) {
		t.Fatalf("unknown run: %v", err)
	}
	// The same key in another organization is another run.
	rec2 := rec
	rec2.OrgID, rec2.UserID = other.org, other.user
	r2, c2, err := s.CreateRun(ctx, rec2)
	if err != nil || !c2 || r2.ID == ids[0] {
		t.Fatalf("same key, other org: %+v %v %v", r2, c2, err)
	}
}

func testRunUpdate(t *testing.T, s ProspectingStore) {
	ctx := context.Background()
	m := newMember(t, s, "Acme", "a@acme.test")
	r, _, err := s.CreateRun(ctx, store.ProspectingRun{OrgID: m.org, UserID: m.user, IdemKey: "k", Status: "drafting", Data: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	r.Status, r.Data = "proposed", json.RawMessage(`{"plan":1}`)
	r2, err := s.UpdateRun(ctx, r)
	if err != nil || r2.Rev != 2 {
		t.Fatalf("UpdateRun = %+v, %v", r2, err)
	}
	if _, err := s.UpdateRun(ctx, r); !errors.Is(err, store.ErrRunStale) {
		t.Fatalf("update at an old rev: %v", err)
	}
	got, _ := s.GetRun(ctx, m.org, r.ID)
	if got.Status != "proposed" || string(got.Data) != `{"plan":1}` || got.Rev != 2 {
		t.Fatalf("after update: %+v", got)
	}
}

func testRunActive(t *testing.T, s ProspectingStore) {
	ctx := context.Background()
	m := newMember(t, s, "Acme", "a@acme.test")
	mk := func(key string) store.ProspectingRun {
		r, _, err := s.CreateRun(ctx, store.ProspectingRun{OrgID: m.org, UserID: m.user, IdemKey: key, Status: "proposed", Data: json.RawMessage(`{}`)})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := mk("a"), mk("b")
	if _, ok, err := s.ActiveRun(ctx, m.org, m.user); ok || err != nil {
		t.Fatalf("ActiveRun before any is queued: %v %v", ok, err)
	}
	a.Status = "queued"
	a, err := s.UpdateRun(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	b.Status = "queued"
	if _, err := s.UpdateRun(ctx, b); !errors.Is(err, store.ErrRunBusy) {
		t.Fatalf("second queued run: %v", err)
	}
	if got, ok, err := s.ActiveRun(ctx, m.org, m.user); !ok || err != nil || got.ID != a.ID {
		t.Fatalf("ActiveRun = %+v %v %v", got, ok, err)
	}
	a.Status = "running"
	if a, err = s.UpdateRun(ctx, a); err != nil {
		t.Fatal(err)
	}
	a.Status = "completed"
	if _, err = s.UpdateRun(ctx, a); err != nil {
		t.Fatal(err)
	}
	b, _ = s.GetRun(ctx, m.org, b.ID)
	b.Status = "queued"
	if _, err := s.UpdateRun(ctx, b); err != nil {
		t.Fatalf("queue after the first completed: %v", err)
	}
}

func testRunMessages(t *testing.T, s ProspectingStore) {
	ctx := context.Background()
	m := newMember(t, s, "Acme", "a@acme.test")
	r, _, _ := s.CreateRun(ctx, store.ProspectingRun{OrgID: m.org, UserID: m.user, IdemKey: "k", Status: "drafting", Data: json.RawMessage(`{}`)})
	put := func(key, body string) store.RunMessage {
		msg, err := s.PutMessage(ctx, r.ID, store.RunMessage{Key: key, Body: json.RawMessage(body)})
		if err != nil {
			t.Fatal(err)
		}
		return msg
	}
	p1 := put("plan", `{"v":1}`)
	t1 := put("", `{"text":"a"}`)
	t2 := put("", `{"text":"b"}`)
	p2 := put("plan", `{"v":2}`)
	if p1.Seq != 1 || t1.Seq != 2 || t2.Seq != 3 || p2.Seq != 1 {
		t.Fatalf("seqs %d %d %d %d", p1.Seq, t1.Seq, t2.Seq, p2.Seq)
	}
	all, err := s.Messages(ctx, r.ID, 0)
	if err != nil || len(all) != 3 || string(all[0].Body) != `{"v":2}` || all[2].Seq != 3 {
		t.Fatalf("Messages = %+v, %v", all, err)
	}
	after, _ := s.Messages(ctx, r.ID, 1)
	if len(after) != 2 || after[0].Seq != 2 {
		t.Fatalf("after 1: %+v", after)
	}
	if _, err := s.PutMessage(ctx, "00000000-0000-0000-0000-000000000000", store.RunMessage{Body: json.RawMessage(`{}`)}); !errors.Is(err, store.ErrRunNotFound) {
		t.Fatalf("message of a missing run: %v", err)
	}
}

// testRunEvents: an update queues its webhook events in the durable
// delivery queue beside monitor changes — claimed with their URL, secret
// and body, sent as they are; an update that loses its compare-and-set
// queues nothing; an event queued twice under one id stays one.
func testRunEvents(t *testing.T, s ProspectingStore) {
	q, ok := s.(saved.DeliveryQueue)
	if !ok {
		t.Skip("the store keeps no delivery queue")
	}
	ctx := context.Background()
	m := newMember(t, s, "Acme", "a@acme.test")
	r, _, err := s.CreateRun(ctx, store.ProspectingRun{OrgID: m.org, UserID: m.user, IdemKey: "k", ReqHash: "h", Status: "drafting", Data: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	ev := store.WebhookEvent{ID: "run_x_2", URL: "https://hooks.example/r", Secret: "whsec_AAAA", Body: []byte(`{"type":"prospecting_run.status"}`), At: at}
	stale := r
	r.Status = "proposed"
	if r, err = s.UpdateRun(ctx, r, ev); err != nil {
		t.Fatal(err)
	}
	stale.Status = "failed"
	if _, err := s.UpdateRun(ctx, stale, store.WebhookEvent{ID: "run_x_lost", URL: "https://hooks.example/r", Secret: "s", Body: []byte(`{}`), At: at}); !errors.Is(err, store.ErrRunStale) {
		t.Fatalf("stale update: %v", err)
	}
	r.Status = "queued"
	if _, err := s.UpdateRun(ctx, r, ev); err != nil { // the same id again
		t.Fatal(err)
	}
	if ps, err := q.ClaimDeliveries(ctx, "A", at.Add(-time.Second), time.Minute, 10); err != nil || len(ps) != 0 {
		t.Fatalf("claimed before due: %+v %v", ps, err)
	}
	ps, err := q.ClaimDeliveries(ctx, "A", at, time.Minute, 10)
	if err != nil || len(ps) != 1 {
		t.Fatalf("claim: %+v %v", ps, err)
	}
	p := ps[0]
	if p.Event == nil || p.ID() != ev.ID || p.Event.URL != ev.URL || p.Event.Secret != ev.Secret || string(p.Event.Body) != string(ev.Body) ||
		!p.Event.At.Equal(at) || p.Attempts != 0 || p.Change.ID != "" {
		t.Fatalf("claimed %+v (event %+v)", p, p.Event)
	}
	if err := q.RescheduleDelivery(ctx, ev.ID, "A", 1, at.Add(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	p, ok, err = q.ClaimDelivery(ctx, ev.ID, "B", at.Add(10*time.Second), time.Minute)
	if err != nil || !ok || p.Attempts != 1 || p.Event == nil || string(p.Event.Body) != string(ev.Body) {
		t.Fatalf("claim the retry: %+v %v %v", p, ok, err)
	}
	if err := q.FinishDelivery(ctx, ev.ID, "B"); err != nil {
		t.Fatal(err)
	}
	if ps, _ := q.ClaimDeliveries(ctx, "A", at.Add(time.Hour), time.Minute, 10); len(ps) != 0 {
		t.Fatalf("still queued: %+v", ps)
	}
	// Events of one source leave in order: a later one waits while an
	// earlier one is queued, even when it is due first.
	r, err = s.GetRun(ctx, m.org, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"run_x_10", "run_x_11"} {
		r.Status = []string{"running", "paused"}[i]
		if r, err = s.UpdateRun(ctx, r, store.WebhookEvent{Source: "run:x", ID: id, URL: "https://hooks.example/r", Secret: "s", Body: []byte(`{}`), At: at.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	ps, err = q.ClaimDeliveries(ctx, "A", at.Add(time.Hour), time.Minute, 10)
	if err != nil || len(ps) != 1 || ps[0].ID() != "run_x_10" || ps[0].Event.Source != "run:x" {
		t.Fatalf("claim in order: %+v %v", ps, err)
	}
	if err := q.RescheduleDelivery(ctx, "run_x_10", "A", 1, at.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := q.ClaimDelivery(ctx, "run_x_11", "B", at.Add(time.Hour), time.Minute); err != nil || ok {
		t.Fatalf("a later event overtook an earlier one in backoff: %v %v", ok, err)
	}
	if p, ok, err = q.ClaimDelivery(ctx, "run_x_10", "B", at.Add(2*time.Hour), time.Minute); err != nil || !ok {
		t.Fatalf("claim the earlier: %v %v", ok, err)
	}
	if err := q.FinishDelivery(ctx, "run_x_10", "B"); err != nil {
		t.Fatal(err)
	}
	if p, ok, err = q.ClaimDelivery(ctx, "run_x_11", "B", at.Add(2*time.Hour), time.Minute); err != nil || !ok || p.ID() != "run_x_11" {
		t.Fatalf("the later one after the earlier left: %+v %v %v", p, ok, err)
	}
}

func testFinishedRuns(t *testing.T, s ProspectingStore) {
	ctx := context.Background()
	m := newMember(t, s, "Acme", "a@acme.test")
	other := newMember(t, s, "Other", "o@other.test")
	runs := map[string]store.ProspectingRun{}
	for _, k := range []string{"a", "b", "c", "failed", "running"} {
		r, _, err := s.CreateRun(ctx, store.ProspectingRun{OrgID: m.org, UserID: m.user, IdemKey: k, Status: "drafting", Data: json.RawMessage(`{}`)})
		if err != nil {
			t.Fatal(err)
		}
		runs[k] = r
	}
	finish := func(k, status string) {
		t.Helper()
		r := runs[k]
		r.Status = status
		if _, err := s.UpdateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond) // distinct update times
	}
	finish("a", "completed")
	finish("failed", "failed")
	finish("c", "completed")
	finish("b", "completed")
	finish("running", "running")
	o, _, _ := s.CreateRun(ctx, store.ProspectingRun{OrgID: other.org, UserID: other.user, IdemKey: "x", Status: "drafting", Data: json.RawMessage(`{}`)})
	o.Status = "completed"
	if _, err := s.UpdateRun(ctx, o); err != nil {
		t.Fatal(err)
	}
	ids := func(rs []store.ProspectingRun) []string {
		var out []string
		for _, r := range rs {
			for k, x := range runs {
				if x.ID == r.ID {
					out = append(out, k)
				}
			}
		}
		return out
	}
	got, err := s.FinishedRuns(ctx, m.org, 10)
	if err != nil || !slices.Equal(ids(got), []string{"b", "c", "a"}) || len(got) != 3 {
		t.Fatalf("FinishedRuns = %v (%d), %v; want the completed runs of the organization, latest first: b c a", ids(got), len(got), err)
	}
	if got, err := s.FinishedRuns(ctx, m.org, 2); err != nil || !slices.Equal(ids(got), []string{"b", "c"}) {
		t.Fatalf("FinishedRuns limit 2 = %v, %v", ids(got), err)
	}
}
