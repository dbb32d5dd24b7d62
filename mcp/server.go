// Package mcp is the Model Context Protocol tool server at /v1/mcp: one
// tool per capability of the REST API, served over streamable HTTP with
// the official Go SDK. Tools call the same services as the REST handlers
// (query, namematch, account, saved, email, research, the task queue),
// take input schemas derived from the REST operations' declarations (the
// OpenAPI document the routes are served from), and report errors with
// the REST `detail` text. A tool that spends credits (or the customer's
// provider money) answers with an estimate first and runs only when called
// again with the confirmation token the estimate carried.
package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

// Path is where the tool server is mounted, below the API's base path.
const Path = "/v1/mcp"

// Tasks is the task queue tools submit to (a *jobs.Runner in production).
type Tasks interface {
	Submit(ctx context.Context, orgID, kind string, input any) (store.Task, error)
}

// Caller is an authenticated tool-server client: the organization and
// user a token or key belongs to, and the grant it came from.
type Caller struct {
	Principal store.Principal
	// Grant names the authorization the credential belongs to (an OAuth
	// grant, the same across refreshes, or an API key); confirmation
	// tokens and the spending cap are bound to it.
	Grant string
	// Expires is when an access token stops working (zero for API keys).
	Expires time.Time
	Scopes  []string
}

// Verifier resolves a bearer credential; it returns an error wrapping
// auth.ErrInvalidToken for one that is unknown, expired or revoked.
type Verifier func(ctx context.Context, token string) (Caller, error)

// Config are the services the tools call.
type Config struct {
	Companies *query.Companies
	Contacts  *query.ContactService
	Biller    *account.Biller
	Limiter   *account.Limiter
	Tasks     Tasks
	TaskState store.Tasks
	// Saved serves the saved-query tools (nil: the store keeps none).
	Saved *saved.Service
	// Email serves the email lookup tools (nil: not configured).
	Email *email.Service
	// Research and Integrations serve the research, ICP validation and
	// contact generation tools (either nil: none).
	Research     *research.Pipeline
	Integrations *integrations.Service
	// CRM serves list_crm_connections and start_crm_suppression (nil:
	// none, as the REST routes).
	CRM *crm.Service
	// Prospecting serves the managed prospecting run tools (nil, or no
	// task runner: none, as the REST routes).
	Prospecting *prospecting.Service
	// Names serves match_company (nil: no such tool); the name index is
	// the REST API's, shared.
	Names *namematch.Service
	// OpenAPI is the REST API's document; tools whose REST operation
	// declares its input take their input schema from it.
	OpenAPI *huma.OpenAPI
	// Verify resolves bearer credentials.
	Verify Verifier
	// ResourceMetadataURL is the protected resource metadata address sent
	// in the WWW-Authenticate challenge of a 401.
	ResourceMetadataURL string
	// Secret keys the HMAC of confirmation tokens (at least 32 bytes; one
	// per deployment so every process accepts the others' tokens).
	Secret []byte
	// SessionCap is the most credits confirmed calls of one grant may
	// spend through this process in SessionWindow; 0 means no cap.
	SessionCap    int
	SessionWindow time.Duration
	// TaskWait bounds how long a task tool called with a progress token
	// waits for its task, reporting progress (default 2 minutes).
	TaskWait time.Duration
	Log      zerolog.Logger
	Now      func() time.Time
}

// Server is the tool server.
type Server struct {
	cfg     Config
	srv     *sdk.Server
	tools   []*tool
	spend   *spending
	saves   *account.Limiter
	handler http.Handler
}

// Version is reported to clients in the initialize result.
const Version = "1.0.0"

// New builds the tool server with every tool.
func New(cfg Config) (*Server, error) {
	if len(cfg.Secret) < 32 {
		return nil, fmt.Errorf("mcp: the confirmation secret needs at least 32 bytes")
	}
	if cfg.Verify == nil {
		return nil, fmt.Errorf("mcp: no credential verifier")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.TaskWait <= 0 {
		cfg.TaskWait = 2 * time.Minute
	}
	if cfg.SessionWindow <= 0 {
		cfg.SessionWindow = 24 * time.Hour
	}
	s := &Server{cfg: cfg, spend: newSpending(cfg.SessionCap, cfg.SessionWindow, cfg.Now)}
	var plans account.Plans
	if cfg.Biller != nil {
		plans = cfg.Biller.Plans
	}
	s.saves = saveLimiter(plans)
	s.srv = sdk.NewServer(&sdk.Implementation{Name: "prospectd", Title: "Prospecting API", Version: Version},
		&sdk.ServerOptions{Instructions: instructions})
	for _, t := range append(append(s.catalog(), s.savedTools()...), append(append(s.emailTools(), s.researchTools()...), append(append(s.lookupTools(), s.crmTools()...), s.runTools()...)...)...) {
		if err := s.add(t); err != nil {
			return nil, err
		}
	}
	// Stateless: the current protocol revision carries no session, and
	// every request (with its progress notifications) is answered on its
	// own POST, so any process behind a balancer can serve it.
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.srv }, &sdk.StreamableHTTPOptions{
		Stateless: true,
		// Requests carry a bearer token a browser page cannot attach, so
		// DNS rebinding gains nothing; the check would refuse every request
		// behind a reverse proxy on the loopback interface.
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        BodyLimit,
	})
	s.handler = auth.RequireBearerToken(s.verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL:    cfg.ResourceMetadataURL,
		AllowMissingExpiration: true, // API keys do not expire
	})(s.limit(h))
	return s, nil
}

// BodyLimit is the largest request body the tool server reads.
const BodyLimit = 1 << 20

const instructions = "B2B prospecting: company discovery and profiles, contact search, name matching and list segmentation, " +
	"saved queries and exclusion lists, email finding and verification, and research with the organization's own LLM. " +
	"Tools that spend credits first answer with an estimate and a confirmation_token; call the same tool again with the same arguments plus that token to run it and pay. " +
	"Records retrieved in the last 90 days are free. Task tools return a task_id; get_task_status reports progress and results."

// Handler serves the tool server, bearer authentication included.
func (s *Server) Handler() http.Handler { return s.handler }

// verify is the SDK middleware's token verifier.
func (s *Server) verify(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	c, err := s.cfg.Verify(ctx, token)
	if err != nil {
		return nil, err
	}
	return &auth.TokenInfo{Scopes: c.Scopes, Expiration: c.Expires, UserID: c.Principal.User.ID,
		Extra: map[string]any{callerKey: c}}, nil
}

const callerKey = "prospectd.caller"

// limit applies the API's per-key and per-organization rate limits: one
// MCP request counts as one API request.
func (s *Server) limit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Limiter != nil {
			if c, ok := callerOf(auth.TokenInfoFromContext(r.Context())); ok {
				if ok, retry := s.cfg.Limiter.Allow(c.Principal, s.cfg.Now()); !ok {
					secs := int(retry.Seconds() + 0.999)
					if secs < 1 {
						secs = 1
					}
					w.Header().Set("Retry-After", strconv.Itoa(secs))
					http.Error(w, fmt.Sprintf("rate limit exceeded for this credential or organization; retry in %d s", secs), http.StatusTooManyRequests)
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

func callerOf(ti *auth.TokenInfo) (Caller, bool) {
	if ti == nil {
		return Caller{}, false
	}
	c, ok := ti.Extra[callerKey].(Caller)
	return c, ok
}

// toolError is a refused call: the REST status and detail, so an agent
// can act on it as on the REST answer.
type toolError struct {
	Status int          `json:"status"`
	Title  string       `json:"title"`
	Detail string       `json:"detail"`
	Errors []paramError `json:"errors,omitempty"`
}

type paramError struct {
	Location string `json:"location"`
	Message  string `json:"message"`
	Value    string `json:"value,omitempty"`
}

func (e *toolError) Error() string { return e.Detail }

func refuse(status int, format string, args ...any) *toolError {
	return &toolError{Status: status, Title: http.StatusText(status), Detail: fmt.Sprintf(format, args...)}
}

// queryError turns a query.Error into a refusal naming every parameter.
func queryError(err error, loc string) *toolError {
	qe, ok := err.(*query.Error)
	if !ok {
		return refuse(http.StatusUnprocessableEntity, "%v", err)
	}
	te := refuse(qe.Status, "%s", qe.Error())
	for _, p := range qe.Params {
		te.Errors = append(te.Errors, paramError{Location: loc + p.Param, Message: p.Rule, Value: p.Value})
	}
	return te
}

// args are a call's arguments as JSON values.
type args map[string]json.RawMessage

func (a args) str(name string) (string, error) {
	raw, ok := a[name]
	if !ok || string(raw) == "null" {
		return "", nil
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", refuse(http.StatusUnprocessableEntity, "%s: must be a string", name)
	}
	return strings.TrimSpace(v), nil
}

// values turns arguments into query parameters as the REST route reads
// them: arrays are repeated parameters, scalars their text.
func (a args) values() (map[string][]string, error) {
	out := map[string][]string{}
	for k, raw := range a {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, refuse(http.StatusUnprocessableEntity, "%s: not JSON", k)
		}
		switch x := v.(type) {
		case nil:
		case []any:
			for i, e := range x {
				s, ok := scalar(e)
				if !ok {
					return nil, refuse(http.StatusUnprocessableEntity, "%s[%d]: must be a string, number or boolean", k, i)
				}
				out[k] = append(out[k], s)
			}
		default:
			s, ok := scalar(x)
			if !ok {
				return nil, refuse(http.StatusUnprocessableEntity, "%s: must be a string, number, boolean or an array of them", k)
			}
			out[k] = []string{s}
		}
	}
	return out, nil
}

func scalar(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case bool:
		return strconv.FormatBool(x), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	}
	return "", false
}

// paid checks the caller's plan, as the REST routes do.
func paid(c Caller) error {
	if err := account.Require(c.Principal.Org, store.PlanStarter); err != nil {
		return refuse(http.StatusForbidden, "%v", err)
	}
	return nil
}
