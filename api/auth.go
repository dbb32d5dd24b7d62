package api

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/store"
)

const (
	schemeAPIKey     = "apiKey"
	schemeBearer     = "bearer"
	schemeServiceKey = "serviceKey"
	// schemeWebSession marks routes that authenticate a web-app session
	// in their handler instead of a key (crm.go).
	schemeWebSession = "webSession"
)

// authRequired is the security requirement of every data endpoint: any one
// of the three headers carrying the same key.
var authRequired = []map[string][]string{{schemeAPIKey: {}}, {schemeBearer: {}}, {schemeServiceKey: {}}}

type principalKey struct{}

// PrincipalFrom returns the authenticated caller of a request.
func PrincipalFrom(ctx context.Context) (store.Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(store.Principal)
	return p, ok
}

// Details of a refused key, shared by the middleware and the header hook
// that refuses a large body before reading it.
const (
	missingKey = "missing API key: send it in the X-API-Key header (or Authorization: Bearer, or x-service-key)"
	invalidKey = "invalid or revoked API key or access token"
)

// AcceptTokens makes the REST routes also accept OAuth access tokens (as
// Authorization: Bearer) that verify resolves to a caller; verify returns
// store.ErrUnauthorized for a token it does not know. A token's caller has
// the same plan checks, credits and rate limits as a key of the
// organization. Call it before serving.
func (s *Server) AcceptTokens(verify func(ctx context.Context, token string) (store.Principal, error)) {
	s.tokens = verify
}

// authenticateCredential resolves a key or, when tokens are accepted, an
// OAuth access token.
func (s *Server) authenticateCredential(ctx context.Context, cred string) (store.Principal, error) {
	p, err := s.deps.Store.Authenticate(ctx, cred)
	if errors.Is(err, store.ErrUnauthorized) && s.tokens != nil {
		return s.tokens(ctx, cred)
	}
	return p, err
}

// credential returns the key presented in any of the accepted headers.
func credential(ctx huma.Context) string { return credentialFrom(ctx.Header) }

// credentialFrom returns the key presented in any of the accepted
// headers, read with header.
func credentialFrom(header func(name string) string) string {
	if k := strings.TrimSpace(header("X-API-Key")); k != "" {
		return k
	}
	if h := strings.TrimSpace(header("Authorization")); len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return strings.TrimSpace(header("x-service-key"))
}

// sessionOnly reports whether a route authenticates a web-app session
// itself (no key checked by the middleware).
func sessionOnly(sec []map[string][]string) bool {
	if len(sec) != 1 {
		return false
	}
	_, ok := sec[0][schemeWebSession]
	return ok
}

func (s *Server) authenticate(ctx huma.Context, next func(huma.Context)) {
	if sec := ctx.Operation().Security; len(sec) == 0 || sessionOnly(sec) {
		next(ctx)
		return
	}
	key := credential(ctx)
	if key == "" {
		_ = huma.WriteErr(s.api, ctx, http.StatusUnauthorized, missingKey)
		return
	}
	p, err := s.authenticateCredential(ctx.Context(), key)
	switch {
	case errors.Is(err, store.ErrUnauthorized):
		_ = huma.WriteErr(s.api, ctx, http.StatusUnauthorized, invalidKey)
		return
	case err != nil:
		s.deps.Log.Error().Err(err).Msg("authenticate")
		_ = huma.WriteErr(s.api, ctx, http.StatusServiceUnavailable, "authentication is temporarily unavailable")
		return
	}
	if ok, retry := s.limiter.Allow(p, s.deps.Now()); !ok {
		setLogClient(ctx, "key:"+p.KeyID)
		secs := int(math.Ceil(retry.Seconds()))
		ctx.SetHeader("Retry-After", strconv.Itoa(secs))
		_ = huma.WriteErr(s.api, ctx, http.StatusTooManyRequests,
			fmt.Sprintf("rate limit exceeded for this key or organization; retry in %d s", secs))
		return
	}
	next(huma.WithValue(ctx, principalKey{}, p))
}

// paid returns the caller after checking that its plan includes an
// endpoint of tier need (every data endpoint needs at least Starter).
func (s *Server) paid(ctx context.Context, need store.Plan) (store.Principal, error) {
	p, ok := PrincipalFrom(ctx)
	if !ok {
		return p, huma.Error401Unauthorized("missing API key")
	}
	if err := account.Require(p.Org, need); err != nil {
		return p, huma.Error403Forbidden(err.Error())
	}
	return p, nil
}
