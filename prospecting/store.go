package prospecting

import (
	"errors"

	"github.com/openprospect/prospectd/store"
)

// Sentinel errors of the store and the service; callers branch on them.
var (
	// ErrNotFound: no run with that id in the organization (404).
	ErrNotFound = store.ErrRunNotFound
	// ErrStale: the run changed since it was read (a compare-and-set lost).
	ErrStale = store.ErrRunStale
	// ErrBusy: the actor already has a queued or running run (403).
	ErrBusy = store.ErrRunBusy
	// ErrConflict: the request conflicts with the run's state (409).
	ErrConflict = errors.New("conflict")
	// ErrInvalid: a field breaks a rule (422); wrapped by *FieldError.
	ErrInvalid = errors.New("invalid prospecting request")
)

// FieldError names the field and the rule a request breaks.
type FieldError struct {
	Field, Rule string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Rule }

// Unwrap lets errors.Is find ErrInvalid.
func (e *FieldError) Unwrap() error { return ErrInvalid }

// Run statuses. drafting, proposed, queued and running are the spec's;
// paused (waiting at a checkpoint), completed and failed are this
// service's choice for the states the spec leaves unnamed.
const (
	StatusDrafting  = "drafting"
	StatusProposed  = "proposed"
	StatusQueued    = "queued"
	StatusRunning   = "running"
	StatusPaused    = "paused"
	StatusCompleted = "completed"
	StatusFailed    = "failed"
)

// Record, Message and Store are the store's role (store.ProspectingRuns):
// it lives in store/ so the drivers need not import this package.
type (
	Record  = store.ProspectingRun
	Message = store.RunMessage
	Store   = store.ProspectingRuns
)
