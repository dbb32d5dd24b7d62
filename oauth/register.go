package oauth

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/openprospect/prospectd/store"
)

func base64url(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// registration is a dynamic client registration request (RFC 7591).
type registration struct {
	RedirectURIs            []string `json:"redirect_uris"`
	ClientName              string   `json:"client_name"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	Scope                   string   `json:"scope"`
}

type registered struct {
	ClientID                string   `json:"client_id"`
	ClientSecret            string   `json:"client_secret,omitempty"`
	ClientIDIssuedAt        int64    `json:"client_id_issued_at"`
	ClientSecretExpiresAt   int64    `json:"client_secret_expires_at"`
	RedirectURIs            []string `json:"redirect_uris"`
	ClientName              string   `json:"client_name"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	Scope                   string   `json:"scope"`
}

type regError struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	if !s.regLimit.allow(r) {
		w.Header().Set("Retry-After", "60")
		writeJSON(w, http.StatusTooManyRequests, regError{"slow_down", "too many registrations from this address; retry in a minute"})
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	if err != nil {
		writeJSON(w, http.StatusBadRequest, regError{"invalid_client_metadata", "unreadable body"})
		return
	}
	var req registration
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, regError{"invalid_client_metadata", "body: not a JSON object of client metadata: " + err.Error()})
		return
	}
	c, err := s.validateRegistration(req)
	if err != nil {
		code := "invalid_client_metadata"
		var ru redirectError
		if errors.As(err, &ru) {
			code = "invalid_redirect_uri"
		}
		writeJSON(w, http.StatusBadRequest, regError{code, err.Error()})
		return
	}
	out := registered{ClientID: c.ID, ClientIDIssuedAt: c.CreatedAt.Unix(), RedirectURIs: c.RedirectURIs, ClientName: c.Name,
		TokenEndpointAuthMethod: c.AuthMethod, GrantTypes: []string{"authorization_code", "refresh_token"},
		ResponseTypes: []string{"code"}, Scope: strings.Join(c.Scopes, " ")}
	if c.AuthMethod != "none" {
		secret := "pcs_" + randomID(32)
		hash, err := s.fcfg.GetSecretsHasher(r.Context()).Hash(r.Context(), []byte(secret))
		if err != nil {
			s.cfg.Log.Error().Err(err).Msg("hash client secret")
			writeJSON(w, http.StatusInternalServerError, regError{"server_error", "internal error"})
			return
		}
		c.SecretHash = string(hash)
		out.ClientSecret = secret
	}
	if err := s.cfg.State.CreateOAuthClient(r.Context(), c); err != nil {
		s.cfg.Log.Error().Err(err).Msg("register oauth client")
		writeJSON(w, http.StatusInternalServerError, regError{"server_error", "internal error"})
		return
	}
	s.cfg.Log.Info().Str("client_id", c.ID).Str("client_name", c.Name).Msg("oauth client registered")
	writeJSON(w, http.StatusCreated, out)
}

type redirectError struct{ msg string }

func (e redirectError) Error() string { return e.msg }

func (s *Server) validateRegistration(req registration) (store.OAuthClient, error) {
	c := store.OAuthClient{ID: "pc_" + randomID(18), Name: strings.TrimSpace(req.ClientName), AuthMethod: req.TokenEndpointAuthMethod,
		Scopes: []string{ScopeOfflineAccess}, CreatedAt: time.Now().UTC().Truncate(time.Second)}
	if c.Name == "" {
		c.Name = "Unnamed client"
	}
	if len([]rune(c.Name)) > 200 {
		return c, fmt.Errorf("client_name: at most 200 characters")
	}
	if c.AuthMethod == "" {
		c.AuthMethod = "client_secret_basic" // RFC 7591's default
	}
	if !slices.Contains(authMethods, c.AuthMethod) {
		return c, fmt.Errorf("token_endpoint_auth_method: %q is not one of %s", c.AuthMethod, strings.Join(authMethods, ", "))
	}
	for _, g := range req.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			return c, fmt.Errorf("grant_types: %q is not offered (authorization_code and refresh_token are)", g)
		}
	}
	for _, rt := range req.ResponseTypes {
		if rt != "code" {
			return c, fmt.Errorf("response_types: %q is not offered (code is)", rt)
		}
	}
	for _, sc := range strings.Fields(req.Scope) {
		if sc != ScopeOfflineAccess {
			return c, fmt.Errorf("scope: %q is not offered (%s is)", sc, ScopeOfflineAccess)
		}
	}
	if len(req.RedirectURIs) == 0 || len(req.RedirectURIs) > 10 {
		return c, redirectError{"redirect_uris: give 1-10 redirect URIs"}
	}
	for i, raw := range req.RedirectURIs {
		if err := checkRedirect(raw); err != nil {
			return c, redirectError{fmt.Sprintf("redirect_uris[%d]: %v", i, err)}
		}
		c.RedirectURIs = append(c.RedirectURIs, raw)
	}
	return c, nil
}

// checkRedirect allows https URIs, http on a loopback address (native
// apps, RFC 8252) and private-use schemes with a dot (com.example.app:/cb);
// never a fragment.
func checkRedirect(raw string) error {
	if len(raw) > 2000 {
		return errors.New("longer than 2000 characters")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return errors.New("not an absolute URI")
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return errors.New("must not have a fragment")
	}
	switch u.Scheme {
	case "https":
		if u.Host == "" {
			return errors.New("https URI without a host")
		}
	case "http":
		h := u.Hostname()
		if ip := net.ParseIP(h); h != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return errors.New("http is allowed only for loopback addresses (127.0.0.1, [::1], localhost); use https")
		}
	case "javascript", "data", "file", "vbscript":
		return fmt.Errorf("scheme %q is not allowed", u.Scheme)
	default:
		if !strings.Contains(u.Scheme, ".") {
			return fmt.Errorf("a private-use scheme must be a reversed domain name (com.example.app), not %q", u.Scheme)
		}
	}
	return nil
}
