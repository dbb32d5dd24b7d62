package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/openprospect/prospectd/store"
)

// UserByID implements store.Logins.
func (s *Store) UserByID(ctx context.Context, id string) (store.User, error) {
	var u store.User
	var created int64
	err := s.r.QueryRowContext(ctx, `SELECT id, org_id, email, role, created_at FROM users WHERE id = ?`, id).
		Scan(&u.ID, &u.OrgID, &u.Email, &u.Role, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return u, fmt.Errorf("user %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return u, fmt.Errorf("look up user: %w", err)
	}
	u.CreatedAt = ts(created)
	return u, nil
}

// SetPassword implements store.Logins.
func (s *Store) SetPassword(ctx context.Context, userID, hash string) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO user_passwords (user_id, hash, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at`, userID, hash, now())
	if err != nil && strings.Contains(err.Error(), "FOREIGN KEY") {
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
	err := s.r.QueryRowContext(ctx, `SELECT hash FROM user_passwords WHERE user_id = ?`, userID).Scan(&h)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("password of %s: %w", userID, store.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("read password: %w", err)
	}
	return h, nil
}

// CreateWebSession implements store.Logins.
func (s *Store) CreateWebSession(ctx context.Context, ws store.WebSession) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO web_sessions (id_hash, user_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
		ws.IDHash, ws.UserID, ws.CSRF, ws.CreatedAt.UnixMicro(), ws.ExpiresAt.UnixMicro())
	if err != nil {
		return fmt.Errorf("create web session: %w", err)
	}
	return nil
}

// WebSession implements store.Logins.
func (s *Store) WebSession(ctx context.Context, idHash string, at time.Time) (store.WebSession, error) {
	ws := store.WebSession{IDHash: idHash}
	var created, expires int64
	err := s.r.QueryRowContext(ctx, `SELECT user_id, csrf, created_at, expires_at FROM web_sessions WHERE id_hash = ? AND expires_at > ?`,
		idHash, at.UnixMicro()).Scan(&ws.UserID, &ws.CSRF, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return ws, fmt.Errorf("web session: %w", store.ErrNotFound)
	}
	if err != nil {
		return ws, fmt.Errorf("read web session: %w", err)
	}
	ws.CreatedAt, ws.ExpiresAt = ts(created), ts(expires)
	return ws, nil
}

// DeleteWebSession implements store.Logins.
func (s *Store) DeleteWebSession(ctx context.Context, idHash string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM web_sessions WHERE id_hash = ?`, idHash); err != nil {
		return fmt.Errorf("delete web session: %w", err)
	}
	return nil
}

// DeleteUserWebSessions implements store.Logins.
func (s *Store) DeleteUserWebSessions(ctx context.Context, userID string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM web_sessions WHERE user_id = ?`, userID); err != nil {
		return fmt.Errorf("delete web sessions: %w", err)
	}
	return nil
}

// CreateOAuthClient implements store.OAuth.
func (s *Store) CreateOAuthClient(ctx context.Context, c store.OAuthClient) error {
	uris, _ := json.Marshal(c.RedirectURIs)
	scopes, _ := json.Marshal(c.Scopes)
	_, err := s.w.ExecContext(ctx, `INSERT INTO oauth_clients (id, secret_hash, name, redirect_uris, scopes, auth_method, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.SecretHash, c.Name, string(uris), string(scopes), c.AuthMethod, c.CreatedAt.UnixMicro())
	if isUnique(err) {
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
	var uris, scopes string
	var created int64
	err := s.r.QueryRowContext(ctx, `SELECT secret_hash, name, redirect_uris, scopes, auth_method, created_at FROM oauth_clients WHERE id = ?`, id).
		Scan(&c.SecretHash, &c.Name, &uris, &scopes, &c.AuthMethod, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("oauth client %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("read oauth client: %w", err)
	}
	if err := json.Unmarshal([]byte(uris), &c.RedirectURIs); err != nil {
		return c, fmt.Errorf("oauth client %s redirect uris: %w", id, err)
	}
	if err := json.Unmarshal([]byte(scopes), &c.Scopes); err != nil {
		return c, fmt.Errorf("oauth client %s scopes: %w", id, err)
	}
	c.CreatedAt = ts(created)
	return c, nil
}

// SaveOAuthToken implements store.OAuth.
func (s *Store) SaveOAuthToken(ctx context.Context, t store.OAuthToken) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO oauth_tokens (kind, signature, request_id, client_id, user_id, active, data, expires_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.Kind, t.Signature, t.RequestID, t.ClientID, t.UserID, t.Active, t.Data,
		t.ExpiresAt.UnixMicro(), now())
	switch {
	case isUnique(err):
		return fmt.Errorf("oauth %s token: %w", t.Kind, store.ErrConflict)
	case err != nil && strings.Contains(err.Error(), "FOREIGN KEY"):
		return fmt.Errorf("oauth %s token: client or user: %w", t.Kind, store.ErrNotFound)
	case err != nil:
		return fmt.Errorf("save oauth token: %w", err)
	}
	return nil
}

// OAuthTokenBySignature implements store.OAuth.
func (s *Store) OAuthTokenBySignature(ctx context.Context, kind, signature string) (store.OAuthToken, error) {
	t := store.OAuthToken{Kind: kind, Signature: signature}
	var expires, created int64
	err := s.r.QueryRowContext(ctx, `SELECT request_id, client_id, user_id, active, data, expires_at, created_at FROM oauth_tokens WHERE kind = ? AND signature = ?`,
		kind, signature).Scan(&t.RequestID, &t.ClientID, &t.UserID, &t.Active, &t.Data, &expires, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return t, fmt.Errorf("oauth %s token: %w", kind, store.ErrNotFound)
	}
	if err != nil {
		return t, fmt.Errorf("read oauth token: %w", err)
	}
	t.ExpiresAt, t.CreatedAt = ts(expires), ts(created)
	return t, nil
}

// DeactivateOAuthToken implements store.OAuth.
func (s *Store) DeactivateOAuthToken(ctx context.Context, kind, signature string) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE oauth_tokens SET active = 0 WHERE kind = ? AND signature = ?`, kind, signature); err != nil {
		return fmt.Errorf("deactivate oauth token: %w", err)
	}
	return nil
}

// DeleteOAuthToken implements store.OAuth.
func (s *Store) DeleteOAuthToken(ctx context.Context, kind, signature string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM oauth_tokens WHERE kind = ? AND signature = ?`, kind, signature); err != nil {
		return fmt.Errorf("delete oauth token: %w", err)
	}
	return nil
}

// DeactivateOAuthRequest implements store.OAuth.
func (s *Store) DeactivateOAuthRequest(ctx context.Context, kind, requestID string) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE oauth_tokens SET active = 0 WHERE kind = ? AND request_id = ?`, kind, requestID); err != nil {
		return fmt.Errorf("revoke oauth grant: %w", err)
	}
	return nil
}

// ActiveOAuthGrants implements store.OAuth.
func (s *Store) ActiveOAuthGrants(ctx context.Context, userID string, at time.Time) ([]store.OAuthGrant, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT t.request_id, t.client_id, c.name, MIN(t.created_at) FROM oauth_tokens t JOIN oauth_clients c ON c.id = t.client_id
		WHERE t.user_id = ? AND t.active = 1 AND t.kind IN ('access', 'refresh') AND t.expires_at > ?
		GROUP BY t.request_id, t.client_id, c.name ORDER BY MIN(t.created_at) DESC`, userID, at.UnixMicro())
	if err != nil {
		return nil, fmt.Errorf("list oauth grants: %w", err)
	}
	defer rows.Close()
	var out []store.OAuthGrant
	for rows.Next() {
		var g store.OAuthGrant
		var created int64
		if err := rows.Scan(&g.RequestID, &g.ClientID, &g.ClientName, &created); err != nil {
			return nil, fmt.Errorf("list oauth grants: %w", err)
		}
		g.CreatedAt = ts(created)
		out = append(out, g)
	}
	return out, rows.Err()
}

// PurgeOAuthTokens implements store.OAuth.
func (s *Store) PurgeOAuthTokens(ctx context.Context, cutoff time.Time) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM oauth_tokens WHERE expires_at < ?`, cutoff.UnixMicro()); err != nil {
		return fmt.Errorf("purge oauth tokens: %w", err)
	}
	if _, err := s.w.ExecContext(ctx, `DELETE FROM web_sessions WHERE expires_at < ?`, cutoff.UnixMicro()); err != nil {
		return fmt.Errorf("purge web sessions: %w", err)
	}
	return nil
}
