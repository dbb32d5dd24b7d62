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
