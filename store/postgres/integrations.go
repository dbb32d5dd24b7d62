package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/openprospect/prospectd/store"
)

var (
	_ store.IntegrationStore    = (*Store)(nil)
	_ store.ResearchRecordStore = (*Store)(nil)
)

const integrationColumns = `id, org_id, kind, name, provider, model, base_url, sealed_key, supports_web_search, model_deprecated, cost_per_query, is_default, created_at, updated_at`

func scanIntegration(r pgx.Row) (store.Integration, error) {
	var in store.Integration
	err := r.Scan(&in.ID, &in.OrgID, &in.Kind, &in.Name, &in.Provider, &in.Model, &in.BaseURL, &in.SealedKey,
		&in.SupportsWebSearch, &in.ModelDeprecated, &in.CostPerQuery, &in.IsDefault, &in.CreatedAt, &in.UpdatedAt)
	in.CreatedAt, in.UpdatedAt = in.CreatedAt.UTC(), in.UpdatedAt.UTC()
	return in, err
}

// CreateIntegration implements store.IntegrationStore. The organization's
// row is locked so two first integrations cannot both become default.
func (s *Store) CreateIntegration(ctx context.Context, in store.Integration) (store.Integration, error) {
	if in.ID == "" || in.OrgID == "" || in.Kind == "" {
		return in, errors.New("create integration: id, org and kind are required")
	}
	in.CreatedAt = now()
	in.UpdatedAt = in.CreatedAt
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return in, fmt.Errorf("create integration: %w", err)
	}
	defer tx.Rollback(ctx)
	var orgID string
	if err := tx.QueryRow(ctx, `SELECT id FROM orgs WHERE id = $1 FOR UPDATE`, in.OrgID).Scan(&orgID); errors.Is(err, pgx.ErrNoRows) {
		return in, fmt.Errorf("organization %s: %w", in.OrgID, store.ErrNotFound)
	} else if err != nil {
		return in, fmt.Errorf("create integration: %w", err)
	}
	var hasDefault bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM integrations WHERE org_id = $1 AND kind = $2 AND is_default)`, in.OrgID, in.Kind).Scan(&hasDefault); err != nil {
		return in, fmt.Errorf("create integration: %w", err)
	}
	in.IsDefault = !hasDefault
	_, err = tx.Exec(ctx, `INSERT INTO integrations (`+integrationColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
		in.ID, in.OrgID, in.Kind, in.Name, in.Provider, in.Model, in.BaseURL, in.SealedKey,
		in.SupportsWebSearch, in.ModelDeprecated, in.CostPerQuery, in.IsDefault, in.CreatedAt, in.UpdatedAt)
	switch {
	case pgCode(err) == uniqueViolation:
		return in, fmt.Errorf("integration %s: %w", in.ID, store.ErrConflict)
	case err != nil:
		return in, fmt.Errorf("create integration: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return in, fmt.Errorf("create integration: %w", err)
	}
	return in, nil
}

// GetIntegration implements store.IntegrationStore.
func (s *Store) GetIntegration(ctx context.Context, orgID, kind, id string) (store.Integration, error) {
	in, err := scanIntegration(s.pool.QueryRow(ctx, `SELECT `+integrationColumns+` FROM integrations WHERE id = $1 AND org_id = $2 AND kind = $3`, id, orgID, kind))
	if errors.Is(err, pgx.ErrNoRows) {
		return in, fmt.Errorf("integration %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return in, fmt.Errorf("get integration: %w", err)
	}
	return in, nil
}

// ListIntegrations implements store.IntegrationStore.
func (s *Store) ListIntegrations(ctx context.Context, orgID, kind string) ([]store.Integration, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+integrationColumns+` FROM integrations WHERE org_id = $1 AND kind = $2 ORDER BY seq`, orgID, kind)
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
	tag, err := s.pool.Exec(ctx, `UPDATE integrations SET name = $1, provider = $2, model = $3, base_url = $4, sealed_key = $5,
		supports_web_search = $6, model_deprecated = $7, cost_per_query = $8, updated_at = $9 WHERE id = $10 AND org_id = $11 AND kind = $12`,
		in.Name, in.Provider, in.Model, in.BaseURL, in.SealedKey, in.SupportsWebSearch, in.ModelDeprecated, in.CostPerQuery, now(),
		in.ID, in.OrgID, in.Kind)
	if err != nil {
		return in, fmt.Errorf("update integration: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return in, fmt.Errorf("integration %s: %w", in.ID, store.ErrNotFound)
	}
	return s.GetIntegration(ctx, in.OrgID, in.Kind, in.ID)
}

// DeleteIntegration implements store.IntegrationStore.
func (s *Store) DeleteIntegration(ctx context.Context, orgID, kind, id string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM integrations WHERE id = $1 AND org_id = $2 AND kind = $3`, id, orgID, kind)
	if err != nil {
		return fmt.Errorf("delete integration: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("integration %s: %w", id, store.ErrNotFound)
	}
	return nil
}

// SetDefaultIntegration implements store.IntegrationStore.
func (s *Store) SetDefaultIntegration(ctx context.Context, orgID, kind, id string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("set default integration: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT id FROM orgs WHERE id = $1 FOR UPDATE`, orgID); err != nil {
		return fmt.Errorf("set default integration: %w", err)
	}
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM integrations WHERE id = $1 AND org_id = $2 AND kind = $3`, id, orgID, kind).Scan(&n); err != nil {
		return fmt.Errorf("set default integration: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("integration %s: %w", id, store.ErrNotFound)
	}
	if _, err := tx.Exec(ctx, `UPDATE integrations SET is_default = false WHERE org_id = $1 AND kind = $2 AND is_default`, orgID, kind); err != nil {
		return fmt.Errorf("set default integration: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE integrations SET is_default = true WHERE id = $1`, id); err != nil {
		return fmt.Errorf("set default integration: %w", err)
	}
	return tx.Commit(ctx)
}

// ClearDefaultIntegration implements store.IntegrationStore.
func (s *Store) ClearDefaultIntegration(ctx context.Context, orgID, kind, id string) error {
	if _, err := s.GetIntegration(ctx, orgID, kind, id); err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `UPDATE integrations SET is_default = false WHERE id = $1 AND org_id = $2 AND is_default`, id, orgID)
	if err != nil {
		return fmt.Errorf("clear default integration: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("integration %s is not the default: %w", id, store.ErrConflict)
	}
	return nil
}

// DefaultIntegration implements store.IntegrationStore.
func (s *Store) DefaultIntegration(ctx context.Context, orgID, kind string) (store.Integration, error) {
	in, err := scanIntegration(s.pool.QueryRow(ctx, `SELECT `+integrationColumns+` FROM integrations WHERE org_id = $1 AND kind = $2 AND is_default`, orgID, kind))
	if errors.Is(err, pgx.ErrNoRows) {
		return in, fmt.Errorf("default %s integration: %w", kind, store.ErrNotFound)
	}
	if err != nil {
		return in, fmt.Errorf("default integration: %w", err)
	}
	return in, nil
}

// PutResearchRecord implements store.ResearchRecordStore.
func (s *Store) PutResearchRecord(ctx context.Context, taskID, key string, value []byte) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO research_records (task_id, key, value) VALUES ($1, $2, $3)
		ON CONFLICT (task_id, key) DO UPDATE SET value = excluded.value`, taskID, key, value)
	if pgCode(err) == foreignKeyViolation {
		return fmt.Errorf("task %s: %w", taskID, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("put research record: %w", err)
	}
	return nil
}

// ResearchRecords implements store.ResearchRecordStore.
func (s *Store) ResearchRecords(ctx context.Context, taskID string) (map[string][]byte, error) {
	rows, err := s.pool.Query(ctx, `SELECT key, value FROM research_records WHERE task_id = $1`, taskID)
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
