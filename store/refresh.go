package store

import (
	"context"
	"time"
)

// Refresh run statuses (RefreshRun.Status).
const (
	RefreshQueued    = "queued"
	RefreshWaiting   = "waiting" // for another run of the source to release its lease
	RefreshRunning   = "running"
	RefreshCompleted = "completed"
	RefreshFailed    = "failed"
)

// RefreshRun is one run of a scheduled refresh source: the task that ran
// it (TaskID), how it was started and what it did so far. The refresh
// package writes it as the run goes; the counts are its JSON.
type RefreshRun struct {
	TaskID   string
	Source   string
	Trigger  string // "schedule" or "manual"
	Status   string
	Attempts int
	Progress int
	// Counts is the run's counts as JSON (read, changed, unchanged,
	// closed, rejected, dropped, not_modified), kept as given.
	Counts []byte
	// Rejects is the head of the run's rejects file (CSV: row, domain,
	// reason), capped by the refresh package.
	Rejects    []byte
	Error      string
	CreatedAt  time.Time
	StartedAt  *time.Time
	FinishedAt *time.Time
}

// Refreshes are the state of the scheduled refresh sources, shared by
// every server process on one store: a lease per source so one refresh of
// a source runs at a time, the claim of each scheduled firing so one
// process submits it, the cursor a run leaves for the next (validators,
// file fingerprints) and the runs' history.
type Refreshes interface {
	// AcquireRefreshLease leases source to owner until now plus ttl when
	// the lease is free, expired or already owner's. When another owner
	// holds it, ok is false and holder names that owner.
	AcquireRefreshLease(ctx context.Context, source, owner string, ttl time.Duration) (holder string, ok bool, err error)
	// RenewRefreshLease extends owner's lease to now plus ttl;
	// ErrConflict when owner no longer holds it.
	RenewRefreshLease(ctx context.Context, source, owner string, ttl time.Duration) error
	// ReleaseRefreshLease frees owner's lease (a no-op when not held).
	ReleaseRefreshLease(ctx context.Context, source, owner string) error
	// ClaimRefreshFire records that source's schedule fired at at; true
	// for the first caller of a firing (later ones, other processes
	// firing the same schedule, get false).
	ClaimRefreshFire(ctx context.Context, source string, at time.Time) (bool, error)
	// RefreshCursor returns the cursor the last completed run of source
	// left (nil before the first).
	RefreshCursor(ctx context.Context, source string) ([]byte, error)
	// SetRefreshCursor replaces source's cursor when owner holds its
	// lease; ErrConflict otherwise.
	SetRefreshCursor(ctx context.Context, source, owner string, cursor []byte) error
	// PutRefreshRun records a run, replacing the one of the same TaskID.
	PutRefreshRun(ctx context.Context, r RefreshRun) error
	// RefreshRunByTask returns a run; ErrNotFound when unknown.
	RefreshRunByTask(ctx context.Context, taskID string) (RefreshRun, error)
	// RefreshRuns returns the runs of source (every source when empty),
	// newest first, at most limit.
	RefreshRuns(ctx context.Context, source string, limit int) ([]RefreshRun, error)
}
