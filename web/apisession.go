package web

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"

	"github.com/openprospect/prospectd/store"
)

// Errors of SessionFromCookies.
var (
	// ErrNoSession: the request carries no live web-app session.
	ErrNoSession = errors.New("no signed-in web app session")
	// ErrBadCSRF: the session's CSRF token was not presented.
	ErrBadCSRF = errors.New("missing or wrong CSRF token")
)

// SessionFromCookies resolves a request's Cookie header to the signed-in
// user and organization, when csrf is the session's anti-forgery token.
// API routes that need a person at the web app rather than an API key
// (deleting a CRM connection) authenticate with it; the token is the one
// every form of the app carries.
func (a *App) SessionFromCookies(ctx context.Context, cookieHeader, csrf string) (store.User, store.Org, error) {
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, "/", nil)
	if err != nil {
		return store.User{}, store.Org{}, err
	}
	r.Header.Set("Cookie", cookieHeader)
	s, u, ok := a.session(r)
	if !ok {
		return store.User{}, store.Org{}, ErrNoSession
	}
	if csrf == "" || subtle.ConstantTimeCompare([]byte(csrf), []byte(s.CSRF)) != 1 {
		return store.User{}, store.Org{}, ErrBadCSRF
	}
	org, err := a.cfg.State.OrgByID(ctx, u.OrgID)
	if err != nil {
		return store.User{}, store.Org{}, fmt.Errorf("session organization: %w", err)
	}
	return u, org, nil
}
