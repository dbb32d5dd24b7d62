package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

var _ saved.Store = (*Store)(nil)

// CreateSavedQuery implements saved.Store.
func (s *Store) CreateSavedQuery(ctx context.Context, q saved.Query) (saved.Query, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return saved.Query{}, fmt.Errorf("create saved query: %w", err)
	}
	defer tx.Rollback(ctx)
	if q, err = createSaved(ctx, tx, q); err != nil {
		return saved.Query{}, err
	}
	if err := tx.Commit(ctx); err != nil {
		return saved.Query{}, fmt.Errorf("create saved query: %w", err)
	}
	return q, nil
}

// createSaved inserts a saved query in tx (CreateSavedQuery, and a CRM
// snapshot replacing its previous list in one transaction).
func createSaved(ctx context.Context, tx pgx.Tx, q saved.Query) (saved.Query, error) {
	if q.ID == "" {
		q.ID = uuid.NewString()
	}
	t := now()
	q.CreatedAt, q.UpdatedAt = t, t
	_, err := tx.Exec(ctx, `INSERT INTO saved_queries (id, org_id, user_id, name, action, params, domains, domains_head, persona_ids,
		domain_count, persona_id_count, row_count, rows, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)`,
		q.ID, q.OrgID, q.UserID, q.Name, q.Action, []byte(q.Params), saved.EncodeDomains(q.Domains),
		saved.EncodeDomains(saved.Head(q.Domains, saved.HeadDomains)), saved.EncodePersonaIDs(q.PersonaIDs),
		len(q.Domains), len(q.PersonaIDs), q.RowCount, []byte(q.Rows), t)
	if pgCode(err) == foreignKeyViolation {
		return saved.Query{}, fmt.Errorf("organization %s or user %s: %w", q.OrgID, q.UserID, store.ErrNotFound)
	}
	if pgCode(err) == uniqueViolation {
		return saved.Query{}, fmt.Errorf("saved query %s: %w", q.ID, store.ErrConflict)
	}
	if err != nil {
		return saved.Query{}, fmt.Errorf("create saved query: %w", err)
	}
	if err := insertTags(ctx, tx, q.ID, q.Tags); err != nil {
		return saved.Query{}, err
	}
	if err := tx.QueryRow(ctx, `SELECT email FROM users WHERE id = $1`, q.UserID).Scan(&q.UserName); err != nil {
		return saved.Query{}, fmt.Errorf("create saved query: owner: %w", err)
	}
	q.DomainCount, q.PersonaIDCount = len(q.Domains), len(q.PersonaIDs)
	if q.Tags == nil {
		q.Tags = []string{}
	}
	return q, nil
}

func insertTags(ctx context.Context, tx pgx.Tx, id string, tags []string) error {
	if len(tags) == 0 {
		return nil
	}
	pos := make([]int32, len(tags))
	for i := range pos {
		pos[i] = int32(i)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO saved_query_tags (query_id, pos, tag) SELECT $1, p, t FROM unnest($2::int[], $3::text[]) AS x(p, t)`,
		id, pos, tags); err != nil {
		return fmt.Errorf("saved query tags: %w", err)
	}
	return nil
}

const savedColumns = `q.id, q.org_id, q.user_id, u.email, q.name, q.action, q.params, q.domain_count, q.persona_id_count, q.row_count, q.created_at, q.updated_at`

func scanSaved(r pgx.Row, extra ...any) (saved.Query, error) {
	var q saved.Query
	var params []byte
	dest := append([]any{&q.ID, &q.OrgID, &q.UserID, &q.UserName, &q.Name, &q.Action, &params, &q.DomainCount, &q.PersonaIDCount, &q.RowCount, &q.CreatedAt, &q.UpdatedAt}, extra...)
	if err := r.Scan(dest...); err != nil {
		return q, err
	}
	if len(params) > 0 {
		q.Params = params
	}
	q.CreatedAt, q.UpdatedAt = q.CreatedAt.UTC(), q.UpdatedAt.UTC()
	return q, nil
}

// SavedQuery implements saved.Store.
func (s *Store) SavedQuery(ctx context.Context, orgID, id string) (saved.Query, error) {
	var domains, personas string
	q, err := scanSaved(s.pool.QueryRow(ctx, `SELECT `+savedColumns+`, q.domains, q.persona_ids
		FROM saved_queries q JOIN users u ON u.id = q.user_id WHERE q.id = $1 AND q.org_id = $2`, id, orgID), &domains, &personas)
	if errors.Is(err, pgx.ErrNoRows) {
		return saved.Query{}, fmt.Errorf("saved query %q: %w", id, saved.ErrNotFound)
	}
	if err != nil {
		return saved.Query{}, fmt.Errorf("get saved query: %w", err)
	}
	q.Domains = saved.DecodeDomains(domains)
	if q.PersonaIDs, err = saved.DecodePersonaIDs(personas); err != nil {
		return saved.Query{}, err
	}
	m, err := s.tagsFor(ctx, []string{q.ID})
	if err != nil {
		return saved.Query{}, err
	}
	q.Tags = m[q.ID]
	return q, nil
}

// tagsFor returns the tags of each query (an empty list for none).
func (s *Store) tagsFor(ctx context.Context, ids []string) (map[string][]string, error) {
	out := make(map[string][]string, len(ids))
	for _, id := range ids {
		out[id] = []string{}
	}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT query_id, tag FROM saved_query_tags WHERE query_id = ANY($1) ORDER BY query_id, pos`, ids)
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
	q, err := scanSaved(s.pool.QueryRow(ctx, `SELECT `+savedColumns+` FROM saved_queries q JOIN users u ON u.id = q.user_id WHERE q.id = $1 AND q.org_id = $2`, id, orgID))
	if errors.Is(err, pgx.ErrNoRows) {
		return saved.Query{}, fmt.Errorf("saved query %q: %w", id, saved.ErrNotFound)
	}
	if err != nil {
		return saved.Query{}, fmt.Errorf("get saved query: %w", err)
	}
	return q, nil
}

// ListSavedQueries implements saved.Store.
func (s *Store) ListSavedQueries(ctx context.Context, orgID string, f saved.ListFilter) ([]saved.Query, int, error) {
	where := `q.org_id = $1 AND q.domain_count > 0`
	args := []any{orgID}
	if len(f.Actions) > 0 {
		args = append(args, f.Actions)
		where += ` AND q.action = ANY($` + strconv.Itoa(len(args)) + `)`
	}
	if len(f.Tags) > 0 {
		args = append(args, f.Tags)
		where += ` AND EXISTS (SELECT 1 FROM saved_query_tags t WHERE t.query_id = q.id AND t.tag = ANY($` + strconv.Itoa(len(args)) + `))`
	}
	var total int
	if err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM saved_queries q WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count saved queries: %w", err)
	}
	n := len(args)
	rows, err := s.pool.Query(ctx, `SELECT `+savedColumns+`, q.domains_head FROM saved_queries q JOIN users u ON u.id = q.user_id
		WHERE `+where+` ORDER BY q.updated_at DESC, q.seq DESC LIMIT $`+strconv.Itoa(n+1)+` OFFSET $`+strconv.Itoa(n+2),
		append(args, f.Limit, f.Offset)...)
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
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return saved.Query{}, fmt.Errorf("update saved query: %w", err)
	}
	defer tx.Rollback(ctx)
	var name any
	if u.Name != nil {
		name = *u.Name
	}
	tag, err := tx.Exec(ctx, `UPDATE saved_queries SET updated_at = $1, name = COALESCE($2, name)
		WHERE id = $3 AND org_id = $4 AND ($5 = '' OR user_id = $5)`, now(), name, id, orgID, userID)
	if err != nil {
		return saved.Query{}, fmt.Errorf("update saved query: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return saved.Query{}, fmt.Errorf("saved query %q: %w", id, saved.ErrNotFound)
	}
	if u.Tags != nil {
		if _, err := tx.Exec(ctx, `DELETE FROM saved_query_tags WHERE query_id = $1`, id); err != nil {
			return saved.Query{}, fmt.Errorf("update saved query tags: %w", err)
		}
		if err := insertTags(ctx, tx, id, *u.Tags); err != nil {
			return saved.Query{}, err
		}
	}
	q, err := scanSaved(tx.QueryRow(ctx, `SELECT `+savedColumns+` FROM saved_queries q JOIN users u ON u.id = q.user_id WHERE q.id = $1`, id))
	if err != nil {
		return saved.Query{}, fmt.Errorf("update saved query: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return saved.Query{}, fmt.Errorf("update saved query: %w", err)
	}
	m, err := s.tagsFor(ctx, []string{id})
	if err != nil {
		return saved.Query{}, err
	}
	q.Tags = m[id]
	return q, nil
}

// DeleteSavedQuery implements saved.Store.
func (s *Store) DeleteSavedQuery(ctx context.Context, orgID, userID, id string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM saved_queries WHERE id = $1 AND org_id = $2 AND ($3 = '' OR user_id = $3)`, id, orgID, userID)
	if err != nil {
		return fmt.Errorf("delete saved query: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("saved query %q: %w", id, saved.ErrNotFound)
	}
	return nil
}
