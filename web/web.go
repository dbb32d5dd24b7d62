// Package web is the small server-rendered web app behind sign-in: after
// a signup is confirmed the person sets a password, signs in, sees the
// plan and usage, issues and revokes API keys (a new key is shown once),
// and approves or denies OAuth clients of the tool server on a consent
// page. Pages are html/template; no front-end build. Sessions are opaque
// random cookies stored hashed, with a per-session CSRF token, expiry,
// Secure/HttpOnly/SameSite cookies, and rate-limited sign-in.
package web

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/base64"
	"errors"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/time/rate"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/oauth"
	"github.com/openprospect/prospectd/store"
)

// Prefix is where the app is mounted.
const Prefix = "/app/"

// ConfirmPath is the signup confirmation page the email links to.
const ConfirmPath = "/app/confirm"

// SessionTTL is how long a sign-in lasts.
const SessionTTL = 12 * time.Hour

//go:embed templates/*.html
var templateFS embed.FS

var pages = template.Must(template.ParseFS(templateFS, "templates/*.html"))

// State is the part of the state store the app uses.
type State interface {
	store.Logins
	store.Orgs
	store.Users
	store.Keys
	store.OAuth
}

// Grants revokes an OAuth grant (the authorization server's).
type Grants interface {
	RevokeGrant(ctx context.Context, userID, requestID string) error
}

// Config configures the app.
type Config struct {
	State   State
	Signups *account.Signups
	Biller  *account.Biller
	Grants  Grants
	// Secure marks cookies Secure (the public origin is https); the
	// cookie name then takes the __Host- prefix.
	Secure bool
	Log    zerolog.Logger
	Now    func() time.Time
	// CRM lists the organization's CRM connections on the account page
	// (nil: no such section); see SetCRM.
	CRM CRM
}

// App is the web app.
type App struct {
	cfg     Config
	mux     *http.ServeMux
	byIP    *limiter
	byEmail *limiter
}

// New builds the app.
func New(cfg Config) *App {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	a := &App{cfg: cfg,
		// Sign-in attempts: 10 a minute per address and 5 a minute per
		// account, with small bursts, so guessing a password is slow from
		// one place and from many.
		byIP: newLimiter(rate.Every(6*time.Second), 10), byEmail: newLimiter(rate.Every(12*time.Second), 5)}
	m := http.NewServeMux()
	m.HandleFunc("GET /app/{$}", a.account)
	m.HandleFunc("GET /app/login", a.loginPage)
	m.HandleFunc("POST /app/login", a.login)
	m.HandleFunc("POST /app/logout", a.logout)
	m.HandleFunc("GET "+ConfirmPath, a.confirm)
	m.HandleFunc("GET /app/password", a.passwordPage)
	m.HandleFunc("POST /app/password", a.setPassword)
	m.HandleFunc("POST /app/keys", a.createKey)
	m.HandleFunc("POST /app/keys/revoke", a.revokeKey)
	m.HandleFunc("POST /app/grants/revoke", a.revokeGrant)
	m.HandleFunc("POST /app/crm/disconnect", a.disconnectCRM)
	m.HandleFunc("/app/", func(w http.ResponseWriter, r *http.Request) {
		a.message(w, r, http.StatusNotFound, "Not found", "There is no page here.", "/app/", "Go to your account")
	})
	a.mux = m
	return a
}

// Handler serves the app.
func (a *App) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		headers(w)
		a.mux.ServeHTTP(w, r)
	})
}

// headers forbid framing, caching, referrers and any script: the pages
// have none, so an injected one could not run either.
func headers(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
}

func (a *App) cookieName() string {
	if a.cfg.Secure {
		return "__Host-prospect_session"
	}
	return "prospect_session"
}

func (a *App) preCookieName() string {
	if a.cfg.Secure {
		return "__Host-prospect_login"
	}
	return "prospect_login"
}

// view is what every page template reads.
type view struct {
	Title, Error, CSRF string
	User               *store.User
	Org                store.Org
	Next, Email        string
	Message, Link      string
	LinkText, NewKey   string
	Usage              account.UsageReport
	Keys               []store.APIKey
	Grants             []store.OAuthGrant
	Consent            oauth.Consent
	CRM                []crm.Status
	HasCRM             bool
}

func (a *App) render(w http.ResponseWriter, status int, name string, v view) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := pages.ExecuteTemplate(w, name, v); err != nil {
		a.cfg.Log.Error().Err(err).Str("page", name).Msg("render page")
	}
}

func (a *App) message(w http.ResponseWriter, r *http.Request, status int, title, msg, link, linkText string) {
	v := view{Title: title, Message: msg, Link: link, LinkText: linkText}
	if s, u, ok := a.session(r); ok {
		v.User, v.CSRF = &u, s.CSRF
	}
	a.render(w, status, "message.html", v)
}

func random(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// session returns the signed-in session and user of r.
func (a *App) session(r *http.Request) (store.WebSession, store.User, bool) {
	c, err := r.Cookie(a.cookieName())
	if err != nil || c.Value == "" || len(c.Value) > 100 {
		return store.WebSession{}, store.User{}, false
	}
	s, err := a.cfg.State.WebSession(r.Context(), store.HashSecret(c.Value), a.cfg.Now())
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			a.cfg.Log.Error().Err(err).Msg("read web session")
		}
		return s, store.User{}, false
	}
	u, err := a.cfg.State.UserByID(r.Context(), s.UserID)
	if err != nil {
		return s, u, false
	}
	return s, u, true
}

// startSession signs the user in on this browser.
func (a *App) startSession(w http.ResponseWriter, r *http.Request, u store.User) error {
	id := random(32)
	now := a.cfg.Now()
	s := store.WebSession{IDHash: store.HashSecret(id), UserID: u.ID, CSRF: random(24), CreatedAt: now, ExpiresAt: now.Add(SessionTTL)}
	if err := a.cfg.State.CreateWebSession(r.Context(), s); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: a.cookieName(), Value: id, Path: "/", HttpOnly: true, Secure: a.cfg.Secure,
		SameSite: http.SameSiteLaxMode, Expires: s.ExpiresAt, MaxAge: int(SessionTTL.Seconds())})
	return nil
}

func (a *App) endSession(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(a.cookieName()); err == nil {
		_ = a.cfg.State.DeleteWebSession(r.Context(), store.HashSecret(c.Value))
	}
	http.SetCookie(w, &http.Cookie{Name: a.cookieName(), Value: "", Path: "/", HttpOnly: true, Secure: a.cfg.Secure, SameSite: http.SameSiteLaxMode, MaxAge: -1})
}

// SignedIn implements oauth.Pages.
func (a *App) SignedIn(r *http.Request) (store.User, bool) {
	_, u, ok := a.session(r)
	return u, ok
}

// ValidCSRF implements oauth.Pages: the posted token must be the
// session's.
func (a *App) ValidCSRF(r *http.Request) bool {
	s, _, ok := a.session(r)
	got := r.PostFormValue("csrf")
	return ok && got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.CSRF)) == 1
}

// Login implements oauth.Pages.
func (a *App) Login(w http.ResponseWriter, r *http.Request, next string) {
	http.Redirect(w, r, "/app/login?next="+urlQueryEscape(next), http.StatusSeeOther)
}

// Consent implements oauth.Pages.
func (a *App) Consent(w http.ResponseWriter, r *http.Request, c oauth.Consent) {
	headers(w)
	s, u, ok := a.session(r)
	if !ok {
		a.Login(w, r, r.URL.RequestURI())
		return
	}
	org, err := a.cfg.State.OrgByID(r.Context(), u.OrgID)
	if err != nil {
		a.fail(w, r, "read organization", err)
		return
	}
	if c.ClientName == "" {
		c.ClientName = "Unnamed client"
	}
	a.render(w, http.StatusOK, "consent.html", view{Title: "Authorize " + c.ClientName, User: &u, CSRF: s.CSRF, Org: org, Consent: c})
}

func (a *App) fail(w http.ResponseWriter, r *http.Request, what string, err error) {
	a.cfg.Log.Error().Err(err).Str("op", what).Msg("web request failed")
	a.message(w, r, http.StatusInternalServerError, "Something went wrong", "The request could not be completed. Try again in a moment.", "/app/", "Back")
}

// safeNext keeps redirects after sign-in on this site.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") || strings.ContainsAny(next, "\r\n") {
		return "/app/"
	}
	return next
}

func (a *App) loginPage(w http.ResponseWriter, r *http.Request) {
	if _, _, ok := a.session(r); ok {
		http.Redirect(w, r, safeNext(r.URL.Query().Get("next")), http.StatusSeeOther)
		return
	}
	// Login CSRF: a double-submit token in its own cookie.
	tok := random(24)
	http.SetCookie(w, &http.Cookie{Name: a.preCookieName(), Value: tok, Path: "/", HttpOnly: true, Secure: a.cfg.Secure,
		SameSite: http.SameSiteStrictMode, MaxAge: 3600})
	a.render(w, http.StatusOK, "login.html", view{Title: "Sign in", CSRF: tok, Next: safeNext(r.URL.Query().Get("next"))})
}

func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func (a *App) login(w http.ResponseWriter, r *http.Request) {
	email := strings.ToLower(strings.TrimSpace(r.PostFormValue("email")))
	pw := r.PostFormValue("password")
	next := safeNext(r.PostFormValue("next"))
	again := func(status int, msg string) {
		tok := random(24)
		http.SetCookie(w, &http.Cookie{Name: a.preCookieName(), Value: tok, Path: "/", HttpOnly: true, Secure: a.cfg.Secure,
			SameSite: http.SameSiteStrictMode, MaxAge: 3600})
		a.render(w, status, "login.html", view{Title: "Sign in", Error: msg, CSRF: tok, Next: next, Email: email})
	}
	c, err := r.Cookie(a.preCookieName())
	if err != nil || c.Value == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(r.PostFormValue("csrf"))) != 1 {
		again(http.StatusForbidden, "The sign-in form expired; please try again.")
		return
	}
	if !a.byIP.allow(clientIP(r)) || !a.byEmail.allow(email) {
		w.Header().Set("Retry-After", "60")
		again(http.StatusTooManyRequests, "Too many sign-in attempts. Wait a minute and try again.")
		return
	}
	if len(pw) > 1000 {
		again(http.StatusUnauthorized, "Wrong email or password.")
		return
	}
	u, err := a.cfg.State.UserByEmail(r.Context(), email)
	hash := dummyHash
	if err == nil {
		if h, herr := a.cfg.State.PasswordHash(r.Context(), u.ID); herr == nil {
			hash = h
		} else if !errors.Is(herr, store.ErrNotFound) {
			a.fail(w, r, "read password", herr)
			return
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		a.fail(w, r, "look up user", err)
		return
	}
	ok, herr := checkPassword(pw, hash)
	if err != nil || herr != nil || !ok || hash == dummyHash {
		a.cfg.Log.Info().Str("ip", clientIP(r)).Msg("sign-in refused")
		again(http.StatusUnauthorized, "Wrong email or password.")
		return
	}
	if err := a.startSession(w, r, u); err != nil {
		a.fail(w, r, "start session", err)
		return
	}
	a.cfg.Log.Info().Str("user_id", u.ID).Msg("signed in")
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (a *App) logout(w http.ResponseWriter, r *http.Request) {
	if !a.ValidCSRF(r) {
		a.message(w, r, http.StatusForbidden, "Form expired", "The form expired or did not come from this site.", "/app/", "Back")
		return
	}
	a.endSession(w, r)
	http.Redirect(w, r, "/app/login", http.StatusSeeOther)
}

// confirm is the link of the signup email: it confirms the signup, signs
// the person in (they just proved they read the mailbox) and asks for a
// password.
func (a *App) confirm(w http.ResponseWriter, r *http.Request) {
	u, err := a.cfg.Signups.Confirm(r.Context(), r.URL.Query().Get("token"))
	switch {
	case errors.Is(err, account.ErrTokenNotFound):
		a.message(w, r, http.StatusNotFound, "Link expired", "This confirmation link is unknown, already used or expired. Sign up again for a new one.", "/app/login", "Sign in")
		return
	case errors.Is(err, account.ErrAccountExists):
		a.message(w, r, http.StatusConflict, "Already confirmed", "An account with this email already exists.", "/app/login", "Sign in")
		return
	case err != nil:
		a.fail(w, r, "confirm signup", err)
		return
	}
	if err := a.startSession(w, r, u); err != nil {
		a.fail(w, r, "start session", err)
		return
	}
	http.Redirect(w, r, "/app/password", http.StatusSeeOther)
}

func (a *App) requireUser(w http.ResponseWriter, r *http.Request) (store.WebSession, store.User, bool) {
	s, u, ok := a.session(r)
	if !ok {
		a.Login(w, r, r.URL.RequestURI())
	}
	return s, u, ok
}

func (a *App) passwordPage(w http.ResponseWriter, r *http.Request) {
	s, u, ok := a.requireUser(w, r)
	if !ok {
		return
	}
	a.render(w, http.StatusOK, "password.html", view{Title: "Set your password", User: &u, CSRF: s.CSRF})
}

func (a *App) setPassword(w http.ResponseWriter, r *http.Request) {
	s, u, ok := a.session(r)
	if !ok || !a.ValidCSRF(r) {
		a.message(w, r, http.StatusForbidden, "Form expired", "The form expired or did not come from this site; sign in again.", "/app/login", "Sign in")
		return
	}
	pw := r.PostFormValue("password")
	if rule := passwordRule(pw, r.PostFormValue("confirm")); rule != "" {
		a.render(w, http.StatusUnprocessableEntity, "password.html", view{Title: "Set your password", User: &u, CSRF: s.CSRF, Error: rule})
		return
	}
	h, err := hashPassword(pw)
	if err != nil {
		a.fail(w, r, "hash password", err)
		return
	}
	if err := a.cfg.State.SetPassword(r.Context(), u.ID, h); err != nil {
		a.fail(w, r, "set password", err)
		return
	}
	// A new password ends every other sign-in.
	if err := a.cfg.State.DeleteUserWebSessions(r.Context(), u.ID); err != nil {
		a.fail(w, r, "end sessions", err)
		return
	}
	if err := a.startSession(w, r, u); err != nil {
		a.fail(w, r, "start session", err)
		return
	}
	http.Redirect(w, r, "/app/", http.StatusSeeOther)
}

func (a *App) account(w http.ResponseWriter, r *http.Request) {
	s, u, ok := a.requireUser(w, r)
	if !ok {
		return
	}
	v, err := a.accountView(r.Context(), s, u)
	if err != nil {
		a.fail(w, r, "account page", err)
		return
	}
	a.render(w, http.StatusOK, "account.html", v)
}

func (a *App) accountView(ctx context.Context, s store.WebSession, u store.User) (view, error) {
	v := view{Title: "Your account", User: &u, CSRF: s.CSRF}
	var err error
	if v.Org, err = a.cfg.State.OrgByID(ctx, u.OrgID); err != nil {
		return v, err
	}
	if v.Usage, err = a.cfg.Biller.Usage(ctx, v.Org); err != nil {
		return v, err
	}
	if v.Keys, err = a.cfg.State.ListAPIKeys(ctx, u.OrgID); err != nil {
		return v, err
	}
	if v.Grants, err = a.cfg.State.ActiveOAuthGrants(ctx, u.ID, a.cfg.Now()); err != nil {
		return v, err
	}
	if a.cfg.CRM != nil {
		v.HasCRM = true
		if v.CRM, err = a.cfg.CRM.List(ctx, u.OrgID, false); err != nil {
			return v, err
		}
	}
	return v, nil
}

func (a *App) createKey(w http.ResponseWriter, r *http.Request) {
	s, u, ok := a.session(r)
	if !ok || !a.ValidCSRF(r) {
		a.message(w, r, http.StatusForbidden, "Form expired", "The form expired or did not come from this site; sign in again.", "/app/login", "Sign in")
		return
	}
	secret, k, err := a.cfg.State.CreateAPIKey(r.Context(), u.ID)
	if err != nil {
		a.fail(w, r, "create key", err)
		return
	}
	a.cfg.Log.Info().Str("user_id", u.ID).Str("key_id", k.ID).Msg("API key issued in the web app")
	a.render(w, http.StatusOK, "key.html", view{Title: "Your new API key", User: &u, CSRF: s.CSRF, NewKey: secret})
}

func (a *App) revokeKey(w http.ResponseWriter, r *http.Request) {
	_, u, ok := a.session(r)
	if !ok || !a.ValidCSRF(r) {
		a.message(w, r, http.StatusForbidden, "Form expired", "The form expired or did not come from this site; sign in again.", "/app/login", "Sign in")
		return
	}
	id := r.PostFormValue("key_id")
	keys, err := a.cfg.State.ListAPIKeys(r.Context(), u.OrgID)
	if err != nil {
		a.fail(w, r, "list keys", err)
		return
	}
	found := false
	for _, k := range keys {
		found = found || k.ID == id
	}
	// Another organization's key is not found, as on the API.
	if !found {
		a.message(w, r, http.StatusNotFound, "No such key", "This organization has no such key.", "/app/", "Back")
		return
	}
	if err := a.cfg.State.RevokeAPIKey(r.Context(), id); err != nil {
		a.fail(w, r, "revoke key", err)
		return
	}
	a.cfg.Log.Info().Str("user_id", u.ID).Str("key_id", id).Msg("API key revoked in the web app")
	http.Redirect(w, r, "/app/", http.StatusSeeOther)
}

func (a *App) revokeGrant(w http.ResponseWriter, r *http.Request) {
	_, u, ok := a.session(r)
	if !ok || !a.ValidCSRF(r) {
		a.message(w, r, http.StatusForbidden, "Form expired", "The form expired or did not come from this site; sign in again.", "/app/login", "Sign in")
		return
	}
	err := a.cfg.Grants.RevokeGrant(r.Context(), u.ID, r.PostFormValue("request_id"))
	if errors.Is(err, store.ErrNotFound) {
		a.message(w, r, http.StatusNotFound, "No such authorization", "You have no such authorized agent.", "/app/", "Back")
		return
	}
	if err != nil {
		a.fail(w, r, "revoke grant", err)
		return
	}
	http.Redirect(w, r, "/app/", http.StatusSeeOther)
}

// limiter is a token bucket per key (an address or an account).
type limiter struct {
	mu    sync.Mutex
	every rate.Limit
	burst int
	m     map[string]*rate.Limiter
}

func newLimiter(every rate.Limit, burst int) *limiter {
	return &limiter{every: every, burst: burst, m: map[string]*rate.Limiter{}}
}

func (l *limiter) allow(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.m) > 100_000 {
		l.m = map[string]*rate.Limiter{}
	}
	lim := l.m[key]
	if lim == nil {
		lim = rate.NewLimiter(l.every, l.burst)
		l.m[key] = lim
	}
	return lim.Allow()
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }

// SetGrants sets the authorization server whose grants the account page
// revokes (it is built after the app, which it needs for sign-in).
func (a *App) SetGrants(g Grants) { a.cfg.Grants = g }
