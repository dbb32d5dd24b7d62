package research

import (
	"context"
	"net/netip"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
)

// Config configures provider integrations and the research pipeline;
// cmd/ fills it from flags and the environment.
type Config struct {
	// Secrets seals integration keys (required).
	Secrets *secrets.Box
	// AllowPrivate lets integration base URLs, provider calls and homepage
	// fetches reach private and loopback addresses (operator flag for
	// self-hosted models; off by default).
	AllowPrivate bool
	// Lookup overrides host name resolution of provider calls (tests).
	Lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	// MaxRetries of provider calls; the clients' default (3) when 0.
	MaxRetries int
	// Concurrency bounds model calls in flight per LLM integration
	// (DefaultConcurrency when 0); RecordTimeout one record
	// (DefaultRecordTimeout when 0).
	Concurrency   int
	RecordTimeout time.Duration
	// HomepageURL is where website context is fetched from (tests);
	// https://DOMAIN/ when nil.
	HomepageURL func(domain string) string
}

// State is the part of the state store integrations and research use.
type State interface {
	store.IntegrationStore
	store.ResearchRecordStore
}

// New builds the integration service (what the integration routes call)
// and the research pipeline (whose task bodies jobs/ runs) on one
// configuration, so both seal and open keys alike.
func New(cfg Config, st State, eng index.Engine, log zerolog.Logger) (*integrations.Service, *Pipeline) {
	svc := &integrations.Service{Store: st, Box: cfg.Secrets, AllowPrivate: cfg.AllowPrivate, Lookup: cfg.Lookup, MaxRetries: cfg.MaxRetries}
	p := &Pipeline{Integrations: svc, Records: st, Engine: eng, Contacts: eng, Log: log,
		Concurrency: cfg.Concurrency, RecordTimeout: cfg.RecordTimeout, HomepageURL: cfg.HomepageURL}
	return svc, p
}
