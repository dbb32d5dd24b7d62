package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/openprospect/prospectd/saved"
)

// MonitorStore is a state store that also keeps monitors.
type MonitorStore interface {
	SavedStore
	saved.MonitorStore
}

// RunMonitors runs the monitor suite; open must return a fresh store.
func RunMonitors(t *testing.T, open func(t *testing.T) MonitorStore) {
	t.Run("Lifecycle", func(t *testing.T) { testMonitorLifecycle(t, open(t)) })
	t.Run("DeliveryQueue", func(t *testing.T) { testDeliveryQueue(t, open(t)) })
}

// testDeliveryQueue: a recorded change is queued for delivery; claims
// lease it to one owner; a reschedule records the attempts and frees it
// until it is due; an unreleased lease expires; finishing takes it off;
// deleting the monitor drops what it had queued.
func testDeliveryQueue(t *testing.T, s MonitorStore) {
	ctx := context.Background()
	m := newMember(t, s, "acme", "ops@acme.test")
	q, err := s.CreateSavedQuery(ctx, saved.Query{OrgID: m.org, UserID: m.user, Name: "watch", Action: "discover", Domains: []string{"a.com"}, Params: []byte(`{"icp_text":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	mon, err := s.PutMonitor(ctx, saved.Monitor{OrgID: m.org, UserID: m.user, QueryID: q.ID, Schedule: "@hourly", WebhookURL: "https://hooks.example/x", Secret: "whsec_AAAA", NextRunAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := s.RecordRun(ctx, mon.ID, t0, saved.Run{At: t0, Domains: []string{"a.com"}, Next: t0.Add(time.Hour)}); err != nil || !ok {
		t.Fatalf("baseline: %v %v", ok, err)
	}
	if ps, err := s.ClaimDeliveries(ctx, "A", t0.Add(24*time.Hour), time.Minute, 10); err != nil || len(ps) != 0 {
		t.Fatalf("a run without a change queued %v %v", ps, err)
	}
	t1 := t0.Add(time.Hour)
	c := &saved.Change{At: t1, Added: []string{"b.com"}, Dropped: []string{"a.com"}, Total: 1}
	if ok, err := s.RecordRun(ctx, mon.ID, t0.Add(time.Hour), saved.Run{At: t1, Domains: []string{"b.com"}, Next: t1.Add(time.Hour), Change: c}); err != nil || !ok {
		t.Fatalf("run with a change: %v %v", ok, err)
	}
	if ps, err := s.ClaimDeliveries(ctx, "A", t1.Add(-time.Second), time.Minute, 10); err != nil || len(ps) != 0 {
		t.Fatalf("claimed before due: %v %v", ps, err)
	}
	ps, err := s.ClaimDeliveries(ctx, "A", t1, time.Minute, 10)
	if err != nil || len(ps) != 1 {
		t.Fatalf("claim: %+v %v", ps, err)
	}
	p := ps[0]
	if p.Change.ID != c.ID || p.Attempts != 0 || p.Monitor.ID != mon.ID || p.Monitor.QueryID != q.ID || p.Monitor.Secret != "whsec_AAAA" ||
		p.Monitor.WebhookURL != "https://hooks.example/x" || !slices.Equal(p.Change.Added, []string{"b.com"}) ||
		!slices.Equal(p.Change.Dropped, []string{"a.com"}) || p.Change.Total != 1 || !p.Change.At.Equal(t1) || !p.NextAt.Equal(t1) {
		t.Fatalf("claimed %+v", p)
	}
	if ps, _ := s.ClaimDeliveries(ctx, "B", t1, time.Minute, 10); len(ps) != 0 {
		t.Fatalf("leased twice: %+v", ps)
	}
	if _, ok, err := s.ClaimDelivery(ctx, c.ID, "B", t1.Add(30*time.Second), time.Minute); err != nil || ok {
		t.Fatalf("claimed by id while leased: %v %v", ok, err)
	}
	if err := s.RescheduleDelivery(ctx, c.ID, "B", 1, t1.Add(10*time.Second)); !errors.Is(err, saved.ErrNotFound) {
		t.Fatalf("rescheduled by another owner: %v", err)
	}
	if err := s.RescheduleDelivery(ctx, c.ID, "A", 1, t1.Add(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.ClaimDelivery(ctx, c.ID, "B", t1.Add(5*time.Second), time.Minute); ok {
		t.Fatal("claimed before the retry is due")
	}
	p, ok, err := s.ClaimDelivery(ctx, c.ID, "B", t1.Add(10*time.Second), time.Minute)
	if err != nil || !ok || p.Attempts != 1 || p.Monitor.Secret != "whsec_AAAA" {
		t.Fatalf("claim the retry: %+v %v %v", p, ok, err)
	}
	// B dies holding it: the lease expires and A takes over.
	if _, ok, _ := s.ClaimDelivery(ctx, c.ID, "A", t1.Add(40*time.Second), time.Minute); ok {
		t.Fatal("claimed under a live lease")
	}
	if _, ok, err := s.ClaimDelivery(ctx, c.ID, "A", t1.Add(2*time.Minute), time.Minute); err != nil || !ok {
		t.Fatalf("claim after the lease expired: %v %v", ok, err)
	}
	if err := s.FinishDelivery(ctx, c.ID, "B"); !errors.Is(err, saved.ErrNotFound) {
		t.Fatalf("finished by the lost owner: %v", err)
	}
	if err := s.FinishDelivery(ctx, c.ID, "A"); err != nil {
		t.Fatal(err)
	}
	if ps, _ := s.ClaimDeliveries(ctx, "A", t1.Add(48*time.Hour), time.Minute, 10); len(ps) != 0 {
		t.Fatalf("finished delivery still queued: %+v", ps)
	}
	// A queued change of a deleted monitor is not delivered.
	t2 := t1.Add(time.Hour)
	c2 := &saved.Change{At: t2, Added: []string{"c.com"}, Total: 2}
	if ok, err := s.RecordRun(ctx, mon.ID, t1.Add(time.Hour), saved.Run{At: t2, Domains: []string{"b.com", "c.com"}, Next: t2.Add(time.Hour), Change: c2}); err != nil || !ok {
		t.Fatalf("second change: %v %v", ok, err)
	}
	if err := s.DeleteMonitor(ctx, m.org, q.ID); err != nil {
		t.Fatal(err)
	}
	if ps, _ := s.ClaimDeliveries(ctx, "A", t2.Add(time.Hour), time.Minute, 10); len(ps) != 0 {
		t.Fatalf("a deleted monitor's change is still queued: %+v", ps)
	}
}

func testMonitorLifecycle(t *testing.T, s MonitorStore) {
	ctx := context.Background()
	m := newMember(t, s, "acme", "ops@acme.test")
	other := newMember(t, s, "other", "ops@other.test")
	q, err := s.CreateSavedQuery(ctx, saved.Query{OrgID: m.org, UserID: m.user, Name: "watch", Action: "thin_discover", Domains: []string{"a.com"}, Params: []byte(`{"icp_text":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	mon, err := s.PutMonitor(ctx, saved.Monitor{OrgID: m.org, UserID: m.user, QueryID: q.ID, Schedule: "@hourly", WebhookURL: "https://hooks.example/x", Secret: "whsec_AAAA", NextRunAt: t0})
	if err != nil || mon.ID == "" || mon.Domains != nil || mon.LastRunAt != nil || !mon.NextRunAt.Equal(t0) {
		t.Fatalf("put: %+v %v", mon, err)
	}
	if _, err := s.MonitorOf(ctx, other.org, q.ID); !errors.Is(err, saved.ErrNotFound) {
		t.Fatalf("another organization reads the monitor: %v", err)
	}
	if due, err := s.DueMonitors(ctx, t0.Add(-time.Second), 10); err != nil || len(due) != 0 {
		t.Fatalf("due before its time: %v %v", due, err)
	}
	due, err := s.DueMonitors(ctx, t0, 10)
	if err != nil || len(due) != 1 || due[0].ID != mon.ID || due[0].Secret != "whsec_AAAA" {
		t.Fatalf("due: %+v %v", due, err)
	}
	// The baseline run, then a racing second record of the same run.
	t1 := t0.Add(time.Hour)
	ok, err := s.RecordRun(ctx, mon.ID, due[0].NextRunAt, saved.Run{At: t0, Domains: []string{"a.com", "b.com"}, Next: t1})
	if err != nil || !ok {
		t.Fatalf("record: %v %v", ok, err)
	}
	if ok, err := s.RecordRun(ctx, mon.ID, due[0].NextRunAt, saved.Run{At: t0, Domains: []string{"z.com"}, Next: t1}); err != nil || ok {
		t.Fatalf("second record of one run: %v %v", ok, err)
	}
	got, err := s.MonitorOf(ctx, m.org, q.ID)
	if err != nil || !slices.Equal(got.Domains, []string{"a.com", "b.com"}) || got.LastRunAt == nil || !got.NextRunAt.Equal(t1) {
		t.Fatalf("after the run: %+v %v", got, err)
	}
	c := &saved.Change{At: t1, Added: []string{"c.com"}, Dropped: []string{"a.com"}, Total: 2}
	if ok, err := s.RecordRun(ctx, mon.ID, t1, saved.Run{At: t1, Domains: []string{"b.com", "c.com"}, Next: t1.Add(time.Hour), Change: c}); err != nil || !ok || c.ID == "" {
		t.Fatalf("record with a change: %v %v %+v", ok, err, c)
	}
	for i, st := range []int{500, 0, 204} {
		if err := s.AddDelivery(ctx, saved.Delivery{ChangeID: c.ID, Attempt: i + 1, Status: st, Error: map[bool]string{true: "", false: "failed"}[st == 204], At: t1}); err != nil {
			t.Fatal(err)
		}
	}
	changes, err := s.Changes(ctx, m.org, q.ID, 10)
	if err != nil || len(changes) != 1 {
		t.Fatalf("changes: %+v %v", changes, err)
	}
	ch := changes[0]
	if ch.ID != c.ID || !slices.Equal(ch.Added, []string{"c.com"}) || !slices.Equal(ch.Dropped, []string{"a.com"}) || ch.Total != 2 ||
		len(ch.Deliveries) != 3 || ch.Deliveries[2].Status != 204 || ch.Deliveries[0].Error != "failed" || !ch.At.Equal(t1) {
		t.Fatalf("change read back %+v", ch)
	}
	if other, err := s.Changes(ctx, other.org, q.ID, 10); err != nil || len(other) != 0 {
		t.Fatalf("another organization reads changes: %v %v", other, err)
	}
	// Replacing keeps the history; deleting the query deletes the monitor.
	if _, err := s.PutMonitor(ctx, saved.Monitor{OrgID: m.org, UserID: m.user, QueryID: q.ID, Schedule: "@daily", WebhookURL: "https://hooks.example/y", Secret: "whsec_BBBB", NextRunAt: t1}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.MonitorOf(ctx, m.org, q.ID); got.Schedule != "@daily" || got.Secret != "whsec_BBBB" || len(got.Domains) != 2 {
		t.Fatalf("replaced: %+v", got)
	}
	if changes, _ := s.Changes(ctx, m.org, q.ID, 10); len(changes) != 1 {
		t.Fatalf("history after replacing: %d changes", len(changes))
	}
	if err := s.DeleteMonitor(ctx, other.org, q.ID); !errors.Is(err, saved.ErrNotFound) {
		t.Fatalf("another organization deletes: %v", err)
	}
	if err := s.DeleteSavedQuery(ctx, m.org, "", q.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.MonitorOf(ctx, m.org, q.ID); !errors.Is(err, saved.ErrNotFound) {
		t.Fatalf("monitor outlives its query: %v", err)
	}
}
