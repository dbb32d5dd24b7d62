package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/openprospect/prospectd/store"
)

// UserByID implements store.Logins.
func (s *Store) UserByID(ctx context.Context, id string) (store.User, error) {
	var u store.User
	var role string
	err := s.pool.QueryRow(ctx, `SELECT id, org_id, email, role, created_at FROM users WHERE id = $1`, id).
		Scan(&u.ID, &u.OrgID, &u.Email, &role, &u.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return u, fmt.Errorf("user %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return u, fmt.Errorf("look up user: %w", err)
	}
	u.Role, u.CreatedAt = store.Role(role), u.CreatedAt.UTC()
	return u, nil
}

// SetPassword implements store.Logins.
func (s *Store) SetPassword(ctx context.Context, userID, hash string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO user_passwords (user_id, hash, updated_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at`, userID, hash, now())
	if pgCode(err) == foreignKeyViolation {
		return fmt.Errorf("user %s: %w", userID, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("set password: %w", err)
	}
	return nil
}

// PasswordHash implements store.Logins.
func (s *Store) PasswordHash(ctx context.Context, userID string) (string, error) {
	var h string
	err := s.pool.QueryRow(ctx, `SELECT hash FROM user_passwords WHERE user_id = $1`, userID).Scan(&h)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("password of %s: %w", userID, store.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("read password: %w", err)
	}
	return h, nil
}

// CreateWebSession implements store.Logins.
func (s *Store) CreateWebSession(ctx context.Context, ws store.WebSession) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO web_sessions (id_hash, user_id, csrf, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
		ws.IDHash, ws.UserID, ws.CSRF, ws.CreatedAt.UTC(), ws.ExpiresAt.UTC())
	if err != nil {
		return fmt.Errorf("create web session: %w", err)
	}
	return nil
}

// WebSession implements store.Logins.
func (s *Store) WebSession(ctx context.Context, idHash string, at time.Time) (store.WebSession, error) {
	ws := store.WebSession{IDHash: idHash}
	err := s.pool.QueryRow(ctx, `SELECT user_id, csrf, created_at, expires_at FROM web_sessions WHERE id_hash = $1 AND expires_at > $2`,
		idHash, at.UTC()).Scan(&ws.UserID, &ws.CSRF, &ws.CreatedAt, &ws.ExpiresAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return ws, fmt.Errorf("web session: %w", store.ErrNotFound)
	}
	if err != nil {
		return ws, fmt.Errorf("read web session: %w", err)
	}
	ws.CreatedAt, ws.ExpiresAt = ws.CreatedAt.UTC(), ws.ExpiresAt.UTC()
	return ws, nil
}

// DeleteWebSession implements store.Logins.
func (s *Store) DeleteWebSession(ctx context.Context, idHash string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM web_sessions WHERE id_hash = $1`, idHash); err != nil {
		return fmt.Errorf("delete web session: %w", err)
	}
	return nil
}

// DeleteUserWebSessions implements store.Logins.
func (s *Store) DeleteUserWebSessions(ctx context.Context, userID string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM web_sessions WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("delete web sessions: %w", err)
	}
	return nil
}

// CreateOAuthClient implements store.OAuth.
func (s *Store) CreateOAuthClient(ctx context.Context, c store.OAuthClient) error {
	uris, _ := json.Marshal(c.RedirectURIs)
	scopes, _ := json.Marshal(c.Scopes)
	_, err := s.pool.Exec(ctx, `INSERT INTO oauth_clients (id, secret_hash, name, redirect_uris, scopes, auth_method, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		c.ID, c.SecretHash, c.Name, string(uris), string(scopes), c.AuthMethod, c.CreatedAt.UTC())
	if pgCode(err) == uniqueViolation {
		return fmt.Errorf("oauth client %s: %w", c.ID, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("create oauth client: %w", err)
	}
	return nil
}

// OAuthClientByID implements store.OAuth.
func (s *Store) OAuthClientByID(ctx context.Context, id string) (store.OAuthClient, error) {
	c := store.OAuthClient{ID: id}
	var uris, scopes []byte
	err := s.pool.QueryRow(ctx, `SELECT secret_hash, name, redirect_uris, scopes, auth_method, created_at FROM oauth_clients WHERE id = $1`, id).
		Scan(&c.SecretHash, &c.Name, &uris, &scopes, &c.AuthMethod, &c.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return c, fmt.Errorf("oauth client %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("read oauth client: %w", err)
	}
	if err := json.Unmarshal(uris, &c.RedirectURIs); err != nil {
		return c, fmt.Errorf("oauth client %s redirect uris: %w", id, err)
	}
	if err := json.Unmarshal(scopes, &c.Scopes); err != nil {
		return c, fmt.Errorf("oauth client %s scopes: %w", id, err)
	}
	c.CreatedAt = c.CreatedAt.UTC()
	return c, nil
}

// SaveOAuthToken implements store.OAuth.
func (s *Store) SaveOAuthToken(ctx context.Context, t store.OAuthToken) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO oauth_tokens (kind, signature, request_id, client_id, user_id, active, data, expires_at, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, t.Kind, t.Signature, t.RequestID, t.ClientID, t.UserID, t.Active, t.Data,
		t.ExpiresAt.UTC(), now())
	switch pgCode(err) {
	case uniqueViolation:
		return fmt.Errorf("oauth %s token: %w", t.Kind, store.ErrConflict)
	case foreignKeyViolation:
		return fmt.Errorf("oauth %s token: client or user: %w", t.Kind, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("save oauth token: %w", err)
	}
	return nil
}

// OAuthTokenBySignature implements store.OAuth.
func (s *Store) OAuthTokenBySignature(ctx context.Context, kind, signature string) (store.OAuthToken, error) {
	t := store.OAuthToken{Kind: kind, Signature: signature}
	err := s.pool.QueryRow(ctx, `SELECT request_id, client_id, user_id, active, data, expires_at, created_at FROM oauth_tokens WHERE kind = $1 AND signature = $2`,
		kind, signature).Scan(&t.RequestID, &t.ClientID, &t.UserID, &t.Active, &t.Data, &t.ExpiresAt, &t.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return t, fmt.Errorf("oauth %s token: %w", kind, store.ErrNotFound)
	}
	if err != nil {
		return t, fmt.Errorf("read oauth token: %w", err)
	}
	t.ExpiresAt, t.CreatedAt = t.ExpiresAt.UTC(), t.CreatedAt.UTC()
	return t, nil
}

// DeactivateOAuthToken implements store.OAuth.
func (s *Store) DeactivateOAuthToken(ctx context.Context, kind, signature string) error {
	if _, err := s.pool.Exec(ctx, `UPDATE oauth_tokens SET active = false WHERE kind = $1 AND signature = $2`, kind, signature); err != nil {
		return fmt.Errorf("deactivate oauth token: %w", err)
	}
	return nil
}

// DeleteOAuthToken implements store.OAuth.
func (s *Store) DeleteOAuthToken(ctx context.Context, kind, signature string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM oauth_tokens WHERE kind = $1 AND signature = $2`, kind, signature); err != nil {
		return fmt.Errorf("delete oauth token: %w", err)
	}
	return nil
}

// DeactivateOAuthRequest implements store.OAuth.
func (s *Store) DeactivateOAuthRequest(ctx context.Context, kind, requestID string) error {
	if _, err := s.pool.Exec(ctx, `UPDATE oauth_tokens SET active = false WHERE kind = $1 AND request_id = $2`, kind, requestID); err != nil {
		return fmt.Errorf("revoke oauth grant: %w", err)
	}
	return nil
}

// ActiveOAuthGrants implements store.OAuth.
func (s *Store) ActiveOAuthGrants(ctx context.Context, userID string, at time.Time) ([]store.OAuthGrant, error) {
	rows, err := s.pool.Query(ctx, `SELECT t.request_id, t.client_id, c.name, MIN(t.created_at) FROM oauth_tokens t JOIN oauth_clients c ON c.id = t.client_id
		WHERE t.user_id = $1 AND t.active AND t.kind IN ('access', 'refresh') AND t.expires_at > $2
		GROUP BY t.request_id, t.client_id, c.name ORDER BY MIN(t.created_at) DESC`, userID, at.UTC())
	if err != nil {
		return nil, fmt.Errorf("list oauth grants: %w", err)
	}
	defer rows.Close()
	var out []store.OAuthGrant
	for rows.Next() {
		var g store.OAuthGrant
		if err := rows.Scan(&g.RequestID, &g.ClientID, &g.ClientName, &g.CreatedAt); err != nil {
			return nil, fmt.Errorf("list oauth grants: %w", err)
		}
		g.CreatedAt = g.CreatedAt.UTC()
		out = append(out, g)
	}
	return out, rows.Err()
}

// PurgeOAuthTokens implements store.OAuth.
func (s *Store) PurgeOAuthTokens(ctx context.Context, cutoff time.Time) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM oauth_tokens WHERE expires_at < $1`, cutoff.UTC()); err != nil {
		return fmt.Errorf("purge oauth tokens: %w", err)
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM web_sessions WHERE expires_at < $1`, cutoff.UTC()); err != nil {
		return fmt.Errorf("purge web sessions: %w", err)
	}
	return nil
}
