package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/openprospect/prospectd/store"
)

func testTaskLifecycle(t *testing.T, s store.Store) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanTeam)
	input := []byte(`{"domains":["acme.test"]}`)
	task, err := s.CreateTask(ctx, o.ID, "segment", input)
	if err != nil || task.ID == "" || task.Status != store.TaskInProgress || task.OrgID != o.ID || task.Kind != "segment" {
		t.Fatalf("CreateTask = %+v, %v", task, err)
	}
	second, _ := s.CreateTask(ctx, o.ID, "segment", nil)
	got, err := s.GetTask(ctx, o.ID, task.ID)
	if err != nil || got.Status != store.TaskInProgress || got.Progress != 0 || !bytes.Equal(got.Input, input) ||
		got.Attempts != 0 || got.FinishedAt != nil || got.CreatedAt.IsZero() {
		t.Fatalf("GetTask = %+v, %v", got, err)
	}
	if _, ok, err := s.ClaimTask(ctx, "w1", []string{"research"}, time.Minute); ok || err != nil {
		t.Fatalf("claim of another kind: ok=%v err=%v", ok, err)
	}
	if _, ok, err := s.ClaimTask(ctx, "w1", nil, time.Minute); ok || err != nil {
		t.Fatalf("claim of no kinds: ok=%v err=%v", ok, err)
	}
	c, ok, err := s.ClaimTask(ctx, "w1", []string{"research", "segment"}, time.Minute)
	if err != nil || !ok || c.ID != task.ID || c.Attempts != 1 || !bytes.Equal(c.Input, input) {
		t.Fatalf("ClaimTask = %+v, %v, %v (want the oldest, %s)", c, ok, err, task.ID)
	}
	if err := s.UpdateProgress(ctx, task.ID, "w1", 40); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetTask(ctx, o.ID, task.ID); got.Progress != 40 || got.Status != store.TaskInProgress {
		t.Fatalf("after progress: %+v", got)
	}
	if err := s.UpdateProgress(ctx, task.ID, "w2", 50); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("progress by a non-owner: %v", err)
	}
	if err := s.UpdateProgress(ctx, "00000000-0000-0000-0000-000000000000", "w1", 50); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("progress of an unknown task: %v", err)
	}
	if got, err := s.ExtendLease(ctx, task.ID, "w1", time.Minute); err != nil || got.Status != store.TaskInProgress {
		t.Fatalf("ExtendLease = %+v, %v", got, err)
	}
	if _, err := s.ExtendLease(ctx, task.ID, "w2", time.Minute); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("ExtendLease by a non-owner: %v", err)
	}
	// The second task is the next to claim; the first is leased.
	if c2, ok, err := s.ClaimTask(ctx, "w2", []string{"segment"}, time.Minute); err != nil || !ok || c2.ID != second.ID {
		t.Fatalf("second claim = %+v, %v, %v", c2, ok, err)
	}
	if _, ok, _ := s.ClaimTask(ctx, "w3", []string{"segment"}, time.Minute); ok {
		t.Fatal("claimed a leased task")
	}
	result := []byte(`{"matches":3}`)
	if err := s.CompleteTask(ctx, task.ID, "w2", result); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("completion by a non-owner: %v", err)
	}
	if err := s.CompleteTask(ctx, task.ID, "w1", result); err != nil {
		t.Fatal(err)
	}
	got, err = s.GetTask(ctx, o.ID, task.ID)
	if err != nil || got.Status != store.TaskCompleted || got.Progress != 100 || !bytes.Equal(got.Result, result) ||
		got.FinishedAt == nil || got.Error != "" {
		t.Fatalf("after completion: %+v, %v", got, err)
	}
	if err := s.CompleteTask(ctx, task.ID, "w1", []byte(`{}`)); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("second completion: %v", err)
	}
	if err := s.FailTask(ctx, task.ID, "w1", "late"); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("failure after completion: %v", err)
	}
	if err := s.UpdateProgress(ctx, task.ID, "w1", 10); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("progress after completion: %v", err)
	}
	if got, _ := s.GetTask(ctx, o.ID, task.ID); !bytes.Equal(got.Result, result) {
		t.Fatalf("result changed: %s", got.Result)
	}

	// Failure.
	if err := s.FailTask(ctx, second.ID, "w2", "provider down"); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetTask(ctx, o.ID, second.ID)
	if got.Status != store.TaskFailed || got.Error != "provider down" || got.FinishedAt == nil || got.Result != nil {
		t.Fatalf("after failure: %+v", got)
	}
	if err := s.CompleteTask(ctx, second.ID, "w2", result); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("completion after failure: %v", err)
	}
	if _, ok, _ := s.ClaimTask(ctx, "w3", []string{"segment"}, time.Minute); ok {
		t.Fatal("claimed a finished task")
	}
}

func testTaskOrgs(t *testing.T, s store.Store) {
	ctx := context.Background()
	a, _ := s.CreateOrg(ctx, "Acme", store.PlanTeam)
	b, _ := s.CreateOrg(ctx, "Other", store.PlanTeam)
	task, err := s.CreateTask(ctx, a.ID, "segment", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetTask(ctx, b.ID, task.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another org's task: %v", err)
	}
	if err := s.CancelTask(ctx, b.ID, task.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("cancel of another org's task: %v", err)
	}
	if got, _ := s.GetTask(ctx, a.ID, task.ID); got.Status != store.TaskInProgress {
		t.Fatalf("another org's cancel changed the task: %+v", got)
	}
	if _, err := s.GetTask(ctx, a.ID, "00000000-0000-0000-0000-000000000000"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown task: %v", err)
	}
	if _, err := s.CreateTask(ctx, "00000000-0000-0000-0000-000000000000", "segment", nil); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("task of an unknown org: %v", err)
	}
}

func testTaskCancel(t *testing.T, s store.Store) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanTeam)
	queued, _ := s.CreateTask(ctx, o.ID, "research", nil)
	if err := s.CancelTask(ctx, o.ID, queued.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetTask(ctx, o.ID, queued.ID); got.Status != store.TaskCancelled || got.FinishedAt == nil {
		t.Fatalf("cancel of an unclaimed task: %+v", got)
	}
	if _, ok, _ := s.ClaimTask(ctx, "w1", []string{"research"}, time.Minute); ok {
		t.Fatal("claimed a cancelled task")
	}

	running, _ := s.CreateTask(ctx, o.ID, "research", nil)
	if _, ok, err := s.ClaimTask(ctx, "w1", []string{"research"}, time.Minute); !ok || err != nil {
		t.Fatalf("claim: %v %v", ok, err)
	}
	if err := s.CancelTask(ctx, o.ID, running.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.CancelTask(ctx, o.ID, running.ID); err != nil {
		t.Fatalf("second cancel: %v", err)
	}
	if got, _ := s.GetTask(ctx, o.ID, running.ID); got.Status != store.TaskCancelling || got.FinishedAt != nil {
		t.Fatalf("cancel of a running task: %+v", got)
	}
	if got, err := s.ExtendLease(ctx, running.ID, "w1", time.Minute); err != nil || got.Status != store.TaskCancelling {
		t.Fatalf("worker does not see the cancel: %+v, %v", got, err)
	}
	if err := s.UpdateProgress(ctx, running.ID, "w1", 60); err != nil {
		t.Fatal(err)
	}
	if err := s.FailTask(ctx, running.ID, "w1", "cancelled"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetTask(ctx, o.ID, running.ID); got.Status != store.TaskCancelled || got.FinishedAt == nil {
		t.Fatalf("worker's finish of a cancelling task: %+v", got)
	}
	if err := s.CancelTask(ctx, o.ID, running.ID); err != nil {
		t.Fatalf("cancel of a cancelled task: %v", err)
	}

	done, _ := s.CreateTask(ctx, o.ID, "research", nil)
	s.ClaimTask(ctx, "w1", []string{"research"}, time.Minute)
	if err := s.CompleteTask(ctx, done.ID, "w1", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.CancelTask(ctx, o.ID, done.ID); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("cancel of a completed task: %v", err)
	}

	// A cancelling task whose worker died is claimed again, so a worker
	// can finish it as cancelled.
	orphan, _ := s.CreateTask(ctx, o.ID, "research", nil)
	s.ClaimTask(ctx, "w1", []string{"research"}, 30*time.Millisecond)
	s.CancelTask(ctx, o.ID, orphan.ID)
	time.Sleep(60 * time.Millisecond)
	c, ok, err := s.ClaimTask(ctx, "w2", []string{"research"}, time.Minute)
	if err != nil || !ok || c.ID != orphan.ID || c.Status != store.TaskCancelling {
		t.Fatalf("claim of an orphaned cancelling task = %+v, %v, %v", c, ok, err)
	}
}

// testTaskClaimConcurrent: workers claiming at once never take one task
// twice, and together take them all.
func testTaskClaimConcurrent(t *testing.T, s store.Store) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanTeam)
	const tasks, workers = 40, 8
	for i := 0; i < tasks; i++ {
		if _, err := s.CreateTask(ctx, o.ID, "match", []byte(fmt.Sprintf(`{"i":%d}`, i))); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	claimed := map[string]string{}
	var wg sync.WaitGroup
	errs := make(chan error, workers*tasks)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(worker string) {
			defer wg.Done()
			for {
				task, ok, err := s.ClaimTask(ctx, worker, []string{"match"}, time.Minute)
				if err != nil {
					errs <- err
					return
				}
				if !ok {
					return
				}
				mu.Lock()
				if prev, dup := claimed[task.ID]; dup {
					errs <- fmt.Errorf("task %s claimed by %s and %s", task.ID, prev, worker)
				}
				claimed[task.ID] = worker
				mu.Unlock()
				if err := s.CompleteTask(ctx, task.ID, worker, []byte(`{}`)); err != nil {
					errs <- err
				}
			}
		}(fmt.Sprintf("w%d", w))
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(claimed) != tasks {
		t.Fatalf("%d tasks claimed, want %d", len(claimed), tasks)
	}
}

// testTaskLeaseExpiry: a crashed worker's task is claimed again once its
// lease expires, and the stale owner can no longer touch it.
func testTaskLeaseExpiry(t *testing.T, s store.Store) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanTeam)
	task, _ := s.CreateTask(ctx, o.ID, "match", nil)
	if _, ok, err := s.ClaimTask(ctx, "dead", []string{"match"}, 50*time.Millisecond); !ok || err != nil {
		t.Fatalf("claim: %v %v", ok, err)
	}
	if _, ok, _ := s.ClaimTask(ctx, "alive", []string{"match"}, time.Minute); ok {
		t.Fatal("claimed a task under a live lease")
	}
	time.Sleep(100 * time.Millisecond)
	c, ok, err := s.ClaimTask(ctx, "alive", []string{"match"}, time.Minute)
	if err != nil || !ok || c.ID != task.ID || c.Attempts != 2 {
		t.Fatalf("re-claim after expiry = %+v, %v, %v", c, ok, err)
	}
	for name, err := range map[string]error{
		"progress": s.UpdateProgress(ctx, task.ID, "dead", 90),
		"extend":   func() error { _, err := s.ExtendLease(ctx, task.ID, "dead", time.Minute); return err }(),
		"complete": s.CompleteTask(ctx, task.ID, "dead", []byte(`{"stale":true}`)),
		"fail":     s.FailTask(ctx, task.ID, "dead", "stale"),
	} {
		if !errors.Is(err, store.ErrConflict) {
			t.Errorf("%s by the stale owner: %v", name, err)
		}
	}
	if err := s.CompleteTask(ctx, task.ID, "alive", []byte(`{"ok":true}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.CompleteTask(ctx, task.ID, "alive", []byte(`{"ok":false}`)); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("double completion: %v", err)
	}
	got, _ := s.GetTask(ctx, o.ID, task.ID)
	if got.Status != store.TaskCompleted || string(got.Result) != `{"ok":true}` || got.Attempts != 2 {
		t.Fatalf("after re-run: %+v", got)
	}
}
