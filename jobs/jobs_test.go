package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

func openStore(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

type env struct {
	st  *sqlite.Store
	org store.Org
}

func newEnv(t *testing.T) env {
	st := openStore(t, filepath.Join(t.TempDir(), "state.db"))
	o, err := st.CreateOrg(context.Background(), "Acme", store.PlanTeam)
	if err != nil {
		t.Fatal(err)
	}
	return env{st, o}
}

func newRunner(st store.Store, workers int, lease time.Duration) *Runner {
	return &Runner{
		Store: st, Workers: workers, Lease: lease, Log: zerolog.Nop(),
		PollInterval: 20 * time.Millisecond, ProgressEvery: 20 * time.Millisecond, StopTimeout: 3 * time.Second,
	}
}

func start(t *testing.T, r *Runner) {
	t.Helper()
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Stop() })
}

// wait polls the task until cond holds.
func wait(t *testing.T, st store.Store, orgID, id string, what string, cond func(store.Task) bool) store.Task {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := st.GetTask(context.Background(), orgID, id)
		if err != nil {
			t.Fatal(err)
		}
		if cond(got) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("task never %s: %+v", what, got)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func finished(t store.Task) bool { return t.Finished() }

type sumInput struct{ N int }
type sumResult struct{ Sum, Of int }

func sum(ctx context.Context, run *Run) (any, error) {
	var in sumInput
	if err := run.Decode(&in); err != nil {
		return nil, err
	}
	s := 0
	for i := 1; i <= in.N; i++ {
		s += i
	}
	return sumResult{Sum: s, Of: in.N}, nil
}

func TestCompletesAndKeepsResult(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	st := openStore(t, path)
	o, _ := st.CreateOrg(ctx, "Acme", store.PlanTeam)
	r := newRunner(st, 2, time.Second)
	r.register("sum", sum)
	start(t, r)
	task, err := r.Submit(ctx, o.ID, "sum", sumInput{N: 100})
	if err != nil || task.Status != store.TaskInProgress {
		t.Fatalf("Submit = %+v, %v", task, err)
	}
	got := wait(t, st, o.ID, task.ID, "finished", finished)
	if got.Status != store.TaskCompleted || got.Progress != 100 || string(got.Result) != `{"Sum":5050,"Of":100}` || got.Attempts != 1 {
		t.Fatalf("finished task: %+v (result %s)", got, got.Result)
	}
	if _, err := r.Submit(ctx, o.ID, "nope", nil); err == nil {
		t.Fatal("submit of an unregistered kind accepted")
	}
	r.Stop()
	st.Close()
	st = openStore(t, path)
	if again, err := st.GetTask(ctx, o.ID, task.ID); err != nil || again.Status != store.TaskCompleted || string(again.Result) != string(got.Result) {
		t.Fatalf("after reopen: %+v, %v", again, err)
	}
}

func TestFailureAndPanic(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	r := newRunner(e.st, 1, time.Second)
	r.register("fail", func(ctx context.Context, run *Run) (any, error) { return nil, errors.New("provider down") })
	r.register("panic", func(ctx context.Context, run *Run) (any, error) {
		var m map[string]int
		m["x"]++ // nil map write
		return nil, nil
	})
	r.register("badresult", func(ctx context.Context, run *Run) (any, error) { return func() {}, nil })
	r.register("sum", sum)
	start(t, r)
	failed, _ := r.Submit(ctx, e.org.ID, "fail", nil)
	panicked, _ := r.Submit(ctx, e.org.ID, "panic", nil)
	bad, _ := r.Submit(ctx, e.org.ID, "badresult", nil)
	ok, _ := r.Submit(ctx, e.org.ID, "sum", sumInput{N: 3})

	if got := wait(t, e.st, e.org.ID, failed.ID, "finished", finished); got.Status != store.TaskFailed || got.Error != "provider down" || got.Result != nil {
		t.Fatalf("failed task: %+v", got)
	}
	if got := wait(t, e.st, e.org.ID, panicked.ID, "finished", finished); got.Status != store.TaskFailed || !strings.Contains(got.Error, "panicked") {
		t.Fatalf("panicked task: %+v", got)
	}
	if got := wait(t, e.st, e.org.ID, bad.ID, "finished", finished); got.Status != store.TaskFailed || !strings.Contains(got.Error, "result") {
		t.Fatalf("task with a non-JSON result: %+v", got)
	}
	// The worker survived the panic.
	if got := wait(t, e.st, e.org.ID, ok.ID, "finished", finished); got.Status != store.TaskCompleted {
		t.Fatalf("task after a panic: %+v", got)
	}
}

func TestProgressVisibleWhileRunning(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	release := make(chan struct{})
	r := newRunner(e.st, 1, time.Second)
	r.register("slow", func(ctx context.Context, run *Run) (any, error) {
		run.Progress(10)
		run.Progress(40)
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		run.Progress(90)
		return map[string]int{"done": 1}, nil
	})
	start(t, r)
	task, _ := r.Submit(ctx, e.org.ID, "slow", nil)
	wait(t, e.st, e.org.ID, task.ID, "at 40%", func(t store.Task) bool { return t.Progress == 40 && t.Status == store.TaskInProgress })
	close(release)
	if got := wait(t, e.st, e.org.ID, task.ID, "finished", finished); got.Status != store.TaskCompleted || got.Progress != 100 {
		t.Fatalf("after release: %+v", got)
	}
}

func TestCancel(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	started := make(chan struct{})
	var sawCancelled atomic.Bool
	r := newRunner(e.st, 1, time.Second)
	r.register("research", func(ctx context.Context, run *Run) (any, error) {
		close(started)
		<-ctx.Done()
		sawCancelled.Store(run.Cancelled())
		return nil, ctx.Err()
	})
	start(t, r)
	task, _ := r.Submit(ctx, e.org.ID, "research", nil)
	<-started
	if err := e.st.CancelTask(ctx, e.org.ID, task.ID); err != nil {
		t.Fatal(err)
	}
	if got := wait(t, e.st, e.org.ID, task.ID, "finished", finished); got.Status != store.TaskCancelled || got.FinishedAt == nil {
		t.Fatalf("cancelled task: %+v", got)
	}
	if !sawCancelled.Load() {
		t.Fatal("handler's Cancelled() was false")
	}
	// A task cancelled before any worker took it never runs.
	r.Stop()
	queued, _ := e.st.CreateTask(ctx, e.org.ID, "research", nil)
	if err := e.st.CancelTask(ctx, e.org.ID, queued.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.st.GetTask(ctx, e.org.ID, queued.ID); got.Status != store.TaskCancelled {
		t.Fatalf("queued task after cancel: %+v", got)
	}
}

func TestOrgIsolation(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	other, _ := e.st.CreateOrg(ctx, "Other", store.PlanTeam)
	r := newRunner(e.st, 1, time.Second)
	r.register("sum", sum)
	start(t, r)
	task, _ := r.Submit(ctx, e.org.ID, "sum", sumInput{N: 2})
	wait(t, e.st, e.org.ID, task.ID, "finished", finished)
	if _, err := e.st.GetTask(ctx, other.ID, task.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another org reads the task: %v", err)
	}
	if err := e.st.CancelTask(ctx, other.ID, task.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another org cancels the task: %v", err)
	}
}

// TestCrashRecovery: a runner killed mid-task leaves the task to its lease;
// a second runner (another "process" on the same store file) takes it once
// the lease expires and completes it, with its whole result, exactly once.
func TestCrashRecovery(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	st1 := openStore(t, path)
	o, _ := st1.CreateOrg(ctx, "Acme", store.PlanTeam)
	const lease = 300 * time.Millisecond

	started := make(chan struct{})
	r1 := newRunner(st1, 2, lease)
	r1.register("match", func(ctx context.Context, run *Run) (any, error) {
		close(started)
		run.Progress(30)
		<-ctx.Done() // killed before finishing
		return nil, ctx.Err()
	})
	if err := r1.Start(ctx); err != nil {
		t.Fatal(err)
	}
	task, err := r1.Submit(ctx, o.ID, "match", sumInput{N: 1000})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if !r1.Stop() {
		t.Fatal("first runner did not stop")
	}
	st1.Close()

	st2 := openStore(t, path)
	if got, _ := st2.GetTask(ctx, o.ID, task.ID); got.Status != store.TaskInProgress || got.Attempts != 1 {
		t.Fatalf("task after the crash: %+v", got)
	}
	var runs atomic.Int32
	r2 := newRunner(st2, 2, lease)
	r2.register("match", func(ctx context.Context, run *Run) (any, error) {
		runs.Add(1)
		return sum(ctx, run)
	})
	start(t, r2)
	got := wait(t, st2, o.ID, task.ID, "finished", finished)
	if got.Status != store.TaskCompleted || string(got.Result) != `{"Sum":500500,"Of":1000}` || got.Attempts != 2 {
		t.Fatalf("recovered task: %+v (result %s)", got, got.Result)
	}
	time.Sleep(2 * lease) // nothing runs it again
	if n := runs.Load(); n != 1 {
		t.Fatalf("second runner ran the task %d times", n)
	}
	if again, _ := st2.GetTask(ctx, o.ID, task.ID); again.Attempts != 2 || again.Status != store.TaskCompleted || !again.UpdatedAt.Equal(got.UpdatedAt) {
		t.Fatalf("task changed after completion: %+v", again)
	}
}

func TestConcurrencyBound(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	const workers, tasks = 2, 8
	var active, peak atomic.Int32
	r := newRunner(e.st, workers, time.Second)
	r.register("work", func(ctx context.Context, run *Run) (any, error) {
		n := active.Add(1)
		defer active.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(40 * time.Millisecond)
		return json.RawMessage(`{"ok":true}`), nil
	})
	start(t, r)
	var ids []string
	for i := 0; i < tasks; i++ {
		task, err := r.Submit(ctx, e.org.ID, "work", map[string]int{"i": i})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, task.ID)
	}
	for _, id := range ids {
		if got := wait(t, e.st, e.org.ID, id, "finished", finished); got.Status != store.TaskCompleted || string(got.Result) != `{"ok":true}` {
			t.Fatalf("task: %+v", got)
		}
	}
	if p := peak.Load(); p > workers || p < 1 {
		t.Fatalf("peak concurrency %d, bound %d", p, workers)
	}
}

// TestStopWaits: Stop returns once running handlers return, and a handler
// that ignores cancellation keeps its task (no failure recorded).
func TestStopWaits(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	started := make(chan struct{})
	var once sync.Once
	r := newRunner(e.st, 1, time.Second)
	r.StopTimeout = 100 * time.Millisecond
	release := make(chan struct{})
	r.register("stubborn", func(ctx context.Context, run *Run) (any, error) {
		once.Do(func() { close(started) })
		<-release
		return nil, fmt.Errorf("interrupted")
	})
	start(t, r)
	task, _ := r.Submit(ctx, e.org.ID, "stubborn", nil)
	<-started
	if r.Stop() {
		t.Fatal("Stop returned true with a handler still running")
	}
	close(release)
	time.Sleep(50 * time.Millisecond)
	if got, _ := e.st.GetTask(ctx, e.org.ID, task.ID); got.Status != store.TaskInProgress {
		t.Fatalf("task of a runner stopped mid-run: %+v", got)
	}
}

// TestLongTaskCompletes: a handler that runs longer than the finishing
// write's timeout still completes (the timeout starts at the write), once.
func TestLongTaskCompletes(t *testing.T) {
	defer func(d time.Duration) { finishTimeout = d }(finishTimeout)
	finishTimeout = 100 * time.Millisecond
	ctx := context.Background()
	e := newEnv(t)
	r := newRunner(e.st, 1, time.Second)
	var runs atomic.Int32
	r.register("slow", func(ctx context.Context, run *Run) (any, error) {
		runs.Add(1)
		time.Sleep(300 * time.Millisecond)
		return "done", nil
	})
	start(t, r)
	task, err := r.Submit(ctx, e.org.ID, "slow", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := wait(t, e.st, e.org.ID, task.ID, "finished", finished)
	if got.Status != store.TaskCompleted || string(got.Result) != `"done"` || runs.Load() != 1 {
		t.Fatalf("task %+v after %d runs", got, runs.Load())
	}
}
