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

var _ store.ProspectingRuns = (*Store)(nil)

const runColumns = `id, org_id, user_id, idem_key, req_hash, status, rev, data, created_at, updated_at`

func scanRun(r pgx.Row) (store.ProspectingRun, error) {
	var x store.ProspectingRun
	var data []byte
	if err := r.Scan(&x.ID, &x.OrgID, &x.UserID, &x.IdemKey, &x.ReqHash, &x.Status, &x.Rev, &data, &x.CreatedAt, &x.UpdatedAt); err != nil {
		return x, err
	}
	x.Data = data
	x.CreatedAt, x.UpdatedAt = x.CreatedAt.UTC(), x.UpdatedAt.UTC()
	return x, nil
}

// CreateRun implements store.ProspectingRuns.
func (s *Store) CreateRun(ctx context.Context, r store.ProspectingRun) (store.ProspectingRun, bool, error) {
	if r.ID == "" {
		r.ID = uuid.NewString()
	}
	t := now()
	r.Rev, r.CreatedAt, r.UpdatedAt = 1, t, t
	tag, err := s.pool.Exec(ctx, `INSERT INTO prospecting_runs (`+runColumns+`) VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $8)
		ON CONFLICT (org_id, idem_key) DO NOTHING`,
		r.ID, r.OrgID, r.UserID, r.IdemKey, r.ReqHash, r.Status, []byte(r.Data), t)
	if pgCode(err) == foreignKeyViolation {
		return r, false, fmt.Errorf("organization %s or user %s: %w", r.OrgID, r.UserID, store.ErrNotFound)
	}
	if err != nil {
		return r, false, fmt.Errorf("create prospecting run: %w", err)
	}
	if tag.RowsAffected() == 1 {
		return r, true, nil
	}
	got, err := scanRun(s.pool.QueryRow(ctx, `SELECT `+runColumns+` FROM prospecting_runs WHERE org_id = $1 AND idem_key = $2`, r.OrgID, r.IdemKey))
	if err != nil {
		return r, false, fmt.Errorf("create prospecting run: read existing: %w", err)
	}
	return got, false, nil
}

// GetRun implements store.ProspectingRuns.
func (s *Store) GetRun(ctx context.Context, orgID, id string) (store.ProspectingRun, error) {
	if _, err := uuid.Parse(id); err != nil {
		return store.ProspectingRun{}, fmt.Errorf("run %s: %w", id, store.ErrRunNotFound)
	}
	r, err := scanRun(s.pool.QueryRow(ctx, `SELECT `+runColumns+` FROM prospecting_runs WHERE id = $1 AND org_id = $2`, id, orgID))
	if errors.Is(err, pgx.ErrNoRows) {
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
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return r, fmt.Errorf("update prospecting run: %w", err)
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, `UPDATE prospecting_runs SET status = $1, data = $2, rev = rev + 1, updated_at = $3 WHERE id = $4 AND org_id = $5 AND rev = $6`,
		r.Status, []byte(r.Data), t, r.ID, r.OrgID, r.Rev)
	if pgCode(err) == uniqueViolation {
		return r, fmt.Errorf("run %s: %w", r.ID, store.ErrRunBusy)
	}
	if err != nil {
		return r, fmt.Errorf("update prospecting run: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return r, fmt.Errorf("run %s at rev %d: %w", r.ID, r.Rev, store.ErrRunStale)
	}
	if err := queueEvents(ctx, tx, events); err != nil {
		return r, err
	}
	if err := tx.Commit(ctx); err != nil {
		return r, fmt.Errorf("update prospecting run: %w", err)
	}
	r.Rev++
	r.UpdatedAt = t
	return r, nil
}

// RunByKey implements store.ProspectingRuns.
func (s *Store) RunByKey(ctx context.Context, orgID, key string) (store.ProspectingRun, bool, error) {
	r, err := scanRun(s.pool.QueryRow(ctx, `SELECT `+runColumns+` FROM prospecting_runs WHERE org_id = $1 AND idem_key = $2`, orgID, key))
	if errors.Is(err, pgx.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("prospecting run by key: %w", err)
	}
	return r, true, nil
}

// ActiveRun implements store.ProspectingRuns.
func (s *Store) ActiveRun(ctx context.Context, orgID, userID string) (store.ProspectingRun, bool, error) {
	r, err := scanRun(s.pool.QueryRow(ctx, `SELECT `+runColumns+` FROM prospecting_runs WHERE org_id = $1 AND user_id = $2 AND status IN ('queued', 'running')`, orgID, userID))
	if errors.Is(err, pgx.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("active prospecting run: %w", err)
	}
	return r, true, nil
}

// FinishedRuns implements store.ProspectingRuns.
func (s *Store) FinishedRuns(ctx context.Context, orgID string, limit int) ([]store.ProspectingRun, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+runColumns+` FROM prospecting_runs WHERE org_id = $1 AND status = 'completed' ORDER BY updated_at DESC LIMIT $2`, orgID, limit)
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

// PutMessage implements store.ProspectingRuns. The run's row is locked so
// concurrent appends of one run take consecutive seqs.
func (s *Store) PutMessage(ctx context.Context, runID string, m store.RunMessage) (store.RunMessage, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return m, fmt.Errorf("put run message: %w", err)
	}
	defer tx.Rollback(ctx)
	var one int
	if err := tx.QueryRow(ctx, `SELECT 1 FROM prospecting_runs WHERE id = $1 FOR UPDATE`, runID).Scan(&one); errors.Is(err, pgx.ErrNoRows) {
		return m, fmt.Errorf("run %s: %w", runID, store.ErrRunNotFound)
	} else if err != nil {
		return m, fmt.Errorf("put run message: %w", err)
	}
	if m.Key != "" {
		var created time.Time
		err := tx.QueryRow(ctx, `SELECT seq, created_at FROM prospecting_messages WHERE run_id = $1 AND key = $2`, runID, m.Key).Scan(&m.Seq, &created)
		switch {
		case err == nil:
			if _, err := tx.Exec(ctx, `UPDATE prospecting_messages SET body = $1 WHERE run_id = $2 AND seq = $3`, []byte(m.Body), runID, m.Seq); err != nil {
				return m, fmt.Errorf("put run message: %w", err)
			}
			m.CreatedAt = created.UTC()
			return m, tx.Commit(ctx)
		case !errors.Is(err, pgx.ErrNoRows):
			return m, fmt.Errorf("put run message: %w", err)
		}
	}
	if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM prospecting_messages WHERE run_id = $1`, runID).Scan(&m.Seq); err != nil {
		return m, fmt.Errorf("put run message: %w", err)
	}
	t := now()
	if _, err := tx.Exec(ctx, `INSERT INTO prospecting_messages (run_id, seq, key, body, created_at) VALUES ($1, $2, $3, $4, $5)`,
		runID, m.Seq, m.Key, []byte(m.Body), t); err != nil {
		return m, fmt.Errorf("put run message: %w", err)
	}
	m.CreatedAt = t
	return m, tx.Commit(ctx)
}

// Messages implements store.ProspectingRuns.
func (s *Store) Messages(ctx context.Context, runID string, after int64) ([]store.RunMessage, error) {
	rows, err := s.pool.Query(ctx, `SELECT seq, key, body, created_at FROM prospecting_messages WHERE run_id = $1 AND seq > $2 ORDER BY seq`, runID, after)
	if err != nil {
		return nil, fmt.Errorf("run messages: %w", err)
	}
	defer rows.Close()
	out := []store.RunMessage{}
	for rows.Next() {
		var m store.RunMessage
		var body []byte
		if err := rows.Scan(&m.Seq, &m.Key, &body, &m.CreatedAt); err != nil {
			return nil, fmt.Errorf("run messages: %w", err)
		}
		m.Body, m.CreatedAt = body, m.CreatedAt.UTC()
		out = append(out, m)
	}
	return out, rows.Err()
}
