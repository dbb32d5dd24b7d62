package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/openprospect/prospectd/store"
)

// Task times come from the database's clock (now()), so processes on
// machines whose clocks disagree still agree on when a lease expires.

const taskColumns = `id, org_id, kind, status, progress, input, result, error, attempts, created_at, updated_at, finished_at`

func scanTask(r pgx.Row) (store.Task, error) {
	var t store.Task
	err := r.Scan(&t.ID, &t.OrgID, &t.Kind, &t.Status, &t.Progress, &t.Input, &t.Result, &t.Error, &t.Attempts, &t.CreatedAt, &t.UpdatedAt, &t.FinishedAt)
	t.CreatedAt, t.UpdatedAt, t.FinishedAt = t.CreatedAt.UTC(), t.UpdatedAt.UTC(), utcPtr(t.FinishedAt)
	return t, err
}

// CreateTask implements store.Store.
func (s *Store) CreateTask(ctx context.Context, orgID, kind string, input []byte) (store.Task, error) {
	if kind == "" {
		return store.Task{}, fmt.Errorf("create task: empty kind")
	}
	t, err := scanTask(s.pool.QueryRow(ctx, `INSERT INTO tasks (id, org_id, kind, status, input, created_at, updated_at)
		VALUES ($1, $2, $3, 'in_progress', $4, now(), now()) RETURNING `+taskColumns, uuid.NewString(), orgID, kind, input))
	if pgCode(err) == foreignKeyViolation {
		return store.Task{}, fmt.Errorf("organization %s: %w", orgID, store.ErrNotFound)
	}
	if err != nil {
		return store.Task{}, fmt.Errorf("create task: %w", err)
	}
	return t, nil
}

// GetTask implements store.Store.
func (s *Store) GetTask(ctx context.Context, orgID, id string) (store.Task, error) {
	t, err := scanTask(s.pool.QueryRow(ctx, `SELECT `+taskColumns+` FROM tasks WHERE id = $1 AND org_id = $2`, id, orgID))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Task{}, fmt.Errorf("task %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Task{}, fmt.Errorf("get task: %w", err)
	}
	return t, nil
}

// ClaimTask implements store.Store. The oldest candidate is locked with
// FOR UPDATE SKIP LOCKED and leased in the same statement: claims running
// at once, in this process or others, skip each other's rows instead of
// waiting or taking the same task, and the lock re-checks the row's
// latest version, so a task leased by a claim that just committed is not
// taken again.
func (s *Store) ClaimTask(ctx context.Context, worker string, kinds []string, lease time.Duration) (store.Task, bool, error) {
	if len(kinds) == 0 {
		return store.Task{}, false, nil
	}
	t, err := scanTask(s.pool.QueryRow(ctx, `
		UPDATE tasks SET lease_owner = $1, lease_until = now() + $2::float8 * interval '1 microsecond',
		       attempts = attempts + 1, updated_at = now()
		WHERE id = (
			SELECT id FROM tasks
			WHERE status IN ('in_progress', 'cancelling') AND kind = ANY($3)
			  AND (lease_until IS NULL OR lease_until <= now())
			ORDER BY seq LIMIT 1
			FOR UPDATE SKIP LOCKED)
		RETURNING `+taskColumns, worker, float64(lease.Microseconds()), kinds))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Task{}, false, nil
	}
	if err != nil {
		return store.Task{}, false, fmt.Errorf("claim task: %w", err)
	}
	return t, true, nil
}

// held explains why a statement on a task held by worker changed no row.
func (s *Store) held(ctx context.Context, id, worker string) error {
	var status string
	var owner *string
	err := s.pool.QueryRow(ctx, `SELECT status, lease_owner FROM tasks WHERE id = $1`, id).Scan(&status, &owner)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("task %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return err
	}
	o := ""
	if owner != nil {
		o = *owner
	}
	return fmt.Errorf("task %s is %s, leased to %q, not %q: %w", id, status, o, worker, store.ErrConflict)
}

// whileHeld is the condition of every statement by the lease owner ($1 the
// task, $2 the worker).
const whileHeld = ` WHERE id = $1 AND lease_owner = $2 AND status IN ('in_progress', 'cancelling')`

// ExtendLease implements store.Store.
func (s *Store) ExtendLease(ctx context.Context, id, worker string, lease time.Duration) (store.Task, error) {
	t, err := scanTask(s.pool.QueryRow(ctx, `UPDATE tasks SET lease_until = now() + $3::float8 * interval '1 microsecond', updated_at = now()`+
		whileHeld+` RETURNING `+taskColumns, id, worker, float64(lease.Microseconds())))
	if errors.Is(err, pgx.ErrNoRows) {
		err = s.held(ctx, id, worker)
	}
	if err != nil {
		return store.Task{}, fmt.Errorf("extend lease: %w", err)
	}
	return t, nil
}

func (s *Store) execHeld(ctx context.Context, op, id, worker, set string, args ...any) error {
	tag, err := s.pool.Exec(ctx, `UPDATE tasks SET `+set+whileHeld, append([]any{id, worker}, args...)...)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("%s: %w", op, s.held(ctx, id, worker))
	}
	return nil
}

// UpdateProgress implements store.Store.
func (s *Store) UpdateProgress(ctx context.Context, id, worker string, progress int) error {
	return s.execHeld(ctx, "update progress", id, worker, `progress = $3, updated_at = now()`, store.ClampProgress(progress))
}

// CompleteTask implements store.Store.
func (s *Store) CompleteTask(ctx context.Context, id, worker string, result []byte) error {
	return s.execHeld(ctx, "complete task", id, worker,
		`status = 'completed', progress = 100, result = $3, lease_owner = NULL, lease_until = NULL, updated_at = now(), finished_at = now()`,
		result)
}

// FailTask implements store.Store.
func (s *Store) FailTask(ctx context.Context, id, worker, msg string) error {
	return s.execHeld(ctx, "fail task", id, worker,
		`status = CASE status WHEN 'cancelling' THEN 'cancelled' ELSE 'failed' END, error = $3,
		 lease_owner = NULL, lease_until = NULL, updated_at = now(), finished_at = now()`,
		msg)
}

// CancelTask implements store.Store.
func (s *Store) CancelTask(ctx context.Context, orgID, id string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE tasks SET
		status = CASE WHEN attempts = 0 THEN 'cancelled' ELSE 'cancelling' END,
		finished_at = CASE WHEN attempts = 0 THEN now() END, updated_at = now()
		WHERE id = $1 AND org_id = $2 AND status = 'in_progress'`, id, orgID)
	if err != nil {
		return fmt.Errorf("cancel task: %w", err)
	}
	if tag.RowsAffected() > 0 {
		return nil
	}
	var status string
	err = s.pool.QueryRow(ctx, `SELECT status FROM tasks WHERE id = $1 AND org_id = $2`, id, orgID).Scan(&status)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("task %s: %w", id, store.ErrNotFound)
	case err != nil:
		return fmt.Errorf("cancel task: %w", err)
	case status == store.TaskCancelling || status == store.TaskCancelled:
		return nil
	}
	return fmt.Errorf("cancel task %s: it is %s: %w", id, status, store.ErrConflict)
}
