package crm

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/oauth2"

	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
)

// StateTTL is how long an authorize URL's state token is valid (spec).
const StateTTL = 10 * time.Minute

// RefreshBefore is how long before its expiry an access token is
// refreshed, so a page request never starts with a token about to lapse.
const RefreshBefore = 5 * time.Minute

// CallbackPath is the OAuth redirect path of a provider (the spec names
// none): the provider sends the browser back here with code and state.
func CallbackPath(provider string) string { return "/v1/crm/" + provider + "/callback" }

// Config is what the service runs with; cmd/ fills it from its flags.
type Config struct {
	// Providers are the configured providers; a provider missing here (or
	// with no client id) is known but refused with ErrNotConfigured.
	Providers map[string]ProviderConfig
	// PublicURL is the service's external base URL; the redirect URI is
	// PublicURL + CallbackPath(provider).
	PublicURL string
	// HTTP calls the providers (a 30 s timeout client when nil).
	HTTP *http.Client
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	Log zerolog.Logger
}

// Service is the connection rules over a Store; the handlers, the
// snapshot task and the tool server call it.
type Service struct {
	store Store
	box   *secrets.Box
	cfg   Config

	// refresh serializes token refreshes per connection in this process,
	// so two snapshots do not spend one refresh token twice.
	mu      sync.Mutex
	refresh map[string]*sync.Mutex
}

// NewService returns the service.
func NewService(st Store, box *secrets.Box, cfg Config) *Service {
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Timeout: 30 * time.Second}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Service{store: st, box: box, cfg: cfg, refresh: map[string]*sync.Mutex{}}
}

// Store returns the service's store.
func (s *Service) Store() Store { return s.store }

// Provider checks a provider name and returns its configuration.
func (s *Service) Provider(name string) (ProviderConfig, error) {
	if !slices.Contains(ProviderNames, name) {
		return ProviderConfig{}, fmt.Errorf("%w: %q (want hubspot, pipedrive or salesforce)", ErrUnknownProvider, name)
	}
	c, ok := s.cfg.Providers[name]
	if !ok || c.ClientID == "" {
		return ProviderConfig{}, fmt.Errorf("%w: %s has no OAuth client id", ErrNotConfigured, name)
	}
	return c.withDefaults(name), nil
}

// Known checks only the provider name (404 before anything else).
func Known(name string) error {
	if !slices.Contains(ProviderNames, name) {
		return fmt.Errorf("%w: %q (want hubspot, pipedrive or salesforce)", ErrUnknownProvider, name)
	}
	return nil
}

func (s *Service) redirect(provider string) string {
	return strings.TrimRight(s.cfg.PublicURL, "/") + CallbackPath(provider)
}

// AuthorizeURL starts a connection for the caller: a provider authorize
// URL bound to a fresh single-use state token valid StateTTL.
func (s *Service) AuthorizeURL(ctx context.Context, orgID, userID, provider string) (string, error) {
	pc, err := s.Provider(provider)
	if err != nil {
		return "", err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("state token: %w", err)
	}
	state := base64.RawURLEncoding.EncodeToString(b[:])
	if err := s.store.CreateCRMState(ctx, State{Hash: store.HashSecret(state), OrgID: orgID, UserID: userID, Provider: provider,
		ExpiresAt: s.cfg.Now().Add(StateTTL)}); err != nil {
		return "", fmt.Errorf("save state: %w", err)
	}
	// Offline access asks for a refresh token where the provider needs
	// asking; HubSpot, Pipedrive and Salesforce (scope refresh_token)
	// issue one with the code.
	return pc.oauthConfig(provider, s.redirect(provider)).AuthCodeURL(state), nil
}

// Callback finishes a connection: takes the state (once), exchanges the
// code and stores the connection, active. It returns the organization
// connected.
func (s *Service) Callback(ctx context.Context, provider, state, code string) (Connection, error) {
	pc, err := s.Provider(provider)
	if err != nil {
		return Connection{}, err
	}
	if state == "" || len(state) > 200 {
		return Connection{}, fmt.Errorf("state: %w", ErrBadState)
	}
	st, err := s.store.TakeCRMState(ctx, store.HashSecret(state), s.cfg.Now())
	if err != nil {
		return Connection{}, fmt.Errorf("state: %w", err)
	}
	if st.Provider != provider {
		return Connection{}, fmt.Errorf("state: issued for %s, not %s: %w", st.Provider, provider, ErrBadState)
	}
	if code == "" {
		return Connection{}, fmt.Errorf("code: %w: the provider sent no authorization code", ErrProvider)
	}
	tok, err := pc.oauthConfig(provider, s.redirect(provider)).Exchange(s.httpCtx(ctx), code)
	if err != nil {
		return Connection{}, fmt.Errorf("exchange code with %s: %w", provider, tokenError(err))
	}
	if tok.RefreshToken == "" {
		return Connection{}, fmt.Errorf("%w: %s issued no refresh token", ErrProvider, provider)
	}
	c := Connection{OrgID: st.OrgID, UserID: st.UserID, Provider: provider, Status: StatusActive, APIBase: apiBaseOf(provider, tok),
		Expiry: tok.Expiry, ConnectedAt: s.cfg.Now().UTC()}
	if c.SealedAccess, c.SealedRefresh, err = s.seal(c.OrgID, provider, tok); err != nil {
		return Connection{}, err
	}
	if err := s.store.PutCRMConnection(ctx, c); err != nil {
		return Connection{}, fmt.Errorf("save connection: %w", err)
	}
	s.cfg.Log.Info().Str("org", c.OrgID).Str("provider", provider).Msg("crm connected")
	return c, nil
}

// apiBaseOf reads the per-connection API address of a token answer.
func apiBaseOf(provider string, tok *oauth2.Token) string {
	var v any
	switch provider {
	case Salesforce:
		v = tok.Extra("instance_url")
	case Pipedrive:
		v = tok.Extra("api_domain")
	}
	s, _ := v.(string)
	if s != "" && !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
		s = "https://" + s
	}
	return strings.TrimRight(s, "/")
}

func aad(orgID, provider, which string) string { return "crm:" + orgID + ":" + provider + ":" + which }

func (s *Service) seal(orgID, provider string, tok *oauth2.Token) (access, refresh string, err error) {
	if access, err = s.box.Seal(tok.AccessToken, aad(orgID, provider, "access")); err != nil {
		return "", "", fmt.Errorf("seal access token: %w", err)
	}
	if refresh, err = s.box.Seal(tok.RefreshToken, aad(orgID, provider, "refresh")); err != nil {
		return "", "", fmt.Errorf("seal refresh token: %w", err)
	}
	return access, refresh, nil
}

func (s *Service) httpCtx(ctx context.Context) context.Context {
	return context.WithValue(ctx, oauth2.HTTPClient, s.cfg.HTTP)
}

// tokenError maps a token endpoint's refusal to ErrNeedsReauth; the
// provider's message is kept short and its body dropped (it may echo
// what was sent).
func tokenError(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.Response != nil {
		if re.Response.StatusCode == http.StatusBadRequest || re.Response.StatusCode == http.StatusUnauthorized {
			return fmt.Errorf("%w (token endpoint: %d %s)", ErrNeedsReauth, re.Response.StatusCode, orText(short(re.ErrorCode), "refused"))
		}
		return fmt.Errorf("%w: token endpoint answered %d", ErrProvider, re.Response.StatusCode)
	}
	return fmt.Errorf("%w: token endpoint: %v", ErrProvider, stripURL(err))
}

// stripURL drops the request URL from a transport error (it can carry
// the authorization code in a query).
func stripURL(err error) error {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) && strings.Contains(err.Error(), "?") {
		return ue.Unwrap()
	}
	return err
}

// Status is a connection as the API lists it.
type Status struct {
	Provider    string
	Status      string
	ConnectedAt *time.Time
	// CompaniesQueryID and ContactsQueryID are the current snapshot lists.
	CompaniesQueryID, ContactsQueryID string
}

// List returns the organization's connections; with probe, each is
// checked live with one small request (refreshing its token if due) and
// its fresh status returned and stored.
func (s *Service) List(ctx context.Context, orgID string, probe bool) ([]Status, error) {
	cs, err := s.store.ListCRMConnections(ctx, orgID)
	if err != nil {
		return nil, fmt.Errorf("list connections: %w", err)
	}
	out := make([]Status, 0, len(cs))
	for _, c := range cs {
		if probe {
			c.Status = s.probe(ctx, c)
		}
		at := c.ConnectedAt
		out = append(out, Status{Provider: c.Provider, Status: c.Status, ConnectedAt: &at,
			CompaniesQueryID: c.CompaniesQueryID, ContactsQueryID: c.ContactsQueryID})
	}
	return out, nil
}

// probe checks a connection live; a rate limit or an outage leaves the
// stored status (it says nothing about the token).
func (s *Service) probe(ctx context.Context, c Connection) string {
	cl, err := s.client(ctx, c)
	if err == nil {
		_, err = cl.page(ctx, KindCompanies, "", 1)
	}
	switch {
	case err == nil:
		if c.Status != StatusActive {
			if err := s.store.SetCRMStatus(ctx, c.OrgID, c.Provider, StatusActive, ""); err != nil {
				s.cfg.Log.Error().Err(err).Str("provider", c.Provider).Msg("crm: save status")
			}
		}
		return StatusActive
	case errors.Is(err, ErrNeedsReauth):
		return StatusNeedsReauth
	}
	s.cfg.Log.Warn().Err(err).Str("org", c.OrgID).Str("provider", c.Provider).Msg("crm probe inconclusive")
	return c.Status
}

// Revocation says whether a deleted connection's grant was also revoked
// at the provider; Detail says why not when it was not.
type Revocation struct {
	Revoked bool
	Detail  string
}

// Delete removes the organization's connection to provider, after asking
// the provider to revoke its refresh token so the grant does not outlive
// the connection. The connection is removed even when the provider cannot
// be reached (the person can always disconnect); the Revocation says so,
// and the grant then stays listed in the CRM's connected apps until
// removed there.
func (s *Service) Delete(ctx context.Context, orgID, provider string) (Revocation, error) {
	if err := Known(provider); err != nil {
		return Revocation{}, err
	}
	rev := Revocation{Detail: "no stored token"}
	if c, err := s.store.CRMConnection(ctx, orgID, provider); err == nil {
		rev = s.revoke(ctx, c)
	} else if !errors.Is(err, ErrNoConnection) {
		return Revocation{}, fmt.Errorf("read %s connection: %w", provider, err)
	}
	if err := s.store.DeleteCRMConnection(ctx, orgID, provider); err != nil {
		return Revocation{}, fmt.Errorf("delete %s connection: %w", provider, err)
	}
	ev := s.cfg.Log.Info()
	if !rev.Revoked {
		ev = s.cfg.Log.Warn().Str("revoke", rev.Detail)
	}
	ev.Str("org", orgID).Str("provider", provider).Bool("revoked", rev.Revoked).Msg("crm disconnected")
	return rev, nil
}

// revoke asks the provider to revoke the connection's refresh token, each
// provider as it documents it: HubSpot with the client's credentials in
// the form, Pipedrive with HTTP Basic (RFC 7009), Salesforce with the
// token alone. Revoking the refresh token ends the grant; access tokens
// already issued lapse within the hour at the latest.
func (s *Service) revoke(ctx context.Context, c Connection) Revocation {
	pc, err := s.Provider(c.Provider)
	if err != nil {
		return Revocation{Detail: err.Error()}
	}
	refresh, err := s.box.Open(c.SealedRefresh, aad(c.OrgID, c.Provider, "refresh"))
	if err != nil || refresh == "" {
		return Revocation{Detail: "no refresh token to revoke"}
	}
	form := url.Values{"token": {refresh}, "token_type_hint": {"refresh_token"}}
	if c.Provider == HubSpot {
		form.Set("client_id", pc.ClientID)
		form.Set("client_secret", pc.ClientSecret)
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, pc.revokeURL(c.Provider), strings.NewReader(form.Encode()))
	if err != nil {
		return Revocation{Detail: fmt.Sprintf("revocation request: %v", err)}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if c.Provider == Pipedrive {
		req.SetBasicAuth(pc.ClientID, pc.ClientSecret)
	}
	resp, err := s.cfg.HTTP.Do(req)
	if err != nil {
		return Revocation{Detail: fmt.Sprintf("%s unreachable: %v", c.Provider, stripURL(err))}
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return Revocation{Detail: fmt.Sprintf("%s answered %d to the revocation", c.Provider, resp.StatusCode)}
	}
	return Revocation{Revoked: true}
}

// client is an API client of one connection: its HTTP client carries the
// access token, refreshed before expiry, once after a 401, and saved
// (sealed) whenever the provider issues a new one.
type client struct {
	svc  *Service
	conn Connection
	base string
	src  *tokenSource
	hc   *http.Client
}

func (s *Service) client(ctx context.Context, c Connection) (*client, error) {
	pc, err := s.Provider(c.Provider)
	if err != nil {
		return nil, err
	}
	if c.Status == StatusNeedsReauth {
		return nil, fmt.Errorf("%s: %w", c.Provider, ErrNeedsReauth)
	}
	access, err := s.box.Open(c.SealedAccess, aad(c.OrgID, c.Provider, "access"))
	if err != nil {
		return nil, fmt.Errorf("open access token: %w", err)
	}
	refresh, err := s.box.Open(c.SealedRefresh, aad(c.OrgID, c.Provider, "refresh"))
	if err != nil {
		return nil, fmt.Errorf("open refresh token: %w", err)
	}
	src := &tokenSource{svc: s, conn: c, cfg: pc.oauthConfig(c.Provider, s.redirect(c.Provider)), ctx: s.httpCtx(context.WithoutCancel(ctx)),
		tok: &oauth2.Token{AccessToken: access, RefreshToken: refresh, TokenType: "Bearer", Expiry: c.Expiry}}
	base := c.APIBase
	if base == "" {
		base = pc.APIBase
	}
	hc := &http.Client{Timeout: s.cfg.HTTP.Timeout, Transport: &oauth2.Transport{Source: src, Base: s.cfg.HTTP.Transport}}
	return &client{svc: s, conn: c, base: base, src: src, hc: hc}, nil
}

// page reads one page; after a 401 it refreshes the token once and tries
// again (a Salesforce session expires without notice), and a second 401
// or a refused refresh marks the connection needs_reauth.
func (c *client) page(ctx context.Context, kind, cursor string, limit int) (page, error) {
	for attempt := 0; ; attempt++ {
		p, err := fetchPage(ctx, c.hc, c.conn.Provider, c.base, kind, cursor, limit)
		var ae *authError
		switch {
		case err == nil:
			return p, nil
		case errors.As(err, &ae) && attempt == 0:
			c.src.expire()
			continue
		case errors.As(err, &ae):
			return page{}, c.svc.needsReauth(ctx, c.conn, ae.Error())
		case errors.Is(err, ErrNeedsReauth):
			return page{}, c.svc.needsReauth(ctx, c.conn, "token refresh refused")
		}
		return page{}, err
	}
}

// needsReauth marks a connection and returns ErrNeedsReauth.
func (s *Service) needsReauth(ctx context.Context, c Connection, reason string) error {
	if err := s.store.SetCRMStatus(context.WithoutCancel(ctx), c.OrgID, c.Provider, StatusNeedsReauth, reason); err != nil && !errors.Is(err, ErrNoConnection) {
		s.cfg.Log.Error().Err(err).Str("provider", c.Provider).Msg("crm: save status")
	}
	s.cfg.Log.Warn().Str("org", c.OrgID).Str("provider", c.Provider).Str("reason", reason).Msg("crm connection needs reauthorization")
	return fmt.Errorf("%s: %s: %w", c.Provider, reason, ErrNeedsReauth)
}

func (s *Service) lockFor(c Connection) *sync.Mutex {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := c.OrgID + "/" + c.Provider
	m := s.refresh[k]
	if m == nil {
		m = &sync.Mutex{}
		s.refresh[k] = m
	}
	return m
}

// tokenSource hands out the connection's access token and refreshes it
// RefreshBefore its expiry (or when forced after a 401), saving the new
// tokens sealed.
type tokenSource struct {
	svc  *Service
	conn Connection
	cfg  *oauth2.Config
	ctx  context.Context

	mu     sync.Mutex
	tok    *oauth2.Token
	forced bool
}

func (t *tokenSource) expire() {
	t.mu.Lock()
	t.forced = true
	t.mu.Unlock()
}

// Token implements oauth2.TokenSource.
func (t *tokenSource) Token() (*oauth2.Token, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	due := !t.tok.Expiry.IsZero() && t.svc.cfg.Now().Add(RefreshBefore).After(t.tok.Expiry)
	if !due && !t.forced && t.tok.AccessToken != "" {
		return t.tok, nil
	}
	l := t.svc.lockFor(t.conn)
	l.Lock()
	defer l.Unlock()
	// Another client of this process may have refreshed meanwhile.
	if cur, err := t.svc.store.CRMConnection(t.ctx, t.conn.OrgID, t.conn.Provider); err == nil && cur.SealedRefresh != t.conn.SealedRefresh {
		if fresh, err := t.svc.client(t.ctx, cur); err == nil && fresh.src.tok.AccessToken != t.tok.AccessToken {
			t.conn, t.tok, t.forced = cur, fresh.src.tok, false
			if t.tok.Expiry.IsZero() || t.svc.cfg.Now().Add(RefreshBefore).Before(t.tok.Expiry) {
				return t.tok, nil
			}
		}
	}
	old := &oauth2.Token{RefreshToken: t.tok.RefreshToken, Expiry: time.Unix(1, 0)}
	nt, err := t.cfg.TokenSource(t.ctx, old).Token()
	if err != nil {
		return nil, tokenError(err)
	}
	if nt.RefreshToken == "" {
		nt.RefreshToken = t.tok.RefreshToken
	}
	access, refresh, err := t.svc.seal(t.conn.OrgID, t.conn.Provider, nt)
	if err != nil {
		return nil, err
	}
	if err := t.svc.store.UpdateCRMTokens(t.ctx, t.conn.OrgID, t.conn.Provider, access, refresh, nt.Expiry); err != nil {
		return nil, fmt.Errorf("save refreshed tokens: %w", err)
	}
	t.conn.SealedAccess, t.conn.SealedRefresh, t.conn.Expiry = access, refresh, nt.Expiry
	t.tok, t.forced = nt, false
	return nt, nil
}
