package api

import (
	"context"
	"net/netip"

	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/secrets"
)

// ResearchConfig configures provider integrations and the research
// pipeline.
type ResearchConfig struct {
	// Secrets seals integration keys; nil leaves the integration and
	// research routes unserved.
	Secrets *secrets.Box
	// AllowPrivate lets integration base URLs, provider calls and homepage
	// fetches reach private and loopback addresses (operator flag for
	// self-hosted models; off by default).
	AllowPrivate bool
	// Lookup overrides host name resolution of provider calls (tests).
	Lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	// MaxRetries of provider calls; the clients' default (3) when 0.
	MaxRetries int
}

func (s *Server) registerResearch(svc *integrations.Service) {
	if svc == nil {
		return
	}
}
