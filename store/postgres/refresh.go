package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/openprospect/prospectd/store"
)

// Lease times of refresh sources come from the database clock (now()), as
// task leases do, so processes on machines with skewed clocks agree on
// when a lease expired.

func (s *Store) ensureSource(ctx context.Context, source string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO refresh_sources (name, updated_at) VALUES ($1, now()) ON CONFLICT (name) DO NOTHING`, source)
	return err
}

// AcquireRefreshLease implements store.Refreshes.
func (s *Store) AcquireRefreshLease(ctx context.Context, source, owner string, ttl time.Duration) (string, bool, error) {
	if err := s.ensureSource(ctx, source); err != nil {
		return "", false, fmt.Errorf("acquire refresh lease: %w", err)
	}
	tag, err := s.pool.Exec(ctx, `UPDATE refresh_sources SET lease_owner = $2,
			lease_until = now() + $3::float8 * interval '1 microsecond', updated_at = now()
		WHERE name = $1 AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until <= now())`,
		source, owner, float64(ttl.Microseconds()))
	if err != nil {
		return "", false, fmt.Errorf("acquire refresh lease: %w", err)
	}
	if tag.RowsAffected() == 1 {
		return owner, true, nil
	}
	var holder *string
	if err := s.pool.QueryRow(ctx, `SELECT lease_owner FROM refresh_sources WHERE name = $1`, source).Scan(&holder); err != nil {
		return "", false, fmt.Errorf("acquire refresh lease: %w", err)
	}
	if holder == nil {
		return "", false, nil
	}
	return *holder, false, nil
}

// RenewRefreshLease implements store.Refreshes.
func (s *Store) RenewRefreshLease(ctx context.Context, source, owner string, ttl time.Duration) error {
	tag, err := s.pool.Exec(ctx, `UPDATE refresh_sources SET lease_until = now() + $3::float8 * interval '1 microsecond', updated_at = now()
		WHERE name = $1 AND lease_owner = $2 AND lease_until > now()`, source, owner, float64(ttl.Microseconds()))
	if err != nil {
		return fmt.Errorf("renew refresh lease: %w", err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("renew refresh lease of %s: %w", source, store.ErrConflict)
	}
	return nil
}

// ReleaseRefreshLease implements store.Refreshes.
func (s *Store) ReleaseRefreshLease(ctx context.Context, source, owner string) error {
	if _, err := s.pool.Exec(ctx, `UPDATE refresh_sources SET lease_owner = NULL, lease_until = NULL, updated_at = now()
		WHERE name = $1 AND lease_owner = $2`, source, owner); err != nil {
		return fmt.Errorf("release refresh lease: %w", err)
	}
	return nil
}

// ClaimRefreshFire implements store.Refreshes.
func (s *Store) ClaimRefreshFire(ctx context.Context, source string, at time.Time) (bool, error) {
	if err := s.ensureSource(ctx, source); err != nil {
		return false, fmt.Errorf("claim refresh firing: %w", err)
	}
	at = at.UTC().Truncate(time.Microsecond)
	tag, err := s.pool.Exec(ctx, `UPDATE refresh_sources SET fired_at = $2, updated_at = now()
		WHERE name = $1 AND (fired_at IS NULL OR fired_at < $2)`, source, at)
	if err != nil {
		return false, fmt.Errorf("claim refresh firing: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// RefreshCursor implements store.Refreshes.
func (s *Store) RefreshCursor(ctx context.Context, source string) ([]byte, error) {
	var c []byte
	err := s.pool.QueryRow(ctx, `SELECT cursor FROM refresh_sources WHERE name = $1`, source).Scan(&c)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read refresh cursor: %w", err)
	}
	return c, nil
}

// SetRefreshCursor implements store.Refreshes.
func (s *Store) SetRefreshCursor(ctx context.Context, source, owner string, cursor []byte) error {
	tag, err := s.pool.Exec(ctx, `UPDATE refresh_sources SET cursor = $3, updated_at = now()
		WHERE name = $1 AND lease_owner = $2 AND lease_until > now()`, source, owner, cursor)
	if err != nil {
		return fmt.Errorf("save refresh cursor: %w", err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("save refresh cursor of %s: %w", source, store.ErrConflict)
	}
	return nil
}

const refreshRunColumns = `task_id, source, trigger, status, attempts, progress, counts, rejects, error, created_at, started_at, finished_at`

func utcMicro(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC().Truncate(time.Microsecond)
	return &u
}

// PutRefreshRun implements store.Refreshes.
func (s *Store) PutRefreshRun(ctx context.Context, r store.RefreshRun) error {
	if r.CreatedAt.IsZero() {
		r.CreatedAt = now()
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO refresh_runs (`+refreshRunColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		ON CONFLICT (task_id) DO UPDATE SET status = excluded.status, attempts = excluded.attempts, progress = excluded.progress,
			counts = excluded.counts, rejects = excluded.rejects, error = excluded.error, started_at = excluded.started_at,
			finished_at = excluded.finished_at`,
		r.TaskID, r.Source, r.Trigger, r.Status, r.Attempts, r.Progress, r.Counts, r.Rejects, r.Error,
		r.CreatedAt.UTC().Truncate(time.Microsecond), utcMicro(r.StartedAt), utcMicro(r.FinishedAt))
	if err != nil {
		return fmt.Errorf("put refresh run: %w", err)
	}
	return nil
}

func scanRefreshRun(r pgx.Row) (store.RefreshRun, error) {
	var out store.RefreshRun
	if err := r.Scan(&out.TaskID, &out.Source, &out.Trigger, &out.Status, &out.Attempts, &out.Progress, &out.Counts, &out.Rejects,
		&out.Error, &out.CreatedAt, &out.StartedAt, &out.FinishedAt); err != nil {
		return out, err
	}
	out.CreatedAt, out.StartedAt, out.FinishedAt = out.CreatedAt.UTC(), utcPtr(out.StartedAt), utcPtr(out.FinishedAt)
	return out, nil
}

// RefreshRunByTask implements store.Refreshes.
func (s *Store) RefreshRunByTask(ctx context.Context, taskID string) (store.RefreshRun, error) {
	r, err := scanRefreshRun(s.pool.QueryRow(ctx, `SELECT `+refreshRunColumns+` FROM refresh_runs WHERE task_id = $1`, taskID))
	if errors.Is(err, pgx.ErrNoRows) {
		return r, fmt.Errorf("refresh run %s: %w", taskID, store.ErrNotFound)
	}
	if err != nil {
		return r, fmt.Errorf("get refresh run: %w", err)
	}
	return r, nil
}

// RefreshRuns implements store.Refreshes.
func (s *Store) RefreshRuns(ctx context.Context, source string, limit int) ([]store.RefreshRun, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+refreshRunColumns+` FROM refresh_runs WHERE ($1 = '' OR source = $1)
		ORDER BY created_at DESC, task_id DESC LIMIT $2`, source, limit)
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
