package prospecting

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Sentinel errors of the store and the service; callers branch on them.
var (
	// ErrNotFound: no run with that id in the organization (404).
	ErrNotFound = errors.New("prospecting run not found")
	// ErrStale: the run changed since it was read (a compare-and-set lost).
	ErrStale = errors.New("prospecting run changed concurrently")
	// ErrBusy: the actor already has a queued or running run (403).
	ErrBusy = errors.New("another prospecting run is queued or running")
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

// Record is a run as stored: the columns the store indexes, and the rest
// of the run as one JSON document (Data) only this package reads.
type Record struct {
	ID, OrgID, UserID string
	// IdemKey is the start request's Idempotency-Key; ReqHash the hash of
	// its canonical body.
	IdemKey, ReqHash string
	Status           string
	// Rev counts updates; UpdateRun succeeds only on the current one.
	Rev       int64
	Data      json.RawMessage
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Message is one chat message of a run. Key names a message that may be
// written again (the plan, a checkpoint question): writing a key that
// exists replaces its body and keeps its seq.
type Message struct {
	Seq       int64
	Key       string
	Body      json.RawMessage
	CreatedAt time.Time
}

// Store is the state the prospecting runs need; store/sqlite and
// store/postgres implement it and store/storetest holds both to one suite.
type Store interface {
	// CreateRun stores r (ID, Rev and times assigned) unless the
	// organization already has a run with r.IdemKey, which it returns with
	// created false.
	CreateRun(ctx context.Context, r Record) (run Record, created bool, err error)
	// RunByKey returns the organization's run started with an
	// idempotency key; ok false when there is none.
	RunByKey(ctx context.Context, orgID, key string) (run Record, ok bool, err error)
	// GetRun returns an organization's run; ErrNotFound for an unknown id
	// or another organization's run.
	GetRun(ctx context.Context, orgID, id string) (Record, error)
	// UpdateRun writes r's Status and Data if the stored Rev is still
	// r.Rev, and returns it with the next Rev. ErrStale when the run
	// changed; ErrBusy when r turns queued or running while the same user
	// has another queued or running run in the organization.
	UpdateRun(ctx context.Context, r Record) (Record, error)
	// ActiveRun returns the user's queued or running run in the
	// organization; ok false when there is none.
	ActiveRun(ctx context.Context, orgID, userID string) (run Record, ok bool, err error)
	// PutMessage appends a message with the next seq of the run, or, when
	// the run has a message with m.Key, replaces its body keeping its seq.
	PutMessage(ctx context.Context, runID string, m Message) (Message, error)
	// Messages returns a run's messages with seq > after, oldest first.
	Messages(ctx context.Context, runID string, after int64) ([]Message, error)
}
