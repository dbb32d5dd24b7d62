// Package toolwire assembles the agent-facing surface on the API's
// listener: the OAuth 2.1 authorization server and metadata (oauth/), the
// web app (web/) and the MCP tool server (mcp/). cmd/prospectd calls it
// with its flags; the end-to-end tests call it the same way.
package toolwire

import (
	"context"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/mcp"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/oauth"
	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/web"
)

// Host is the API server the parts are mounted on (*api.Server).
type Host interface {
	Mount(prefix string, h http.Handler, bodyLimit int64)
	OpenAPI() *huma.OpenAPI
}

// tokenAcceptor is a Host whose routes can also take OAuth access tokens
// (*api.Server's AcceptTokens).
type tokenAcceptor interface {
	AcceptTokens(verify func(ctx context.Context, token string) (store.Principal, error))
}

// estimateHost is a Host serving POST /v1/estimate (*api.Server).
type estimateHost interface {
	SetEstimator(estimate func(ctx context.Context, p store.Principal, op string, args json.RawMessage) (any, error))
}

// Config are the parts' settings and the services they call.
type Config struct {
	// PublicURL is the service's external URL; its scheme and host are
	// {api_origin}, and the issuer is that origin + /oauth/2.1.
	PublicURL string
	// Secret keys OAuth token signatures and spending confirmations
	// (separate keys are derived from it); 32+ bytes.
	Secret []byte
	// MCPAPIKeys also accepts API keys on the tool server.
	MCPAPIKeys bool
	// SpendCap is the tool server's per-grant credit cap (0: none).
	SpendCap              int
	AccessTTL, RefreshTTL time.Duration
	State                 store.Store
	Engine                index.Reader
	Tasks                 mcp.Tasks
	Plans                 account.Plans
	// Email serves the email lookup tools (nil: none, as the REST routes).
	Email *email.Service
	// Research and Integrations serve the research tools (nil: none).
	Research     *research.Pipeline
	Integrations *integrations.Service
	// CRM serves the CRM tools (nil: none, as the REST routes).
	CRM *crm.Service
	// Prospecting serves the managed prospecting run tools (nil: none).
	Prospecting *prospecting.Service
	// Names is the REST API's name matcher (its index is shared); nil
	// leaves out match_company.
	Names *namematch.Service
	Log   zerolog.Logger
	// Now is the tool server's clock (tests move it); time.Now when nil.
	Now func() time.Time
}

// Parts are the mounted servers.
type Parts struct {
	OAuth *oauth.Server
	Web   *web.App
	MCP   *mcp.Server
}

// Mount builds the parts and mounts them on h.
func Mount(h Host, cfg Config) (*Parts, error) {
	origin, err := Origin(cfg.PublicURL)
	if err != nil {
		return nil, fmt.Errorf("public URL: %w", err)
	}
	if len(cfg.Secret) < 32 {
		return nil, fmt.Errorf("toolwire: the secret needs at least 32 bytes")
	}
	oauthKey, err := hkdf.Key(sha256.New, cfg.Secret, nil, "prospectd oauth tokens", 32)
	if err != nil {
		return nil, err
	}
	confirmKey, err := hkdf.Key(sha256.New, cfg.Secret, nil, "prospectd mcp confirmations", 32)
	if err != nil {
		return nil, err
	}
	if cfg.Plans == nil {
		cfg.Plans = account.DefaultPlans()
	}
	biller := &account.Biller{Store: cfg.State, Plans: cfg.Plans}
	app := web.New(web.Config{State: cfg.State, Biller: biller, Secure: strings.HasPrefix(origin, "https://"), Log: cfg.Log,
		Signups: &account.Signups{Store: cfg.State}})
	as, err := oauth.New(oauth.Config{Origin: origin, State: cfg.State, Secret: oauthKey, Pages: app,
		AccessTTL: cfg.AccessTTL, RefreshTTL: cfg.RefreshTTL, Log: cfg.Log})
	if err != nil {
		return nil, err
	}
	app.SetGrants(as)
	// The REST routes accept access tokens granted for the REST resource
	// (the command-line client's browser login), besides API keys.
	if rest, ok := h.(tokenAcceptor); ok {
		rest.AcceptTokens(func(ctx context.Context, token string) (store.Principal, error) {
			g, err := as.VerifyREST(ctx, token)
			if errors.Is(err, oauth.ErrInvalidToken) {
				return store.Principal{}, fmt.Errorf("%w: %w", store.ErrUnauthorized, err)
			}
			if err != nil {
				return store.Principal{}, err
			}
			return g.Principal, nil
		})
	}
	// Routes that need a person at the web app (deleting a CRM
	// connection) authenticate its sessions.
	if ws, ok := h.(interface{ SetWebSessions(*web.App) }); ok {
		ws.SetWebSessions(app)
	}
	if cfg.CRM != nil {
		app.SetCRM(cfg.CRM)
	}
	verify := mcp.Verifier(func(ctx context.Context, token string) (mcp.Caller, error) {
		g, err := as.Verify(ctx, token)
		if err != nil {
			return mcp.Caller{}, err
		}
		return mcp.Caller{Principal: g.Principal, Grant: "oauth:" + g.RequestID, Expires: g.Expires, Scopes: g.Scopes}, nil
	})
	if cfg.MCPAPIKeys {
		verify = mcp.FirstOf(verify, mcp.KeyVerifier(cfg.State))
	}
	companies := &query.Companies{Engine: cfg.Engine}
	var savedSvc *saved.Service
	if st, ok := cfg.State.(saved.Store); ok {
		savedSvc = saved.NewService(st)
	}
	limits := account.DefaultLimits()
	tools, err := mcp.New(mcp.Config{
		Companies: companies, Contacts: &query.ContactService{Engine: cfg.Engine, Companies: companies},
		Biller: biller, Limiter: &account.Limiter{Limits: limits, Plans: cfg.Plans},
		Tasks: cfg.Tasks, TaskState: cfg.State, OpenAPI: h.OpenAPI(),
		Saved: savedSvc, Email: cfg.Email, Research: cfg.Research, Integrations: cfg.Integrations, Names: cfg.Names, CRM: cfg.CRM, Prospecting: cfg.Prospecting,
		Verify: verify, ResourceMetadataURL: as.ResourceMetadataURL(),
		Secret: confirmKey, SessionCap: cfg.SpendCap, Log: cfg.Log, Now: cfg.Now,
	})
	if err != nil {
		return nil, err
	}
	// POST /v1/estimate quotes what the tools' confirmations quote.
	if rest, ok := h.(estimateHost); ok {
		rest.SetEstimator(func(ctx context.Context, p store.Principal, op string, args json.RawMessage) (any, error) {
			return tools.EstimateOperation(ctx, p, op, args)
		})
	}
	h.Mount(mcp.Path, tools.Handler(), mcp.BodyLimit)
	h.Mount(oauth.IssuerPath+"/", as.Handler(), 64<<10)
	h.Mount("/.well-known/", as.Handler(), 0)
	h.Mount(web.Prefix, app.Handler(), 64<<10)
	return &Parts{OAuth: as, Web: app, MCP: tools}, nil
}

// Origin is the scheme and host of a public URL ({api_origin}).
func Origin(public string) (string, error) {
	u, err := url.Parse(public)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("%q is not an http(s) URL", public)
	}
	return u.Scheme + "://" + u.Host, nil
}
