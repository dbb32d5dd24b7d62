// Package api is the Fiber /v1 surface: authentication, routes, request
// validation and response shaping. Operations are declared once with Huma,
// which both serves them and generates the OpenAPI 3.1 document at
// /v1/openapi.json. Handlers stay thin: business rules live below api/ so
// jobs and the MCP server can reuse them.
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humafiber"
	"github.com/gofiber/fiber/v2"
	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/export"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/ingest/refresh"
	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

// Version is the API document version.
const Version = "1.0.0"

// Engine is the part of a search engine the API reads: every read, and
// its health for GET /v1/health.
type Engine interface {
	index.Reader
	index.Checker
}

// State is the part of the state store the API uses: keys to
// authenticate, the ledger to bill, signups, the organization's tasks to
// report, and its health.
type State interface {
	store.Keys
	store.Ledger
	store.Signups
	store.Tasks
	store.Checker
}

// Tasks is the task queue the API submits to and whose workers StartJobs
// and Listen run: jobs.New builds one with every task kind wired to its
// body. The API never runs a task itself.
type Tasks interface {
	Submit(ctx context.Context, orgID, kind string, input any) (store.Task, error)
	Start(ctx context.Context) error
	Stop() bool
}

// Deps are the services the API calls.
type Deps struct {
	Engine Engine
	Store  State
	// Tasks runs the asynchronous tasks (segment, bulk match, contact bulk
	// match); required by the routes that submit them.
	Tasks Tasks
	// Names is the company name index Listen builds in the background, so
	// the first bulk match does not pay for it; nil skips the warm-up.
	Names *namematch.Service
	Log   zerolog.Logger
	// Plans and Limits default to account.DefaultPlans and
	// account.DefaultLimits.
	Plans  account.Plans
	Limits *account.Limits
	// Mailer sends signup confirmations; nil refuses signups with 503.
	Mailer account.Mailer
	// PublicURL is the external base URL for links in emails.
	PublicURL string
	// WebApp is the web app's signup confirmation path; empty keeps the
	// confirmation link on the API (account.Signups.WebApp).
	WebApp string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Webhooks delivers monitor changes and prospecting run events: the
	// process's one sender (cmd/prospectd), whose secrets.Box seals their
	// signing secrets at rest. Without it the monitor routes are not
	// served and runs cannot name a webhook_url.
	Webhooks *saved.Webhooks
	// WebhookPrivateHosts lets run webhook URLs name loopback and private
	// addresses (tests, single-tenant setups; Webhooks' client must reach
	// them too); off, they are refused.
	WebhookPrivateHosts bool
	// Email is the email lookup service and EmailTasks the runner of its
	// batches (jobs.NewEmail); the /v1/email routes are served when set.
	Email      *email.Service
	EmailTasks Tasks
	// Integrations is the LLM and search integration service and Research
	// the research pipeline (research.New; jobs/ runs its tasks); the
	// integration and research routes are served when set.
	Integrations *integrations.Service
	Research     *research.Pipeline
	// Exports keeps the files of export tasks (jobs.Config.Exports); the
	// /v1/exports routes are served when set.
	Exports *export.Files
	// Refresh is the scheduled refresh service (its task kind is run by
	// jobs/); the admin refresh routes report no source when nil.
	Refresh *refresh.Service
	// CRM is the CRM connection service (crm.NewService; jobs/ runs its
	// snapshots); the /v1/crm routes are served when set.
	CRM *crm.Service
	// Prospecting plans and runs managed prospecting runs (its task body
	// runs on Tasks); the /v1/prospecting routes are served when set.
	Prospecting *prospecting.Service
}

// Server is the HTTP API.
type Server struct {
	app       *fiber.App
	api       huma.API
	deps      Deps
	companies *query.Companies
	biller    *account.Biller
	limiter   *account.Limiter
	signups   *account.Signups
	// routeTable serves bodyPolicy (limits.go).
	routeTable routeTable
	queries    *queryRoutes // nil when the store keeps no saved queries
	// mounts are net/http handlers served beside the API (mount.go).
	mounts mounts
	// tokens verifies OAuth access tokens (AcceptTokens); nil: keys only.
	tokens func(ctx context.Context, token string) (store.Principal, error)
	// estimator serves POST /v1/estimate (SetEstimator).
	estimator func(ctx context.Context, p store.Principal, op string, args json.RawMessage) (any, error)
	// web resolves web-app sessions (crm.go).
	web webSessions
}

// New builds the API with every route registered.
func New(d Deps) *Server {
	detailedErrors()
	s := &Server{}
	app := fiber.New(fiber.Config{
		DisableStartupMessage: true,
		ReadTimeout:           60 * time.Second,
		WriteTimeout:          120 * time.Second,
		IdleTimeout:           120 * time.Second,
		// The request line and headers fit maxHeaderBytes; each route's
		// body limit is set per request by bodyPolicy (limits.go).
		ReadBufferSize: maxHeaderBytes,
		// An idle keep-alive connection gives its read buffer back to the
		// pool rather than holding maxHeaderBytes while it waits.
		ReduceMemoryUsage: true,
		BodyLimit:         jsonBodyLimit,
		ErrorHandler:      fiberError,
	})
	app.Use(requestLog(d.Log, time.Now))
	app.Use(jsonBodies)
	app.Use(s.serveMounted)

	cfg := huma.DefaultConfig("Prospecting API", Version)
	cfg.CreateHooks = nil // no $schema links injected into response bodies
	cfg.Formats = jsonFormats()
	cfg.OpenAPIPath = "/v1/openapi"
	cfg.DocsPath = "/v1/docs"
	cfg.SchemasPath = "/v1/schemas"
	cfg.Info.Description = "Company discovery, enrichment and contact prospecting. Authenticate with `X-API-Key`, `Authorization: Bearer` or `x-service-key`."
	cfg.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		schemeAPIKey:     {Type: "apiKey", In: "header", Name: "X-API-Key"},
		schemeBearer:     {Type: "http", Scheme: "bearer"},
		schemeServiceKey: {Type: "apiKey", In: "header", Name: "x-service-key"},
		schemeWebSession: {Type: "apiKey", In: "cookie", Name: "prospect_session", Description: "The web app's session (routes that need a person signed in to the app, with the session's CSRF token in X-CSRF-Token)"},
	}
	hapi := humafiber.New(app, cfg)
	if d.Plans == nil {
		d.Plans = account.DefaultPlans()
	}
	if d.Limits == nil {
		l := account.DefaultLimits()
		d.Limits = &l
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	*s = Server{app: app, api: hapi, deps: d,
		companies: &query.Companies{Engine: d.Engine},
		biller:    &account.Biller{Store: d.Store, Plans: d.Plans, Now: d.Now},
		limiter:   &account.Limiter{Limits: *d.Limits, Plans: d.Plans},
		signups:   &account.Signups{Store: d.Store, Mailer: d.Mailer, PublicURL: d.PublicURL, WebApp: d.WebApp},
	}
	hapi.UseMiddleware(s.authenticate)
	app.Server().HeaderReceived = s.bodyPolicy

	s.registerService()
	s.registerQueries()
	s.registerCompanies()
	s.registerDiscover()
	s.registerAccount()
	s.registerSegment()
	s.registerBulkMatch()
	s.registerAppend()
	svc := &query.ContactService{Engine: d.Engine, Companies: s.companies}
	s.registerContacts(svc)
	s.registerContactMatch()
	s.registerLookup()
	s.registerEmail()
	s.registerResearch(s.registerIntegrations())
	s.registerExports(svc)
	s.registerRefresh()
	s.registerEstimate()
	s.registerCRM()
	s.registerProspecting()

	// Anything not routed gets a problem document rather than Fiber's text.
	app.Use(func(c *fiber.Ctx) error {
		return writeProblem(c, http.StatusNotFound, "no route for "+c.Method()+" "+c.Path())
	})
	return s
}

// App returns the Fiber app, for serving and for tests (app.Test).
func (s *Server) App() *fiber.App { return s.app }

// StartJobs starts the task workers (Listen does it); they stop when ctx
// is done or at StopJobs.
func (s *Server) StartJobs(ctx context.Context) error {
	if s.deps.Tasks == nil {
		return errors.New("api: no task runner (Deps.Tasks)")
	}
	if s.queries != nil && s.queries.monitors != nil {
		s.queries.monitors.Start(ctx, MonitorInterval)
	}
	if s.deps.EmailTasks != nil {
		if err := s.deps.EmailTasks.Start(ctx); err != nil {
			return err
		}
	}
	return s.deps.Tasks.Start(ctx)
}

// StopJobs stops the task workers, waiting a bounded time for running
// tasks; an interrupted task runs again elsewhere when its lease expires.
func (s *Server) StopJobs() {
	if s.deps.Tasks != nil {
		s.deps.Tasks.Stop()
	}
	if s.deps.EmailTasks != nil {
		s.deps.EmailTasks.Stop()
	}
}

// Listen serves on addr until ctx is done, then shuts down gracefully.
func (s *Server) Listen(ctx context.Context, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln until ctx is done, then shuts down gracefully.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if err := s.StartJobs(ctx); err != nil {
		return err
	}
	defer s.StopJobs()
	// The name index of company bulk match is built in the background, so
	// the first bulk match does not pay for it; Listen returns only after
	// the build stopped, before the caller closes the engine.
	warmed := make(chan struct{})
	defer func() { <-warmed }()
	go func() {
		defer close(warmed)
		s.warmNameIndex(ctx)
	}()
	errc := make(chan error, 1)
	go func() { errc <- s.app.Listener(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		return s.app.ShutdownWithContext(sctx)
	}
}

func fiberError(c *fiber.Ctx, err error) error {
	code := http.StatusInternalServerError
	var fe *fiber.Error
	if errors.As(err, &fe) {
		code = fe.Code
	}
	msg := err.Error()
	switch code {
	case http.StatusInternalServerError:
		msg = "internal error"
	case http.StatusRequestEntityTooLarge:
		// Refused by bodyPolicy before the body was read: say why.
		if status, detail, ok := refusal(func(k string) string { return c.Get(k) }); ok {
			code, msg = status, detail
		} else {
			msg = fmt.Sprintf("request body over the limit of this route (%s for JSON bodies; an upload's file cap plus %s for multipart forms)", human(jsonBodyLimit), human(formOverhead))
		}
	case http.StatusRequestHeaderFieldsTooLarge:
		msg = fmt.Sprintf("the request line and headers are over %s; icp_text, negate_icp_text and icp_prompt take at most 4000 characters each (a limit of the spec); send less", human(maxHeaderBytes))
	}
	return writeProblem(c, code, msg)
}

func writeProblem(c *fiber.Ctx, status int, detail string) error {
	c.Set(fiber.HeaderContentType, "application/problem+json")
	return c.Status(status).JSON(huma.ErrorModel{
		Title:  http.StatusText(status),
		Status: status,
		Detail: detail,
	})
}

// jsonBodies reads a JSON object posted without a JSON content type (curl
// -d sends application/x-www-form-urlencoded) as JSON: every POST body of
// this API is JSON, so the label adds nothing but a 415.
func jsonBodies(c *fiber.Ctx) error {
	if c.Method() == fiber.MethodPost {
		ct := string(c.Request().Header.ContentType())
		if (ct == "" || strings.HasPrefix(ct, fiber.MIMEApplicationForm) || strings.HasPrefix(ct, fiber.MIMETextPlain)) &&
			bytes.HasPrefix(bytes.TrimSpace(c.Body()), []byte("{")) {
			c.Request().Header.SetContentType(fiber.MIMEApplicationJSON)
		}
	}
	return c.Next()
}

// requestLog logs every request; refused ones (401, 429) are aggregated
// per client (refusallog.go), so a client hammering at its rate limit
// cannot flood the log.
func requestLog(log zerolog.Logger, now func() time.Time) fiber.Handler {
	q := &refusalLog{now: now}
	return func(c *fiber.Ctx) error {
		start := time.Now()
		err := c.Next()
		q.logRequest(log, c, c.Response().StatusCode(), time.Since(start))
		return err
	}
}

// warmNameIndex builds the company name index of Deps.Names.
func (s *Server) warmNameIndex(ctx context.Context) {
	if s.deps.Names == nil {
		return
	}
	start := time.Now()
	x, err := s.deps.Names.Index(ctx)
	switch {
	case err != nil && ctx.Err() == nil:
		s.deps.Log.Error().Err(err).Msg("build company name index")
	case err == nil:
		s.deps.Log.Info().Int("companies", x.Len()).Dur("took", time.Since(start)).Msg("company name index built")
	}
}
