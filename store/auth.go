package store

import (
	"context"
	"time"
)

// Sign-in state: passwords and web sessions of the web app, and the OAuth
// 2.1 authorization server's clients and tokens. Secrets are never stored
// in clear: passwords as argon2id hashes, session ids and OAuth tokens as
// hashes or the token library's HMAC signatures.

// Logins are the web app's sign-in state.
type Logins interface {
	// UserByID returns a user; ErrNotFound for an unknown id.
	UserByID(ctx context.Context, id string) (User, error)
	// SetPassword stores a user's password hash (replacing any).
	// ErrNotFound for an unknown user.
	SetPassword(ctx context.Context, userID, hash string) error
	// PasswordHash returns a user's password hash; ErrNotFound when the
	// user has none (or does not exist).
	PasswordHash(ctx context.Context, userID string) (string, error)
	// CreateWebSession records a session under the hash of its id.
	CreateWebSession(ctx context.Context, s WebSession) error
	// WebSession returns the unexpired session whose id hashes to
	// idHash; ErrNotFound otherwise.
	WebSession(ctx context.Context, idHash string, now time.Time) (WebSession, error)
	// DeleteWebSession ends a session (a no-op for an unknown one).
	DeleteWebSession(ctx context.Context, idHash string) error
	// DeleteUserWebSessions ends every session of a user (after a
	// password change).
	DeleteUserWebSessions(ctx context.Context, userID string) error
}

// WebSession is a signed-in browser.
type WebSession struct {
	IDHash    string // HashSecret of the cookie value
	UserID    string
	CSRF      string // the session's anti-forgery token
	CreatedAt time.Time
	ExpiresAt time.Time
}

// OAuthClient is a client registered with the authorization server.
type OAuthClient struct {
	ID string
	// SecretHash is empty for a public client (PKCE, no secret).
	SecretHash   string
	Name         string
	RedirectURIs []string
	Scopes       []string
	AuthMethod   string // token_endpoint_auth_method
	CreatedAt    time.Time
}

// OAuth token kinds.
const (
	OAuthCode    = "code"
	OAuthPKCE    = "pkce"
	OAuthAccess  = "access"
	OAuthRefresh = "refresh"
)

// OAuthToken is one stored authorization code, PKCE challenge, access or
// refresh token, keyed by the token's signature (an HMAC, never the
// token), with the authorization request it belongs to.
type OAuthToken struct {
	Kind      string
	Signature string
	RequestID string // the grant: shared by a code and the tokens it led to
	ClientID  string
	UserID    string
	Active    bool
	Data      []byte // the serialized request (no secrets)
	ExpiresAt time.Time
	CreatedAt time.Time
}

// OAuthGrant summarizes one authorization a user gave a client.
type OAuthGrant struct {
	RequestID  string
	ClientID   string
	ClientName string
	CreatedAt  time.Time
}

// OAuth is the authorization server's state.
type OAuth interface {
	CreateOAuthClient(ctx context.Context, c OAuthClient) error
	// OAuthClientByID returns a client; ErrNotFound for an unknown id.
	OAuthClientByID(ctx context.Context, id string) (OAuthClient, error)
	SaveOAuthToken(ctx context.Context, t OAuthToken) error
	// OAuthTokenBySignature returns a token of kind, active or not;
	// ErrNotFound for an unknown one.
	OAuthTokenBySignature(ctx context.Context, kind, signature string) (OAuthToken, error)
	// DeactivateOAuthToken marks one token used or revoked.
	DeactivateOAuthToken(ctx context.Context, kind, signature string) error
	DeleteOAuthToken(ctx context.Context, kind, signature string) error
	// DeactivateOAuthRequest marks every token of kind of a grant revoked.
	DeactivateOAuthRequest(ctx context.Context, kind, requestID string) error
	// ActiveOAuthGrants lists the grants with an active refresh or access
	// token of a user, newest first.
	ActiveOAuthGrants(ctx context.Context, userID string, now time.Time) ([]OAuthGrant, error)
	// PurgeOAuthTokens deletes tokens that expired before cutoff.
	PurgeOAuthTokens(ctx context.Context, cutoff time.Time) error
}
