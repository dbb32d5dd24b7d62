package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/store"
)

// prospectingStartBody is the start request (spec: POST /prospecting/runs).
type prospectingStartBody struct {
	Brief                   string   `json:"brief" minLength:"10" maxLength:"4000" doc:"What to find, in plain words; quantities may be given here"`
	Domains                 []string `json:"domains,omitempty" maxItems:"1000" doc:"Explicit target companies (not lookalike examples)"`
	CompanyNames            []string `json:"company_names,omitempty" maxItems:"100"`
	CustomerDomains         []string `json:"customer_domains,omitempty" maxItems:"1000" doc:"Customers: grouped into seed segments with lookalikes found for each; never returned as results; not with domains or company_names (422)"`
	ExcludeDomains          []string `json:"exclude_domains,omitempty" maxItems:"1000"`
	TargetCompanies         *int     `json:"target_companies,omitempty" minimum:"1" maximum:"10000" doc:"Default 1000, or what the brief says"`
	ContactsPerCompany      *int     `json:"contacts_per_company,omitempty" minimum:"1" maximum:"10" doc:"Default 1, or what the brief says"`
	MaxCandidates           *int     `json:"max_candidates,omitempty" minimum:"0" maximum:"100000" doc:"0 = automatic (largest of target x 8, 50 and the supplied companies)"`
	MaxActions              *int     `json:"max_actions,omitempty" minimum:"0" maximum:"10000" doc:"0 = automatic (ceil(target/10) x 6 + 12, at least 24)"`
	ValidationIntegrationID *string  `json:"validation_integration_id,omitempty" doc:"An LLM integration id or native-icp (built-in company check)"`
	ContactIntegrationID    *string  `json:"contact_integration_id,omitempty" doc:"An LLM integration id or native (built-in contact research)"`
	SearchProviderID        *string  `json:"search_provider_id,omitempty" doc:"A search integration id, or none (indexed contacts only)"`
	Segment                 *bool    `json:"segment,omitempty" doc:"Segment the fit companies when at least ten are found"`
	Deliverable             *string  `json:"deliverable,omitempty" enum:"leads,accounts" doc:"leads (default) finds people; accounts returns checked companies only"`
	Goal                    *string  `json:"goal,omitempty" enum:"leads,companies" doc:"leads (default) adds rounds until the contact target is met; companies works target_companies fit companies only"`
	Checkpoints             *string  `json:"checkpoints,omitempty" enum:"ask,auto" doc:"ask pauses in chat at checkpoints; auto (default) never pauses, except top_up"`
	MaxSpendUSD             *float64 `json:"max_spend_usd,omitempty" minimum:"0" doc:"Cap on service credits at plan rates; 0 = no limit"`
	MaxProviderSpendUSD     *float64 `json:"max_provider_spend_usd,omitempty" minimum:"0" doc:"Cap on spend on your own AI and search keys; 0 = no limit"`
	WebhookURL              string   `json:"webhook_url,omitempty" maxLength:"2048" doc:"Receives the run's status events (prospecting_run.status: proposed, queued, running, paused with its checkpoint, completed or failed with stop_reason), signed as saved-query monitor webhooks (Standard Webhooks headers) with webhook_secret (extension); a public http(s) URL"`
}

func (b prospectingStartBody) request() prospecting.Request {
	return prospecting.Request{Brief: b.Brief, Domains: b.Domains, CompanyNames: b.CompanyNames, CustomerDomains: b.CustomerDomains,
		ExcludeDomains: b.ExcludeDomains, TargetCompanies: b.TargetCompanies, ContactsPerCompany: b.ContactsPerCompany,
		MaxCandidates: b.MaxCandidates, MaxActions: b.MaxActions, ValidationIntegrationID: b.ValidationIntegrationID,
		ContactIntegrationID: b.ContactIntegrationID, SearchProviderID: b.SearchProviderID, Segment: b.Segment, Deliverable: b.Deliverable,
		Goal: b.Goal, Checkpoints: b.Checkpoints, MaxSpendUSD: b.MaxSpendUSD, MaxProviderSpendUSD: b.MaxProviderSpendUSD, WebhookURL: b.WebhookURL}
}

type prospectingStartInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"128" doc:"Required (1-128 characters) unless dry_run: the same key and request return the same run; a changed request is 409"`
	DryRun         bool   `query:"dry_run" doc:"Return the plan and its estimate without creating a run (extension)"`
	Body           prospectingStartBody
}

// ProspectingMessage is one chat message of a run.
type ProspectingMessage struct {
	Seq       int64     `json:"seq"`
	CreatedAt time.Time `json:"created_at"`
	prospecting.MessageBody
}

// ProspectingRun is a run as GET /v1/prospecting/runs/{run_id} returns it.
type ProspectingRun struct {
	RunID         string               `json:"run_id" doc:"Empty on a dry run"`
	Status        string               `json:"status" enum:"drafting,proposed,queued,running,paused,completed,failed,dry_run"`
	DryRun        bool                 `json:"dry_run,omitempty" doc:"true on the answer to dry_run=true: the plan and estimate, no run created"`
	PipelinePhase *string              `json:"pipeline_phase" enum:"companies,people" doc:"null before the run starts"`
	StopReason    *string              `json:"stop_reason" enum:"target_reached,companies_worked,credit_limit,provider_limit,user_stopped"`
	Checkpoint    *string              `json:"checkpoint" enum:"contacts_review,top_up" doc:"The checkpoint a paused run waits at; reply with POST .../messages"`
	PlanVersion   int                  `json:"plan_version" doc:"0 while drafting"`
	Plan          *prospecting.Plan    `json:"plan" doc:"null while drafting"`
	Brief         string               `json:"brief"`
	Round         int                  `json:"round"`
	Counts        prospecting.Counts   `json:"counts"`
	SpentUSD      float64              `json:"spent_usd" doc:"Service credits the run's records cost at plan rates"`
	ProviderCost  float64              `json:"provider_cost_usd" doc:"Spend on your own AI and search keys as the providers' list prices give it"`
	ProviderAI    float64              `json:"provider_ai_cost_usd"`
	ProviderSrch  float64              `json:"provider_search_cost_usd"`
	ResultsID     *string              `json:"results_query_id" doc:"The saved query holding the results, once the run ended"`
	Error         string               `json:"error,omitempty"`
	WebhookSecret string               `json:"webhook_secret,omitempty" doc:"The secret signing the run's webhook events: only in the 202 answer of the start request that created a run with webhook_url (extension)"`
	CreatedAt     time.Time            `json:"created_at"`
	UpdatedAt     time.Time            `json:"updated_at"`
	Messages      []ProspectingMessage `json:"messages" doc:"Every chat message, oldest first"`
}

func optionalText(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func prospectingMessages(ms []prospecting.Message) ([]ProspectingMessage, error) {
	out := make([]ProspectingMessage, 0, len(ms))
	for _, m := range ms {
		var b prospecting.MessageBody
		if err := json.Unmarshal(m.Body, &b); err != nil {
			return nil, err
		}
		out = append(out, ProspectingMessage{Seq: m.Seq, CreatedAt: m.CreatedAt, MessageBody: b})
	}
	return out, nil
}

type prospectingRunOutput struct {
	Status int
	Body   ProspectingRun
}

type prospectingRunInput struct {
	RunID string `path:"run_id" maxLength:"64"`
}

type prospectingApproveInput struct {
	RunID          string `path:"run_id" maxLength:"64"`
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"128" doc:"Accepted, not required: repeating the approval of the approved version is safe"`
	Body           struct {
		PlanVersion  int       `json:"plan_version" minimum:"1"`
		Checkpoints  *string   `json:"checkpoints,omitempty" enum:"ask,auto" doc:"null or omitted keeps the brief's"`
		SeedSegments *[]string `json:"seed_segments,omitempty" doc:"Segment ids from the plan card; omitted keeps the selection; an empty list or an unlisted id is 422"`
		Segment      *bool     `json:"segment,omitempty"`
	}
}

type prospectingPatchInput struct {
	RunID string `path:"run_id" maxLength:"64"`
	Body  struct {
		PlanVersion             int      `json:"plan_version" minimum:"1"`
		ContactIntegrationID    *string  `json:"contact_integration_id,omitempty" doc:"An option id of contact_engine"`
		ValidationIntegrationID *string  `json:"validation_integration_id,omitempty" doc:"An option id of company_check_engine"`
		SearchProviderID        *string  `json:"search_provider_id,omitempty" doc:"An option id of search_provider, or none"`
		TargetCompanies         *int     `json:"target_companies,omitempty" minimum:"1" maximum:"10000"`
		ContactsPerCompany      *int     `json:"contacts_per_company,omitempty" minimum:"1" maximum:"10"`
		Deliverable             *string  `json:"deliverable,omitempty" enum:"leads,accounts"`
		Goal                    *string  `json:"goal,omitempty" enum:"leads,companies"`
		MaxSpendUSD             *float64 `json:"max_spend_usd,omitempty" minimum:"0" doc:"0 removes the limit; 422 when the plan has no per-record price"`
		MaxProviderSpendUSD     *float64 `json:"max_provider_spend_usd,omitempty" minimum:"0" doc:"0 removes the limit"`
	}
}

type prospectingMessagesInput struct {
	RunID         string `path:"run_id" maxLength:"64"`
	MessagesAfter int64  `query:"messages_after" minimum:"0" doc:"Only messages with a seq above this cursor (0: all)"`
}

type prospectingMessagesOutput struct {
	Body struct {
		Messages []ProspectingMessage `json:"messages"`
	}
}

type prospectingReplyInput struct {
	RunID string `path:"run_id" maxLength:"64"`
	Body  struct {
		Checkpoint          string   `json:"checkpoint" enum:"contacts_review,top_up" doc:"The checkpoint the run is paused at"`
		Action              string   `json:"action" enum:"continue,stop" doc:"continue resumes the run; stop ends it keeping the results found"`
		MaxSpendUSD         *float64 `json:"max_spend_usd,omitempty" minimum:"0" doc:"A new spending limit (top_up)"`
		MaxProviderSpendUSD *float64 `json:"max_provider_spend_usd,omitempty" minimum:"0"`
		Text                string   `json:"text,omitempty" maxLength:"4000"`
	}
}

type prospectingResultsOutput struct {
	Body struct {
		Query SavedQueryBody          `json:"query" doc:"The saved query holding the results (usable as an inclusion or exclusion filter)"`
		Rows  []prospecting.ResultRow `json:"rows" doc:"One row per fit company; contacts only on leads runs"`
	}
}

func (s *Server) registerProspecting() {
	svc := s.deps.Prospecting
	if svc == nil {
		return
	}
	if svc.Tasks == nil {
		s.deps.Log.Warn().Msg("the prospecting service has no task runner (jobs.Config.Prospecting): the /v1/prospecting routes are not served")
		return
	}
	if svc.Webhooks == nil {
		// Run events go out through the sender of monitor changes.
		svc.Webhooks = &prospecting.Webhooks{AllowPrivate: s.deps.WebhookPrivateHosts, Sender: s.deps.Webhooks}
	}
	tag := []string{"Prospecting"}
	actor := func(ctx context.Context) (prospecting.Actor, error) {
		pr, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return prospecting.Actor{}, err
		}
		return prospecting.Actor{Org: pr.Org, UserID: pr.User.ID}, nil
	}
	view := func(ctx context.Context, r prospecting.Run, status int) (*prospectingRunOutput, error) {
		ms, err := s.deps.Prospecting.Messages(ctx, r.OrgID, r.ID, 0)
		if err != nil {
			return nil, s.prospectingError(ctx, err)
		}
		body, err := runBody(r, ms)
		if err != nil {
			return nil, s.internal(ctx, "prospecting run", err)
		}
		return &prospectingRunOutput{Status: status, Body: body}, nil
	}

	huma.Register(s.api, huma.Operation{OperationID: "prospecting-start", Method: http.MethodPost, Path: "/v1/prospecting/runs",
		Summary:     "Start a managed prospecting run (async)",
		Description: "202 with a stable run_id and status drafting; planning continues after the client disconnects. Poll GET /v1/prospecting/runs/{run_id} until proposed, then approve. A missing or over-long Idempotency-Key is 422. Starting needs an active paid plan (403 otherwise) and credits left this period (402 otherwise); 403 also when the user already has a queued or running run (the detail says when to retry). Repeating an accepted request with its key returns the run whatever the quota. With dry_run=true (extension), 200 with status dry_run, the plan and its estimate, and no run created (no key needed).",
		Tags:        tag, Security: authRequired, DefaultStatus: http.StatusAccepted,
		Errors: []int{http.StatusUnauthorized, http.StatusPaymentRequired, http.StatusForbidden, http.StatusConflict, http.StatusUnprocessableEntity}},
		func(ctx context.Context, in *prospectingStartInput) (*prospectingRunOutput, error) {
			a, err := actor(ctx)
			if err != nil {
				return nil, err
			}
			if in.DryRun {
				p, err := svc.DryRun(ctx, a, in.Body.request())
				if err != nil {
					return nil, s.prospectingError(ctx, err)
				}
				return &prospectingRunOutput{Status: http.StatusOK, Body: ProspectingRun{Status: "dry_run", DryRun: true, Plan: p,
					Brief: in.Body.Brief, Messages: []ProspectingMessage{}}}, nil
			}
			r, created, err := svc.Start(ctx, a, in.IdempotencyKey, in.Body.request())
			if err != nil {
				return nil, s.prospectingError(ctx, err)
			}
			out, err := view(ctx, r, http.StatusAccepted)
			if err == nil && created {
				out.Body.WebhookSecret = r.Secret
			}
			return out, err
		})

	huma.Register(s.api, huma.Operation{OperationID: "prospecting-get", Method: http.MethodGet, Path: "/v1/prospecting/runs/{run_id}",
		Summary: "A prospecting run with its plan, progress, costs and chat messages", Tags: tag, Security: authRequired,
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound}},
		func(ctx context.Context, in *prospectingRunInput) (*prospectingRunOutput, error) {
			a, err := actor(ctx)
			if err != nil {
				return nil, err
			}
			r, err := svc.Get(ctx, a.Org.ID, in.RunID)
			if err != nil {
				return nil, s.prospectingError(ctx, err)
			}
			return view(ctx, r, http.StatusOK)
		})

	huma.Register(s.api, huma.Operation{OperationID: "prospecting-approve", Method: http.MethodPost, Path: "/v1/prospecting/runs/{run_id}/approve",
		Summary:     "Approve a proposed plan (queues the run)",
		Description: "202, run queued. A stale plan_version, a plan not ready or an unpicked engine (pick_required) is 409; repeating the approval of the approved version is safe. One queued or running run per user in an organization (403 otherwise).",
		Tags:        tag, Security: authRequired, DefaultStatus: http.StatusAccepted,
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity}},
		func(ctx context.Context, in *prospectingApproveInput) (*prospectingRunOutput, error) {
			a, err := actor(ctx)
			if err != nil {
				return nil, err
			}
			b := in.Body
			r, err := svc.Approve(ctx, a, in.RunID, prospecting.ApproveRequest{PlanVersion: b.PlanVersion, Checkpoints: b.Checkpoints,
				SeedSegments: b.SeedSegments, Segment: b.Segment})
			if err != nil {
				return nil, s.prospectingError(ctx, err)
			}
			return view(ctx, r, http.StatusAccepted)
		})

	huma.Register(s.api, huma.Operation{OperationID: "prospecting-patch-plan", Method: http.MethodPatch, Path: "/v1/prospecting/runs/{run_id}/plan",
		Summary:     "Change a plan waiting for approval",
		Description: "Omitted fields keep their value; a new plan_version is issued and the plan message is rewritten in place with the same seq (read it from this response's messages or poll with messages_after=0). A request that changes nothing returns the run unchanged. Unknown fields and values outside the options are 422; a run not waiting for approval or a stale version is 409.",
		Tags:        tag, Security: authRequired,
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity}},
		func(ctx context.Context, in *prospectingPatchInput) (*prospectingRunOutput, error) {
			a, err := actor(ctx)
			if err != nil {
				return nil, err
			}
			b := in.Body
			r, err := svc.PatchPlan(ctx, a, in.RunID, prospecting.Patch{PlanVersion: b.PlanVersion, ContactIntegrationID: b.ContactIntegrationID,
				ValidationIntegrationID: b.ValidationIntegrationID, SearchProviderID: b.SearchProviderID, TargetCompanies: b.TargetCompanies,
				ContactsPerCompany: b.ContactsPerCompany, Deliverable: b.Deliverable, Goal: b.Goal, MaxSpendUSD: b.MaxSpendUSD,
				MaxProviderSpendUSD: b.MaxProviderSpendUSD})
			if err != nil {
				return nil, s.prospectingError(ctx, err)
			}
			return view(ctx, r, http.StatusOK)
		})

	huma.Register(s.api, huma.Operation{OperationID: "prospecting-messages", Method: http.MethodGet, Path: "/v1/prospecting/runs/{run_id}/messages",
		Summary:     "A run's chat messages after a cursor",
		Description: "Messages with seq above messages_after, oldest first. The plan message keeps its seq when rewritten, so a cursor past it does not return it again.",
		Tags:        tag, Security: authRequired, Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound}},
		func(ctx context.Context, in *prospectingMessagesInput) (*prospectingMessagesOutput, error) {
			a, err := actor(ctx)
			if err != nil {
				return nil, err
			}
			ms, err := svc.Messages(ctx, a.Org.ID, in.RunID, in.MessagesAfter)
			if err != nil {
				return nil, s.prospectingError(ctx, err)
			}
			out := &prospectingMessagesOutput{}
			if out.Body.Messages, err = prospectingMessages(ms); err != nil {
				return nil, s.internal(ctx, "prospecting messages", err)
			}
			return out, nil
		})

	huma.Register(s.api, huma.Operation{OperationID: "prospecting-reply", Method: http.MethodPost, Path: "/v1/prospecting/runs/{run_id}/messages",
		Summary:     "Reply to the checkpoint a run is paused at",
		Description: "continue resumes the run (at top_up, with new spending limits if given); stop ends it with stop_reason user_stopped, keeping the results found. 409 when the run is not paused.",
		Tags:        tag, Security: authRequired, DefaultStatus: http.StatusAccepted,
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity}},
		func(ctx context.Context, in *prospectingReplyInput) (*prospectingRunOutput, error) {
			a, err := actor(ctx)
			if err != nil {
				return nil, err
			}
			b := in.Body
			r, err := svc.Reply(ctx, a, in.RunID, prospecting.ReplyRequest{Checkpoint: b.Checkpoint, Action: b.Action, MaxSpendUSD: b.MaxSpendUSD,
				MaxProviderSpendUSD: b.MaxProviderSpendUSD, Text: b.Text})
			if err != nil {
				return nil, s.prospectingError(ctx, err)
			}
			return view(ctx, r, http.StatusAccepted)
		})

	huma.Register(s.api, huma.Operation{OperationID: "prospecting-results", Method: http.MethodGet, Path: "/v1/prospecting/runs/{run_id}/results",
		Summary:     "A run's saved results",
		Description: "The saved query holding an ended run's results (one row per fit company; contacts only on leads runs). 409 until the run has ended.",
		Tags:        tag, Security: authRequired, Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict}},
		func(ctx context.Context, in *prospectingRunInput) (*prospectingResultsOutput, error) {
			a, err := actor(ctx)
			if err != nil {
				return nil, err
			}
			q, rows, err := svc.Results(ctx, a.Org.ID, in.RunID)
			if err != nil {
				return nil, s.prospectingError(ctx, err)
			}
			out := &prospectingResultsOutput{}
			out.Body.Query, out.Body.Rows = savedQueryBody(q), rows
			return out, nil
		})
}

func runBody(r prospecting.Run, ms []prospecting.Message) (ProspectingRun, error) {
	d := r.Data
	b := ProspectingRun{RunID: r.ID, Status: r.Status, PipelinePhase: optionalText(d.Phase), StopReason: optionalText(d.StopReason),
		Checkpoint: optionalText(d.Checkpoint), PlanVersion: d.PlanVersion, Plan: d.Plan, Brief: d.Request.Brief, Round: d.Progress.Round,
		Counts: d.Progress.Count(), ProviderAI: d.Costs.AI(), ProviderSrch: d.Costs.Search(), ResultsID: optionalText(d.ResultsQueryID),
		Error: d.Error, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
	b.ProviderCost = b.ProviderAI + b.ProviderSrch
	if d.Plan != nil {
		b.SpentUSD = float64(b.Counts.Records) * d.Plan.PricePerRecordUSD
	}
	var err error
	b.Messages, err = prospectingMessages(ms)
	return b, err
}

// prospectingError maps the service's errors to the spec's statuses.
func (s *Server) prospectingError(ctx context.Context, err error) error {
	var fe *prospecting.FieldError
	switch {
	case errors.As(err, &fe):
		return huma.Error422UnprocessableEntity(fe.Error())
	case errors.Is(err, prospecting.ErrNotFound):
		return huma.Error404NotFound("run_id: no prospecting run with that id for this organization")
	case errors.Is(err, prospecting.ErrBusy), errors.Is(err, account.ErrPlan):
		return huma.Error403Forbidden(err.Error())
	case errors.Is(err, account.ErrNoCredits):
		return huma.NewError(http.StatusPaymentRequired, err.Error())
	case errors.Is(err, prospecting.ErrConflict):
		return huma.Error409Conflict(err.Error())
	}
	return s.internal(ctx, "prospecting", err)
}
