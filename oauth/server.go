// Package oauth is the OAuth 2.1 authorization server of the tool server
// and its resource side: authorization server metadata (RFC 8414) for the
// issuer {origin}/oauth/2.1, protected resource metadata (RFC 9728) for
// {origin}/v1/mcp (the tool server) and {origin}/v1 (the REST API), dynamic client registration (RFC 7591), the
// authorization code grant with PKCE (S256 only), resource indicators
// (RFC 8707), refresh tokens with rotation for offline_access, and token
// revocation (RFC 7009). Token issuance, PKCE verification, refresh
// rotation and revocation are github.com/ory/fosite's; tokens are stored
// under fosite's HMAC signature, never in clear. Sign-in and the consent
// page are the web app's (Pages).
package oauth

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/ory/fosite"
	"github.com/ory/fosite/compose"
	"github.com/rs/zerolog"
	"golang.org/x/time/rate"

	"github.com/openprospect/prospectd/store"
)

// IssuerPath is the authorization server's path below the public origin.
const IssuerPath = "/oauth/2.1"

// ResourcePath is the protected resource (the tool server).
const ResourcePath = "/v1/mcp"

// RESTResourcePath is the REST API as a protected resource: the
// command-line client's browser login asks for it, and the REST routes
// accept access tokens whose audience includes it.
const RESTResourcePath = "/v1"

// ScopeOfflineAccess is the one scope: it asks for a refresh token.
const ScopeOfflineAccess = "offline_access"

// Pages are the web app's part of the flow: who is signed in, the
// sign-in redirect and the consent page.
type Pages interface {
	// SignedIn returns the user signed in on r's browser.
	SignedIn(r *http.Request) (store.User, bool)
	// ValidCSRF checks the anti-forgery token a form posted.
	ValidCSRF(r *http.Request) bool
	// Login sends the browser to sign in, then back to next.
	Login(w http.ResponseWriter, r *http.Request, next string)
	// Consent shows the consent page.
	Consent(w http.ResponseWriter, r *http.Request, c Consent)
}

// Consent is what the consent page shows and posts back.
type Consent struct {
	ClientName   string
	ClientID     string
	RedirectHost string
	Scopes       []string
	Resource     string
	// Action is the address the decision is posted to (the authorization
	// request itself).
	Action string
}

// Config configures the server.
type Config struct {
	// Origin is the public scheme and host, e.g. https://api.example.com
	// ({api_origin}); the issuer is Origin + IssuerPath.
	Origin string
	State  State
	// Secret is fosite's global HMAC secret (32 bytes or more; the same in
	// every process of a deployment).
	Secret []byte
	Pages  Pages
	// AccessTTL and RefreshTTL default to 1 hour and 30 days.
	AccessTTL, RefreshTTL time.Duration
	Log                   zerolog.Logger
}

// Server is the authorization server.
type Server struct {
	cfg      Config
	provider fosite.OAuth2Provider
	fcfg     *fosite.Config
	storage  *storage
	mux      *http.ServeMux
	regLimit *ipLimiter
}

// New builds the server.
func New(cfg Config) (*Server, error) {
	if len(cfg.Secret) < 32 {
		return nil, errors.New("oauth: the secret needs at least 32 bytes")
	}
	u, err := url.Parse(cfg.Origin)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || (u.Path != "" && u.Path != "/") {
		return nil, fmt.Errorf("oauth: origin %q: want scheme://host[:port]", cfg.Origin)
	}
	cfg.Origin = strings.TrimSuffix(cfg.Origin, "/")
	if cfg.AccessTTL <= 0 {
		cfg.AccessTTL = time.Hour
	}
	if cfg.RefreshTTL <= 0 {
		cfg.RefreshTTL = 30 * 24 * time.Hour
	}
	fc := &fosite.Config{
		AccessTokenLifespan:   cfg.AccessTTL,
		RefreshTokenLifespan:  cfg.RefreshTTL,
		AuthorizeCodeLifespan: 10 * time.Minute,
		GlobalSecret:          cfg.Secret,
		// OAuth 2.1: PKCE for every client, S256 only.
		EnforcePKCE:                    true,
		EnforcePKCEForPublicClients:    true,
		EnablePKCEPlainChallengeMethod: false,
		ScopeStrategy:                  fosite.ExactScopeStrategy,
		AudienceMatchingStrategy:       fosite.DefaultAudienceMatchingStrategy,
		RefreshTokenScopes:             []string{ScopeOfflineAccess},
		TokenURL:                       cfg.Origin + IssuerPath + "/token",
		AccessTokenIssuer:              cfg.Origin + IssuerPath,
		SendDebugMessagesToClients:     false,
		MinParameterEntropy:            fosite.MinParameterEntropy,
	}
	st := &storage{st: cfg.State, audience: []string{cfg.Origin + ResourcePath, cfg.Origin + RESTResourcePath}}
	s := &Server{cfg: cfg, fcfg: fc, storage: st, regLimit: newIPLimiter(rate.Every(6*time.Second), 10)}
	s.provider = compose.Compose(fc, st, compose.NewOAuth2HMACStrategy(fc),
		compose.OAuth2AuthorizeExplicitFactory,
		compose.OAuth2RefreshTokenGrantFactory,
		compose.OAuth2TokenRevocationFactory,
		compose.OAuth2TokenIntrospectionFactory,
		compose.OAuth2PKCEFactory,
	)
	m := http.NewServeMux()
	asMeta := http.HandlerFunc(s.serveASMetadata)
	m.Handle("GET /.well-known/oauth-authorization-server"+IssuerPath, asMeta)
	m.Handle("GET "+IssuerPath+"/.well-known/oauth-authorization-server", asMeta)
	m.Handle("/.well-known/oauth-protected-resource"+ResourcePath, auth.ProtectedResourceMetadataHandler(s.ResourceMetadata()))
	restMeta := s.ResourceMetadata()
	restMeta.Resource, restMeta.ResourceName = s.RESTResource(), "Prospecting REST API"
	m.Handle("/.well-known/oauth-protected-resource"+RESTResourcePath, auth.ProtectedResourceMetadataHandler(restMeta))
	m.HandleFunc("POST "+IssuerPath+"/register", s.serveRegister)
	m.HandleFunc("GET "+IssuerPath+"/authorize", s.serveAuthorize)
	m.HandleFunc("POST "+IssuerPath+"/authorize", s.serveAuthorize)
	m.HandleFunc("POST "+IssuerPath+"/token", s.serveToken)
	m.HandleFunc("POST "+IssuerPath+"/revoke", s.serveRevoke)
	s.mux = m
	return s, nil
}

// Handler serves the metadata and OAuth endpoints.
func (s *Server) Handler() http.Handler { return s.mux }

// Issuer is the authorization server's identifier ({auth_url}/oauth/2.1).
func (s *Server) Issuer() string { return s.cfg.Origin + IssuerPath }

// Resource is the tool server's resource identifier.
func (s *Server) Resource() string { return s.cfg.Origin + ResourcePath }

// RESTResource is the REST API's resource identifier ({origin}/v1).
func (s *Server) RESTResource() string { return s.cfg.Origin + RESTResourcePath }

// ResourceMetadataURL is the protected resource metadata address named in
// the tool server's 401 challenge.
func (s *Server) ResourceMetadataURL() string {
	return s.cfg.Origin + "/.well-known/oauth-protected-resource" + ResourcePath
}

// ResourceMetadata is the protected resource metadata (RFC 9728).
func (s *Server) ResourceMetadata() *oauthex.ProtectedResourceMetadata {
	return &oauthex.ProtectedResourceMetadata{
		Resource:               s.Resource(),
		AuthorizationServers:   []string{s.Issuer()},
		ScopesSupported:        []string{ScopeOfflineAccess},
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "Prospecting API tool server",
	}
}

// asMetadata is the authorization server metadata (RFC 8414).
type asMetadata struct {
	Issuer                             string   `json:"issuer"`
	AuthorizationEndpoint              string   `json:"authorization_endpoint"`
	TokenEndpoint                      string   `json:"token_endpoint"`
	RegistrationEndpoint               string   `json:"registration_endpoint"`
	RevocationEndpoint                 string   `json:"revocation_endpoint"`
	ScopesSupported                    []string `json:"scopes_supported"`
	ResponseTypesSupported             []string `json:"response_types_supported"`
	ResponseModesSupported             []string `json:"response_modes_supported"`
	GrantTypesSupported                []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported  []string `json:"token_endpoint_auth_methods_supported"`
	RevocationEndpointAuthMethods      []string `json:"revocation_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported      []string `json:"code_challenge_methods_supported"`
	ClientIDMetadataDocumentsSupported bool     `json:"client_id_metadata_document_supported"`
}

func (s *Server) serveASMetadata(w http.ResponseWriter, _ *http.Request) {
	iss := s.Issuer()
	w.Header().Set("Access-Control-Allow-Origin", "*")
	writeJSON(w, http.StatusOK, asMetadata{
		Issuer: iss, AuthorizationEndpoint: iss + "/authorize", TokenEndpoint: iss + "/token",
		RegistrationEndpoint: iss + "/register", RevocationEndpoint: iss + "/revoke",
		ScopesSupported: []string{ScopeOfflineAccess}, ResponseTypesSupported: []string{"code"},
		ResponseModesSupported:            []string{"query"},
		GrantTypesSupported:               []string{"authorization_code", "refresh_token"},
		TokenEndpointAuthMethodsSupported: authMethods, RevocationEndpointAuthMethods: authMethods,
		CodeChallengeMethodsSupported: []string{"S256"},
	})
}

var authMethods = []string{"none", "client_secret_basic", "client_secret_post"}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// errInvalidTarget is RFC 8707's error for a resource this server does
// not protect.
func (s *Server) errInvalidTarget(got string) *fosite.RFC6749Error {
	return &fosite.RFC6749Error{ErrorField: "invalid_target", CodeField: http.StatusBadRequest,
		DescriptionField: fmt.Sprintf("The resource %q is not protected by this server; the resources are %s (the tool server) and %s (the REST API).", got, s.Resource(), s.RESTResource())}
}

// resources checks the request's resource indicators (RFC 8707): each
// must be the tool server or the REST API. It returns the resources
// asked for, the tool server when none is named (what agents written
// before the REST resource existed expect).
func (s *Server) resources(form url.Values) ([]string, error) {
	var out []string
	for _, r := range form["resource"] {
		r = strings.TrimSuffix(r, "/")
		if r != s.Resource() && r != s.RESTResource() {
			return nil, s.errInvalidTarget(r)
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		out = []string{s.Resource()}
	}
	return out, nil
}

func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	ar, err := s.provider.NewAuthorizeRequest(ctx, r)
	if err != nil {
		s.provider.WriteAuthorizeError(ctx, w, ar, err)
		return
	}
	// Refuse a request without S256 PKCE before the person is asked;
	// fosite enforces the same when it issues the code.
	form := ar.GetRequestForm()
	if form.Get("code_challenge") == "" || form.Get("code_challenge_method") != "S256" {
		s.provider.WriteAuthorizeError(ctx, w, ar, fosite.ErrInvalidRequest.WithHint("PKCE is required: send code_challenge with code_challenge_method=S256 (plain is refused)."))
		return
	}
	resources, err := s.resources(form)
	if err != nil {
		s.provider.WriteAuthorizeError(ctx, w, ar, err)
		return
	}
	for _, sc := range ar.GetRequestedScopes() {
		if sc != ScopeOfflineAccess {
			s.provider.WriteAuthorizeError(ctx, w, ar, fosite.ErrInvalidScope.WithHintf("Unknown scope %q; the only scope is %s.", sc, ScopeOfflineAccess))
			return
		}
	}
	user, ok := s.cfg.Pages.SignedIn(r)
	if !ok {
		if r.Method != http.MethodGet {
			http.Error(w, "sign in first", http.StatusForbidden)
			return
		}
		s.cfg.Pages.Login(w, r, r.URL.RequestURI())
		return
	}
	c, _ := ar.GetClient().(*client)
	if r.Method == http.MethodGet {
		view := Consent{ClientID: ar.GetClient().GetID(), Scopes: ar.GetRequestedScopes(), Resource: strings.Join(resources, ", "),
			RedirectHost: ar.GetRedirectURI().Host, Action: IssuerPath + "/authorize?" + r.URL.RawQuery}
		if c != nil {
			view.ClientName = c.Name
		}
		s.cfg.Pages.Consent(w, r, view)
		return
	}
	if !s.cfg.Pages.ValidCSRF(r) {
		http.Error(w, "the form expired or did not come from this site; go back and try again", http.StatusForbidden)
		return
	}
	if r.PostForm.Get("decision") != "approve" {
		s.provider.WriteAuthorizeError(ctx, w, ar, fosite.ErrAccessDenied.WithHint("The person denied the request."))
		return
	}
	for _, sc := range ar.GetRequestedScopes() {
		ar.GrantScope(sc)
	}
	for _, r := range resources {
		ar.GrantAudience(r)
	}
	resp, err := s.provider.NewAuthorizeResponse(ctx, ar, &fosite.DefaultSession{Subject: user.ID})
	if err != nil {
		s.provider.WriteAuthorizeError(ctx, w, ar, err)
		return
	}
	s.cfg.Log.Info().Str("client_id", ar.GetClient().GetID()).Str("user_id", user.ID).Msg("oauth client authorized")
	s.provider.WriteAuthorizeResponse(ctx, w, ar, resp)
}

func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	ar, err := s.provider.NewAccessRequest(ctx, r, &fosite.DefaultSession{})
	if err != nil {
		s.provider.WriteAccessError(ctx, w, ar, err)
		return
	}
	if _, err := s.resources(ar.GetRequestForm()); err != nil {
		s.provider.WriteAccessError(ctx, w, ar, err)
		return
	}
	resp, err := s.provider.NewAccessResponse(ctx, ar)
	if err != nil {
		s.provider.WriteAccessError(ctx, w, ar, err)
		return
	}
	s.provider.WriteAccessResponse(ctx, w, ar, resp)
}

func (s *Server) serveRevoke(w http.ResponseWriter, r *http.Request) {
	err := s.provider.NewRevocationRequest(r.Context(), r)
	s.provider.WriteRevocationResponse(r.Context(), w, err)
}

// Grant is an access token's authorization.
type Grant struct {
	Principal store.Principal
	RequestID string
	ClientID  string
	Scopes    []string
	Expires   time.Time
}

// ErrInvalidToken: the access token is unknown, expired, revoked, or for
// another resource.
var ErrInvalidToken = auth.ErrInvalidToken

// Verify resolves an access token presented to the tool server.
func (s *Server) Verify(ctx context.Context, token string) (Grant, error) {
	return s.VerifyFor(ctx, token, s.Resource())
}

// VerifyREST resolves an access token presented to the REST API.
func (s *Server) VerifyREST(ctx context.Context, token string) (Grant, error) {
	return s.VerifyFor(ctx, token, s.RESTResource())
}

// VerifyFor resolves an access token whose audience must include resource.
func (s *Server) VerifyFor(ctx context.Context, token, resource string) (Grant, error) {
	sess := &fosite.DefaultSession{}
	_, ar, err := s.provider.IntrospectToken(ctx, token, fosite.AccessToken, sess)
	if err != nil {
		var fe *fosite.RFC6749Error
		if errors.As(err, &fe) && fe.CodeField >= 500 {
			return Grant{}, fmt.Errorf("introspect token: %w", err)
		}
		return Grant{}, fmt.Errorf("%w: unknown, expired or revoked access token", ErrInvalidToken)
	}
	if !slices.Contains(ar.GetGrantedAudience(), resource) {
		return Grant{}, fmt.Errorf("%w: the token is for another resource", ErrInvalidToken)
	}
	subject := ar.GetSession().GetSubject()
	u, err := s.cfg.State.UserByID(ctx, subject)
	if errors.Is(err, store.ErrNotFound) {
		return Grant{}, fmt.Errorf("%w: the user no longer exists", ErrInvalidToken)
	}
	if err != nil {
		return Grant{}, fmt.Errorf("read token user: %w", err)
	}
	org, err := s.cfg.State.OrgByID(ctx, u.OrgID)
	if err != nil {
		return Grant{}, fmt.Errorf("read token organization: %w", err)
	}
	return Grant{Principal: store.Principal{Org: org, User: u, KeyID: "oauth:" + ar.GetID()},
		RequestID: ar.GetID(), ClientID: ar.GetClient().GetID(), Scopes: ar.GetGrantedScopes(),
		Expires: ar.GetSession().GetExpiresAt(fosite.AccessToken)}, nil
}

// RevokeGrant revokes every token of a grant the user gave (the web app's
// "revoke access").
func (s *Server) RevokeGrant(ctx context.Context, userID, requestID string) error {
	grants, err := s.cfg.State.ActiveOAuthGrants(ctx, userID, time.Now())
	if err != nil {
		return err
	}
	for _, g := range grants {
		if g.RequestID == requestID {
			if err := s.storage.RevokeRefreshToken(ctx, requestID); err != nil {
				return err
			}
			return s.storage.RevokeAccessToken(ctx, requestID)
		}
	}
	return store.ErrNotFound
}

// randomID returns n random bytes as URL-safe text.
func randomID(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return strings.TrimRight(base64url(b), "=")
}

// ipLimiter is a token bucket per client address, for unauthenticated
// endpoints that write (registration).
type ipLimiter struct {
	mu    sync.Mutex
	every rate.Limit
	burst int
	m     map[string]*rate.Limiter
}

func newIPLimiter(every rate.Limit, burst int) *ipLimiter {
	return &ipLimiter{every: every, burst: burst, m: map[string]*rate.Limiter{}}
}

func (l *ipLimiter) allow(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.m) > 100_000 {
		l.m = map[string]*rate.Limiter{} // bound memory under a flood
	}
	lim := l.m[host]
	if lim == nil {
		lim = rate.NewLimiter(l.every, l.burst)
		l.m[host] = lim
	}
	return lim.Allow()
}

// PurgeLoop deletes expired codes, tokens and web sessions every interval
// (keeping a day of grace, so a replayed refresh token is still known and
// revokes its grant) until ctx is done.
func (s *Server) PurgeLoop(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.cfg.State.PurgeOAuthTokens(ctx, time.Now().Add(-24*time.Hour)); err != nil && ctx.Err() == nil {
				s.cfg.Log.Error().Err(err).Msg("purge expired oauth tokens")
			}
		}
	}
}
