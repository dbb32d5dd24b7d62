package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/openprospect/prospectd/store"
)

var (
	_ store.IntegrationStore    = (*Store)(nil)
	_ store.ResearchRecordStore = (*Store)(nil)
)

const integrationColumns = `id, org_id, kind, name, provider, model, base_url, sealed_key, supports_web_search, model_deprecated, cost_per_query, is_default, created_at, updated_at`

func scanIntegration(r rowScanner) (store.Integration, error) {
	var in store.Integration
	var created, updated int64
	err := r.Scan(&in.ID, &in.OrgID, &in.Kind, &in.Name, &in.Provider, &in.Model, &in.BaseURL, &in.SealedKey,
		&in.SupportsWebSearch, &in.ModelDeprecated, &in.CostPerQuery, &in.IsDefault, &created, &updated)
	in.CreatedAt, in.UpdatedAt = ts(created), ts(updated)
	return in, err
}

// CreateIntegration implements store.IntegrationStore.
func (s *Store) CreateIntegration(ctx context.Context, in store.Integration) (store.Integration, error) {
	if in.ID == "" || in.OrgID == "" || in.Kind == "" {
		return in, errors.New("create integration: id, org and kind are required")
	}
	t := now()
	in.CreatedAt, in.UpdatedAt = ts(t), ts(t)
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return in, fmt.Errorf("create integration: %w", err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM integrations WHERE org_id = ? AND kind = ? AND is_default = 1`, in.OrgID, in.Kind).Scan(&n); err != nil {
		return in, fmt.Errorf("create integration: %w", err)
	}
	in.IsDefault = n == 0
	_, err = tx.ExecContext(ctx, `INSERT INTO integrations (`+integrationColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		in.ID, in.OrgID, in.Kind, in.Name, in.Provider, in.Model, in.BaseURL, in.SealedKey,
		in.SupportsWebSearch, in.ModelDeprecated, in.CostPerQuery, in.IsDefault, t, t)
	switch {
	case isUnique(err):
		return in, fmt.Errorf("integration %s: %w", in.ID, store.ErrConflict)
	case err != nil && strings.Contains(err.Error(), "FOREIGN KEY"):
		return in, fmt.Errorf("organization %s: %w", in.OrgID, store.ErrNotFound)
	case err != nil:
		return in, fmt.Errorf("create integration: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return in, fmt.Errorf("create integration: %w", err)
	}
	return in, nil
}

// GetIntegration implements store.IntegrationStore.
func (s *Store) GetIntegration(ctx context.Context, orgID, kind, id string) (store.Integration, error) {
	in, err := scanIntegration(s.r.QueryRowContext(ctx, `SELECT `+integrationColumns+` FROM integrations WHERE id = ? AND org_id = ? AND kind = ?`, id, orgID, kind))
	if errors.Is(err, sql.ErrNoRows) {
		return in, fmt.Errorf("integration %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return in, fmt.Errorf("get integration: %w", err)
	}
	return in, nil
}

// ListIntegrations implements store.IntegrationStore.
func (s *Store) ListIntegrations(ctx context.Context, orgID, kind string) ([]store.Integration, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+integrationColumns+` FROM integrations WHERE org_id = ? AND kind = ? ORDER BY created_at, rowid`, orgID, kind)
	if err != nil {
		return nil, fmt.Errorf("list integrations: %w", err)
	}
	defer rows.Close()
	out := []store.Integration{}
	for rows.Next() {
		in, err := scanIntegration(rows)
		if err != nil {
			return nil, fmt.Errorf("list integrations: %w", err)
		}
		out = append(out, in)
	}
	return out, rows.Err()
}

// UpdateIntegration implements store.IntegrationStore.
func (s *Store) UpdateIntegration(ctx context.Context, in store.Integration) (store.Integration, error) {
	res, err := s.w.ExecContext(ctx, `UPDATE integrations SET name = ?, provider = ?, model = ?, base_url = ?, sealed_key = ?,
		supports_web_search = ?, model_deprecated = ?, cost_per_query = ?, updated_at = ? WHERE id = ? AND org_id = ? AND kind = ?`,
		in.Name, in.Provider, in.Model, in.BaseURL, in.SealedKey, in.SupportsWebSearch, in.ModelDeprecated, in.CostPerQuery, now(),
		in.ID, in.OrgID, in.Kind)
	if err != nil {
		return in, fmt.Errorf("update integration: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return in, fmt.Errorf("integration %s: %w", in.ID, store.ErrNotFound)
	}
	return s.GetIntegration(ctx, in.OrgID, in.Kind, in.ID)
}

// DeleteIntegration implements store.IntegrationStore.
func (s *Store) DeleteIntegration(ctx context.Context, orgID, kind, id string) error {
	res, err := s.w.ExecContext(ctx, `DELETE FROM integrations WHERE id = ? AND org_id = ? AND kind = ?`, id, orgID, kind)
	if err != nil {
		return fmt.Errorf("delete integration: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("integration %s: %w", id, store.ErrNotFound)
	}
	return nil
}

// SetDefaultIntegration implements store.IntegrationStore.
func (s *Store) SetDefaultIntegration(ctx context.Context, orgID, kind, id string) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("set default integration: %w", err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM integrations WHERE id = ? AND org_id = ? AND kind = ?`, id, orgID, kind).Scan(&n); err != nil {
		return fmt.Errorf("set default integration: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("integration %s: %w", id, store.ErrNotFound)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE integrations SET is_default = 0 WHERE org_id = ? AND kind = ? AND is_default = 1`, orgID, kind); err != nil {
		return fmt.Errorf("set default integration: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE integrations SET is_default = 1 WHERE id = ?`, id); err != nil {
		return fmt.Errorf("set default integration: %w", err)
	}
	return tx.Commit()
}

// ClearDefaultIntegration implements store.IntegrationStore.
func (s *Store) ClearDefaultIntegration(ctx context.Context, orgID, kind, id string) error {
	in, err := s.GetIntegration(ctx, orgID, kind, id)
	if err != nil {
		return err
	}
	res, err := s.w.ExecContext(ctx, `UPDATE integrations SET is_default = 0 WHERE id = ? AND org_id = ? AND is_default = 1`, in.ID, orgID)
	if err != nil {
		return fmt.Errorf("clear default integration: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("integration %s is not the default: %w", id, store.ErrConflict)
	}
	return nil
}

// DefaultIntegration implements store.IntegrationStore.
func (s *Store) DefaultIntegration(ctx context.Context, orgID, kind string) (store.Integration, error) {
	in, err := scanIntegration(s.r.QueryRowContext(ctx, `SELECT `+integrationColumns+` FROM integrations WHERE org_id = ? AND kind = ? AND is_default = 1`, orgID, kind))
	if errors.Is(err, sql.ErrNoRows) {
		return in, fmt.Errorf("default %s integration: %w", kind, store.ErrNotFound)
	}
	if err != nil {
		return in, fmt.Errorf("default integration: %w", err)
	}
	return in, nil
}

// PutResearchRecord implements store.ResearchRecordStore.
func (s *Store) PutResearchRecord(ctx context.Context, taskID, key string, value []byte) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO research_records (task_id, key, value) VALUES (?, ?, ?)
		ON CONFLICT (task_id, key) DO UPDATE SET value = excluded.value`, taskID, key, value)
	if err != nil && strings.Contains(err.Error(), "FOREIGN KEY") {
		return fmt.Errorf("task %s: %w", taskID, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("put research record: %w", err)
	}
	return nil
}

// ResearchRecords implements store.ResearchRecordStore.
func (s *Store) ResearchRecords(ctx context.Context, taskID string) (map[string][]byte, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT key, value FROM research_records WHERE task_id = ?`, taskID)
	if err != nil {
		return nil, fmt.Errorf("research records: %w", err)
	}
	defer rows.Close()
	out := map[string][]byte{}
	for rows.Next() {
		var k string
		var v []byte
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("research records: %w", err)
		}
		out[k] = v
	}
	return out, rows.Err()
}
