package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/saved"
)

var _ crm.Store = (*Store)(nil)

func micros(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMicro()
}

func tsOrZero(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return ts(v)
}

// CreateCRMState implements crm.Store.
func (s *Store) CreateCRMState(ctx context.Context, st crm.State) error {
	// Expired states are swept on the way, so the table stays small.
	if _, err := s.w.ExecContext(ctx, `DELETE FROM crm_oauth_states WHERE expires_at < ?`, now()); err != nil {
		return fmt.Errorf("create crm state: %w", err)
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO crm_oauth_states (state_hash, org_id, user_id, provider, expires_at) VALUES (?, ?, ?, ?, ?)`,
		st.Hash, st.OrgID, st.UserID, st.Provider, micros(st.ExpiresAt))
	if err != nil {
		return fmt.Errorf("create crm state: %w", err)
	}
	return nil
}

// TakeCRMState implements crm.Store.
func (s *Store) TakeCRMState(ctx context.Context, hash string, at time.Time) (crm.State, error) {
	var st crm.State
	var exp int64
	err := s.w.QueryRowContext(ctx, `DELETE FROM crm_oauth_states WHERE state_hash = ? RETURNING state_hash, org_id, user_id, provider, expires_at`, hash).
		Scan(&st.Hash, &st.OrgID, &st.UserID, &st.Provider, &exp)
	if errors.Is(err, sql.ErrNoRows) {
		return st, crm.ErrBadState
	}
	if err != nil {
		return st, fmt.Errorf("take crm state: %w", err)
	}
	st.ExpiresAt = ts(exp)
	if !at.Before(st.ExpiresAt) {
		return crm.State{}, crm.ErrBadState
	}
	return st, nil
}

// PutCRMConnection implements crm.Store.
func (s *Store) PutCRMConnection(ctx context.Context, c crm.Connection) error {
	t := now()
	_, err := s.w.ExecContext(ctx, `INSERT INTO crm_connections (org_id, provider, user_id, status, status_reason, sealed_access, sealed_refresh,
		token_expiry, api_base, connected_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (org_id, provider) DO UPDATE SET user_id = excluded.user_id, status = excluded.status, status_reason = excluded.status_reason,
		sealed_access = excluded.sealed_access, sealed_refresh = excluded.sealed_refresh, token_expiry = excluded.token_expiry,
		api_base = excluded.api_base, connected_at = excluded.connected_at, updated_at = excluded.updated_at`,
		c.OrgID, c.Provider, c.UserID, c.Status, c.StatusReason, c.SealedAccess, c.SealedRefresh, micros(c.Expiry), c.APIBase, micros(c.ConnectedAt), t)
	if err != nil {
		return fmt.Errorf("put crm connection: %w", err)
	}
	return nil
}

const crmColumns = `org_id, provider, user_id, status, status_reason, sealed_access, sealed_refresh, token_expiry, api_base,
	COALESCE(companies_query_id, ''), COALESCE(contacts_query_id, ''), connected_at, updated_at`

func scanCRM(r rowScanner) (crm.Connection, error) {
	var c crm.Connection
	var exp, conn, upd int64
	err := r.Scan(&c.OrgID, &c.Provider, &c.UserID, &c.Status, &c.StatusReason, &c.SealedAccess, &c.SealedRefresh, &exp, &c.APIBase,
		&c.CompaniesQueryID, &c.ContactsQueryID, &conn, &upd)
	c.Expiry, c.ConnectedAt, c.UpdatedAt = tsOrZero(exp), ts(conn), ts(upd)
	return c, err
}

// CRMConnection implements crm.Store.
func (s *Store) CRMConnection(ctx context.Context, orgID, provider string) (crm.Connection, error) {
	c, err := scanCRM(s.r.QueryRowContext(ctx, `SELECT `+crmColumns+` FROM crm_connections WHERE org_id = ? AND provider = ?`, orgID, provider))
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("%s: %w", provider, crm.ErrNoConnection)
	}
	if err != nil {
		return c, fmt.Errorf("get crm connection: %w", err)
	}
	return c, nil
}

// ListCRMConnections implements crm.Store.
func (s *Store) ListCRMConnections(ctx context.Context, orgID string) ([]crm.Connection, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+crmColumns+` FROM crm_connections WHERE org_id = ? ORDER BY provider`, orgID)
	if err != nil {
		return nil, fmt.Errorf("list crm connections: %w", err)
	}
	defer rows.Close()
	var out []crm.Connection
	for rows.Next() {
		c, err := scanCRM(rows)
		if err != nil {
			return nil, fmt.Errorf("list crm connections: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func affected(res sql.Result, err error, what, provider string) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%s: %w", provider, crm.ErrNoConnection)
	}
	return nil
}

// UpdateCRMTokens implements crm.Store.
func (s *Store) UpdateCRMTokens(ctx context.Context, orgID, provider, access, refresh string, expiry time.Time) error {
	res, err := s.w.ExecContext(ctx, `UPDATE crm_connections SET sealed_access = ?, sealed_refresh = ?, token_expiry = ?, status = ?, status_reason = '', updated_at = ?
		WHERE org_id = ? AND provider = ?`, access, refresh, micros(expiry), crm.StatusActive, now(), orgID, provider)
	return affected(res, err, "update crm tokens", provider)
}

// SetCRMStatus implements crm.Store.
func (s *Store) SetCRMStatus(ctx context.Context, orgID, provider, status, reason string) error {
	res, err := s.w.ExecContext(ctx, `UPDATE crm_connections SET status = ?, status_reason = ?, updated_at = ? WHERE org_id = ? AND provider = ?`,
		status, reason, now(), orgID, provider)
	return affected(res, err, "set crm status", provider)
}

// DeleteCRMConnection implements crm.Store.
func (s *Store) DeleteCRMConnection(ctx context.Context, orgID, provider string) error {
	res, err := s.w.ExecContext(ctx, `DELETE FROM crm_connections WHERE org_id = ? AND provider = ?`, orgID, provider)
	return affected(res, err, "delete crm connection", provider)
}

// CRMCheckpoint implements crm.Store.
func (s *Store) CRMCheckpoint(ctx context.Context, taskID string) (crm.Checkpoint, error) {
	var cp crm.Checkpoint
	err := s.r.QueryRowContext(ctx, `SELECT cursor, pages, done, (SELECT COUNT(*) FROM crm_snapshot_items WHERE task_id = ?) FROM crm_snapshot_progress WHERE task_id = ?`,
		taskID, taskID).Scan(&cp.Cursor, &cp.Pages, &cp.Done, &cp.Items)
	if errors.Is(err, sql.ErrNoRows) {
		return crm.Checkpoint{}, nil
	}
	if err != nil {
		return cp, fmt.Errorf("crm checkpoint: %w", err)
	}
	return cp, nil
}

// SaveCRMPage implements crm.Store.
func (s *Store) SaveCRMPage(ctx context.Context, taskID, cursor string, done bool, items []string) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save crm page: %w", err)
	}
	defer tx.Rollback()
	if len(items) > 0 {
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO crm_snapshot_items (task_id, item) VALUES (?, ?) ON CONFLICT DO NOTHING`)
		if err != nil {
			return fmt.Errorf("save crm page: %w", err)
		}
		defer stmt.Close()
		for _, it := range items {
			if _, err := stmt.ExecContext(ctx, taskID, it); err != nil {
				return fmt.Errorf("save crm page: %w", err)
			}
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO crm_snapshot_progress (task_id, cursor, pages, done) VALUES (?, ?, 1, ?)
		ON CONFLICT (task_id) DO UPDATE SET cursor = excluded.cursor, pages = pages + 1, done = excluded.done`, taskID, cursor, done); err != nil {
		return fmt.Errorf("save crm page: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save crm page: %w", err)
	}
	return nil
}

// ResetCRMCheckpoint implements crm.Store.
func (s *Store) ResetCRMCheckpoint(ctx context.Context, taskID string) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("reset crm checkpoint: %w", err)
	}
	defer tx.Rollback()
	if err := resetCRM(ctx, tx, taskID); err != nil {
		return err
	}
	return tx.Commit()
}

func resetCRM(ctx context.Context, tx *sql.Tx, taskID string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM crm_snapshot_items WHERE task_id = ?`, taskID); err != nil {
		return fmt.Errorf("reset crm checkpoint: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM crm_snapshot_progress WHERE task_id = ?`, taskID); err != nil {
		return fmt.Errorf("reset crm checkpoint: %w", err)
	}
	return nil
}

// CRMItems implements crm.Store.
func (s *Store) CRMItems(ctx context.Context, taskID string) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT item FROM crm_snapshot_items WHERE task_id = ? ORDER BY rowid`, taskID)
	if err != nil {
		return nil, fmt.Errorf("crm items: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var it string
		if err := rows.Scan(&it); err != nil {
			return nil, fmt.Errorf("crm items: %w", err)
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

// FinishCRMSnapshot implements crm.Store.
func (s *Store) FinishCRMSnapshot(ctx context.Context, taskID, provider, kind string, q saved.Query) (saved.Query, error) {
	col := "companies_query_id"
	if kind == crm.KindContacts {
		col = "contacts_query_id"
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return saved.Query{}, fmt.Errorf("finish crm snapshot: %w", err)
	}
	defer tx.Rollback()
	var old sql.NullString
	err = tx.QueryRowContext(ctx, `SELECT `+col+` FROM crm_connections WHERE org_id = ? AND provider = ?`, q.OrgID, provider).Scan(&old)
	if errors.Is(err, sql.ErrNoRows) {
		return saved.Query{}, fmt.Errorf("%s: %w", provider, crm.ErrNoConnection)
	}
	if err != nil {
		return saved.Query{}, fmt.Errorf("finish crm snapshot: %w", err)
	}
	if q, err = createSaved(ctx, tx, q); err != nil {
		return saved.Query{}, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE crm_connections SET `+col+` = ?, updated_at = ? WHERE org_id = ? AND provider = ?`, q.ID, now(), q.OrgID, provider); err != nil {
		return saved.Query{}, fmt.Errorf("finish crm snapshot: %w", err)
	}
	if old.Valid && old.String != "" {
		if _, err := tx.ExecContext(ctx, `DELETE FROM saved_queries WHERE id = ? AND org_id = ?`, old.String, q.OrgID); err != nil {
			return saved.Query{}, fmt.Errorf("finish crm snapshot: drop previous list: %w", err)
		}
	}
	if err := resetCRM(ctx, tx, taskID); err != nil {
		return saved.Query{}, err
	}
	if err := tx.Commit(); err != nil {
		return saved.Query{}, fmt.Errorf("finish crm snapshot: %w", err)
	}
	return q, nil
}
