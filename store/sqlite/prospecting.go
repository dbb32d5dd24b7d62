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

var _ store.ProspectingRuns = (*Store)(nil)

const runColumns = `id, org_id, user_id, idem_key, req_hash, status, rev, data, created_at, updated_at`

func scanRun(r rowScanner) (store.ProspectingRun, error) {
	var x store.ProspectingRun
	var data []byte
	var created, updated int64
	if err := r.Scan(&x.ID, &x.OrgID, &x.UserID, &x.IdemKey, &x.ReqHash, &x.Status, &x.Rev, &data, &created, &updated); err != nil {
		return x, err
	}
	x.Data, x.CreatedAt, x.UpdatedAt = data, ts(created), ts(updated)
	return x, nil
}

// CreateRun implements store.ProspectingRuns.
func (s *Store) CreateRun(ctx context.Context, r store.ProspectingRun) (store.ProspectingRun, bool, error) {
	if r.ID == "" {
		r.ID = uuid.NewString()
	}
	t := now()
	r.Rev, r.CreatedAt, r.UpdatedAt = 1, ts(t), ts(t)
	res, err := s.w.ExecContext(ctx, `INSERT INTO prospecting_runs (`+runColumns+`) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)
		ON CONFLICT (org_id, idem_key) DO NOTHING`,
		r.ID, r.OrgID, r.UserID, r.IdemKey, r.ReqHash, r.Status, []byte(r.Data), t, t)
	if err != nil {
		if isForeignKey(err) {
			return r, false, fmt.Errorf("organization %s or user %s: %w", r.OrgID, r.UserID, store.ErrNotFound)
		}
		return r, false, fmt.Errorf("create prospecting run: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return r, true, nil
	}
	got, err := scanRun(s.w.QueryRowContext(ctx, `SELECT `+runColumns+` FROM prospecting_runs WHERE org_id = ? AND idem_key = ?`, r.OrgID, r.IdemKey))
	if err != nil {
		return r, false, fmt.Errorf("create prospecting run: read existing: %w", err)
	}
	return got, false, nil
}

// GetRun implements store.ProspectingRuns.
func (s *Store) GetRun(ctx context.Context, orgID, id string) (store.ProspectingRun, error) {
	r, err := scanRun(s.r.QueryRowContext(ctx, `SELECT `+runColumns+` FROM prospecting_runs WHERE id = ? AND org_id = ?`, id, orgID))
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("run %s: %w", id, store.ErrRunNotFound)
	}
	if err != nil {
		return r, fmt.Errorf("get prospecting run: %w", err)
	}
	return r, nil
}

// UpdateRun implements store.ProspectingRuns.
func (s *Store) UpdateRun(ctx context.Context, r store.ProspectingRun, events ...store.WebhookEvent) (store.ProspectingRun, error) {
	t := now()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return r, fmt.Errorf("update prospecting run: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE prospecting_runs SET status = ?, data = ?, rev = rev + 1, updated_at = ? WHERE id = ? AND org_id = ? AND rev = ?`,
		r.Status, []byte(r.Data), t, r.ID, r.OrgID, r.Rev)
	if isUnique(err) {
		return r, fmt.Errorf("run %s: %w", r.ID, store.ErrRunBusy)
	}
	if err != nil {
		return r, fmt.Errorf("update prospecting run: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return r, fmt.Errorf("run %s at rev %d: %w", r.ID, r.Rev, store.ErrRunStale)
	}
	if err := queueEvents(ctx, tx, events); err != nil {
		return r, err
	}
	if err := tx.Commit(); err != nil {
		return r, fmt.Errorf("update prospecting run: %w", err)
	}
	r.Rev++
	r.UpdatedAt = ts(t)
	return r, nil
}

// RunByKey implements store.ProspectingRuns.
func (s *Store) RunByKey(ctx context.Context, orgID, key string) (store.ProspectingRun, bool, error) {
	r, err := scanRun(s.r.QueryRowContext(ctx, `SELECT `+runColumns+` FROM prospecting_runs WHERE org_id = ? AND idem_key = ?`, orgID, key))
	if errors.Is(err, sql.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("prospecting run by key: %w", err)
	}
	return r, true, nil
}

// ActiveRun implements store.ProspectingRuns.
func (s *Store) ActiveRun(ctx context.Context, orgID, userID string) (store.ProspectingRun, bool, error) {
	r, err := scanRun(s.r.QueryRowContext(ctx, `SELECT `+runColumns+` FROM prospecting_runs WHERE org_id = ? AND user_id = ? AND status IN ('queued', 'running')`, orgID, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("active prospecting run: %w", err)
	}
	return r, true, nil
}

// FinishedRuns implements store.ProspectingRuns.
func (s *Store) FinishedRuns(ctx context.Context, orgID string, limit int) ([]store.ProspectingRun, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+runColumns+` FROM prospecting_runs WHERE org_id = ? AND status = 'completed' ORDER BY updated_at DESC LIMIT ?`, orgID, limit)
	if err != nil {
		return nil, fmt.Errorf("finished prospecting runs: %w", err)
	}
	defer rows.Close()
	var out []store.ProspectingRun
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, fmt.Errorf("finished prospecting runs: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// PutMessage implements store.ProspectingRuns.
func (s *Store) PutMessage(ctx context.Context, runID string, m store.RunMessage) (store.RunMessage, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return m, fmt.Errorf("put run message: %w", err)
	}
	defer tx.Rollback()
	if m.Key != "" {
		var created int64
		err := tx.QueryRowContext(ctx, `SELECT seq, created_at FROM prospecting_messages WHERE run_id = ? AND key = ?`, runID, m.Key).Scan(&m.Seq, &created)
		switch {
		case err == nil:
			if _, err := tx.ExecContext(ctx, `UPDATE prospecting_messages SET body = ? WHERE run_id = ? AND seq = ?`, []byte(m.Body), runID, m.Seq); err != nil {
				return m, fmt.Errorf("put run message: %w", err)
			}
			m.CreatedAt = ts(created)
			return m, tx.Commit()
		case !errors.Is(err, sql.ErrNoRows):
			return m, fmt.Errorf("put run message: %w", err)
		}
	}
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM prospecting_messages WHERE run_id = ?`, runID).Scan(&m.Seq); err != nil {
		return m, fmt.Errorf("put run message: %w", err)
	}
	t := now()
	if _, err := tx.ExecContext(ctx, `INSERT INTO prospecting_messages (run_id, seq, key, body, created_at) VALUES (?, ?, ?, ?, ?)`,
		runID, m.Seq, m.Key, []byte(m.Body), t); err != nil {
		if isForeignKey(err) {
			return m, fmt.Errorf("run %s: %w", runID, store.ErrRunNotFound)
		}
		return m, fmt.Errorf("put run message: %w", err)
	}
	m.CreatedAt = ts(t)
	return m, tx.Commit()
}

// Messages implements store.ProspectingRuns.
func (s *Store) Messages(ctx context.Context, runID string, after int64) ([]store.RunMessage, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT seq, key, body, created_at FROM prospecting_messages WHERE run_id = ? AND seq > ? ORDER BY seq`, runID, after)
	if err != nil {
		return nil, fmt.Errorf("run messages: %w", err)
	}
	defer rows.Close()
	out := []store.RunMessage{}
	for rows.Next() {
		var m store.RunMessage
		var body []byte
		var created int64
		if err := rows.Scan(&m.Seq, &m.Key, &body, &created); err != nil {
			return nil, fmt.Errorf("run messages: %w", err)
		}
		m.Body, m.CreatedAt = body, ts(created)
		out = append(out, m)
	}
	return out, rows.Err()
}

func isForeignKey(err error) bool {
	return err != nil && strings.Contains(err.Error(), "FOREIGN KEY")
}
