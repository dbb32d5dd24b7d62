// Package api is the Fiber /v1 surface: authentication, routes, request
// validation and response shaping. Operations are declared once with Huma,
// which both serves them and generates the OpenAPI 3.1 document at
// /v1/openapi.json. Handlers stay thin: business rules live below api/ so
// jobs and the MCP server can reuse them.
package api

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humafiber"
	"github.com/gofiber/fiber/v2"
	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/jobs"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/store"
)

// Version is the API document version.
const Version = "1.0.0"

// Deps are the services the API calls.
type Deps struct {
	Engine index.Engine
	Store  store.Store
	Log    zerolog.Logger
	// Plans and Limits default to account.DefaultPlans and
	// account.DefaultLimits.
	Plans  account.Plans
	Limits *account.Limits
	// Mailer sends signup confirmations; nil refuses signups with 503.
	Mailer account.Mailer
	// PublicURL is the external base URL for links in emails.
	PublicURL string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// TaskLease is how long a task stays with a worker that stops
	// renewing it (a killed server); jobs.DefaultLease when 0.
	TaskLease time.Duration
	// Research configures integrations and the research pipeline.
	Research ResearchConfig
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
	jobs      *jobs.Runner
	names     *namematch.Service
}

// New builds the API with every route registered.
func New(d Deps) *Server {
	detailedErrors()
	app := fiber.New(fiber.Config{
		DisableStartupMessage: true,
		ReadTimeout:           60 * time.Second,
		WriteTimeout:          120 * time.Second,
		IdleTimeout:           120 * time.Second,
		BodyLimit:             64 << 20,
		ErrorHandler:          fiberError,
	})
	app.Use(requestLog(d.Log))
	app.Use(jsonBodies)

	cfg := huma.DefaultConfig("Prospecting API", Version)
	cfg.CreateHooks = nil // no $schema links injected into response bodies
	cfg.OpenAPIPath = "/v1/openapi"
	cfg.DocsPath = "/v1/docs"
	cfg.SchemasPath = "/v1/schemas"
	cfg.Info.Description = "Company discovery, enrichment and contact prospecting. Authenticate with `X-API-Key`, `Authorization: Bearer` or `x-service-key`."
	cfg.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		schemeAPIKey:     {Type: "apiKey", In: "header", Name: "X-API-Key"},
		schemeBearer:     {Type: "http", Scheme: "bearer"},
		schemeServiceKey: {Type: "apiKey", In: "header", Name: "x-service-key"},
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
	s := &Server{app: app, api: hapi, deps: d,
		companies: &query.Companies{Engine: d.Engine},
		biller:    &account.Biller{Store: d.Store, Plans: d.Plans, Now: d.Now},
		limiter:   &account.Limiter{Limits: *d.Limits, Plans: d.Plans},
		signups:   &account.Signups{Store: d.Store, Mailer: d.Mailer, PublicURL: d.PublicURL},
		jobs:      &jobs.Runner{Store: d.Store, Log: d.Log, Workers: 2, Lease: d.TaskLease},
		names:     &namematch.Service{Engine: d.Engine, Now: d.Now},
	}
	hapi.UseMiddleware(s.authenticate)

	s.registerService()
	s.registerCompanies()
	s.registerDiscover()
	s.registerAccount()
	s.registerSegment()
	s.registerBulkMatch()
	s.registerAppend()
	s.registerResearch(s.registerIntegrations())
	if ce, ok := contactEngine(d.Engine); ok {
		svc := &query.ContactService{Engine: ce, Companies: s.companies}
		s.registerContacts(svc)
		s.registerContactMatch(svc)
	} else {
		d.Log.Warn().Str("engine", d.Engine.Name()).Msg("this engine has no contact index: the /v1/contacts routes are not served")
	}

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
func (s *Server) StartJobs(ctx context.Context) error { return s.jobs.Start(ctx) }

// StopJobs stops the task workers, waiting a bounded time for running
// tasks; an interrupted task runs again elsewhere when its lease expires.
func (s *Server) StopJobs() { s.jobs.Stop() }

// Listen serves on addr until ctx is done, then shuts down gracefully.
func (s *Server) Listen(ctx context.Context, addr string) error {
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
	go func() { errc <- s.app.Listen(addr) }()
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
	if code == http.StatusInternalServerError {
		msg = "internal error"
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

func requestLog(log zerolog.Logger) fiber.Handler {
	return func(c *fiber.Ctx) error {
		start := time.Now()
		err := c.Next()
		status := c.Response().StatusCode()
		ev := log.Info()
		if status >= 500 {
			ev = log.Error()
		}
		ev.Str("method", c.Method()).Str("path", c.Path()).Int("status", status).
			Dur("took", time.Since(start)).Msg("request")
		return err
	}
}

// warmNameIndex builds the company name index when the engine can list its
// companies.
func (s *Server) warmNameIndex(ctx context.Context) {
	if _, ok := s.deps.Engine.(index.CompanyScanner); !ok {
		return
	}
	start := time.Now()
	x, err := s.names.Index(ctx)
	switch {
	case err != nil && ctx.Err() == nil:
		s.deps.Log.Error().Err(err).Msg("build company name index")
	case err == nil:
		s.deps.Log.Info().Int("companies", x.Len()).Dur("took", time.Since(start)).Msg("company name index built")
	}
}
