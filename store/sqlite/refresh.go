package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/openprospect/prospectd/store"
)

// ensureSource creates source's row when missing.
func (s *Store) ensureSource(ctx context.Context, source string) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO refresh_sources (name, updated_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, source, now())
	return err
}

// AcquireRefreshLease implements store.Refreshes.
func (s *Store) AcquireRefreshLease(ctx context.Context, source, owner string, ttl time.Duration) (string, bool, error) {
	if err := s.ensureSource(ctx, source); err != nil {
		return "", false, fmt.Errorf("acquire refresh lease: %w", err)
	}
	t0 := now()
	res, err := s.w.ExecContext(ctx, `UPDATE refresh_sources SET lease_owner = ?, lease_until = ?, updated_at = ?
		WHERE name = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_until <= ?)`,
		owner, t0+ttl.Microseconds(), t0, source, owner, t0)
	if err != nil {
		return "", false, fmt.Errorf("acquire refresh lease: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return owner, true, nil
	}
	var holder sql.NullString
	if err := s.w.QueryRowContext(ctx, `SELECT lease_owner FROM refresh_sources WHERE name = ?`, source).Scan(&holder); err != nil {
		return "", false, fmt.Errorf("acquire refresh lease: %w", err)
	}
	return holder.String, false, nil
}

// RenewRefreshLease implements store.Refreshes.
func (s *Store) RenewRefreshLease(ctx context.Context, source, owner string, ttl time.Duration) error {
	t0 := now()
	res, err := s.w.ExecContext(ctx, `UPDATE refresh_sources SET lease_until = ?, updated_at = ?
		WHERE name = ? AND lease_owner = ? AND lease_until > ?`, t0+ttl.Microseconds(), t0, source, owner, t0)
	if err != nil {
		return fmt.Errorf("renew refresh lease: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("renew refresh lease of %s: %w", source, store.ErrConflict)
	}
	return nil
}

// ReleaseRefreshLease implements store.Refreshes.
func (s *Store) ReleaseRefreshLease(ctx context.Context, source, owner string) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE refresh_sources SET lease_owner = NULL, lease_until = NULL, updated_at = ?
		WHERE name = ? AND lease_owner = ?`, now(), source, owner); err != nil {
		return fmt.Errorf("release refresh lease: %w", err)
	}
	return nil
}

// ClaimRefreshFire implements store.Refreshes.
func (s *Store) ClaimRefreshFire(ctx context.Context, source string, at time.Time) (bool, error) {
	if err := s.ensureSource(ctx, source); err != nil {
		return false, fmt.Errorf("claim refresh firing: %w", err)
	}
	res, err := s.w.ExecContext(ctx, `UPDATE refresh_sources SET fired_at = ?, updated_at = ?
		WHERE name = ? AND (fired_at IS NULL OR fired_at < ?)`, at.UnixMicro(), now(), source, at.UnixMicro())
	if err != nil {
		return false, fmt.Errorf("claim refresh firing: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// RefreshCursor implements store.Refreshes.
func (s *Store) RefreshCursor(ctx context.Context, source string) ([]byte, error) {
	var c []byte
	err := s.r.QueryRowContext(ctx, `SELECT cursor FROM refresh_sources WHERE name = ?`, source).Scan(&c)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read refresh cursor: %w", err)
	}
	return c, nil
}

// SetRefreshCursor implements store.Refreshes.
func (s *Store) SetRefreshCursor(ctx context.Context, source, owner string, cursor []byte) error {
	t0 := now()
	res, err := s.w.ExecContext(ctx, `UPDATE refresh_sources SET cursor = ?, updated_at = ?
		WHERE name = ? AND lease_owner = ? AND lease_until > ?`, cursor, t0, source, owner, t0)
	if err != nil {
		return fmt.Errorf("save refresh cursor: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("save refresh cursor of %s: %w", source, store.ErrConflict)
	}
	return nil
}

const refreshRunColumns = `task_id, source, trigger, status, attempts, progress, counts, rejects, error, created_at, started_at, finished_at`

func microPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixMicro()
}

// PutRefreshRun implements store.Refreshes.
func (s *Store) PutRefreshRun(ctx context.Context, r store.RefreshRun) error {
	if r.CreatedAt.IsZero() {
		r.CreatedAt = ts(now())
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO refresh_runs (`+refreshRunColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (task_id) DO UPDATE SET status = excluded.status, attempts = excluded.attempts, progress = excluded.progress,
			counts = excluded.counts, rejects = excluded.rejects, error = excluded.error, started_at = excluded.started_at,
			finished_at = excluded.finished_at`,
		r.TaskID, r.Source, r.Trigger, r.Status, r.Attempts, r.Progress, r.Counts, r.Rejects, r.Error,
		r.CreatedAt.UnixMicro(), microPtr(r.StartedAt), microPtr(r.FinishedAt))
	if err != nil {
		return fmt.Errorf("put refresh run: %w", err)
	}
	return nil
}

func scanRefreshRun(r rowScanner) (store.RefreshRun, error) {
	var out store.RefreshRun
	var created int64
	var started, finished sql.NullInt64
	if err := r.Scan(&out.TaskID, &out.Source, &out.Trigger, &out.Status, &out.Attempts, &out.Progress, &out.Counts, &out.Rejects,
		&out.Error, &created, &started, &finished); err != nil {
		return out, err
	}
	out.CreatedAt, out.StartedAt, out.FinishedAt = ts(created), tsPtr(started), tsPtr(finished)
	return out, nil
}

// RefreshRunByTask implements store.Refreshes.
func (s *Store) RefreshRunByTask(ctx context.Context, taskID string) (store.RefreshRun, error) {
	r, err := scanRefreshRun(s.r.QueryRowContext(ctx, `SELECT `+refreshRunColumns+` FROM refresh_runs WHERE task_id = ?`, taskID))
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("refresh run %s: %w", taskID, store.ErrNotFound)
	}
	if err != nil {
		return r, fmt.Errorf("get refresh run: %w", err)
	}
	return r, nil
}

// RefreshRuns implements store.Refreshes.
func (s *Store) RefreshRuns(ctx context.Context, source string, limit int) ([]store.RefreshRun, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+refreshRunColumns+` FROM refresh_runs WHERE (? = '' OR source = ?)
		ORDER BY created_at DESC, rowid DESC LIMIT ?`, source, source, limit)
	if err != nil {
		return nil, fmt.Errorf("list refresh runs: %w", err)
	}
	defer rows.Close()
	var out []store.RefreshRun
	for rows.Next() {
		r, err := scanRefreshRun(rows)
		if err != nil {
			return nil, fmt.Errorf("list refresh runs: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
