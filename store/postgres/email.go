package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/openprospect/prospectd/store"
)

var _ store.EmailStore = (*Store)(nil)

const emailJobColumns = `id, org_id, batch_id, position, kind, ref, request, status, result, error, created_at, updated_at, finished_at`

func scanEmailJob(r pgx.Row) (store.EmailJob, error) {
	var j store.EmailJob
	err := r.Scan(&j.ID, &j.OrgID, &j.BatchID, &j.Position, &j.Kind, &j.Ref, &j.Request, &j.Status, &j.Result, &j.Error, &j.CreatedAt, &j.UpdatedAt, &j.FinishedAt)
	j.CreatedAt, j.UpdatedAt, j.FinishedAt = j.CreatedAt.UTC(), j.UpdatedAt.UTC(), utcPtr(j.FinishedAt)
	return j, err
}

// CreateEmailBatch implements store.EmailStore. The organization's row is
// locked first, so submissions of one organization — from any process —
// count and insert one after another and cannot both pass the limit.
func (s *Store) CreateEmailBatch(ctx context.Context, b store.EmailBatch, jobs []store.EmailJob, limit int) (store.EmailBatch, []store.EmailJob, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return b, nil, fmt.Errorf("create email batch: %w", err)
	}
	defer tx.Rollback(ctx)
	var id string
	if err := tx.QueryRow(ctx, `SELECT id FROM orgs WHERE id = $1 FOR UPDATE`, b.OrgID).Scan(&id); errors.Is(err, pgx.ErrNoRows) {
		return b, nil, fmt.Errorf("organization %s: %w", b.OrgID, store.ErrNotFound)
	} else if err != nil {
		return b, nil, fmt.Errorf("create email batch: lock organization: %w", err)
	}
	if limit > 0 {
		var active int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM email_jobs WHERE org_id = $1 AND status IN ('queued', 'processing')`, b.OrgID).Scan(&active); err != nil {
			return b, nil, fmt.Errorf("create email batch: count active: %w", err)
		}
		if active+len(jobs) > limit {
			return b, nil, fmt.Errorf("%d queued or running and %d new, limit %d: %w", active, len(jobs), limit, store.ErrOverLimit)
		}
	}
	at := now()
	b.ID, b.Total, b.CreatedAt = uuid.NewString(), len(jobs), at
	if _, err := tx.Exec(ctx, `INSERT INTO email_batches (id, org_id, task_id, source_query_id, round, total, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		b.ID, b.OrgID, b.TaskID, b.SourceQueryID, b.Round, b.Total, at); err != nil {
		return b, nil, fmt.Errorf("create email batch: %w", err)
	}
	out := make([]store.EmailJob, len(jobs))
	rows := make([][]any, len(jobs))
	for i, j := range jobs {
		j.ID, j.OrgID, j.BatchID, j.Position, j.Status = uuid.NewString(), b.OrgID, b.ID, i, store.EmailQueued
		j.CreatedAt, j.UpdatedAt = at, at
		rows[i] = []any{j.ID, j.OrgID, j.BatchID, j.Position, j.Kind, j.Ref, j.Request, j.Status, at, at}
		out[i] = j
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"email_jobs"},
		[]string{"id", "org_id", "batch_id", "position", "kind", "ref", "request", "status", "created_at", "updated_at"}, pgx.CopyFromRows(rows)); err != nil {
		return b, nil, fmt.Errorf("create email jobs: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return b, nil, fmt.Errorf("create email batch: commit: %w", err)
	}
	return b, out, nil
}

// SetEmailBatchTask implements store.EmailStore.
func (s *Store) SetEmailBatchTask(ctx context.Context, batchID, taskID string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE email_batches SET task_id = $1 WHERE id = $2`, taskID, batchID)
	if err != nil {
		return fmt.Errorf("set email batch task: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("email batch %s: %w", batchID, store.ErrNotFound)
	}
	return nil
}

// GetEmailBatch implements store.EmailStore.
func (s *Store) GetEmailBatch(ctx context.Context, orgID, id string) (store.EmailBatch, error) {
	var b store.EmailBatch
	err := s.pool.QueryRow(ctx, `SELECT id, org_id, task_id, source_query_id, round, total, created_at FROM email_batches WHERE id = $1 AND org_id = $2`, id, orgID).
		Scan(&b.ID, &b.OrgID, &b.TaskID, &b.SourceQueryID, &b.Round, &b.Total, &b.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return b, fmt.Errorf("email batch %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return b, fmt.Errorf("get email batch: %w", err)
	}
	b.CreatedAt = b.CreatedAt.UTC()
	return b, nil
}

// GetEmailJob implements store.EmailStore.
func (s *Store) GetEmailJob(ctx context.Context, orgID, id string) (store.EmailJob, error) {
	j, err := scanEmailJob(s.pool.QueryRow(ctx, `SELECT `+emailJobColumns+` FROM email_jobs WHERE id = $1 AND org_id = $2`, id, orgID))
	if errors.Is(err, pgx.ErrNoRows) {
		return j, fmt.Errorf("email job %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return j, fmt.Errorf("get email job: %w", err)
	}
	return j, nil
}

// ListEmailJobs implements store.EmailStore.
func (s *Store) ListEmailJobs(ctx context.Context, batchID string) ([]store.EmailJob, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+emailJobColumns+` FROM email_jobs WHERE batch_id = $1 ORDER BY position`, batchID)
	if err != nil {
		return nil, fmt.Errorf("list email jobs: %w", err)
	}
	defer rows.Close()
	var out []store.EmailJob
	for rows.Next() {
		j, err := scanEmailJob(rows)
		if err != nil {
			return nil, fmt.Errorf("list email jobs: %w", err)
		}
		out = append(out, j)
	}
	return out, rows.Err()
}

// UpdateEmailJob implements store.EmailStore.
func (s *Store) UpdateEmailJob(ctx context.Context, id, status string, result []byte, errMsg string) error {
	finished := status == store.EmailCompleted || status == store.EmailFailed
	tag, err := s.pool.Exec(ctx, `UPDATE email_jobs SET status = $1, result = $2, error = $3, updated_at = now(),
		finished_at = CASE WHEN $4 THEN now() END
		WHERE id = $5 AND status IN ('queued', 'processing')`, status, result, errMsg, finished, id)
	if err != nil {
		return fmt.Errorf("update email job: %w", err)
	}
	if tag.RowsAffected() == 0 {
		var st string
		if err := s.pool.QueryRow(ctx, `SELECT status FROM email_jobs WHERE id = $1`, id).Scan(&st); errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("email job %s: %w", id, store.ErrNotFound)
		}
		return fmt.Errorf("email job %s is %s: %w", id, st, store.ErrConflict)
	}
	return nil
}

// CountActiveEmailJobs implements store.EmailStore.
func (s *Store) CountActiveEmailJobs(ctx context.Context, orgID string) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM email_jobs WHERE org_id = $1 AND status IN ('queued', 'processing')`, orgID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count email jobs: %w", err)
	}
	return n, nil
}

// GetEmailCache implements store.EmailStore.
func (s *Store) GetEmailCache(ctx context.Context, key string) (store.EmailCacheEntry, error) {
	e := store.EmailCacheEntry{Key: key}
	err := s.pool.QueryRow(ctx, `SELECT result, checked_at FROM email_cache WHERE key = $1`, key).Scan(&e.Result, &e.CheckedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return e, fmt.Errorf("email cache %s: %w", key, store.ErrNotFound)
	}
	if err != nil {
		return e, fmt.Errorf("get email cache: %w", err)
	}
	e.CheckedAt = e.CheckedAt.UTC()
	return e, nil
}

// PutEmailCache implements store.EmailStore.
func (s *Store) PutEmailCache(ctx context.Context, e store.EmailCacheEntry) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO email_cache (key, result, checked_at) VALUES ($1, $2, $3)
		ON CONFLICT (key) DO UPDATE SET result = excluded.result, checked_at = excluded.checked_at`, e.Key, e.Result, e.CheckedAt.UTC()); err != nil {
		return fmt.Errorf("put email cache: %w", err)
	}
	return nil
}

// DeleteEmailCache implements store.EmailStore.
func (s *Store) DeleteEmailCache(ctx context.Context, key string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM email_cache WHERE key = $1`, key); err != nil {
		return fmt.Errorf("delete email cache: %w", err)
	}
	return nil
}

// GetEmailDomain implements store.EmailStore.
func (s *Store) GetEmailDomain(ctx context.Context, domain string) (store.EmailDomain, error) {
	d := store.EmailDomain{Domain: domain}
	err := s.pool.QueryRow(ctx, `SELECT catch_all, provider, checked_at FROM email_domains WHERE domain = $1`, domain).Scan(&d.CatchAll, &d.Provider, &d.CheckedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return d, fmt.Errorf("email domain %s: %w", domain, store.ErrNotFound)
	}
	if err != nil {
		return d, fmt.Errorf("get email domain: %w", err)
	}
	d.CheckedAt = d.CheckedAt.UTC()
	return d, nil
}

// PutEmailDomain implements store.EmailStore.
func (s *Store) PutEmailDomain(ctx context.Context, d store.EmailDomain) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO email_domains (domain, catch_all, provider, checked_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (domain) DO UPDATE SET catch_all = excluded.catch_all, provider = excluded.provider, checked_at = excluded.checked_at`,
		d.Domain, d.CatchAll, d.Provider, d.CheckedAt.UTC()); err != nil {
		return fmt.Errorf("put email domain: %w", err)
	}
	return nil
}

// RecordEmailPatternFeedback implements store.EmailStore.
func (s *Store) RecordEmailPatternFeedback(ctx context.Context, domain, template string, delivered bool) error {
	d, b := 0, 1
	if delivered {
		d, b = 1, 0
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO email_pattern_feedback (domain, template, delivered, bounced, updated_at) VALUES ($1, $2, $3, $4, now())
		ON CONFLICT (domain, template) DO UPDATE SET delivered = email_pattern_feedback.delivered + excluded.delivered,
		bounced = email_pattern_feedback.bounced + excluded.bounced, updated_at = now()`, domain, template, d, b); err != nil {
		return fmt.Errorf("record email pattern feedback: %w", err)
	}
	return nil
}

// ListEmailPatternFeedback implements store.EmailStore.
func (s *Store) ListEmailPatternFeedback(ctx context.Context, domain string) ([]store.EmailPatternFeedback, error) {
	rows, err := s.pool.Query(ctx, `SELECT domain, template, delivered, bounced, updated_at FROM email_pattern_feedback WHERE domain = $1 ORDER BY template`, domain)
	if err != nil {
		return nil, fmt.Errorf("list email pattern feedback: %w", err)
	}
	defer rows.Close()
	var out []store.EmailPatternFeedback
	for rows.Next() {
		var f store.EmailPatternFeedback
		if err := rows.Scan(&f.Domain, &f.Template, &f.Delivered, &f.Bounced, &f.UpdatedAt); err != nil {
			return nil, fmt.Errorf("list email pattern feedback: %w", err)
		}
		f.UpdatedAt = f.UpdatedAt.UTC()
		out = append(out, f)
	}
	return out, rows.Err()
}
