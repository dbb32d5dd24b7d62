// Package postgres is the scaled-out store.Store: PostgreSQL through pgx v5
// (pgxpool). Several prospectd processes may share one database: migrations
// are applied under an advisory lock, and Bill serializes an organization's
// bills by locking its row. Migrations are embedded and applied at Open.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/openprospect/prospectd/store"
)

//go:embed migrations/*.up.sql
var migrations embed.FS

var _ store.Store = (*Store)(nil)

// migrateLock is the key of the transaction-scoped advisory lock migrations
// run under, so processes starting together apply each migration once.
const migrateLock int64 = 0x70726f7370656374 // "prospect"

// Store is a PostgreSQL-backed store.Store.
type Store struct {
	pool *pgxpool.Pool
}

// Open connects to the database at url (a postgres:// or postgresql:// URL,
// or a key=value connection string; pgxpool options such as pool_max_conns
// are accepted) and applies pending migrations.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: parse url: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	s := &Store{pool: pool}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: connect %s:%d/%s: %w", cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database, err)
	}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// migrate applies the pending migrations in one transaction that first
// takes a transaction-scoped advisory lock: a second process starting at
// the same time waits, then finds the migrations recorded.
func (s *Store) migrate(ctx context.Context) error {
	files, err := fs.Glob(migrations, "migrations/*.up.sql")
	if err != nil {
		return err
	}
	sort.Strings(files)
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrateLock); err != nil {
		return fmt.Errorf("migrate: lock: %w", err)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	rows, err := tx.Query(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	done, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	applied := map[int]bool{}
	for _, v := range done {
		applied[int(v)] = true
	}
	for _, f := range files {
		v, err := strconv.Atoi(strings.SplitN(path.Base(f), "_", 2)[0])
		if err != nil {
			return fmt.Errorf("migration %s: bad version: %w", f, err)
		}
		if applied[v] {
			continue
		}
		body, err := migrations.ReadFile(f)
		if err != nil {
			return fmt.Errorf("migration %s: %w", f, err)
		}
		// No arguments: pgx sends the file over the simple protocol, so it
		// may hold several statements.
		if _, err := tx.Exec(ctx, string(body)); err != nil {
			return fmt.Errorf("migration %s: %w", f, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)`, v, now()); err != nil {
			return fmt.Errorf("migration %s: %w", f, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("migrate: commit: %w", err)
	}
	return nil
}

// Close closes the pool.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// Health implements store.Store.
func (s *Store) Health(ctx context.Context) error {
	return s.pool.Ping(ctx)
}

// now is the current time at the database's precision, so a value returned
// to the caller equals the one read back later.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// pgCode is the SQLSTATE of a PostgreSQL error, "" for other errors.
func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

const (
	uniqueViolation     = "23505"
	foreignKeyViolation = "23503"
)

// CreateOrg implements store.Store.
func (s *Store) CreateOrg(ctx context.Context, name string, plan store.Plan) (store.Org, error) {
	o := store.Org{ID: uuid.NewString(), Name: strings.TrimSpace(name), Plan: plan, CreatedAt: now()}
	if o.Name == "" {
		return o, fmt.Errorf("create organization: empty name")
	}
	if _, err := store.ParsePlan(string(plan)); err != nil {
		return o, err
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO orgs (id, name, plan, created_at) VALUES ($1, $2, $3, $4)`, o.ID, o.Name, string(o.Plan), o.CreatedAt)
	if pgCode(err) == uniqueViolation {
		return o, fmt.Errorf("organization %q: %w", o.Name, store.ErrConflict)
	}
	if err != nil {
		return o, fmt.Errorf("create organization: %w", err)
	}
	return o, nil
}

func (s *Store) orgBy(ctx context.Context, column, value string) (store.Org, error) {
	var o store.Org
	var plan string
	err := s.pool.QueryRow(ctx, `SELECT id, name, plan, created_at FROM orgs WHERE `+column+` = $1`, value).Scan(&o.ID, &o.Name, &plan, &o.CreatedAt)
	o.Plan, o.CreatedAt = store.Plan(plan), o.CreatedAt.UTC()
	return o, err
}

// OrgByName implements store.Store.
func (s *Store) OrgByName(ctx context.Context, name string) (store.Org, error) {
	o, err := s.orgBy(ctx, "name", strings.TrimSpace(name))
	if errors.Is(err, pgx.ErrNoRows) {
		return o, fmt.Errorf("organization %q: %w", name, store.ErrNotFound)
	}
	if err != nil {
		return o, fmt.Errorf("look up organization: %w", err)
	}
	return o, nil
}

// OrgByID implements store.Store.
func (s *Store) OrgByID(ctx context.Context, orgID string) (store.Org, error) {
	o, err := s.orgBy(ctx, "id", orgID)
	if errors.Is(err, pgx.ErrNoRows) {
		return o, fmt.Errorf("organization %s: %w", orgID, store.ErrNotFound)
	}
	if err != nil {
		return o, fmt.Errorf("look up organization: %w", err)
	}
	return o, nil
}

// SetOrgPlan implements store.Store.
func (s *Store) SetOrgPlan(ctx context.Context, orgID string, plan store.Plan) error {
	if _, err := store.ParsePlan(string(plan)); err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `UPDATE orgs SET plan = $1 WHERE id = $2`, string(plan), orgID)
	if err != nil {
		return fmt.Errorf("set plan: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("organization %s: %w", orgID, store.ErrNotFound)
	}
	return nil
}

// CreateUser implements store.Store.
func (s *Store) CreateUser(ctx context.Context, orgID, email string, role store.Role) (store.User, error) {
	u := store.User{ID: uuid.NewString(), OrgID: orgID, Email: strings.ToLower(strings.TrimSpace(email)), Role: role, CreatedAt: now()}
	if role != store.RoleAdmin && role != store.RoleMember {
		return u, fmt.Errorf("create user: unknown role %q", role)
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO users (id, org_id, email, role, created_at) VALUES ($1, $2, $3, $4, $5)`,
		u.ID, u.OrgID, u.Email, string(u.Role), u.CreatedAt)
	switch code := pgCode(err); {
	case code == uniqueViolation:
		return u, fmt.Errorf("user %q: %w", u.Email, store.ErrConflict)
	case code == foreignKeyViolation:
		return u, fmt.Errorf("organization %s: %w", orgID, store.ErrNotFound)
	case err != nil:
		return u, fmt.Errorf("create user: %w", err)
	}
	return u, nil
}

// UserByEmail implements store.Store.
func (s *Store) UserByEmail(ctx context.Context, email string) (store.User, error) {
	var u store.User
	var role string
	err := s.pool.QueryRow(ctx, `SELECT id, org_id, email, role, created_at FROM users WHERE email = $1`, strings.ToLower(strings.TrimSpace(email))).
		Scan(&u.ID, &u.OrgID, &u.Email, &role, &u.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return u, fmt.Errorf("user %q: %w", email, store.ErrNotFound)
	}
	if err != nil {
		return u, fmt.Errorf("look up user: %w", err)
	}
	u.Role, u.CreatedAt = store.Role(role), u.CreatedAt.UTC()
	return u, nil
}

// CreateAPIKey implements store.Store. The key takes its organization from
// the user's row in the same statement, so a missing user inserts nothing.
func (s *Store) CreateAPIKey(ctx context.Context, userID string) (string, store.APIKey, error) {
	var k store.APIKey
	secret, err := store.NewSecret()
	if err != nil {
		return "", k, err
	}
	k = store.APIKey{ID: uuid.NewString(), UserID: userID, Prefix: store.DisplayPrefix(secret), CreatedAt: now()}
	err = s.pool.QueryRow(ctx, `INSERT INTO api_keys (id, org_id, user_id, prefix, hash, created_at)
		SELECT $1, u.org_id, u.id, $2, $3, $4 FROM users u WHERE u.id = $5
		RETURNING org_id`, k.ID, k.Prefix, store.HashSecret(secret), k.CreatedAt, userID).Scan(&k.OrgID)
	if errors.Is(err, pgx.ErrNoRows) || pgCode(err) == foreignKeyViolation {
		return "", store.APIKey{}, fmt.Errorf("user %s: %w", userID, store.ErrNotFound)
	}
	if err != nil {
		return "", store.APIKey{}, fmt.Errorf("create key: %w", err)
	}
	return secret, k, nil
}

// Authenticate implements store.Store.
func (s *Store) Authenticate(ctx context.Context, secret string) (store.Principal, error) {
	var p store.Principal
	if !strings.HasPrefix(secret, store.KeyPrefix) || len(secret) > 200 {
		return p, store.ErrUnauthorized
	}
	var plan, role string
	var lastUsed, revoked *time.Time
	err := s.pool.QueryRow(ctx, `
		SELECT k.id, k.last_used_at, k.revoked_at,
		       o.id, o.name, o.plan, o.created_at,
		       u.id, u.org_id, u.email, u.role, u.created_at
		FROM api_keys k JOIN users u ON u.id = k.user_id JOIN orgs o ON o.id = k.org_id
		WHERE k.hash = $1`, store.HashSecret(secret)).
		Scan(&p.KeyID, &lastUsed, &revoked, &p.Org.ID, &p.Org.Name, &plan, &p.Org.CreatedAt,
			&p.User.ID, &p.User.OrgID, &p.User.Email, &role, &p.User.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) || err == nil && revoked != nil {
		return store.Principal{}, store.ErrUnauthorized
	}
	if err != nil {
		return store.Principal{}, fmt.Errorf("authenticate: %w", err)
	}
	p.Org.Plan, p.User.Role = store.Plan(plan), store.Role(role)
	p.Org.CreatedAt, p.User.CreatedAt = p.Org.CreatedAt.UTC(), p.User.CreatedAt.UTC()
	// One last-used write per key per LastUsedEvery: checked here, and again
	// in the statement so processes racing on one key mostly write once.
	if t := now(); lastUsed == nil || t.Sub(*lastUsed) > store.LastUsedEvery {
		if _, err := s.pool.Exec(ctx, `UPDATE api_keys SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $3)`,
			t, p.KeyID, t.Add(-store.LastUsedEvery)); err != nil {
			return store.Principal{}, fmt.Errorf("record key use: %w", err)
		}
	}
	return p, nil
}

// RevokeAPIKey implements store.Store.
func (s *Store) RevokeAPIKey(ctx context.Context, keyID string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2`, now(), keyID)
	if err != nil {
		return fmt.Errorf("revoke key: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("key %s: %w", keyID, store.ErrNotFound)
	}
	return nil
}

// ListAPIKeys implements store.Store.
func (s *Store) ListAPIKeys(ctx context.Context, orgID string) ([]store.APIKey, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, org_id, user_id, prefix, created_at, last_used_at, revoked_at FROM api_keys WHERE org_id = $1 ORDER BY created_at, id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	defer rows.Close()
	var out []store.APIKey
	for rows.Next() {
		var k store.APIKey
		if err := rows.Scan(&k.ID, &k.OrgID, &k.UserID, &k.Prefix, &k.CreatedAt, &k.LastUsedAt, &k.RevokedAt); err != nil {
			return nil, fmt.Errorf("list keys: %w", err)
		}
		k.CreatedAt, k.LastUsedAt, k.RevokedAt = k.CreatedAt.UTC(), utcPtr(k.LastUsedAt), utcPtr(k.RevokedAt)
		out = append(out, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	return out, nil
}
