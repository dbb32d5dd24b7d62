package api

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/store"
)

const (
	schemeAPIKey     = "apiKey"
	schemeBearer     = "bearer"
	schemeServiceKey = "serviceKey"
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

// credential returns the key presented in any of the accepted headers.
func credential(ctx huma.Context) string {
	if k := strings.TrimSpace(ctx.Header("X-API-Key")); k != "" {
		return k
	}
	if h := strings.TrimSpace(ctx.Header("Authorization")); len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return strings.TrimSpace(ctx.Header("x-service-key"))
}

func (s *Server) authenticate(ctx huma.Context, next func(huma.Context)) {
	if len(ctx.Operation().Security) == 0 {
		next(ctx)
		return
	}
	key := credential(ctx)
	if key == "" {
		_ = huma.WriteErr(s.api, ctx, http.StatusUnauthorized, "missing API key: send it in the X-API-Key header (or Authorization: Bearer, or x-service-key)")
		return
	}
	p, err := s.deps.Store.Authenticate(ctx.Context(), key)
	switch {
	case errors.Is(err, store.ErrUnauthorized):
		_ = huma.WriteErr(s.api, ctx, http.StatusUnauthorized, "invalid or revoked API key")
		return
	case err != nil:
		s.deps.Log.Error().Err(err).Msg("authenticate")
		_ = huma.WriteErr(s.api, ctx, http.StatusServiceUnavailable, "authentication is temporarily unavailable")
		return
	}
	next(huma.WithValue(ctx, principalKey{}, p))
}
