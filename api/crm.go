package api

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/web"
)

// Per-minute base limits of the CRM routes per organization (spec:
// Limits), scaled by the plan's multiplier.
const (
	CRMConnectionsPerMinute = 20
	CRMAuthorizePerMinute   = 10
	CRMSuppressPerMinute    = 5
	CRMDeletePerMinute      = 10
)

// WebSessions resolves web-app sessions for the routes that need a
// person signed in to the app rather than an API key (*web.App).
type WebSessions interface {
	SessionFromCookies(ctx context.Context, cookieHeader, csrf string) (store.User, store.Org, error)
}

// webSessions is set by SetWebSessions once the web app is mounted.
type webSessions struct {
	mu sync.RWMutex
	ws WebSessions
}

// SetWebSessions lets DELETE /v1/crm/{provider}/connection authenticate
// admins of the web app (internal/toolwire calls it when it mounts the app).
func (s *Server) SetWebSessions(a *web.App) {
	s.web.mu.Lock()
	defer s.web.mu.Unlock()
	s.web.ws = a
}

func (s *Server) webSessionResolver() WebSessions {
	s.web.mu.RLock()
	defer s.web.mu.RUnlock()
	return s.web.ws
}

// CRMConnectionBody is a CRM connection as the API lists it.
type CRMConnectionBody struct {
	Provider    string     `json:"provider" enum:"hubspot,pipedrive,salesforce"`
	Status      string     `json:"status" enum:"active,needs_reauth" doc:"needs_reauth: the stored token no longer works; reconnect before any CRM operation"`
	ConnectedAt *time.Time `json:"connected_at"`
	// The current suppression lists (added fields).
	CompaniesQueryID *string `json:"companies_query_id" doc:"Saved exclusion list of the last whole companies snapshot (use as exclusion_query_id); null before the first"`
	ContactsQueryID  *string `json:"contacts_query_id" doc:"Saved exclusion list of the last whole contacts snapshot; null before the first"`
}

type crmListInput struct {
	Probe bool `query:"probe" default:"false" doc:"Check each connection live and return its fresh status instead of the stored one"`
}

type crmListOutput struct {
	Body []CRMConnectionBody
}

type crmProviderInput struct {
	Provider string `path:"provider" doc:"hubspot, pipedrive or salesforce"`
}

type crmAuthorizeOutput struct {
	Body struct {
		AuthorizeURL string `json:"authorize_url" doc:"Send the person here; the URL is bound to a single-use state token valid 10 minutes"`
	}
}

type crmCallbackInput struct {
	Provider         string `path:"provider" doc:"hubspot, pipedrive or salesforce"`
	Code             string `query:"code" maxLength:"4096" doc:"Authorization code"`
	State            string `query:"state" maxLength:"200" doc:"The state token of the authorize URL"`
	Error            string `query:"error" maxLength:"200" doc:"Set by the provider when the person declined"`
	ErrorDescription string `query:"error_description" maxLength:"1000"`
}

type crmCallbackOutput struct {
	Body struct {
		Message  string `json:"message"`
		Provider string `json:"provider"`
		Status   string `json:"status"`
	}
}

type crmSuppressInput struct {
	Provider string `path:"provider" doc:"hubspot, pipedrive or salesforce"`
	Kind     string `query:"kind" default:"companies" enum:"companies,contacts" doc:"companies: exclude by domain; contacts: resolve CRM contact emails against the contact index and exclude matches (unknown emails are skipped)"`
}

type crmSuppressOutput struct {
	Status int
	Body   struct {
		Message  string `json:"message"`
		Provider string `json:"provider"`
		Kind     string `json:"kind"`
		TaskID   string `json:"task_id" doc:"The snapshot task (added field): poll GET /v1/crm/suppress/status/{task_id}"`
	}
}

type crmDeleteInput struct {
	Provider string `path:"provider" doc:"hubspot, pipedrive or salesforce"`
	Cookie   string `header:"Cookie" doc:"The web app's session cookie"`
	CSRF     string `header:"X-CSRF-Token" doc:"The session's CSRF token (the csrf value of the app's forms)"`
	// Read only to refuse them with a clear message.
	APIKey        string `header:"X-API-Key" hidden:"true"`
	Authorization string `header:"Authorization" hidden:"true"`
	ServiceKey    string `header:"x-service-key" hidden:"true"`
}

// crmError maps the crm package's errors to statuses.
func (s *Server) crmError(ctx context.Context, provider, what string, err error) error {
	switch {
	case errors.Is(err, crm.ErrUnknownProvider):
		return huma.Error404NotFound(fmt.Sprintf("provider: unknown CRM provider %q (hubspot, pipedrive or salesforce)", provider))
	case errors.Is(err, crm.ErrNoConnection):
		return huma.Error404NotFound(fmt.Sprintf("provider: no %s connection for this organization; connect with GET /v1/crm/%s/authorize", provider, provider))
	case errors.Is(err, crm.ErrNotConfigured):
		return huma.Error503ServiceUnavailable(fmt.Sprintf("provider: %s is not configured on this server (the operator sets its OAuth client id and secret)", provider))
	case errors.Is(err, crm.ErrBadState):
		return huma.Error400BadRequest(fmt.Sprintf("state: unknown, already used or expired (authorize URLs are single-use and valid 10 minutes); start again with GET /v1/crm/%s/authorize", provider))
	case errors.Is(err, crm.ErrNeedsReauth):
		return huma.Error409Conflict(fmt.Sprintf("provider: the %s connection needs reauthorization (the CRM refused its token); reconnect with GET /v1/crm/%s/authorize", provider, provider))
	case errors.Is(err, crm.ErrProvider):
		s.deps.Log.Warn().Err(err).Str("op", what).Msg("crm provider error")
		return huma.Error502BadGateway(fmt.Sprintf("%s answered unexpectedly; try again later", provider))
	}
	return s.internal(ctx, what, err)
}

// crmLimiter is a per-minute bucket per organization (and key).
func (s *Server) crmLimiter(perMinute int) *account.Limiter {
	return &account.Limiter{Plans: s.deps.Plans, Limits: account.Limits{
		KeyPerSecond: float64(perMinute) / 60, KeyBurst: perMinute,
		OrgPerSecond: float64(perMinute) / 60, OrgBurst: perMinute,
	}}
}

func (s *Server) crmAllow(l *account.Limiter, p store.Principal, what string, perMinute int) error {
	ok, retry := l.Allow(p, s.deps.Now())
	if ok {
		return nil
	}
	secs := int(math.Ceil(retry.Seconds()))
	return huma.ErrorWithHeaders(huma.Error429TooManyRequests(fmt.Sprintf(
		"%s is limited to %d requests a minute per organization (times the plan's multiplier); retry in %d s", what, perMinute, secs)),
		http.Header{"Retry-After": {strconv.Itoa(secs)}})
}

// registerCRM serves the CRM routes when a CRM service is configured and
// the state store keeps connections.
func (s *Server) registerCRM() {
	svc := s.deps.CRM
	if svc == nil {
		return
	}
	list, authorize, suppress, del := s.crmLimiter(CRMConnectionsPerMinute), s.crmLimiter(CRMAuthorizePerMinute),
		s.crmLimiter(CRMSuppressPerMinute), s.crmLimiter(CRMDeletePerMinute)
	tags := []string{"CRM"}
	errs := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusUnprocessableEntity, http.StatusTooManyRequests}

	huma.Register(s.api, huma.Operation{
		OperationID: "crm-connections",
		Method:      http.MethodGet,
		Path:        "/v1/crm/connections",
		Summary:     "List CRM connections",
		Description: "The organization's CRM connections. With probe=true each is checked live (one small request, refreshing its token if due) and the fresh status returned. 20 requests a minute per organization, times the plan's multiplier. Starter plan or higher.",
		Tags:        tags,
		Security:    authRequired,
		Errors:      errs,
	}, func(ctx context.Context, in *crmListInput) (*crmListOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		if err := s.crmAllow(list, p, "listing CRM connections", CRMConnectionsPerMinute); err != nil {
			return nil, err
		}
		cs, err := svc.List(ctx, p.Org.ID, in.Probe)
		if err != nil {
			return nil, s.crmError(ctx, "", "list crm connections", err)
		}
		out := &crmListOutput{Body: make([]CRMConnectionBody, len(cs))}
		for i, c := range cs {
			out.Body[i] = CRMConnectionBody{Provider: c.Provider, Status: c.Status, ConnectedAt: c.ConnectedAt,
				CompaniesQueryID: optional(c.CompaniesQueryID), ContactsQueryID: optional(c.ContactsQueryID)}
		}
		return out, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "crm-authorize",
		Method:      http.MethodGet,
		Path:        "/v1/crm/{provider}/authorize",
		Summary:     "Start a CRM connection",
		Description: "Answers the provider's authorize URL, bound to a single-use state token valid 10 minutes. The provider sends the person back to GET /v1/crm/{provider}/callback, which stores the connection. Unknown provider: 404. 10 requests a minute per organization, times the plan's multiplier. Starter plan or higher.",
		Tags:        tags,
		Security:    authRequired,
		Errors:      append(errs, http.StatusServiceUnavailable),
	}, func(ctx context.Context, in *crmProviderInput) (*crmAuthorizeOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		if err := crm.Known(in.Provider); err != nil {
			return nil, s.crmError(ctx, in.Provider, "crm authorize", err)
		}
		if err := s.crmAllow(authorize, p, "authorizing a CRM", CRMAuthorizePerMinute); err != nil {
			return nil, err
		}
		u, err := svc.AuthorizeURL(ctx, p.Org.ID, p.User.ID, in.Provider)
		if err != nil {
			return nil, s.crmError(ctx, in.Provider, "crm authorize", err)
		}
		out := &crmAuthorizeOutput{}
		out.Body.AuthorizeURL = u
		return out, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "crm-callback",
		Method:      http.MethodGet,
		Path:        "/v1/crm/{provider}/callback",
		Summary:     "OAuth redirect target of a CRM connection",
		Description: "Where the provider sends the person back after consent (no API key: the single-use state token of the authorize URL names the organization). Exchanges the code, stores the connection (tokens sealed at rest) and answers its status. 400 for an unknown, used or expired state or a declined consent.",
		Tags:        tags,
		Errors:      []int{http.StatusBadRequest, http.StatusNotFound, http.StatusUnprocessableEntity, http.StatusBadGateway, http.StatusServiceUnavailable},
	}, func(ctx context.Context, in *crmCallbackInput) (*crmCallbackOutput, error) {
		if err := crm.Known(in.Provider); err != nil {
			return nil, s.crmError(ctx, in.Provider, "crm callback", err)
		}
		if in.Error != "" {
			return nil, huma.Error400BadRequest(fmt.Sprintf("error: %s did not authorize the connection (%s %s)", in.Provider, in.Error, in.ErrorDescription))
		}
		if in.Code == "" {
			return nil, huma.Error400BadRequest("code: required (the provider's authorization code)")
		}
		c, err := svc.Callback(ctx, in.Provider, in.State, in.Code)
		if errors.Is(err, crm.ErrNeedsReauth) {
			return nil, huma.Error400BadRequest(fmt.Sprintf("code: %s refused the authorization code (expired or already used); start again with GET /v1/crm/%s/authorize", in.Provider, in.Provider))
		}
		if err != nil {
			return nil, s.crmError(ctx, in.Provider, "crm callback", err)
		}
		out := &crmCallbackOutput{}
		out.Body.Message = fmt.Sprintf("%s connected", in.Provider)
		out.Body.Provider, out.Body.Status = c.Provider, c.Status
		return out, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID:   "crm-suppress",
		Method:        http.MethodPost,
		Path:          "/v1/crm/{provider}/suppress",
		Summary:       "Snapshot a CRM into an exclusion list",
		Description:   "Starts a background snapshot of the CRM's companies (excluded by root domain) or contacts (CRM emails resolved against the contact index; unknown emails skipped). When it is whole, a saved exclusion list (action exclusion, tag crm) replaces the previous snapshot of this provider and kind in one step; use it as exclusion_query_id. No connection: 404; a connection needing reauthorization: 409. 5 requests a minute per organization, times the plan's multiplier. Starter plan or higher.",
		Tags:          tags,
		Security:      authRequired,
		Errors:        append(errs, http.StatusConflict, http.StatusServiceUnavailable),
		DefaultStatus: http.StatusAccepted,
	}, func(ctx context.Context, in *crmSuppressInput) (*crmSuppressOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		if err := crm.Known(in.Provider); err != nil {
			return nil, s.crmError(ctx, in.Provider, "crm suppress", err)
		}
		if err := s.crmAllow(suppress, p, "CRM suppression", CRMSuppressPerMinute); err != nil {
			return nil, err
		}
		kind, err := crm.ValidKind(in.Kind)
		if err != nil {
			return nil, huma.Error422UnprocessableEntity(err.Error())
		}
		if _, err := svc.Provider(in.Provider); err != nil {
			return nil, s.crmError(ctx, in.Provider, "crm suppress", err)
		}
		c, err := svc.Store().CRMConnection(ctx, p.Org.ID, in.Provider)
		if err != nil {
			return nil, s.crmError(ctx, in.Provider, "crm suppress", err)
		}
		if c.Status == crm.StatusNeedsReauth {
			return nil, s.crmError(ctx, in.Provider, "crm suppress", crm.ErrNeedsReauth)
		}
		t, err := s.deps.Tasks.Submit(ctx, p.Org.ID, crm.KindSnapshot, crm.SnapshotInput{Provider: in.Provider, Kind: kind, UserID: p.User.ID})
		if err != nil {
			return nil, s.internal(ctx, "submit crm snapshot", err)
		}
		out := &crmSuppressOutput{Status: http.StatusAccepted}
		out.Body.Message = fmt.Sprintf("%s %s snapshot started; the exclusion list appears under saved queries when it is whole", in.Provider, kind)
		out.Body.Provider, out.Body.Kind, out.Body.TaskID = in.Provider, kind, t.ID
		return out, nil
	})

	s.registerTaskStatus("crm-suppress-status", "/v1/crm/suppress/status/{task_id}", "CRM", "CRM suppression snapshot status",
		"Status of a snapshot started by POST /v1/crm/{provider}/suppress; `results` names the saved exclusion list once it is whole.", crm.KindSnapshot)

	huma.Register(s.api, huma.Operation{
		OperationID: "crm-delete-connection",
		Method:      http.MethodDelete,
		Path:        "/v1/crm/{provider}/connection",
		Summary:     "Remove a CRM connection",
		Description: "Removes the connection and its stored tokens. Requires an admin signed in to the web app: the session cookie plus its CSRF token in X-CSRF-Token. An API key is refused (403). The saved exclusion lists of past snapshots stay (delete them under saved queries). 404 if no connection. 10 requests a minute per organization, times the plan's multiplier.",
		Tags:        tags,
		Security:    []map[string][]string{{schemeWebSession: {}}},
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusTooManyRequests},
	}, func(ctx context.Context, in *crmDeleteInput) (*messageOutput, error) {
		if err := crm.Known(in.Provider); err != nil {
			return nil, s.crmError(ctx, in.Provider, "crm delete", err)
		}
		if in.APIKey != "" || in.Authorization != "" || in.ServiceKey != "" {
			return nil, huma.Error403Forbidden("deleting a CRM connection requires an admin signed in to the web app (session cookie and X-CSRF-Token); an API key or bearer token is not accepted here")
		}
		ws := s.webSessionResolver()
		if ws == nil {
			return nil, huma.Error403Forbidden("deleting a CRM connection requires an admin session of the web app, and this server runs without the web app")
		}
		u, org, err := ws.SessionFromCookies(ctx, in.Cookie, in.CSRF)
		switch {
		case errors.Is(err, web.ErrNoSession):
			return nil, huma.Error401Unauthorized("deleting a CRM connection requires an admin signed in to the web app: no live session cookie (sign in at /app/login)")
		case errors.Is(err, web.ErrBadCSRF):
			return nil, huma.Error403Forbidden("X-CSRF-Token: missing or not the session's CSRF token")
		case err != nil:
			return nil, s.internal(ctx, "crm delete: session", err)
		}
		if u.Role != store.RoleAdmin {
			return nil, huma.Error403Forbidden("deleting a CRM connection requires the admin role")
		}
		p := store.Principal{Org: org, User: u, KeyID: "session:" + u.ID}
		if err := s.crmAllow(del, p, "deleting CRM connections", CRMDeletePerMinute); err != nil {
			return nil, err
		}
		rev, err := svc.Delete(ctx, org.ID, in.Provider)
		if err != nil {
			return nil, s.crmError(ctx, in.Provider, "crm delete", err)
		}
		out := &messageOutput{}
		out.Body.Message = fmt.Sprintf("%s connection removed; its access was revoked at %s", in.Provider, in.Provider)
		if !rev.Revoked {
			out.Body.Message = fmt.Sprintf("%s connection removed, but revoking its access at %s failed (%s): remove the app in %s's connected apps", in.Provider, in.Provider, rev.Detail, in.Provider)
		}
		return out, nil
	})
}
