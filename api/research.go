package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/providers/llm"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/store"
)

// ResearchOptions are the parameters every research submission takes.
type ResearchOptions struct {
	IntegrationID     string `json:"integration_id,omitempty" format:"uuid" doc:"LLM integration; the organization default when omitted"`
	WebSearch         bool   `json:"web_search,omitempty" doc:"400 when no search provider is available and the model has no built-in search"`
	SearchProviderID  string `json:"search_provider_id,omitempty" format:"uuid" doc:"Search integration; the default when omitted"`
	SearchContextSize string `json:"search_context_size,omitempty" enum:"low,medium,high" doc:"Searches per record: low 1 (default), medium 3, high 5"`
	IncludeXSearch    bool   `json:"include_x_search,omitempty"`
}

type genProcessBody struct {
	Query string `json:"query" minLength:"1" maxLength:"8000"`
	ResearchOptions
	Domains              []string                   `json:"domains" minItems:"1" maxItems:"10000"`
	ContextMode          string                     `json:"context_mode,omitempty" enum:"website,profile,domain" doc:"website (default) = profile plus homepage text; profile; domain = name only (model fees only, no credits)"`
	PreviousDiscogenData map[string]json.RawMessage `json:"previous_discogen_data,omitempty" doc:"Earlier findings keyed by domain, appended to each record's context"`
}

type genPersonasBody struct {
	Query string `json:"query" minLength:"1" maxLength:"8000"`
	ResearchOptions
	PersonaIDs           []int64                    `json:"persona_ids" minItems:"1" maxItems:"10000"`
	ContextMode          string                     `json:"context_mode,omitempty" enum:"full,company,profile,profile_summary,name_only" doc:"profile (default); name_only incurs model fees only"`
	PreviousDiscogenData map[string]json.RawMessage `json:"previous_discogen_data,omitempty" doc:"Earlier findings keyed by persona id"`
}

type icpBody struct {
	ICPText          string   `json:"icp_text" minLength:"1" maxLength:"8000"`
	Domains          []string `json:"domains" minItems:"1" maxItems:"10000"`
	ContextMode      string   `json:"context_mode,omitempty" enum:"website,profile,domain"`
	IntegrationID    string   `json:"integration_id,omitempty" format:"uuid"`
	WebSearch        bool     `json:"web_search,omitempty"`
	SearchProviderID string   `json:"search_provider_id,omitempty" format:"uuid"`
}

type contactGenBody struct {
	ICPText          string   `json:"icp_text" minLength:"1" maxLength:"8000"`
	Domains          []string `json:"domains" minItems:"1" maxItems:"10000"`
	ContextMode      string   `json:"context_mode,omitempty" enum:"website,profile,domain"`
	IntegrationID    string   `json:"integration_id,omitempty" format:"uuid"`
	SearchProviderID string   `json:"search_provider_id,omitempty" format:"uuid"`
}

// ResearchAccepted is the answer to a research submission.
type ResearchAccepted struct {
	TaskID       string   `json:"task_id"`
	ColumnName   []string `json:"column_name"`
	Status       string   `json:"status"`
	TotalDomains int      `json:"total_domains"`
}

type researchAcceptedOutput struct{ Body ResearchAccepted }

// ResearchStatus is the status body of a research task.
type ResearchStatus struct {
	TaskID string `json:"task_id"`
	Status string `json:"status" enum:"in_progress,completed,failed,cancelling,cancelled"`
	// Progress is 0-100.
	Progress       int                        `json:"progress"`
	InterimResults map[string]json.RawMessage `json:"interim_results"`
	Results        map[string]json.RawMessage `json:"results,omitempty"`
	RecordErrors   map[string]string          `json:"record_errors,omitempty" doc:"Records whose model call failed or whose answer was malformed; their value is null"`
	EstimatedCost  float64                    `json:"estimated_cost" doc:"USD on your own provider keys (best effort); not the service's billing"`
	ResponseFormat research.ResponseFormat    `json:"response_format"`
	Warnings       []string                   `json:"warnings"`
	CostMetadata   map[string]any             `json:"cost_metadata"`
	Error          string                     `json:"error,omitempty"`
}

func normalizeDomains(list []string) ([]string, error) {
	out := make([]string, 0, len(list))
	var bad []string
	for i, v := range list {
		d, err := domain.Normalize(v)
		if err != nil {
			bad = append(bad, fmt.Sprintf("domains[%d] %q", i, v))
			continue
		}
		out = append(out, d)
	}
	if len(bad) > 0 {
		if len(bad) > 5 {
			bad = append(bad[:5], fmt.Sprintf("and %d more", len(bad)-5))
		}
		return nil, huma.Error422UnprocessableEntity("domains: not domains: " + strings.Join(bad, "; "))
	}
	return out, nil
}

func (s *Server) registerResearch(svc *integrations.Service) {
	if svc == nil {
		return
	}
	p := s.deps.Research
	if p == nil {
		s.deps.Log.Warn().Msg("no research pipeline (Deps.Research): the research routes are not served")
		return
	}
	tag := []string{"Research"}
	errs := []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusPaymentRequired, http.StatusForbidden, http.StatusUnprocessableEntity}

	// submit prepares, bills and queues a research task. charges bill the
	// records (nil: model fees only); uncovered records are dropped.
	submit := func(ctx context.Context, pr store.Principal, req research.Request, endpoint string, charge func([]string) []store.Charge) (*researchAcceptedOutput, error) {
		task, err := p.Prepare(ctx, pr.Org.ID, req)
		switch {
		case errors.Is(err, research.ErrNoSearch), errors.Is(err, research.ErrInvalid):
			return nil, huma.Error400BadRequest(err.Error())
		case err != nil:
			return nil, s.internal(ctx, "prepare "+endpoint, err)
		}
		sub, err := research.Submit(ctx, s.biller, s.deps.Tasks, pr.Org, endpoint, task, charge)
		if errors.Is(err, account.ErrNoCredits) {
			return nil, huma.NewError(http.StatusPaymentRequired, fmt.Sprintf(
				"no credits left this period (%d used); records retrieved in the last 90 days stay free; see GET /v1/usage", sub.Used))
		}
		if err != nil {
			return nil, s.internal(ctx, "submit "+endpoint, err)
		}
		t, task := sub.Task, sub.Input
		return &researchAcceptedOutput{Body: ResearchAccepted{TaskID: t.ID, ColumnName: task.ColumnNames(), Status: t.Status, TotalDomains: len(task.Keys)}}, nil
	}

	type genIn struct{ Body genProcessBody }
	huma.Register(s.api, huma.Operation{OperationID: "gen-process", Method: http.MethodPost, Path: "/v1/gen/process",
		Summary: "Research a list of domains with your own LLM (async)", Description: "Runs `query` on each domain in its own context. Poll GET /v1/gen/status/{task_id}. Credits only for domains not retrieved in the last 90 days; context_mode domain incurs model fees only.",
		Tags: tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, in *genIn) (*researchAcceptedOutput, error) {
			pr, err := s.paid(ctx, store.PlanStarter)
			if err != nil {
				return nil, err
			}
			ds, err := normalizeDomains(in.Body.Domains)
			if err != nil {
				return nil, err
			}
			mode := in.Body.ContextMode
			if mode == "" {
				mode = research.ModeWebsite
			}
			b := in.Body
			// Earlier findings are keyed like the records: by root domain.
			prev, err := research.PreviousByDomain(b.PreviousDiscogenData)
			if err != nil {
				return nil, huma.Error422UnprocessableEntity("previous_discogen_data: " + err.Error())
			}
			b.PreviousDiscogenData = prev
			return submit(ctx, pr, research.Request{Kind: research.KindGen, Query: b.Query, IntegrationID: b.IntegrationID, SearchProviderID: b.SearchProviderID,
				WebSearch: b.WebSearch, SearchContextSize: b.SearchContextSize, IncludeXSearch: b.IncludeXSearch, ContextMode: mode, Keys: ds,
				Previous: b.PreviousDiscogenData}, "gen/process", research.Charges(research.KindGen, mode))
		})

	type personasIn struct{ Body genPersonasBody }
	huma.Register(s.api, huma.Operation{OperationID: "gen-process-personas", Method: http.MethodPost, Path: "/v1/gen/process-personas",
		Summary: "Research a list of contacts with your own LLM (async)", Description: "Credits only for contacts not discovered in the last 90 days; name_only incurs model fees only.",
		Tags: tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, in *personasIn) (*researchAcceptedOutput, error) {
			pr, err := s.paid(ctx, store.PlanStarter)
			if err != nil {
				return nil, err
			}
			if p.Contacts == nil {
				return nil, huma.Error400BadRequest("persona_ids: this deployment's engine has no contact index")
			}
			b := in.Body
			keys := make([]string, len(b.PersonaIDs))
			for i, id := range b.PersonaIDs {
				if id <= 0 {
					return nil, huma.Error422UnprocessableEntity(fmt.Sprintf("persona_ids[%d]: must be a positive integer", i))
				}
				keys[i] = strconv.FormatInt(id, 10)
			}
			mode := b.ContextMode
			if mode == "" {
				mode = research.ModeProfile
			}
			return submit(ctx, pr, research.Request{Kind: research.KindPersonas, Query: b.Query, IntegrationID: b.IntegrationID, SearchProviderID: b.SearchProviderID,
				WebSearch: b.WebSearch, SearchContextSize: b.SearchContextSize, IncludeXSearch: b.IncludeXSearch, ContextMode: mode, Keys: keys,
				Previous: b.PreviousDiscogenData}, "gen/process-personas", research.Charges(research.KindPersonas, mode))
		})

	type icpIn struct{ Body icpBody }
	huma.Register(s.api, huma.Operation{OperationID: "validate-icp", Method: http.MethodPost, Path: "/v1/validate/icp",
		Summary: "Rate domains against an ICP (async)", Description: "Each result: Fit (yes, partial, no), Confidence (high, medium, low), Reasoning. With web_search, low depth and two fixed queries per domain. Poll GET /v1/gen/status/{task_id}.",
		Tags: tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, in *icpIn) (*researchAcceptedOutput, error) {
			pr, err := s.paid(ctx, store.PlanStarter)
			if err != nil {
				return nil, err
			}
			ds, err := normalizeDomains(in.Body.Domains)
			if err != nil {
				return nil, err
			}
			mode := in.Body.ContextMode
			if mode == "" {
				mode = research.ModeWebsite
			}
			b := in.Body
			return submit(ctx, pr, research.Request{Kind: research.KindICP, Query: b.ICPText, IntegrationID: b.IntegrationID, SearchProviderID: b.SearchProviderID,
				WebSearch: b.WebSearch, ContextMode: mode, Keys: ds}, "validate/icp", research.Charges(research.KindICP, mode))
		})

	type contactGenIn struct{ Body contactGenBody }
	huma.Register(s.api, huma.Operation{OperationID: "contacts-discover-generate", Method: http.MethodPost, Path: "/v1/contacts/discover/generate",
		Summary: "Generate candidate contacts with your own LLM and search provider (async)", Description: "Web search always on; no platform billing per contact. Rows may name invented people and are marked candidate until validated. Poll GET /v1/gen/status/{task_id}.",
		Tags: []string{"Contacts"}, Security: authRequired, Errors: errs},
		func(ctx context.Context, in *contactGenIn) (*researchAcceptedOutput, error) {
			pr, err := s.paid(ctx, store.PlanStarter)
			if err != nil {
				return nil, err
			}
			ds, err := normalizeDomains(in.Body.Domains)
			if err != nil {
				return nil, err
			}
			mode := in.Body.ContextMode
			if mode == "" {
				mode = research.ModeWebsite
			}
			b := in.Body
			return submit(ctx, pr, research.Request{Kind: research.KindContacts, Query: b.ICPText, IntegrationID: b.IntegrationID, SearchProviderID: b.SearchProviderID,
				WebSearch: true, ContextMode: mode, Keys: ds}, "contacts/discover/generate", nil)
		})

	type statusOut struct{ Body ResearchStatus }
	huma.Register(s.api, huma.Operation{OperationID: "gen-status", Method: http.MethodGet, Path: "/v1/gen/status/{task_id}",
		Summary: "Status of a research, ICP validation or contact generation task", Tags: tag, Security: authRequired,
		Errors: []int{http.StatusUnauthorized, http.StatusNotFound}},
		func(ctx context.Context, in *taskStatusInput) (*statusOut, error) {
			pr, ok := PrincipalFrom(ctx)
			if !ok {
				return nil, huma.Error401Unauthorized("missing API key")
			}
			t, err := s.deps.Store.GetTask(ctx, pr.Org.ID, in.TaskID)
			if errors.Is(err, store.ErrNotFound) || err == nil && !slices.Contains(research.Kinds, t.Kind) {
				return nil, huma.Error404NotFound(fmt.Sprintf("task_id: no research task %q for this organization", in.TaskID))
			}
			if err != nil {
				return nil, s.internal(ctx, "research status", err)
			}
			st, err := p.Status(ctx, t)
			if err != nil {
				return nil, s.internal(ctx, "research status", err)
			}
			body := ResearchStatus{TaskID: t.ID, Status: t.Status, Progress: t.Progress, InterimResults: st.InterimResults, Results: st.Results,
				RecordErrors: st.RecordErrors, EstimatedCost: st.EstimatedCost, ResponseFormat: st.ResponseFormat, Warnings: st.Warnings,
				CostMetadata: st.CostMetadata, Error: t.Error}
			if t.Status == store.TaskCompleted {
				body.Progress = 100
			}
			return &statusOut{Body: body}, nil
		})

	type cancelOut struct {
		Body struct {
			Success bool   `json:"success"`
			Message string `json:"message"`
			TaskID  string `json:"task_id"`
			Status  string `json:"status"`
		}
	}
	huma.Register(s.api, huma.Operation{OperationID: "gen-cancel", Method: http.MethodDelete, Path: "/v1/gen/cancel/{task_id}",
		Summary: "Cancel a research task", Description: "The task turns cancelling and stops sending records to the model within seconds; finished records stay in its status.",
		Tags: tag, Security: authRequired, Errors: []int{http.StatusUnauthorized, http.StatusNotFound, http.StatusConflict}},
		func(ctx context.Context, in *taskStatusInput) (*cancelOut, error) {
			pr, ok := PrincipalFrom(ctx)
			if !ok {
				return nil, huma.Error401Unauthorized("missing API key")
			}
			t, err := s.deps.Store.GetTask(ctx, pr.Org.ID, in.TaskID)
			if errors.Is(err, store.ErrNotFound) || err == nil && !slices.Contains(research.Kinds, t.Kind) {
				return nil, huma.Error404NotFound(fmt.Sprintf("task_id: no research task %q for this organization", in.TaskID))
			}
			if err != nil {
				return nil, s.internal(ctx, "cancel research", err)
			}
			switch err := s.deps.Store.CancelTask(ctx, pr.Org.ID, t.ID); {
			case errors.Is(err, store.ErrConflict):
				return nil, huma.Error409Conflict(fmt.Sprintf("task %s already %s", t.ID, t.Status))
			case err != nil:
				return nil, s.internal(ctx, "cancel research", err)
			}
			out := &cancelOut{}
			out.Body.Success, out.Body.Message, out.Body.TaskID, out.Body.Status = true, "cancellation requested", t.ID, store.TaskCancelling
			return out, nil
		})

	type modelsOut struct {
		Body struct {
			Models map[string][]llm.Model `json:"models"`
		}
	}
	huma.Register(s.api, huma.Operation{OperationID: "gen-models", Method: http.MethodGet, Path: "/v1/gen/models",
		Summary: "Models your LLM integrations can use", Description: "Listed live from each provider with your keys; a provider that cannot list models shows the integration's configured model.",
		Tags: tag, Security: authRequired, Errors: []int{http.StatusUnauthorized, http.StatusForbidden}},
		func(ctx context.Context, _ *struct{}) (*modelsOut, error) {
			pr, err := s.paid(ctx, store.PlanStarter)
			if err != nil {
				return nil, err
			}
			list, err := svc.Store.ListIntegrations(ctx, pr.Org.ID, store.IntegrationLLM)
			if err != nil {
				return nil, s.internal(ctx, "gen models", err)
			}
			out := &modelsOut{}
			out.Body.Models = map[string][]llm.Model{}
			seen := map[string]bool{}
			add := func(provider string, m llm.Model) {
				if !seen[provider+"/"+m.Name] {
					seen[provider+"/"+m.Name] = true
					out.Body.Models[provider] = append(out.Body.Models[provider], m)
				}
			}
			for _, in := range list {
				ms, _, err := svc.LLMModels(ctx, pr.Org.ID, in.ID)
				if err != nil || len(ms) == 0 {
					s.deps.Log.Debug().Str("integration", in.ID).Err(err).Msg("list models failed; showing the configured model")
					add(in.Provider, llm.Model{Name: in.Model, SupportsWebSearch: in.SupportsWebSearch})
					continue
				}
				for _, m := range ms {
					add(in.Provider, m)
				}
			}
			return out, nil
		})
}
