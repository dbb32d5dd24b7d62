// Package jobs runs persisted asynchronous tasks (segment, bulk match,
// contact bulk match, research) on a bounded pool of workers, and wires
// each task kind to its body (New, in tasks.go).
//
// A task body lives in its capability's package (query/ for segment and
// contact bulk match, namematch/ for company bulk match) as a Func: it
// gets the task, its decoded input and a progress reporter, and imports
// nothing of jobs. Only this package registers handlers (register is
// unexported), so api/ can submit tasks and report their status but never
// run one.
//
// Tasks live in the state store, so they survive a restart: a worker takes
// a task with ClaimTask, which leases it to that worker, renews the lease
// while the handler runs, and finishes the task as completed (with the
// handler's JSON result) or failed. A worker that dies (process killed,
// runner stopped mid-task) simply stops renewing; once the lease expires
// another worker — of this process after a restart, or of another process
// sharing the database — claims the task and runs it again. The store only
// lets the current lease owner finish a task, and only once, so a task
// completes at most once even when a slow worker and its successor race.
// Handlers must therefore be safe to run again from the start.
package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/store"
)

// Handler runs one task. Its context is cancelled when the task is being
// cancelled, when the worker lost its lease, or when the runner stops. The
// result is marshalled to JSON and kept as the task's result; an error
// fails the task with its message (or finishes it as cancelled when a
// cancel was requested). A panic fails the task.
type Handler func(ctx context.Context, t *Run) (result any, err error)

// Defaults of the Runner's optional fields.
const (
	DefaultWorkers       = 4
	DefaultLease         = 30 * time.Second
	DefaultPollInterval  = time.Second
	DefaultProgressEvery = 500 * time.Millisecond
	DefaultStopTimeout   = 10 * time.Second
	DefaultMaxAttempts   = 5
)

// Queue is the part of the state store the runner uses: tasks as
// organizations submit them and as workers lease them.
type Queue interface {
	store.Tasks
	store.TaskLeases
}

// Runner runs the registered handlers on tasks from the Store. New builds
// one with every task kind wired; Start it, and Stop (or cancel Start's
// context and then Stop) waits for the running handlers.
type Runner struct {
	Store   Queue
	Workers int           // handlers running at once; DefaultWorkers when 0
	Lease   time.Duration // how long a claim lasts unrenewed; DefaultLease when 0
	Log     zerolog.Logger

	// PollInterval is how often an idle worker looks for tasks submitted
	// by other processes (Submit wakes this process's workers at once).
	PollInterval time.Duration
	// ProgressEvery bounds progress writes to one per task per interval.
	ProgressEvery time.Duration
	// StopTimeout is how long Stop waits for running handlers; those still
	// running keep their tasks until the lease expires.
	StopTimeout time.Duration
	// MaxAttempts fails a task claimed more often than this (a task that
	// keeps killing its worker); DefaultMaxAttempts when 0, negative for
	// no limit.
	MaxAttempts int

	mu       sync.Mutex
	handlers map[string]Handler
	kinds    []string
	wake     chan struct{}
	id       string
	cancel   context.CancelFunc
	done     chan struct{}
	started  bool
}

// register sets the handler of a kind of task, before Start.
func (r *Runner) register(kind string, h Handler) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.handlers == nil {
		r.handlers = map[string]Handler{}
	}
	if _, ok := r.handlers[kind]; !ok {
		r.kinds = append(r.kinds, kind)
		sort.Strings(r.kinds)
	}
	r.handlers[kind] = h
}

func (r *Runner) handler(kind string) (Handler, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	h, ok := r.handlers[kind]
	return h, ok
}

func (r *Runner) registered() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.kinds...)
}

// Submit records a task of a registered kind with input marshalled to
// JSON, and wakes an idle worker of this runner.
func (r *Runner) Submit(ctx context.Context, orgID, kind string, input any) (store.Task, error) {
	if _, ok := r.handler(kind); !ok {
		return store.Task{}, fmt.Errorf("submit: no handler for task kind %q", kind)
	}
	body, err := json.Marshal(input)
	if err != nil {
		return store.Task{}, fmt.Errorf("submit %s: input: %w", kind, err)
	}
	t, err := r.Store.CreateTask(ctx, orgID, kind, body)
	if err != nil {
		return t, fmt.Errorf("submit %s: %w", kind, err)
	}
	r.poke()
	return t, nil
}

// poke wakes one idle worker, if any.
func (r *Runner) poke() {
	r.mu.Lock()
	wake := r.wake
	r.mu.Unlock()
	if wake != nil {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
}

func (r *Runner) workers() int {
	if r.Workers > 0 {
		return r.Workers
	}
	return DefaultWorkers
}

func (r *Runner) lease() time.Duration {
	if r.Lease > 0 {
		return r.Lease
	}
	return DefaultLease
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Start starts the workers; they run until ctx is cancelled or Stop.
func (r *Runner) Start(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started {
		return errors.New("jobs: runner already started")
	}
	if r.Store == nil {
		return errors.New("jobs: runner has no store")
	}
	r.started = true
	r.id = uuid.NewString()[:8]
	n := r.workers()
	r.wake = make(chan struct{}, n)
	ctx, r.cancel = context.WithCancel(ctx)
	r.done = make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(worker string) {
			defer wg.Done()
			r.work(ctx, worker)
		}(fmt.Sprintf("%s/%d", r.id, i))
	}
	go func() {
		wg.Wait()
		close(r.done)
	}()
	r.Log.Debug().Str("runner", r.id).Int("workers", n).Strs("kinds", r.kinds).Msg("task runner started")
	return nil
}

// Stop stops claiming tasks, cancels the running handlers' contexts and
// waits for them up to StopTimeout. It reports whether they all returned;
// the tasks of those that did not keep their leases until expiry, then
// run again elsewhere.
func (r *Runner) Stop() bool {
	r.mu.Lock()
	cancel, done := r.cancel, r.done
	r.mu.Unlock()
	if cancel == nil {
		return true
	}
	cancel()
	select {
	case <-done:
		return true
	case <-time.After(orDefault(r.StopTimeout, DefaultStopTimeout)):
		r.Log.Warn().Str("runner", r.id).Msg("task runner stopped with handlers still running; their tasks run again when the leases expire")
		return false
	}
}

// work is one worker's loop: claim, run, repeat; wait for a poke or the
// poll interval when there is nothing to do.
func (r *Runner) work(ctx context.Context, worker string) {
	poll := orDefault(r.PollInterval, DefaultPollInterval)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		default:
		}
		t, ok, err := r.Store.ClaimTask(ctx, worker, r.registered(), r.lease())
		if err != nil && ctx.Err() == nil {
			r.Log.Error().Err(err).Str("worker", worker).Msg("claim task")
		}
		if ok {
			r.run(ctx, worker, t)
			continue
		}
		timer.Reset(poll)
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		case <-timer.C:
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// Run is a running task as its handler sees it.
type Run struct {
	Task store.Task // as claimed; Task.Attempts counts this run

	progress  atomic.Int64 // -1 when unchanged since last written
	cancelled atomic.Bool
}

// Input returns the task's JSON input.
func (t *Run) Input() []byte { return t.Task.Input }

// Decode unmarshals the task's input into v.
func (t *Run) Decode(v any) error {
	if err := json.Unmarshal(t.Task.Input, v); err != nil {
		return fmt.Errorf("task %s: decode input: %w", t.Task.ID, err)
	}
	return nil
}

// Progress records the task's progress (0-100). It never blocks: the
// latest value is written by the worker at most once per ProgressEvery.
func (t *Run) Progress(pct int) { t.progress.Store(int64(store.ClampProgress(pct))) }

// Cancelled reports whether a cancel of the task was requested; the
// handler should stop soon and return an error.
func (t *Run) Cancelled() bool { return t.cancelled.Load() }

// errLeaseLost ends a handler whose worker no longer holds its task.
var errLeaseLost = errors.New("lease lost")

// finishTimeout bounds the write that completes or fails a task.
var finishTimeout = 30 * time.Second

// run runs one claimed task to its end, or until the runner stops.
func (r *Runner) run(ctx context.Context, worker string, t store.Task) {
	log := r.Log.With().Str("task", t.ID).Str("kind", t.Kind).Str("worker", worker).Int("attempt", t.Attempts).Logger()
	// Finishing writes go through even while the runner stops; their
	// deadline starts when they are made, not when the task started.
	finishing := func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	}
	fail := func(msg string) {
		fin, cancel := finishing()
		defer cancel()
		if err := r.Store.FailTask(fin, t.ID, worker, msg); err != nil {
			log.Error().Err(err).Msg("fail task")
		}
	}
	if t.Status == store.TaskCancelling {
		fail("cancelled")
		return
	}
	h, ok := r.handler(t.Kind)
	if !ok { // not claimable: kinds come from the handlers
		fail(fmt.Sprintf("no handler for task kind %q", t.Kind))
		return
	}
	maxAttempts := r.MaxAttempts
	if maxAttempts == 0 {
		maxAttempts = DefaultMaxAttempts
	}
	if maxAttempts > 0 && t.Attempts > maxAttempts {
		log.Error().Msg("task given up: too many attempts")
		fail(fmt.Sprintf("gave up after %d attempts", maxAttempts))
		return
	}

	hctx, hcancel := context.WithCancelCause(ctx)
	defer hcancel(nil)
	run := &Run{Task: t}
	run.progress.Store(-1)
	keeperDone := make(chan struct{})
	keeperStop := make(chan struct{})
	go func() {
		defer close(keeperDone)
		r.keep(hctx, hcancel, keeperStop, worker, run, log)
	}()

	started := time.Now()
	result, err := call(hctx, h, run, log)
	close(keeperStop)
	<-keeperDone
	lost := errors.Is(context.Cause(hctx), errLeaseLost)
	switch {
	case lost:
		log.Warn().Msg("task lease lost to another worker; result dropped")
		return
	case run.Cancelled():
		log.Info().Msg("task cancelled")
		fail("cancelled")
		return
	case err != nil && ctx.Err() != nil:
		// The runner is stopping: leave the task to be claimed again when
		// its lease expires.
		log.Info().Err(err).Msg("task interrupted by shutdown; it runs again after its lease expires")
		return
	case err != nil:
		log.Warn().Err(err).Dur("took", time.Since(started)).Msg("task failed")
		fail(err.Error())
		return
	}
	body, err := json.Marshal(result)
	if err != nil {
		log.Error().Err(err).Msg("task result not JSON")
		fail(fmt.Sprintf("result: %v", err))
		return
	}
	fin, cancel := finishing()
	defer cancel()
	if err := r.Store.CompleteTask(fin, t.ID, worker, body); err != nil {
		log.Error().Err(err).Msg("complete task")
		return
	}
	log.Debug().Dur("took", time.Since(started)).Msg("task completed")
}

// call runs the handler, turning a panic into an error.
func call(ctx context.Context, h Handler, run *Run, log zerolog.Logger) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			log.Error().Str("panic", fmt.Sprint(p)).Bytes("stack", debug.Stack()).Msg("task handler panicked")
			result, err = nil, fmt.Errorf("internal error: handler panicked: %v", p)
		}
	}()
	return h(ctx, run)
}

// keep renews the lease and writes progress while the handler runs; it
// cancels the handler when the task is being cancelled or the lease is
// lost. Every tick (at most ProgressEvery apart) it writes changed
// progress and reads the task's status, so a cancel is seen promptly; the
// lease is renewed every third of its length.
func (r *Runner) keep(ctx context.Context, cancel context.CancelCauseFunc, stop <-chan struct{}, worker string, run *Run, log zerolog.Logger) {
	lease := r.lease()
	renewEvery := lease / 3
	ticker := time.NewTicker(min(renewEvery, orDefault(r.ProgressEvery, DefaultProgressEvery)))
	defer ticker.Stop()
	lastRenew := time.Now()
	id := run.Task.ID
	// held handles the answer of a write only the lease owner may make.
	held := func(err error, what string) bool {
		switch {
		case errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound):
			cancel(errLeaseLost)
			return false
		case err != nil && ctx.Err() == nil:
			log.Warn().Err(err).Msg(what)
		}
		return true
	}
	for {
		select {
		case <-stop:
			return
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		if p := run.progress.Swap(-1); p >= 0 {
			if !held(r.Store.UpdateProgress(ctx, id, worker, int(p)), "write task progress") {
				return
			}
		}
		var status string
		if time.Since(lastRenew) >= renewEvery {
			t, err := r.Store.ExtendLease(ctx, id, worker, lease)
			if !held(err, "renew task lease") {
				return
			}
			if err == nil {
				lastRenew, status = time.Now(), t.Status
			}
		} else if t, err := r.Store.GetTask(ctx, run.Task.OrgID, id); err == nil {
			status = t.Status
		}
		if status == store.TaskCancelling && !run.cancelled.Swap(true) {
			cancel(context.Canceled)
		}
	}
}
