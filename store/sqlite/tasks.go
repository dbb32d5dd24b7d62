package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/openprospect/prospectd/store"
)

const taskColumns = `id, org_id, kind, status, progress, input, result, error, attempts, created_at, updated_at, finished_at`

type rowScanner interface{ Scan(dest ...any) error }

func scanTask(r rowScanner) (store.Task, error) {
	var t store.Task
	var created, updated int64
	var finished sql.NullInt64
	err := r.Scan(&t.ID, &t.OrgID, &t.Kind, &t.Status, &t.Progress, &t.Input, &t.Result, &t.Error, &t.Attempts, &created, &updated, &finished)
	t.CreatedAt, t.UpdatedAt, t.FinishedAt = ts(created), ts(updated), tsPtr(finished)
	return t, err
}

// CreateTask implements store.Store.
func (s *Store) CreateTask(ctx context.Context, orgID, kind string, input []byte) (store.Task, error) {
	t := store.Task{ID: uuid.NewString(), OrgID: orgID, Kind: kind, Status: store.TaskInProgress, Input: input, CreatedAt: ts(now())}
	t.UpdatedAt = t.CreatedAt
	if kind == "" {
		return t, fmt.Errorf("create task: empty kind")
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO tasks (id, org_id, kind, status, input, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		t.ID, t.OrgID, t.Kind, t.Status, t.Input, t.CreatedAt.UnixMicro(), t.UpdatedAt.UnixMicro())
	if err != nil && strings.Contains(err.Error(), "FOREIGN KEY") {
		return t, fmt.Errorf("organization %s: %w", orgID, store.ErrNotFound)
	}
	if err != nil {
		return t, fmt.Errorf("create task: %w", err)
	}
	return t, nil
}

// GetTask implements store.Store.
func (s *Store) GetTask(ctx context.Context, orgID, id string) (store.Task, error) {
	t, err := scanTask(s.r.QueryRowContext(ctx, `SELECT `+taskColumns+` FROM tasks WHERE id = ? AND org_id = ?`, id, orgID))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Task{}, fmt.Errorf("task %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Task{}, fmt.Errorf("get task: %w", err)
	}
	return t, nil
}

// ClaimTask implements store.Store: the candidate is chosen and leased in
// one IMMEDIATE transaction on the single write connection, so no two
// claims (of this process or another on the same file) take one task.
func (s *Store) ClaimTask(ctx context.Context, worker string, kinds []string, lease time.Duration) (store.Task, bool, error) {
	if len(kinds) == 0 {
		return store.Task{}, false, nil
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return store.Task{}, false, fmt.Errorf("claim task: %w", err)
	}
	defer tx.Rollback()
	t0 := now()
	args := []any{t0}
	for _, k := range kinds {
		args = append(args, k)
	}
	var id string
	err = tx.QueryRowContext(ctx, `SELECT id FROM tasks
		WHERE status IN ('in_progress', 'cancelling') AND (lease_until IS NULL OR lease_until <= ?)
		  AND kind IN (?`+strings.Repeat(", ?", len(kinds)-1)+`)
		ORDER BY rowid LIMIT 1`, args...).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Task{}, false, nil
	}
	if err != nil {
		return store.Task{}, false, fmt.Errorf("claim task: %w", err)
	}
	t, err := scanTask(tx.QueryRowContext(ctx, `UPDATE tasks SET lease_owner = ?, lease_until = ?, attempts = attempts + 1, updated_at = ?
		WHERE id = ? RETURNING `+taskColumns, worker, t0+lease.Microseconds(), t0, id))
	if err != nil {
		return store.Task{}, false, fmt.Errorf("claim task: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return store.Task{}, false, fmt.Errorf("claim task: %w", err)
	}
	return t, true, nil
}

// held explains why a statement on a task held by worker changed no row.
func (s *Store) held(ctx context.Context, id, worker string) error {
	var status string
	var owner sql.NullString
	err := s.w.QueryRowContext(ctx, `SELECT status, lease_owner FROM tasks WHERE id = ?`, id).Scan(&status, &owner)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("task %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("task %s is %s, leased to %q, not %q: %w", id, status, owner.String, worker, store.ErrConflict)
}

// whileHeld is the condition of every statement by the lease owner.
const whileHeld = ` WHERE id = ? AND lease_owner = ? AND status IN ('in_progress', 'cancelling')`

// ExtendLease implements store.Store.
func (s *Store) ExtendLease(ctx context.Context, id, worker string, lease time.Duration) (store.Task, error) {
	t0 := now()
	t, err := scanTask(s.w.QueryRowContext(ctx, `UPDATE tasks SET lease_until = ?, updated_at = ?`+whileHeld+` RETURNING `+taskColumns,
		t0+lease.Microseconds(), t0, id, worker))
	if errors.Is(err, sql.ErrNoRows) {
		err = s.held(ctx, id, worker)
	}
	if err != nil {
		return store.Task{}, fmt.Errorf("extend lease: %w", err)
	}
	return t, nil
}

func (s *Store) execHeld(ctx context.Context, op, id, worker, set string, args ...any) error {
	res, err := s.w.ExecContext(ctx, `UPDATE tasks SET `+set+whileHeld, append(args, id, worker)...)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%s: %w", op, s.held(ctx, id, worker))
	}
	return nil
}

// UpdateProgress implements store.Store.
func (s *Store) UpdateProgress(ctx context.Context, id, worker string, progress int) error {
	return s.execHeld(ctx, "update progress", id, worker, `progress = ?, updated_at = ?`, store.ClampProgress(progress), now())
}

// CompleteTask implements store.Store.
func (s *Store) CompleteTask(ctx context.Context, id, worker string, result []byte) error {
	t0 := now()
	return s.execHeld(ctx, "complete task", id, worker,
		`status = 'completed', progress = 100, result = ?, lease_owner = NULL, lease_until = NULL, updated_at = ?, finished_at = ?`,
		result, t0, t0)
}

// FailTask implements store.Store.
func (s *Store) FailTask(ctx context.Context, id, worker, msg string) error {
	t0 := now()
	return s.execHeld(ctx, "fail task", id, worker,
		`status = CASE status WHEN 'cancelling' THEN 'cancelled' ELSE 'failed' END, error = ?,
		 lease_owner = NULL, lease_until = NULL, updated_at = ?, finished_at = ?`,
		msg, t0, t0)
}

// CancelTask implements store.Store.
func (s *Store) CancelTask(ctx context.Context, orgID, id string) error {
	t0 := now()
	res, err := s.w.ExecContext(ctx, `UPDATE tasks SET
		status = CASE WHEN attempts = 0 THEN 'cancelled' ELSE 'cancelling' END,
		finished_at = CASE WHEN attempts = 0 THEN ? END, updated_at = ?
		WHERE id = ? AND org_id = ? AND status = 'in_progress'`, t0, t0, id, orgID)
	if err != nil {
		return fmt.Errorf("cancel task: %w", err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return nil
	}
	var status string
	err = s.w.QueryRowContext(ctx, `SELECT status FROM tasks WHERE id = ? AND org_id = ?`, id, orgID).Scan(&status)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("task %s: %w", id, store.ErrNotFound)
	case err != nil:
		return fmt.Errorf("cancel task: %w", err)
	case status == store.TaskCancelling || status == store.TaskCancelled:
		return nil
	}
	return fmt.Errorf("cancel task %s: it is %s: %w", id, status, store.ErrConflict)
}
