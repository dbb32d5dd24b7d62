package store

import (
	"context"
	"errors"
	"time"
)

// Email job statuses (the spec's).
const (
	EmailQueued     = "queued"
	EmailProcessing = "processing"
	EmailCompleted  = "completed"
	EmailFailed     = "failed"
)

// ErrOverLimit: the request would take the organization over its limit of
// queued-or-running email lookups; nothing was recorded.
var ErrOverLimit = errors.New("over the queued-or-running email lookup limit")

// EmailBatch is a submitted group of email lookups (a single find is a
// batch of one), run as one task of the jobs runner.
type EmailBatch struct {
	ID, OrgID     string
	TaskID        string // the task running it; "" until submitted
	SourceQueryID string
	Round         string
	Total         int
	CreatedAt     time.Time
}

// EmailJob is one lookup.
type EmailJob struct {
	ID, OrgID, BatchID string
	Position           int    // index in the batch's request
	Kind               string // find or verify
	Ref                string // caller's row id (refs), "" when none
	Request            []byte // JSON
	Status             string // EmailQueued ... EmailFailed
	Result             []byte // JSON; an interim result while processing (greylisted)
	Error              string
	CreatedAt          time.Time
	UpdatedAt          time.Time
	FinishedAt         *time.Time
}

// Finished reports whether the job reached a terminal status.
func (j EmailJob) Finished() bool { return j.Status == EmailCompleted || j.Status == EmailFailed }

// EmailCacheEntry is a cached lookup result, shared by every organization
// (it describes a mailbox, not an account).
type EmailCacheEntry struct {
	Key       string
	Result    []byte
	CheckedAt time.Time
}

// EmailDomain is what is known about a domain's mail exchanger.
type EmailDomain struct {
	Domain    string
	CatchAll  bool
	Provider  string
	CheckedAt time.Time
}

// EmailPatternFeedback counts delivery reports for addresses a domain
// built with one template.
type EmailPatternFeedback struct {
	Domain, Template   string
	Delivered, Bounced int
	UpdatedAt          time.Time
}

// EmailStore is the state of email lookups: batches and their jobs, the
// result cache and the per-domain catch-all cache. Implemented by the
// SQLite and PostgreSQL stores; store/storetest.RunEmail is its suite.
type EmailStore interface {
	// CreateEmailBatch records a batch and its jobs (queued; ids, org and
	// times filled in) unless the organization's queued or processing jobs
	// plus the new ones would exceed limit (ErrOverLimit, nothing written;
	// limit <= 0 means no limit). The check and the insert are atomic
	// against concurrent submissions, in one process or several.
	CreateEmailBatch(ctx context.Context, b EmailBatch, jobs []EmailJob, limit int) (EmailBatch, []EmailJob, error)
	// SetEmailBatchTask records the task running a batch.
	SetEmailBatchTask(ctx context.Context, batchID, taskID string) error
	// GetEmailBatch returns an organization's batch; ErrNotFound for an
	// unknown id or another organization's.
	GetEmailBatch(ctx context.Context, orgID, id string) (EmailBatch, error)
	// GetEmailJob returns an organization's job; ErrNotFound as above.
	GetEmailJob(ctx context.Context, orgID, id string) (EmailJob, error)
	// ListEmailJobs returns a batch's jobs in request order.
	ListEmailJobs(ctx context.Context, batchID string) ([]EmailJob, error)
	// UpdateEmailJob sets a job's status, result and error. A finished job
	// never changes again: updating one is ErrConflict; ErrNotFound for an
	// unknown job.
	UpdateEmailJob(ctx context.Context, id, status string, result []byte, errMsg string) error
	// CountActiveEmailJobs counts an organization's queued or processing jobs.
	CountActiveEmailJobs(ctx context.Context, orgID string) (int, error)

	// GetEmailCache returns a cached result; ErrNotFound when none.
	GetEmailCache(ctx context.Context, key string) (EmailCacheEntry, error)
	// PutEmailCache stores (or replaces) a cached result.
	PutEmailCache(ctx context.Context, e EmailCacheEntry) error
	// DeleteEmailCache drops a cached result (no error when absent).
	DeleteEmailCache(ctx context.Context, key string) error
	// GetEmailDomain returns what is known of a domain; ErrNotFound when
	// nothing is.
	GetEmailDomain(ctx context.Context, domain string) (EmailDomain, error)
	// PutEmailDomain stores (or replaces) a domain's record.
	PutEmailDomain(ctx context.Context, d EmailDomain) error

	// RecordEmailPatternFeedback counts one delivered (or bounced) address
	// of the domain's template.
	RecordEmailPatternFeedback(ctx context.Context, domain, template string, delivered bool) error
	// ListEmailPatternFeedback returns a domain's counts, by template.
	ListEmailPatternFeedback(ctx context.Context, domain string) ([]EmailPatternFeedback, error)
}
