package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/ory/fosite"

	"github.com/openprospect/prospectd/store"
)

// State is the part of the state store the authorization server uses.
type State interface {
	store.OAuth
	store.Orgs
	UserByID(ctx context.Context, id string) (store.User, error)
}

// storage adapts the state store to fosite's storage interfaces. Every
// token is stored under fosite's signature of it (an HMAC keyed by the
// server's secret), so the store never holds a usable token.
type storage struct {
	st State
	// audience is every client's allowed audience: the one resource.
	audience []string
}

// client is a registered client as fosite sees it, with its name for the
// consent page.
type client struct {
	*fosite.DefaultOpenIDConnectClient
	Name string
}

func (s *storage) GetClient(ctx context.Context, id string) (fosite.Client, error) {
	c, err := s.st.OAuthClientByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fosite.ErrNotFound.WithHint("Unknown client.")
	}
	if err != nil {
		return nil, err
	}
	return toClient(c, s.audience), nil
}

func toClient(c store.OAuthClient, audience []string) *client {
	dc := &fosite.DefaultClient{
		ID:            c.ID,
		RedirectURIs:  c.RedirectURIs,
		GrantTypes:    []string{"authorization_code", "refresh_token"},
		ResponseTypes: []string{"code"},
		Scopes:        c.Scopes,
		Public:        c.SecretHash == "",
		Audience:      audience,
	}
	if c.SecretHash != "" {
		dc.Secret = []byte(c.SecretHash)
	}
	return &client{DefaultOpenIDConnectClient: &fosite.DefaultOpenIDConnectClient{DefaultClient: dc, TokenEndpointAuthMethod: c.AuthMethod}, Name: c.Name}
}

// errNoJWTAuth: private_key_jwt client authentication is not offered, so
// fosite never needs to remember assertion ids.
var errNoJWTAuth = errors.New("oauth: JWT client assertions are not supported")

func (s *storage) ClientAssertionJWTValid(context.Context, string) error { return errNoJWTAuth }

func (s *storage) SetClientAssertionJWT(context.Context, string, time.Time) error {
	return errNoJWTAuth
}

// stored is a fosite request as persisted: the client by id (read back
// from the clients table) and the session, never a token or secret.
type stored struct {
	ID                string                 `json:"id"`
	RequestedAt       time.Time              `json:"requested_at"`
	ClientID          string                 `json:"client_id"`
	RequestedScope    []string               `json:"requested_scope"`
	GrantedScope      []string               `json:"granted_scope"`
	Form              url.Values             `json:"form"`
	RequestedAudience []string               `json:"requested_audience"`
	GrantedAudience   []string               `json:"granted_audience"`
	Session           *fosite.DefaultSession `json:"session"`
}

// secretFields never reach the store, whatever fosite left in a form.
var secretFields = []string{"code", "refresh_token", "access_token", "code_verifier", "client_secret", "password", "token", "client_assertion"}

func (s *storage) save(ctx context.Context, kind, signature string, r fosite.Requester) error {
	sess, ok := r.GetSession().(*fosite.DefaultSession)
	if !ok {
		return fmt.Errorf("oauth: unexpected session type %T", r.GetSession())
	}
	form := url.Values{}
	for k, v := range r.GetRequestForm() {
		form[k] = v
	}
	for _, f := range secretFields {
		delete(form, f)
	}
	data, err := json.Marshal(stored{ID: r.GetID(), RequestedAt: r.GetRequestedAt(), ClientID: r.GetClient().GetID(),
		RequestedScope: r.GetRequestedScopes(), GrantedScope: r.GetGrantedScopes(), Form: form,
		RequestedAudience: r.GetRequestedAudience(), GrantedAudience: r.GetGrantedAudience(), Session: sess})
	if err != nil {
		return fmt.Errorf("encode oauth request: %w", err)
	}
	exp := expiry(kind, sess)
	return s.st.SaveOAuthToken(ctx, store.OAuthToken{Kind: kind, Signature: signature, RequestID: r.GetID(),
		ClientID: r.GetClient().GetID(), UserID: sess.Subject, Active: true, Data: data, ExpiresAt: exp})
}

// expiry is when a stored row may be purged: the token's own expiry
// (PKCE challenges live as long as their code).
func expiry(kind string, sess *fosite.DefaultSession) time.Time {
	tt := map[string]fosite.TokenType{store.OAuthCode: fosite.AuthorizeCode, store.OAuthPKCE: fosite.AuthorizeCode,
		store.OAuthAccess: fosite.AccessToken, store.OAuthRefresh: fosite.RefreshToken}[kind]
	if t := sess.GetExpiresAt(tt); !t.IsZero() {
		return t
	}
	// A refresh token without its own expiry lives as long as the grant
	// may: purge it after a year of no use at the latest.
	return time.Now().Add(365 * 24 * time.Hour)
}

// load reads a stored request back; notFound and inactive are the errors
// fosite expects for a missing and a used or revoked token.
func (s *storage) load(ctx context.Context, kind, signature string, inactive error) (fosite.Requester, error) {
	t, err := s.st.OAuthTokenBySignature(ctx, kind, signature)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fosite.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	var d stored
	if err := json.Unmarshal(t.Data, &d); err != nil {
		return nil, fmt.Errorf("decode oauth request: %w", err)
	}
	c, err := s.GetClient(ctx, d.ClientID)
	if err != nil {
		return nil, err
	}
	if d.Session == nil {
		d.Session = &fosite.DefaultSession{}
	}
	req := &fosite.Request{ID: d.ID, RequestedAt: d.RequestedAt, Client: c, RequestedScope: d.RequestedScope,
		GrantedScope: d.GrantedScope, Form: d.Form, Session: d.Session, RequestedAudience: d.RequestedAudience,
		GrantedAudience: d.GrantedAudience}
	if req.Form == nil {
		req.Form = url.Values{}
	}
	if !t.Active {
		return req, inactive
	}
	return req, nil
}

func (s *storage) CreateAuthorizeCodeSession(ctx context.Context, code string, r fosite.Requester) error {
	return s.save(ctx, store.OAuthCode, code, r)
}

func (s *storage) GetAuthorizeCodeSession(ctx context.Context, code string, _ fosite.Session) (fosite.Requester, error) {
	return s.load(ctx, store.OAuthCode, code, fosite.ErrInvalidatedAuthorizeCode)
}

func (s *storage) InvalidateAuthorizeCodeSession(ctx context.Context, code string) error {
	return s.st.DeactivateOAuthToken(ctx, store.OAuthCode, code)
}

func (s *storage) CreatePKCERequestSession(ctx context.Context, sig string, r fosite.Requester) error {
	return s.save(ctx, store.OAuthPKCE, sig, r)
}

func (s *storage) GetPKCERequestSession(ctx context.Context, sig string, _ fosite.Session) (fosite.Requester, error) {
	return s.load(ctx, store.OAuthPKCE, sig, fosite.ErrNotFound)
}

func (s *storage) DeletePKCERequestSession(ctx context.Context, sig string) error {
	return s.st.DeleteOAuthToken(ctx, store.OAuthPKCE, sig)
}

func (s *storage) CreateAccessTokenSession(ctx context.Context, sig string, r fosite.Requester) error {
	return s.save(ctx, store.OAuthAccess, sig, r)
}

func (s *storage) GetAccessTokenSession(ctx context.Context, sig string, _ fosite.Session) (fosite.Requester, error) {
	return s.load(ctx, store.OAuthAccess, sig, fosite.ErrInactiveToken)
}

func (s *storage) DeleteAccessTokenSession(ctx context.Context, sig string) error {
	return s.st.DeleteOAuthToken(ctx, store.OAuthAccess, sig)
}

func (s *storage) CreateRefreshTokenSession(ctx context.Context, sig, _ string, r fosite.Requester) error {
	return s.save(ctx, store.OAuthRefresh, sig, r)
}

func (s *storage) GetRefreshTokenSession(ctx context.Context, sig string, _ fosite.Session) (fosite.Requester, error) {
	// A used (rotated) or revoked refresh token comes back with
	// ErrInactiveToken and its request, so fosite can revoke the whole
	// grant when one is replayed.
	return s.load(ctx, store.OAuthRefresh, sig, fosite.ErrInactiveToken)
}

func (s *storage) DeleteRefreshTokenSession(ctx context.Context, sig string) error {
	return s.st.DeactivateOAuthToken(ctx, store.OAuthRefresh, sig)
}

// RotateRefreshToken retires the grant's refresh and access tokens before
// fosite issues the new pair (under the same request id).
func (s *storage) RotateRefreshToken(ctx context.Context, requestID, _ string) error {
	if err := s.RevokeRefreshToken(ctx, requestID); err != nil {
		return err
	}
	return s.RevokeAccessToken(ctx, requestID)
}

func (s *storage) RevokeRefreshToken(ctx context.Context, requestID string) error {
	return s.st.DeactivateOAuthRequest(ctx, store.OAuthRefresh, requestID)
}

func (s *storage) RevokeAccessToken(ctx context.Context, requestID string) error {
	return s.st.DeactivateOAuthRequest(ctx, store.OAuthAccess, requestID)
}
