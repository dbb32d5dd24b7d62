package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

var _ saved.Store = (*Store)(nil)

// CreateSavedQuery implements saved.Store.
func (s *Store) CreateSavedQuery(ctx context.Context, q saved.Query) (saved.Query, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return saved.Query{}, fmt.Errorf("create saved query: %w", err)
	}
	defer tx.Rollback()
	if q, err = createSaved(ctx, tx, q); err != nil {
		return saved.Query{}, err
	}
	if err := tx.Commit(); err != nil {
		return saved.Query{}, fmt.Errorf("create saved query: %w", err)
	}
	return q, nil
}

// createSaved inserts a saved query in tx (CreateSavedQuery, and a CRM
// snapshot replacing its previous list in one transaction).
func createSaved(ctx context.Context, tx *sql.Tx, q saved.Query) (saved.Query, error) {
	if q.ID == "" {
		q.ID = uuid.NewString()
	}
	t := now()
	q.CreatedAt, q.UpdatedAt = ts(t), ts(t)
	_, err := tx.ExecContext(ctx, `INSERT INTO saved_queries (id, org_id, user_id, name, action, params, domains, domains_head, persona_ids,
		domain_count, persona_id_count, row_count, rows, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		q.ID, q.OrgID, q.UserID, q.Name, q.Action, []byte(q.Params), saved.EncodeDomains(q.Domains),
		saved.EncodeDomains(saved.Head(q.Domains, saved.HeadDomains)), saved.EncodePersonaIDs(q.PersonaIDs),
		len(q.Domains), len(q.PersonaIDs), q.RowCount, []byte(q.Rows), t, t)
	if err != nil && strings.Contains(err.Error(), "FOREIGN KEY") {
		return saved.Query{}, fmt.Errorf("organization %s or user %s: %w", q.OrgID, q.UserID, store.ErrNotFound)
	}
	if isUnique(err) {
		return saved.Query{}, fmt.Errorf("saved query %s: %w", q.ID, store.ErrConflict)
	}
	if err != nil {
		return saved.Query{}, fmt.Errorf("create saved query: %w", err)
	}
	if err := insertTags(ctx, tx, q.ID, q.Tags); err != nil {
		return saved.Query{}, err
	}
	if err := tx.QueryRowContext(ctx, `SELECT email FROM users WHERE id = ?`, q.UserID).Scan(&q.UserName); err != nil {
		return saved.Query{}, fmt.Errorf("create saved query: owner: %w", err)
	}
	q.DomainCount, q.PersonaIDCount = len(q.Domains), len(q.PersonaIDs)
	if q.Tags == nil {
		q.Tags = []string{}
	}
	return q, nil
}

func insertTags(ctx context.Context, tx *sql.Tx, id string, tags []string) error {
	for i, tag := range tags {
		if _, err := tx.ExecContext(ctx, `INSERT INTO saved_query_tags (query_id, pos, tag) VALUES (?, ?, ?)`, id, i, tag); err != nil {
			return fmt.Errorf("saved query tags: %w", err)
		}
	}
	return nil
}

const savedColumns = `q.id, q.org_id, q.user_id, u.email, q.name, q.action, q.params, q.domain_count, q.persona_id_count, q.row_count, q.created_at, q.updated_at`

func scanSaved(r rowScanner, extra ...any) (saved.Query, error) {
	var q saved.Query
	var params []byte
	var created, updated int64
	dest := append([]any{&q.ID, &q.OrgID, &q.UserID, &q.UserName, &q.Name, &q.Action, &params, &q.DomainCount, &q.PersonaIDCount, &q.RowCount, &created, &updated}, extra...)
	if err := r.Scan(dest...); err != nil {
		return q, err
	}
	if len(params) > 0 {
		q.Params = params
	}
	q.CreatedAt, q.UpdatedAt = ts(created), ts(updated)
	return q, nil
}

// SavedQuery implements saved.Store.
func (s *Store) SavedQuery(ctx context.Context, orgID, id string) (saved.Query, error) {
	var domains, personas string
	q, err := scanSaved(s.r.QueryRowContext(ctx, `SELECT `+savedColumns+`, q.domains, q.persona_ids
		FROM saved_queries q JOIN users u ON u.id = q.user_id WHERE q.id = ? AND q.org_id = ?`, id, orgID), &domains, &personas)
	if errors.Is(err, sql.ErrNoRows) {
		return saved.Query{}, fmt.Errorf("saved query %q: %w", id, saved.ErrNotFound)
	}
	if err != nil {
		return saved.Query{}, fmt.Errorf("get saved query: %w", err)
	}
	q.Domains = saved.DecodeDomains(domains)
	if q.PersonaIDs, err = saved.DecodePersonaIDs(personas); err != nil {
		return saved.Query{}, err
	}
	if q.Tags, err = s.tagsOf(ctx, q.ID); err != nil {
		return saved.Query{}, err
	}
	return q, nil
}

func (s *Store) tagsOf(ctx context.Context, id string) ([]string, error) {
	m, err := s.tagsFor(ctx, []string{id})
	return m[id], err
}

// tagsFor returns the tags of each query (an empty list for none).
func (s *Store) tagsFor(ctx context.Context, ids []string) (map[string][]string, error) {
	out := make(map[string][]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
		out[id] = []string{}
	}
	rows, err := s.r.QueryContext(ctx, `SELECT query_id, tag FROM saved_query_tags WHERE query_id IN (?`+strings.Repeat(", ?", len(ids)-1)+`) ORDER BY query_id, pos`, args...)
	if err != nil {
		return nil, fmt.Errorf("saved query tags: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, tag string
		if err := rows.Scan(&id, &tag); err != nil {
			return nil, fmt.Errorf("saved query tags: %w", err)
		}
		out[id] = append(out[id], tag)
	}
	return out, rows.Err()
}

// SavedQueryInfo implements saved.Store.
func (s *Store) SavedQueryInfo(ctx context.Context, orgID, id string) (saved.Query, error) {
	q, err := scanSaved(s.r.QueryRowContext(ctx, `SELECT `+savedColumns+` FROM saved_queries q JOIN users u ON u.id = q.user_id WHERE q.id = ? AND q.org_id = ?`, id, orgID))
	if errors.Is(err, sql.ErrNoRows) {
		return saved.Query{}, fmt.Errorf("saved query %q: %w", id, saved.ErrNotFound)
	}
	if err != nil {
		return saved.Query{}, fmt.Errorf("get saved query: %w", err)
	}
	return q, nil
}

// ListSavedQueries implements saved.Store.
func (s *Store) ListSavedQueries(ctx context.Context, orgID string, f saved.ListFilter) ([]saved.Query, int, error) {
	where := `q.org_id = ? AND q.domain_count > 0`
	args := []any{orgID}
	if len(f.Actions) > 0 {
		where += ` AND q.action IN (?` + strings.Repeat(", ?", len(f.Actions)-1) + `)`
		for _, a := range f.Actions {
			args = append(args, a)
		}
	}
	if len(f.Tags) > 0 {
		where += ` AND EXISTS (SELECT 1 FROM saved_query_tags t WHERE t.query_id = q.id AND t.tag IN (?` + strings.Repeat(", ?", len(f.Tags)-1) + `))`
		for _, t := range f.Tags {
			args = append(args, t)
		}
	}
	var total int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM saved_queries q WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count saved queries: %w", err)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+savedColumns+`, q.domains_head FROM saved_queries q JOIN users u ON u.id = q.user_id
		WHERE `+where+` ORDER BY q.updated_at DESC, q.rowid DESC LIMIT ? OFFSET ?`, append(args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list saved queries: %w", err)
	}
	defer rows.Close()
	var out []saved.Query
	var ids []string
	for rows.Next() {
		var head string
		q, err := scanSaved(rows, &head)
		if err != nil {
			return nil, 0, fmt.Errorf("list saved queries: %w", err)
		}
		q.Domains = saved.Head(saved.DecodeDomains(head), f.DomainLimit)
		out = append(out, q)
		ids = append(ids, q.ID)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("list saved queries: %w", err)
	}
	tags, err := s.tagsFor(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	for i := range out {
		out[i].Tags = tags[out[i].ID]
	}
	return out, total, nil
}

// UpdateSavedQuery implements saved.Store.
func (s *Store) UpdateSavedQuery(ctx context.Context, orgID, userID, id string, u saved.Update) (saved.Query, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return saved.Query{}, fmt.Errorf("update saved query: %w", err)
	}
	defer tx.Rollback()
	set, args := `updated_at = ?`, []any{now()}
	if u.Name != nil {
		set += `, name = ?`
		args = append(args, *u.Name)
	}
	res, err := tx.ExecContext(ctx, `UPDATE saved_queries SET `+set+` WHERE id = ? AND org_id = ? AND (? = '' OR user_id = ?)`,
		append(args, id, orgID, userID, userID)...)
	if err != nil {
		return saved.Query{}, fmt.Errorf("update saved query: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return saved.Query{}, fmt.Errorf("saved query %q: %w", id, saved.ErrNotFound)
	}
	if u.Tags != nil {
		if _, err := tx.ExecContext(ctx, `DELETE FROM saved_query_tags WHERE query_id = ?`, id); err != nil {
			return saved.Query{}, fmt.Errorf("update saved query tags: %w", err)
		}
		if err := insertTags(ctx, tx, id, *u.Tags); err != nil {
			return saved.Query{}, err
		}
	}
	q, err := scanSaved(tx.QueryRowContext(ctx, `SELECT `+savedColumns+` FROM saved_queries q JOIN users u ON u.id = q.user_id WHERE q.id = ?`, id))
	if err != nil {
		return saved.Query{}, fmt.Errorf("update saved query: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return saved.Query{}, fmt.Errorf("update saved query: %w", err)
	}
	if q.Tags, err = s.tagsOf(ctx, id); err != nil {
		return saved.Query{}, err
	}
	return q, nil
}

// DeleteSavedQuery implements saved.Store.
func (s *Store) DeleteSavedQuery(ctx context.Context, orgID, userID, id string) error {
	res, err := s.w.ExecContext(ctx, `DELETE FROM saved_queries WHERE id = ? AND org_id = ? AND (? = '' OR user_id = ?)`, id, orgID, userID, userID)
	if err != nil {
		return fmt.Errorf("delete saved query: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("saved query %q: %w", id, saved.ErrNotFound)
	}
	return nil
}
