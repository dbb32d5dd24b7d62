package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/openprospect/prospectd/store"
)

var _ store.EmailStore = (*Store)(nil)

const emailJobColumns = `id, org_id, batch_id, position, kind, ref, request, status, result, error, created_at, updated_at, finished_at`

func scanEmailJob(r rowScanner) (store.EmailJob, error) {
	var j store.EmailJob
	var created, updated int64
	var finished sql.NullInt64
	err := r.Scan(&j.ID, &j.OrgID, &j.BatchID, &j.Position, &j.Kind, &j.Ref, &j.Request, &j.Status, &j.Result, &j.Error, &created, &updated, &finished)
	j.CreatedAt, j.UpdatedAt, j.FinishedAt = ts(created), ts(updated), tsPtr(finished)
	return j, err
}

// CreateEmailBatch implements store.EmailStore. The count and the inserts
// share one IMMEDIATE transaction on the single write connection, so
// concurrent submissions cannot both pass the limit.
func (s *Store) CreateEmailBatch(ctx context.Context, b store.EmailBatch, jobs []store.EmailJob, limit int) (store.EmailBatch, []store.EmailJob, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return b, nil, fmt.Errorf("create email batch: %w", err)
	}
	defer tx.Rollback()
	if limit > 0 {
		var active int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM email_jobs WHERE org_id = ? AND status IN ('queued', 'processing')`, b.OrgID).Scan(&active); err != nil {
			return b, nil, fmt.Errorf("create email batch: count active: %w", err)
		}
		if active+len(jobs) > limit {
			return b, nil, fmt.Errorf("%d queued or running and %d new, limit %d: %w", active, len(jobs), limit, store.ErrOverLimit)
		}
	}
	at := now()
	b.ID, b.Total, b.CreatedAt = uuid.NewString(), len(jobs), ts(at)
	if _, err := tx.ExecContext(ctx, `INSERT INTO email_batches (id, org_id, task_id, source_query_id, round, total, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		b.ID, b.OrgID, b.TaskID, b.SourceQueryID, b.Round, b.Total, at); err != nil {
		if strings.Contains(err.Error(), "FOREIGN KEY") {
			return b, nil, fmt.Errorf("organization %s: %w", b.OrgID, store.ErrNotFound)
		}
		return b, nil, fmt.Errorf("create email batch: %w", err)
	}
	out := make([]store.EmailJob, len(jobs))
	for i, j := range jobs {
		j.ID, j.OrgID, j.BatchID, j.Position, j.Status = uuid.NewString(), b.OrgID, b.ID, i, store.EmailQueued
		j.CreatedAt, j.UpdatedAt = ts(at), ts(at)
		if _, err := tx.ExecContext(ctx, `INSERT INTO email_jobs (id, org_id, batch_id, position, kind, ref, request, status, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, j.ID, j.OrgID, j.BatchID, j.Position, j.Kind, j.Ref, j.Request, j.Status, at, at); err != nil {
			return b, nil, fmt.Errorf("create email job %d: %w", i, err)
		}
		out[i] = j
	}
	if err := tx.Commit(); err != nil {
		return b, nil, fmt.Errorf("create email batch: commit: %w", err)
	}
	return b, out, nil
}

// SetEmailBatchTask implements store.EmailStore.
func (s *Store) SetEmailBatchTask(ctx context.Context, batchID, taskID string) error {
	r, err := s.w.ExecContext(ctx, `UPDATE email_batches SET task_id = ? WHERE id = ?`, taskID, batchID)
	if err != nil {
		return fmt.Errorf("set email batch task: %w", err)
	}
	if n, _ := r.RowsAffected(); n == 0 {
		return fmt.Errorf("email batch %s: %w", batchID, store.ErrNotFound)
	}
	return nil
}

// GetEmailBatch implements store.EmailStore.
func (s *Store) GetEmailBatch(ctx context.Context, orgID, id string) (store.EmailBatch, error) {
	var b store.EmailBatch
	var created int64
	err := s.r.QueryRowContext(ctx, `SELECT id, org_id, task_id, source_query_id, round, total, created_at FROM email_batches WHERE id = ? AND org_id = ?`, id, orgID).
		Scan(&b.ID, &b.OrgID, &b.TaskID, &b.SourceQueryID, &b.Round, &b.Total, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return b, fmt.Errorf("email batch %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return b, fmt.Errorf("get email batch: %w", err)
	}
	b.CreatedAt = ts(created)
	return b, nil
}

// GetEmailJob implements store.EmailStore.
func (s *Store) GetEmailJob(ctx context.Context, orgID, id string) (store.EmailJob, error) {
	j, err := scanEmailJob(s.r.QueryRowContext(ctx, `SELECT `+emailJobColumns+` FROM email_jobs WHERE id = ? AND org_id = ?`, id, orgID))
	if errors.Is(err, sql.ErrNoRows) {
		return j, fmt.Errorf("email job %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return j, fmt.Errorf("get email job: %w", err)
	}
	return j, nil
}

// ListEmailJobs implements store.EmailStore.
func (s *Store) ListEmailJobs(ctx context.Context, batchID string) ([]store.EmailJob, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+emailJobColumns+` FROM email_jobs WHERE batch_id = ? ORDER BY position`, batchID)
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
	at := now()
	var finished any
	if status == store.EmailCompleted || status == store.EmailFailed {
		finished = at
	}
	r, err := s.w.ExecContext(ctx, `UPDATE email_jobs SET status = ?, result = ?, error = ?, updated_at = ?, finished_at = ?
		WHERE id = ? AND status IN ('queued', 'processing')`, status, result, errMsg, at, finished, id)
	if err != nil {
		return fmt.Errorf("update email job: %w", err)
	}
	if n, _ := r.RowsAffected(); n == 0 {
		var st string
		if err := s.w.QueryRowContext(ctx, `SELECT status FROM email_jobs WHERE id = ?`, id).Scan(&st); errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("email job %s: %w", id, store.ErrNotFound)
		}
		return fmt.Errorf("email job %s is %s: %w", id, st, store.ErrConflict)
	}
	return nil
}

// CountActiveEmailJobs implements store.EmailStore.
func (s *Store) CountActiveEmailJobs(ctx context.Context, orgID string) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM email_jobs WHERE org_id = ? AND status IN ('queued', 'processing')`, orgID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count email jobs: %w", err)
	}
	return n, nil
}

// GetEmailCache implements store.EmailStore.
func (s *Store) GetEmailCache(ctx context.Context, key string) (store.EmailCacheEntry, error) {
	e := store.EmailCacheEntry{Key: key}
	var at int64
	err := s.r.QueryRowContext(ctx, `SELECT result, checked_at FROM email_cache WHERE key = ?`, key).Scan(&e.Result, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return e, fmt.Errorf("email cache %s: %w", key, store.ErrNotFound)
	}
	if err != nil {
		return e, fmt.Errorf("get email cache: %w", err)
	}
	e.CheckedAt = ts(at)
	return e, nil
}

// PutEmailCache implements store.EmailStore.
func (s *Store) PutEmailCache(ctx context.Context, e store.EmailCacheEntry) error {
	if _, err := s.w.ExecContext(ctx, `INSERT INTO email_cache (key, result, checked_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET result = excluded.result, checked_at = excluded.checked_at`, e.Key, e.Result, e.CheckedAt.UnixMicro()); err != nil {
		return fmt.Errorf("put email cache: %w", err)
	}
	return nil
}

// DeleteEmailCache implements store.EmailStore.
func (s *Store) DeleteEmailCache(ctx context.Context, key string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM email_cache WHERE key = ?`, key); err != nil {
		return fmt.Errorf("delete email cache: %w", err)
	}
	return nil
}

// GetEmailDomain implements store.EmailStore.
func (s *Store) GetEmailDomain(ctx context.Context, domain string) (store.EmailDomain, error) {
	d := store.EmailDomain{Domain: domain}
	var at int64
	err := s.r.QueryRowContext(ctx, `SELECT catch_all, provider, checked_at FROM email_domains WHERE domain = ?`, domain).Scan(&d.CatchAll, &d.Provider, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return d, fmt.Errorf("email domain %s: %w", domain, store.ErrNotFound)
	}
	if err != nil {
		return d, fmt.Errorf("get email domain: %w", err)
	}
	d.CheckedAt = ts(at)
	return d, nil
}

// PutEmailDomain implements store.EmailStore.
func (s *Store) PutEmailDomain(ctx context.Context, d store.EmailDomain) error {
	if _, err := s.w.ExecContext(ctx, `INSERT INTO email_domains (domain, catch_all, provider, checked_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (domain) DO UPDATE SET catch_all = excluded.catch_all, provider = excluded.provider, checked_at = excluded.checked_at`,
		d.Domain, d.CatchAll, d.Provider, d.CheckedAt.UnixMicro()); err != nil {
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
	if _, err := s.w.ExecContext(ctx, `INSERT INTO email_pattern_feedback (domain, template, delivered, bounced, updated_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (domain, template) DO UPDATE SET delivered = delivered + excluded.delivered, bounced = bounced + excluded.bounced,
		updated_at = excluded.updated_at`, domain, template, d, b, now()); err != nil {
		return fmt.Errorf("record email pattern feedback: %w", err)
	}
	return nil
}

// ListEmailPatternFeedback implements store.EmailStore.
func (s *Store) ListEmailPatternFeedback(ctx context.Context, domain string) ([]store.EmailPatternFeedback, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT domain, template, delivered, bounced, updated_at FROM email_pattern_feedback WHERE domain = ? ORDER BY template`, domain)
	if err != nil {
		return nil, fmt.Errorf("list email pattern feedback: %w", err)
	}
	defer rows.Close()
	var out []store.EmailPatternFeedback
	for rows.Next() {
		var f store.EmailPatternFeedback
		var at int64
		if err := rows.Scan(&f.Domain, &f.Template, &f.Delivered, &f.Bounced, &at); err != nil {
			return nil, fmt.Errorf("list email pattern feedback: %w", err)
		}
		f.UpdatedAt = ts(at)
		out = append(out, f)
	}
	return out, rows.Err()
}
