package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/providers/llm"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/store"
)

// researchTools are the research, ICP validation and contact generation
// tools; none without the pipeline and integrations (the REST routes are
// not served then either). They spend the customer's own model and search
// provider money besides credits, so every submission is confirmed first.
func (s *Server) researchTools() []*tool {
	if s.cfg.Research == nil || s.cfg.Integrations == nil {
		return nil
	}
	return []*tool{
		{name: "research_domains", title: "Research domains with your LLM", op: "gen-process",
			description: "Runs query on each domain in its own context with the organization's LLM integration (a task; get_research_status reports results). Bills a company credit per domain not retrieved in the last 90 days (none with context_mode domain) plus model fees on your own provider keys.",
			estimate:    s.estimateResearch(s.genRequest), run: s.runResearch(s.genRequest)},
		{name: "research_contacts", title: "Research contacts with your LLM", op: "gen-process-personas",
			description: "Runs query on each persona id with the organization's LLM integration (a task; get_research_status reports results). Bills a contact credit per persona not discovered in the last 90 days (none with context_mode name_only) plus model fees.",
			estimate:    s.estimateResearch(s.personasRequest), run: s.runResearch(s.personasRequest)},
		{name: "validate_icp", title: "Rate domains against an ICP", op: "validate-icp",
			description: "Rates each domain against icp_text: Fit (yes, partial, no), Confidence, Reasoning (a task; get_research_status reports results). Bills like research_domains.",
			estimate:    s.estimateResearch(s.icpRequest), run: s.runResearch(s.icpRequest)},
		{name: "generate_contacts", title: "Generate candidate contacts", op: "contacts-discover-generate",
			description: "Asks your LLM with web search for people matching icp_text at each domain (a task; get_research_status reports results). No credits; model and search fees on your own keys. Rows may name invented people and are marked candidate.",
			estimate:    s.estimateResearch(s.contactGenRequest), run: s.runResearch(s.contactGenRequest)},
		{name: "get_research_status", title: "Research task status", op: "gen-status", readOnly: true,
			description: "Status, progress, interim and final results, record errors and estimated provider cost of a research, ICP validation or contact generation task of the caller's organization. Free.",
			run:         s.researchStatus},
		{name: "cancel_research_task", title: "Cancel a research task", op: "gen-cancel",
			description: "Stops a research task of the caller's organization from sending further records to the model; finished records stay in its status. Free.",
			run:         s.cancelResearch},
		{name: "list_models", title: "Models of your LLM integrations", op: "gen-models", readOnly: true,
			description: "The models each of the organization's LLM integrations can use, listed live from the provider with your keys. Free.",
			run:         s.listModels},
	}
}

// researchPlan is a prepared submission: the task and what it bills.
type researchPlan struct {
	task     research.Task
	endpoint string
	charge   func([]string) []store.Charge // nil: model fees only
}

type researchOptions struct {
	IntegrationID     string `json:"integration_id"`
	WebSearch         bool   `json:"web_search"`
	SearchProviderID  string `json:"search_provider_id"`
	SearchContextSize string `json:"search_context_size"`
	IncludeXSearch    bool   `json:"include_x_search"`
}

func invalid(field, rule string) *toolError {
	return &toolError{Status: http.StatusUnprocessableEntity, Title: "Unprocessable Entity", Detail: field + ": " + rule,
		Errors: []paramError{{Location: field, Message: rule}}}
}

func checkText(field, v string) error {
	if strings.TrimSpace(v) == "" || len(v) > 8000 {
		return invalid(field, "1-8000 characters required")
	}
	return nil
}

func oneOf(field, v string, allowed ...string) error {
	if v != "" && !slices.Contains(allowed, v) {
		return invalid(field, "one of "+strings.Join(allowed, ", "))
	}
	return nil
}

// researchDomains normalizes 1-10,000 domains as the REST routes do.
func researchDomains(list []string) ([]string, error) {
	if len(list) == 0 || len(list) > maxTaskRows {
		return nil, invalid("domains", fmt.Sprintf("give 1-%d domains (got %d)", maxTaskRows, len(list)))
	}
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
		return nil, invalid("domains", "not domains: "+strings.Join(bad, "; "))
	}
	return out, nil
}

func (o researchOptions) check() error {
	return oneOf("search_context_size", o.SearchContextSize, "low", "medium", "high")
}

func (s *Server) prepare(ctx context.Context, c *call, req research.Request, endpoint string, charge func([]string) []store.Charge) (researchPlan, error) {
	task, err := s.cfg.Research.Prepare(ctx, c.caller.Principal.Org.ID, req)
	switch {
	case errors.Is(err, research.ErrNoSearch), errors.Is(err, research.ErrInvalid):
		return researchPlan{}, refuse(http.StatusBadRequest, "%v", err)
	case err != nil:
		return researchPlan{}, fmt.Errorf("prepare %s: %w", endpoint, err)
	}
	return researchPlan{task: task, endpoint: endpoint, charge: charge}, nil
}

func (s *Server) genRequest(ctx context.Context, c *call) (researchPlan, error) {
	var a struct {
		Query string `json:"query"`
		researchOptions
		Domains     []string                   `json:"domains"`
		ContextMode string                     `json:"context_mode"`
		Previous    map[string]json.RawMessage `json:"previous_discogen_data"`
	}
	if err := decode(c, &a); err != nil {
		return researchPlan{}, err
	}
	if err := errors.Join(checkText("query", a.Query), a.check(), oneOf("context_mode", a.ContextMode, research.ModeWebsite, research.ModeProfile, research.ModeDomain)); err != nil {
		return researchPlan{}, firstRefusal(err)
	}
	ds, err := researchDomains(a.Domains)
	if err != nil {
		return researchPlan{}, err
	}
	mode := a.ContextMode
	if mode == "" {
		mode = research.ModeWebsite
	}
	// Earlier findings are keyed like the records: by root domain.
	prev, err := research.PreviousByDomain(a.Previous)
	if err != nil {
		return researchPlan{}, invalid("previous_discogen_data", err.Error())
	}
	return s.prepare(ctx, c, research.Request{Kind: research.KindGen, Query: a.Query, IntegrationID: a.IntegrationID, SearchProviderID: a.SearchProviderID,
		WebSearch: a.WebSearch, SearchContextSize: a.SearchContextSize, IncludeXSearch: a.IncludeXSearch, ContextMode: mode, Keys: ds, Previous: prev},
		"gen/process", research.Charges(research.KindGen, mode))
}

func (s *Server) personasRequest(ctx context.Context, c *call) (researchPlan, error) {
	var a struct {
		Query string `json:"query"`
		researchOptions
		PersonaIDs  []int64                    `json:"persona_ids"`
		ContextMode string                     `json:"context_mode"`
		Previous    map[string]json.RawMessage `json:"previous_discogen_data"`
	}
	if err := decode(c, &a); err != nil {
		return researchPlan{}, err
	}
	if err := errors.Join(checkText("query", a.Query), a.check(), oneOf("context_mode", a.ContextMode,
		research.ModeFull, research.ModeCompany, research.ModeProfile, research.ModeProfileSummary, research.ModeNameOnly)); err != nil {
		return researchPlan{}, firstRefusal(err)
	}
	if s.cfg.Research.Contacts == nil {
		return researchPlan{}, refuse(http.StatusBadRequest, "persona_ids: this deployment's engine has no contact index")
	}
	if len(a.PersonaIDs) == 0 || len(a.PersonaIDs) > maxTaskRows {
		return researchPlan{}, invalid("persona_ids", fmt.Sprintf("give 1-%d persona ids (got %d)", maxTaskRows, len(a.PersonaIDs)))
	}
	keys := make([]string, len(a.PersonaIDs))
	for i, id := range a.PersonaIDs {
		if id <= 0 {
			return researchPlan{}, invalid(fmt.Sprintf("persona_ids[%d]", i), "must be a positive integer")
		}
		keys[i] = strconv.FormatInt(id, 10)
	}
	mode := a.ContextMode
	if mode == "" {
		mode = research.ModeProfile
	}
	return s.prepare(ctx, c, research.Request{Kind: research.KindPersonas, Query: a.Query, IntegrationID: a.IntegrationID, SearchProviderID: a.SearchProviderID,
		WebSearch: a.WebSearch, SearchContextSize: a.SearchContextSize, IncludeXSearch: a.IncludeXSearch, ContextMode: mode, Keys: keys, Previous: a.Previous},
		"gen/process-personas", research.Charges(research.KindPersonas, mode))
}

type icpArgs struct {
	ICPText          string   `json:"icp_text"`
	Domains          []string `json:"domains"`
	ContextMode      string   `json:"context_mode"`
	IntegrationID    string   `json:"integration_id"`
	WebSearch        bool     `json:"web_search"`
	SearchProviderID string   `json:"search_provider_id"`
}

func (s *Server) icpArgs(c *call, allowWebSearch bool) (icpArgs, []string, error) {
	var a icpArgs
	if err := decode(c, &a); err != nil {
		return a, nil, err
	}
	if !allowWebSearch && strings.Contains(string(c.raw), `"web_search"`) {
		return a, nil, invalid("web_search", "unknown parameter (web search is always on)")
	}
	if err := errors.Join(checkText("icp_text", a.ICPText), oneOf("context_mode", a.ContextMode, research.ModeWebsite, research.ModeProfile, research.ModeDomain)); err != nil {
		return a, nil, firstRefusal(err)
	}
	ds, err := researchDomains(a.Domains)
	if a.ContextMode == "" {
		a.ContextMode = research.ModeWebsite
	}
	return a, ds, err
}

func (s *Server) icpRequest(ctx context.Context, c *call) (researchPlan, error) {
	a, ds, err := s.icpArgs(c, true)
	if err != nil {
		return researchPlan{}, err
	}
	return s.prepare(ctx, c, research.Request{Kind: research.KindICP, Query: a.ICPText, IntegrationID: a.IntegrationID, SearchProviderID: a.SearchProviderID,
		WebSearch: a.WebSearch, ContextMode: a.ContextMode, Keys: ds}, "validate/icp", research.Charges(research.KindICP, a.ContextMode))
}

func (s *Server) contactGenRequest(ctx context.Context, c *call) (researchPlan, error) {
	a, ds, err := s.icpArgs(c, false)
	if err != nil {
		return researchPlan{}, err
	}
	return s.prepare(ctx, c, research.Request{Kind: research.KindContacts, Query: a.ICPText, IntegrationID: a.IntegrationID, SearchProviderID: a.SearchProviderID,
		WebSearch: true, ContextMode: a.ContextMode, Keys: ds}, "contacts/discover/generate", research.Charges(research.KindContacts, a.ContextMode))
}

func firstRefusal(err error) error {
	var te *toolError
	if errors.As(err, &te) {
		return te
	}
	return err
}

type researchRequest func(context.Context, *call) (researchPlan, error)

func (s *Server) estimateResearch(prep researchRequest) func(context.Context, *call) (Estimate, error) {
	return func(ctx context.Context, c *call) (Estimate, error) {
		p, err := prep(ctx, c)
		if err != nil {
			return Estimate{}, err
		}
		n := len(p.task.Keys)
		est := Estimate{ProviderCalls: n, Note: fmt.Sprintf("one model call per record (%d) on your own provider keys", n)}
		if p.task.WebSearch {
			est.Note += ", with web searches"
		}
		if p.charge != nil {
			est.Records, est.Credits = n, n
			est.Note += "; records retrieved in the last 90 days are free"
		}
		return est, nil
	}
}

// ResearchAccepted answers a research submission.
type ResearchAccepted struct {
	TaskID       string   `json:"task_id"`
	ColumnName   []string `json:"column_name"`
	Status       string   `json:"status"`
	TotalDomains int      `json:"total_domains"`
	Warnings     []string `json:"warnings,omitempty"`
	Next         string   `json:"next"`
	billed
}

func (s *Server) runResearch(prep researchRequest) func(context.Context, *call) (any, error) {
	return func(ctx context.Context, c *call) (any, error) {
		p, err := prep(ctx, c)
		if err != nil {
			return nil, err
		}
		sub, err := research.Submit(ctx, s.cfg.Biller, s.cfg.Tasks, c.caller.Principal.Org, p.endpoint, p.task, p.charge)
		if errors.Is(err, account.ErrNoCredits) {
			return nil, refuse(http.StatusPaymentRequired, "no credits left this period (%d used); records retrieved in the last 90 days stay free; see get_usage", sub.Used)
		}
		if err != nil {
			return nil, err
		}
		t, task := sub.Task, sub.Input
		var b billed
		if p.charge != nil {
			b = billed{sub.Billed, sub.Left}
		}
		return ResearchAccepted{TaskID: t.ID, ColumnName: task.ColumnNames(), Status: t.Status, TotalDomains: len(task.Keys),
			Warnings: task.Warnings, Next: "call get_research_status with task_id until status is completed", billed: b}, nil
	}
}

func (s *Server) researchTask(ctx context.Context, c *call) (store.Task, error) {
	id, err := s.idArg(c, "task_id")
	if err != nil {
		return store.Task{}, err
	}
	t, err := s.cfg.TaskState.GetTask(ctx, c.caller.Principal.Org.ID, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && !slices.Contains(research.Kinds, t.Kind) {
		return t, refuse(http.StatusNotFound, "task_id: no research task %q for this organization", id)
	}
	if err != nil {
		return t, fmt.Errorf("research task: %w", err)
	}
	return t, nil
}

// ResearchStatus is get_research_status' answer (the REST status body).
type ResearchStatus struct {
	TaskID         string                     `json:"task_id"`
	Status         string                     `json:"status"`
	Progress       int                        `json:"progress"`
	InterimResults map[string]json.RawMessage `json:"interim_results"`
	Results        map[string]json.RawMessage `json:"results,omitempty"`
	RecordErrors   map[string]string          `json:"record_errors,omitempty"`
	EstimatedCost  float64                    `json:"estimated_cost"`
	ResponseFormat research.ResponseFormat    `json:"response_format"`
	Warnings       []string                   `json:"warnings"`
	CostMetadata   map[string]any             `json:"cost_metadata"`
	Error          string                     `json:"error,omitempty"`
}

func (s *Server) researchStatus(ctx context.Context, c *call) (any, error) {
	t, err := s.researchTask(ctx, c)
	if err != nil {
		return nil, err
	}
	st, err := s.cfg.Research.Status(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("research status: %w", err)
	}
	out := ResearchStatus{TaskID: t.ID, Status: t.Status, Progress: t.Progress, InterimResults: st.InterimResults, Results: st.Results,
		RecordErrors: st.RecordErrors, EstimatedCost: st.EstimatedCost, ResponseFormat: st.ResponseFormat, Warnings: st.Warnings,
		CostMetadata: st.CostMetadata, Error: t.Error}
	if t.Status == store.TaskCompleted {
		out.Progress = 100
	}
	return out, nil
}

// CancelResult is cancel_research_task's answer.
type CancelResult struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	TaskID  string `json:"task_id"`
	Status  string `json:"status"`
}

func (s *Server) cancelResearch(ctx context.Context, c *call) (any, error) {
	t, err := s.researchTask(ctx, c)
	if err != nil {
		return nil, err
	}
	switch err := s.cfg.TaskState.CancelTask(ctx, c.caller.Principal.Org.ID, t.ID); {
	case errors.Is(err, store.ErrConflict):
		return nil, refuse(http.StatusConflict, "task %s already %s", t.ID, t.Status)
	case err != nil:
		return nil, fmt.Errorf("cancel research: %w", err)
	}
	return CancelResult{Success: true, Message: "cancellation requested", TaskID: t.ID, Status: store.TaskCancelling}, nil
}

// ModelsResult is list_models' answer: models by provider.
type ModelsResult struct {
	Models map[string][]llm.Model `json:"models"`
}

func (s *Server) listModels(ctx context.Context, c *call) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	if err := onlyArgs(c.args); err != nil {
		return nil, err
	}
	org := c.caller.Principal.Org.ID
	list, err := s.cfg.Integrations.Store.ListIntegrations(ctx, org, store.IntegrationLLM)
	if err != nil {
		return nil, fmt.Errorf("list models: %w", err)
	}
	out := ModelsResult{Models: map[string][]llm.Model{}}
	seen := map[string]bool{}
	add := func(provider string, m llm.Model) {
		if !seen[provider+"/"+m.Name] {
			seen[provider+"/"+m.Name] = true
			out.Models[provider] = append(out.Models[provider], m)
		}
	}
	for _, in := range list {
		ms, _, err := s.cfg.Integrations.LLMModels(ctx, org, in.ID)
		if err != nil || len(ms) == 0 {
			s.cfg.Log.Debug().Str("integration", in.ID).Err(err).Msg("list models failed; showing the configured model")
			add(in.Provider, llm.Model{Name: in.Model, SupportsWebSearch: in.SupportsWebSearch})
			continue
		}
		for _, m := range ms {
			add(in.Provider, m)
		}
	}
	return out, nil
}
