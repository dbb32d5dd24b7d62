package mcp

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/openprospect/prospectd/store"
)

// KeyVerifier accepts the API's keys as bearer tokens (when the operator
// allows it): the grant is the key.
func KeyVerifier(keys store.Keys) Verifier {
	return func(ctx context.Context, token string) (Caller, error) {
		p, err := keys.Authenticate(ctx, token)
		if errors.Is(err, store.ErrUnauthorized) {
			return Caller{}, fmt.Errorf("%w: unknown or revoked credential", auth.ErrInvalidToken)
		}
		if err != nil {
			return Caller{}, fmt.Errorf("authenticate key: %w", err)
		}
		return Caller{Principal: p, Grant: "key:" + p.KeyID}, nil
	}
}

// FirstOf tries verifiers in order and returns the first that accepts the
// token; a token none accepts is invalid.
func FirstOf(vs ...Verifier) Verifier {
	return func(ctx context.Context, token string) (Caller, error) {
		for _, v := range vs {
			c, err := v(ctx, token)
			if err == nil {
				return c, nil
			}
			if !errors.Is(err, auth.ErrInvalidToken) {
				return Caller{}, err
			}
		}
		return Caller{}, fmt.Errorf("%w: unknown, expired or revoked credential", auth.ErrInvalidToken)
	}
}
