package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/openprospect/prospectd/store"
)

func testRefreshLease(t *testing.T, s store.Store) {
	ctx := context.Background()
	if holder, ok, err := s.AcquireRefreshLease(ctx, "registry", "task-a", time.Minute); err != nil || !ok || holder != "task-a" {
		t.Fatalf("first acquire = %q, %v, %v", holder, ok, err)
	}
	if holder, ok, err := s.AcquireRefreshLease(ctx, "registry", "task-b", time.Minute); err != nil || ok || holder != "task-a" {
		t.Fatalf("acquire of a held lease = %q, %v, %v", holder, ok, err)
	}
	// Another source is independent; the owner may take its lease again
	// (a task re-run after its worker died).
	if _, ok, _ := s.AcquireRefreshLease(ctx, "drops", "task-b", time.Minute); !ok {
		t.Fatal("lease of another source refused")
	}
	if _, ok, _ := s.AcquireRefreshLease(ctx, "registry", "task-a", time.Minute); !ok {
		t.Fatal("owner could not take its own lease again")
	}
	if err := s.RenewRefreshLease(ctx, "registry", "task-a", time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := s.RenewRefreshLease(ctx, "registry", "task-b", time.Minute); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("renew by a non-owner: %v", err)
	}
	if err := s.SetRefreshCursor(ctx, "registry", "task-b", []byte("x")); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("cursor by a non-owner: %v", err)
	}
	if c, err := s.RefreshCursor(ctx, "registry"); err != nil || c != nil {
		t.Fatalf("cursor before any = %q, %v", c, err)
	}
	if err := s.SetRefreshCursor(ctx, "registry", "task-a", []byte(`{"etag":"v1"}`)); err != nil {
		t.Fatal(err)
	}
	if c, _ := s.RefreshCursor(ctx, "registry"); string(c) != `{"etag":"v1"}` {
		t.Fatalf("cursor = %q", c)
	}
	if c, err := s.RefreshCursor(ctx, "never-seen"); err != nil || c != nil {
		t.Fatalf("cursor of an unknown source = %q, %v", c, err)
	}
	// Release by a non-owner is a no-op; by the owner frees the lease.
	if err := s.ReleaseRefreshLease(ctx, "registry", "task-b"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.AcquireRefreshLease(ctx, "registry", "task-b", time.Minute); ok {
		t.Fatal("lease taken after a non-owner's release")
	}
	if err := s.ReleaseRefreshLease(ctx, "registry", "task-a"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.AcquireRefreshLease(ctx, "registry", "task-b", 50*time.Millisecond); !ok {
		t.Fatal("released lease refused")
	}
	// An expired lease is free to take; its former owner cannot renew it.
	time.Sleep(120 * time.Millisecond)
	if _, ok, _ := s.AcquireRefreshLease(ctx, "registry", "task-c", time.Minute); !ok {
		t.Fatal("expired lease refused")
	}
	if err := s.RenewRefreshLease(ctx, "registry", "task-b", time.Minute); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("renew of a lost lease: %v", err)
	}

	// Concurrent acquirers: exactly one wins.
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, ok, err := s.AcquireRefreshLease(ctx, "contended", string(rune('a'+i)), time.Minute)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				won++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if won != 1 {
		t.Fatalf("%d concurrent acquirers won the lease", won)
	}
}

func testRefreshFires(t *testing.T, s store.Store) {
	ctx := context.Background()
	at := time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := s.ClaimRefreshFire(ctx, "registry", at)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				won++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if won != 1 {
		t.Fatalf("%d claims of one firing succeeded", won)
	}
	if ok, _ := s.ClaimRefreshFire(ctx, "registry", at.Add(-time.Hour)); ok {
		t.Fatal("an older firing claimed")
	}
	if ok, _ := s.ClaimRefreshFire(ctx, "registry", at.Add(time.Hour)); !ok {
		t.Fatal("the next firing refused")
	}
}

func testRefreshRuns(t *testing.T, s store.Store) {
	ctx := context.Background()
	t0 := time.Now().UTC().Truncate(time.Millisecond)
	if _, err := s.RefreshRunByTask(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown run: %v", err)
	}
	for i, src := range []string{"registry", "drops", "registry"} {
		r := store.RefreshRun{TaskID: string(rune('a' + i)), Source: src, Trigger: "schedule", Status: store.RefreshQueued,
			CreatedAt: t0.Add(time.Duration(i) * time.Second)}
		if err := s.PutRefreshRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	fin := t0.Add(time.Minute)
	upd := store.RefreshRun{TaskID: "a", Source: "registry", Trigger: "schedule", Status: store.RefreshCompleted, Attempts: 2, Progress: 100,
		Counts: []byte(`{"read":3}`), Rejects: []byte("row,domain,reason\n"), CreatedAt: t0, StartedAt: &t0, FinishedAt: &fin}
	if err := s.PutRefreshRun(ctx, upd); err != nil {
		t.Fatal(err)
	}
	got, err := s.RefreshRunByTask(ctx, "a")
	if err != nil || got.Status != store.RefreshCompleted || got.Attempts != 2 || string(got.Counts) != `{"read":3}` ||
		got.FinishedAt == nil || !got.FinishedAt.Equal(fin) || !got.CreatedAt.Equal(t0) || string(got.Rejects) != "row,domain,reason\n" {
		t.Fatalf("run after update = %+v, %v", got, err)
	}
	all, err := s.RefreshRuns(ctx, "", 10)
	if err != nil || len(all) != 3 || all[0].TaskID != "c" || all[2].TaskID != "a" {
		t.Fatalf("all runs = %+v, %v", all, err)
	}
	reg, _ := s.RefreshRuns(ctx, "registry", 1)
	if len(reg) != 1 || reg[0].TaskID != "c" {
		t.Fatalf("registry runs, limit 1 = %+v", reg)
	}
}
