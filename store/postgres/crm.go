package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/saved"
)

var _ crm.Store = (*Store)(nil)

func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// CreateCRMState implements crm.Store.
func (s *Store) CreateCRMState(ctx context.Context, st crm.State) error {
	// Expired states are swept on the way, so the table stays small.
	if _, err := s.pool.Exec(ctx, `DELETE FROM crm_oauth_states WHERE expires_at < now()`); err != nil {
		return fmt.Errorf("create crm state: %w", err)
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO crm_oauth_states (state_hash, org_id, user_id, provider, expires_at) VALUES ($1, $2, $3, $4, $5)`,
		st.Hash, st.OrgID, st.UserID, st.Provider, st.ExpiresAt.UTC())
	if err != nil {
		return fmt.Errorf("create crm state: %w", err)
	}
	return nil
}

// TakeCRMState implements crm.Store.
func (s *Store) TakeCRMState(ctx context.Context, hash string, at time.Time) (crm.State, error) {
	var st crm.State
	err := s.pool.QueryRow(ctx, `DELETE FROM crm_oauth_states WHERE state_hash = $1 RETURNING state_hash, org_id, user_id, provider, expires_at`, hash).
		Scan(&st.Hash, &st.OrgID, &st.UserID, &st.Provider, &st.ExpiresAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return st, crm.ErrBadState
	}
	if err != nil {
		return st, fmt.Errorf("take crm state: %w", err)
	}
	if !at.Before(st.ExpiresAt) {
		return crm.State{}, crm.ErrBadState
	}
	return st, nil
}

// PutCRMConnection implements crm.Store.
func (s *Store) PutCRMConnection(ctx context.Context, c crm.Connection) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO crm_connections (org_id, provider, user_id, status, status_reason, sealed_access, sealed_refresh,
		token_expiry, api_base, connected_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		ON CONFLICT (org_id, provider) DO UPDATE SET user_id = excluded.user_id, status = excluded.status, status_reason = excluded.status_reason,
		sealed_access = excluded.sealed_access, sealed_refresh = excluded.sealed_refresh, token_expiry = excluded.token_expiry,
		api_base = excluded.api_base, connected_at = excluded.connected_at, updated_at = excluded.updated_at`,
		c.OrgID, c.Provider, c.UserID, c.Status, c.StatusReason, c.SealedAccess, c.SealedRefresh, nullTime(c.Expiry), c.APIBase,
		c.ConnectedAt.UTC().Truncate(time.Microsecond), now())
	if err != nil {
		return fmt.Errorf("put crm connection: %w", err)
	}
	return nil
}

const crmColumns = `org_id, provider, user_id, status, status_reason, sealed_access, sealed_refresh, token_expiry, api_base,
	COALESCE(companies_query_id, ''), COALESCE(contacts_query_id, ''), connected_at, updated_at`

func scanCRM(r pgx.Row) (crm.Connection, error) {
	var c crm.Connection
	var exp *time.Time
	err := r.Scan(&c.OrgID, &c.Provider, &c.UserID, &c.Status, &c.StatusReason, &c.SealedAccess, &c.SealedRefresh, &exp, &c.APIBase,
		&c.CompaniesQueryID, &c.ContactsQueryID, &c.ConnectedAt, &c.UpdatedAt)
	if exp != nil {
		c.Expiry = exp.UTC()
	}
	c.ConnectedAt, c.UpdatedAt = c.ConnectedAt.UTC(), c.UpdatedAt.UTC()
	return c, err
}

// CRMConnection implements crm.Store.
func (s *Store) CRMConnection(ctx context.Context, orgID, provider string) (crm.Connection, error) {
	c, err := scanCRM(s.pool.QueryRow(ctx, `SELECT `+crmColumns+` FROM crm_connections WHERE org_id = $1 AND provider = $2`, orgID, provider))
	if errors.Is(err, pgx.ErrNoRows) {
		return c, fmt.Errorf("%s: %w", provider, crm.ErrNoConnection)
	}
	if err != nil {
		return c, fmt.Errorf("get crm connection: %w", err)
	}
	return c, nil
}

// ListCRMConnections implements crm.Store.
func (s *Store) ListCRMConnections(ctx context.Context, orgID string) ([]crm.Connection, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+crmColumns+` FROM crm_connections WHERE org_id = $1 ORDER BY provider`, orgID)
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

func affected(tag pgconn.CommandTag, err error, what, provider string) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("%s: %w", provider, crm.ErrNoConnection)
	}
	return nil
}

// UpdateCRMTokens implements crm.Store.
func (s *Store) UpdateCRMTokens(ctx context.Context, orgID, provider, access, refresh string, expiry time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE crm_connections SET sealed_access = $1, sealed_refresh = $2, token_expiry = $3, status = $4, status_reason = '', updated_at = $5
		WHERE org_id = $6 AND provider = $7`, access, refresh, nullTime(expiry), crm.StatusActive, now(), orgID, provider)
	return affected(tag, err, "update crm tokens", provider)
}

// SetCRMStatus implements crm.Store.
func (s *Store) SetCRMStatus(ctx context.Context, orgID, provider, status, reason string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE crm_connections SET status = $1, status_reason = $2, updated_at = $3 WHERE org_id = $4 AND provider = $5`,
		status, reason, now(), orgID, provider)
	return affected(tag, err, "set crm status", provider)
}

// DeleteCRMConnection implements crm.Store.
func (s *Store) DeleteCRMConnection(ctx context.Context, orgID, provider string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM crm_connections WHERE org_id = $1 AND provider = $2`, orgID, provider)
	return affected(tag, err, "delete crm connection", provider)
}

// CRMCheckpoint implements crm.Store.
func (s *Store) CRMCheckpoint(ctx context.Context, taskID string) (crm.Checkpoint, error) {
	var cp crm.Checkpoint
	err := s.pool.QueryRow(ctx, `SELECT cursor, pages, done, (SELECT COUNT(*) FROM crm_snapshot_items WHERE task_id = $1) FROM crm_snapshot_progress WHERE task_id = $1`,
		taskID).Scan(&cp.Cursor, &cp.Pages, &cp.Done, &cp.Items)
	if errors.Is(err, pgx.ErrNoRows) {
		return crm.Checkpoint{}, nil
	}
	if err != nil {
		return cp, fmt.Errorf("crm checkpoint: %w", err)
	}
	return cp, nil
}

// SaveCRMPage implements crm.Store.
func (s *Store) SaveCRMPage(ctx context.Context, taskID, cursor string, done bool, items []string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("save crm page: %w", err)
	}
	defer tx.Rollback(ctx)
	if len(items) > 0 {
		// unnest WITH ORDINALITY keeps the page's order in seq.
		if _, err := tx.Exec(ctx, `INSERT INTO crm_snapshot_items (task_id, item)
			SELECT $1, it FROM unnest($2::text[]) WITH ORDINALITY AS x(it, n) ORDER BY n ON CONFLICT DO NOTHING`, taskID, items); err != nil {
			return fmt.Errorf("save crm page: %w", err)
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO crm_snapshot_progress (task_id, cursor, pages, done) VALUES ($1, $2, 1, $3)
		ON CONFLICT (task_id) DO UPDATE SET cursor = excluded.cursor, pages = crm_snapshot_progress.pages + 1, done = excluded.done`, taskID, cursor, done); err != nil {
		return fmt.Errorf("save crm page: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("save crm page: %w", err)
	}
	return nil
}

// ResetCRMCheckpoint implements crm.Store.
func (s *Store) ResetCRMCheckpoint(ctx context.Context, taskID string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("reset crm checkpoint: %w", err)
	}
	defer tx.Rollback(ctx)
	if err := resetCRM(ctx, tx, taskID); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

func resetCRM(ctx context.Context, tx pgx.Tx, taskID string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM crm_snapshot_items WHERE task_id = $1`, taskID); err != nil {
		return fmt.Errorf("reset crm checkpoint: %w", err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM crm_snapshot_progress WHERE task_id = $1`, taskID); err != nil {
		return fmt.Errorf("reset crm checkpoint: %w", err)
	}
	return nil
}

// CRMItems implements crm.Store.
func (s *Store) CRMItems(ctx context.Context, taskID string) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT item FROM crm_snapshot_items WHERE task_id = $1 ORDER BY seq`, taskID)
	if err != nil {
		return nil, fmt.Errorf("crm items: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("crm items: %w", err)
	}
	return out, nil
}

// FinishCRMSnapshot implements crm.Store.
func (s *Store) FinishCRMSnapshot(ctx context.Context, taskID, provider, kind string, q saved.Query) (saved.Query, error) {
	col := "companies_query_id"
	if kind == crm.KindContacts {
		col = "contacts_query_id"
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return saved.Query{}, fmt.Errorf("finish crm snapshot: %w", err)
	}
	defer tx.Rollback(ctx)
	var old *string
	// FOR UPDATE: two snapshots finishing at once replace one after the
	// other, and neither list is left behind.
	err = tx.QueryRow(ctx, `SELECT `+col+` FROM crm_connections WHERE org_id = $1 AND provider = $2 FOR UPDATE`, q.OrgID, provider).Scan(&old)
	if errors.Is(err, pgx.ErrNoRows) {
		return saved.Query{}, fmt.Errorf("%s: %w", provider, crm.ErrNoConnection)
	}
	if err != nil {
		return saved.Query{}, fmt.Errorf("finish crm snapshot: %w", err)
	}
	if q, err = createSaved(ctx, tx, q); err != nil {
		return saved.Query{}, err
	}
	if _, err := tx.Exec(ctx, `UPDATE crm_connections SET `+col+` = $1, updated_at = $2 WHERE org_id = $3 AND provider = $4`, q.ID, now(), q.OrgID, provider); err != nil {
		return saved.Query{}, fmt.Errorf("finish crm snapshot: %w", err)
	}
	if old != nil && *old != "" {
		if _, err := tx.Exec(ctx, `DELETE FROM saved_queries WHERE id = $1 AND org_id = $2`, *old, q.OrgID); err != nil {
			return saved.Query{}, fmt.Errorf("finish crm snapshot: drop previous list: %w", err)
		}
	}
	if err := resetCRM(ctx, tx, taskID); err != nil {
		return saved.Query{}, err
	}
	if err := tx.Commit(ctx); err != nil {
		return saved.Query{}, fmt.Errorf("finish crm snapshot: %w", err)
	}
	return q, nil
}
