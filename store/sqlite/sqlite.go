// Package sqlite is the default store.Store: one SQLite file in the data
// directory, through the pure-Go modernc.org/sqlite driver (no cgo).
// Migrations are embedded and applied at Open.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/openprospect/prospectd/internal/privatefs"
	"github.com/openprospect/prospectd/store"
)

//go:embed migrations/*.up.sql
var migrations embed.FS

var _ store.Store = (*Store)(nil)

// Store is a SQLite-backed store.Store. SQLite has one writer at a time, so
// writes go through a single connection and reads through a small pool; WAL
// mode lets them run side by side.
type Store struct {
	w, r *sql.DB
}

// Open opens (creating if needed) the database file at path and applies
// pending migrations. The file is readable by its owner only (0600, in a
// directory created 0700): SQLite creates its -wal and -shm files with
// the database file's mode, and older ones lose their group and other
// bits here.
func Open(ctx context.Context, path string) (*Store, error) {
	if err := privatefs.MkdirAll(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("create state dir: %w", err)
	}
	if err := privatefs.Touch(path); err != nil {
		return nil, fmt.Errorf("create state file: %w", err)
	}
	if err := privatefs.Restrict(path+"-wal", path+"-shm", path+"-journal"); err != nil {
		return nil, fmt.Errorf("state file: %w", err)
	}
	dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	w, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	r, err := sql.Open("sqlite", dsn)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	r.SetMaxOpenConns(4)
	s := &Store{w: w, r: r}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) migrate(ctx context.Context) error {
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	files, err := fs.Glob(migrations, "migrations/*.up.sql")
	if err != nil {
		return err
	}
	sort.Strings(files)
	for _, f := range files {
		v, err := strconv.Atoi(strings.SplitN(filepath.Base(f), "_", 2)[0])
		if err != nil {
			return fmt.Errorf("migration %s: bad version: %w", f, err)
		}
		body, _ := migrations.ReadFile(f)
		tx, err := s.w.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		var done int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = ?`, v).Scan(&done); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate: %w", err)
		}
		if done > 0 {
			tx.Rollback()
			continue
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", f, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`, v, time.Now().UnixMicro()); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", f, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migration %s: %w", f, err)
		}
	}
	return nil
}

// Close closes both pools.
func (s *Store) Close() error {
	return errors.Join(s.r.Close(), s.w.Close())
}

// Health implements store.Store.
func (s *Store) Health(ctx context.Context) error {
	return s.r.PingContext(ctx)
}

func now() int64 { return time.Now().UnixMicro() }

func ts(v int64) time.Time { return time.UnixMicro(v).UTC() }

func tsPtr(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := ts(v.Int64)
	return &t
}

func isUnique(err error) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}

// CreateOrg implements store.Store.
func (s *Store) CreateOrg(ctx context.Context, name string, plan store.Plan) (store.Org, error) {
	o := store.Org{ID: uuid.NewString(), Name: strings.TrimSpace(name), Plan: plan, CreatedAt: ts(now())}
	if o.Name == "" {
		return o, fmt.Errorf("create organization: empty name")
	}
	if _, err := store.ParsePlan(string(plan)); err != nil {
		return o, err
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO orgs (id, name, plan, created_at) VALUES (?, ?, ?, ?)`, o.ID, o.Name, string(o.Plan), o.CreatedAt.UnixMicro())
	if isUnique(err) {
		return o, fmt.Errorf("organization %q: %w", o.Name, store.ErrConflict)
	}
	if err != nil {
		return o, fmt.Errorf("create organization: %w", err)
	}
	return o, nil
}

// OrgByName implements store.Store.
func (s *Store) OrgByName(ctx context.Context, name string) (store.Org, error) {
	var o store.Org
	var created int64
	err := s.r.QueryRowContext(ctx, `SELECT id, name, plan, created_at FROM orgs WHERE name = ?`, strings.TrimSpace(name)).Scan(&o.ID, &o.Name, &o.Plan, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return o, fmt.Errorf("organization %q: %w", name, store.ErrNotFound)
	}
	if err != nil {
		return o, fmt.Errorf("look up organization: %w", err)
	}
	o.CreatedAt = ts(created)
	return o, nil
}

// SetOrgPlan implements store.Store.
func (s *Store) SetOrgPlan(ctx context.Context, orgID string, plan store.Plan) error {
	if _, err := store.ParsePlan(string(plan)); err != nil {
		return err
	}
	res, err := s.w.ExecContext(ctx, `UPDATE orgs SET plan = ? WHERE id = ?`, string(plan), orgID)
	if err != nil {
		return fmt.Errorf("set plan: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("organization %s: %w", orgID, store.ErrNotFound)
	}
	return nil
}

// CreateUser implements store.Store.
func (s *Store) CreateUser(ctx context.Context, orgID, email string, role store.Role) (store.User, error) {
	u := store.User{ID: uuid.NewString(), OrgID: orgID, Email: strings.ToLower(strings.TrimSpace(email)), Role: role, CreatedAt: ts(now())}
	if role != store.RoleAdmin && role != store.RoleMember {
		return u, fmt.Errorf("create user: unknown role %q", role)
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO users (id, org_id, email, role, created_at) VALUES (?, ?, ?, ?, ?)`, u.ID, u.OrgID, u.Email, string(u.Role), u.CreatedAt.UnixMicro())
	switch {
	case isUnique(err):
		return u, fmt.Errorf("user %q: %w", u.Email, store.ErrConflict)
	case err != nil && strings.Contains(err.Error(), "FOREIGN KEY"):
		return u, fmt.Errorf("organization %s: %w", orgID, store.ErrNotFound)
	case err != nil:
		return u, fmt.Errorf("create user: %w", err)
	}
	return u, nil
}

// UserByEmail implements store.Store.
func (s *Store) UserByEmail(ctx context.Context, email string) (store.User, error) {
	var u store.User
	var created int64
	err := s.r.QueryRowContext(ctx, `SELECT id, org_id, email, role, created_at FROM users WHERE email = ?`, strings.ToLower(strings.TrimSpace(email))).
		Scan(&u.ID, &u.OrgID, &u.Email, &u.Role, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return u, fmt.Errorf("user %q: %w", email, store.ErrNotFound)
	}
	if err != nil {
		return u, fmt.Errorf("look up user: %w", err)
	}
	u.CreatedAt = ts(created)
	return u, nil
}

// CreateAPIKey implements store.Store.
func (s *Store) CreateAPIKey(ctx context.Context, userID string) (string, store.APIKey, error) {
	var k store.APIKey
	secret, err := store.NewSecret()
	if err != nil {
		return "", k, err
	}
	var orgID string
	err = s.r.QueryRowContext(ctx, `SELECT org_id FROM users WHERE id = ?`, userID).Scan(&orgID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", k, fmt.Errorf("user %s: %w", userID, store.ErrNotFound)
	}
	if err != nil {
		return "", k, fmt.Errorf("create key: %w", err)
	}
	k = store.APIKey{ID: uuid.NewString(), OrgID: orgID, UserID: userID, Prefix: store.DisplayPrefix(secret), CreatedAt: ts(now())}
	_, err = s.w.ExecContext(ctx, `INSERT INTO api_keys (id, org_id, user_id, prefix, hash, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		k.ID, k.OrgID, k.UserID, k.Prefix, store.HashSecret(secret), k.CreatedAt.UnixMicro())
	if err != nil {
		return "", k, fmt.Errorf("create key: %w", err)
	}
	return secret, k, nil
}

// Authenticate implements store.Store.
func (s *Store) Authenticate(ctx context.Context, secret string) (store.Principal, error) {
	var p store.Principal
	if !strings.HasPrefix(secret, store.KeyPrefix) || len(secret) > 200 {
		return p, store.ErrUnauthorized
	}
	var orgCreated, userCreated int64
	var lastUsed, revoked sql.NullInt64
	err := s.r.QueryRowContext(ctx, `
		SELECT k.id, k.last_used_at, k.revoked_at,
		       o.id, o.name, o.plan, o.created_at,
		       u.id, u.org_id, u.email, u.role, u.created_at
		FROM api_keys k JOIN users u ON u.id = k.user_id JOIN orgs o ON o.id = k.org_id
		WHERE k.hash = ?`, store.HashSecret(secret)).
		Scan(&p.KeyID, &lastUsed, &revoked, &p.Org.ID, &p.Org.Name, &p.Org.Plan, &orgCreated,
			&p.User.ID, &p.User.OrgID, &p.User.Email, &p.User.Role, &userCreated)
	if errors.Is(err, sql.ErrNoRows) || err == nil && revoked.Valid {
		return store.Principal{}, store.ErrUnauthorized
	}
	if err != nil {
		return store.Principal{}, fmt.Errorf("authenticate: %w", err)
	}
	p.Org.CreatedAt, p.User.CreatedAt = ts(orgCreated), ts(userCreated)
	if t := now(); !lastUsed.Valid || t-lastUsed.Int64 > store.LastUsedEvery.Microseconds() {
		if _, err := s.w.ExecContext(ctx, `UPDATE api_keys SET last_used_at = ? WHERE id = ?`, t, p.KeyID); err != nil {
			return store.Principal{}, fmt.Errorf("record key use: %w", err)
		}
	}
	return p, nil
}

// RevokeAPIKey implements store.Store.
func (s *Store) RevokeAPIKey(ctx context.Context, keyID string) error {
	res, err := s.w.ExecContext(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`, now(), keyID)
	if err != nil {
		return fmt.Errorf("revoke key: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("key %s: %w", keyID, store.ErrNotFound)
	}
	return nil
}

// ListAPIKeys implements store.Store.
func (s *Store) ListAPIKeys(ctx context.Context, orgID string) ([]store.APIKey, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, org_id, user_id, prefix, created_at, last_used_at, revoked_at FROM api_keys WHERE org_id = ? ORDER BY created_at, id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	defer rows.Close()
	var out []store.APIKey
	for rows.Next() {
		var k store.APIKey
		var created int64
		var last, rev sql.NullInt64
		if err := rows.Scan(&k.ID, &k.OrgID, &k.UserID, &k.Prefix, &created, &last, &rev); err != nil {
			return nil, fmt.Errorf("list keys: %w", err)
		}
		k.CreatedAt, k.LastUsedAt, k.RevokedAt = ts(created), tsPtr(last), tsPtr(rev)
		out = append(out, k)
	}
	return out, rows.Err()
}
