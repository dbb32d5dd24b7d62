package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Sentinel errors of the prospecting runs' role.
var (
	// ErrRunNotFound: no run with that id in the organization.
	ErrRunNotFound = fmt.Errorf("prospecting run %w", ErrNotFound)
	// ErrRunStale: the run changed since it was read (a compare-and-set
	// lost).
	ErrRunStale = errors.New("prospecting run changed concurrently")
	// ErrRunBusy: the user already has a queued or running run.
	ErrRunBusy = errors.New("another prospecting run is queued or running")
)

// ProspectingRun is a managed prospecting run as stored: the columns the
// store indexes, and the rest of the run as one JSON document (Data) only
// package prospecting reads.
type ProspectingRun struct {
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

// RunMessage is one chat message of a run. Key names a message that may be
// written again (the plan, a checkpoint question): writing a key that
// exists replaces its body and keeps its seq.
type RunMessage struct {
	Seq       int64
	Key       string
	Body      json.RawMessage
	CreatedAt time.Time
}

// ProspectingRuns keep managed prospecting runs and their chat messages
// (package prospecting); store/sqlite and store/postgres implement it and
// store/storetest holds both to one suite.
type ProspectingRuns interface {
	// CreateRun stores r (Rev and times assigned, and ID when empty: a
	// caller may choose it, a UUID, to bind a sealed secret in r.Data to
	// the run)
	// unless the organization already has a run with r.IdemKey, which it
	// returns with created false.
	CreateRun(ctx context.Context, r ProspectingRun) (run ProspectingRun, created bool, err error)
	// RunByKey returns the organization's run started with an
	// idempotency key; ok false when there is none.
	RunByKey(ctx context.Context, orgID, key string) (run ProspectingRun, ok bool, err error)
	// GetRun returns an organization's run; ErrRunNotFound for an unknown id
	// or another organization's run.
	GetRun(ctx context.Context, orgID, id string) (ProspectingRun, error)
	// UpdateRun writes r's Status and Data if the stored Rev is still
	// r.Rev, and returns it with the next Rev. ErrRunStale when the run
	// changed; ErrRunBusy when r turns queued or running while the same user
	// has another queued or running run in the organization. The events
	// are queued for delivery in the same transaction: written with the
	// run, or not at all.
	UpdateRun(ctx context.Context, r ProspectingRun, events ...WebhookEvent) (ProspectingRun, error)
	// ActiveRun returns the user's queued or running run in the
	// organization; ok false when there is none.
	ActiveRun(ctx context.Context, orgID, userID string) (run ProspectingRun, ok bool, err error)
	// FinishedRuns returns up to limit of the organization's completed
	// runs, the most recently finished first (wave runs size their first
	// wave from them).
	FinishedRuns(ctx context.Context, orgID string, limit int) ([]ProspectingRun, error)
	// PutMessage appends a message with the next seq of the run, or, when
	// the run has a message with m.Key, replaces its body keeping its seq.
	PutMessage(ctx context.Context, runID string, m RunMessage) (RunMessage, error)
	// Messages returns a run's messages with seq > after, oldest first.
	Messages(ctx context.Context, runID string, after int64) ([]RunMessage, error)
}

// WebhookEvent is an event queued for delivery to a webhook as it is
// (saved.Event): the id receivers deduplicate on, where it goes, the
// secret that signs it and its body. UpdateRun queues a run's events in
// the transaction that records the run; saved.DeliveryQueue delivers
// them as it does monitor changes.
type WebhookEvent struct {
	// Source orders events: those of one source (a run) are delivered one
	// after another, in the order they were queued ("" for none).
	Source  string
	ID, URL string
	// Secret is the signing secret as stored: sealed (package secrets)
	// with EventSecretAAD, or plaintext when queued by a version before
	// sealing.
	Secret string
	Body   []byte
	At     time.Time
}
