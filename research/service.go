package research

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/providers/llm"
	"github.com/openprospect/prospectd/store"
)

// Request is a research submission as the API received it (fields
// already checked for type, length and enum by the API layer).
type Request struct {
	Kind              string
	Query             string
	IntegrationID     string
	SearchProviderID  string
	WebSearch         bool
	SearchContextSize string
	IncludeXSearch    bool
	ContextMode       string
	Keys              []string
	Previous          map[string]json.RawMessage
}

// Prepare checks a request against the organization's integrations and
// returns the task to submit: the LLM integration (given or default), and
// for web search the search integration (given or default) or, failing
// one, the model's built-in search; ErrNoSearch when neither exists.
func (p *Pipeline) Prepare(ctx context.Context, orgID string, req Request) (Task, error) {
	t := Task{Kind: req.Kind, Query: strings.TrimSpace(req.Query), WebSearch: req.WebSearch, SearchContextSize: req.SearchContextSize,
		IncludeXSearch: req.IncludeXSearch, ContextMode: req.ContextMode, Previous: req.Previous}
	if t.Query == "" {
		return t, fmt.Errorf("query: must not be blank: %w", ErrInvalid)
	}
	if t.SearchContextSize == "" {
		t.SearchContextSize = "low"
	}
	if t.Kind == KindICP {
		t.SearchContextSize = "low"
	}
	if t.Kind == KindContacts {
		t.WebSearch = true // always on for contact generation
	}
	seen := map[string]bool{}
	for _, k := range req.Keys {
		if !seen[k] {
			seen[k] = true
			t.Keys = append(t.Keys, k)
		}
	}
	if len(t.Keys) == 0 {
		return t, fmt.Errorf("no records: %w", ErrInvalid)
	}
	in, err := p.Integrations.Resolve(ctx, orgID, store.IntegrationLLM, req.IntegrationID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return t, fmt.Errorf("integration_id: no LLM integration %s for this organization: %w", req.IntegrationID, ErrInvalid)
	case errors.Is(err, integrations.ErrNoIntegration):
		return t, fmt.Errorf("integration_id: not given and no default LLM integration is set; create one with POST /v1/llm-providers/config: %w", ErrInvalid)
	case err != nil:
		return t, err
	}
	t.IntegrationID = in.ID
	if t.WebSearch {
		s, err := p.Integrations.Resolve(ctx, orgID, store.IntegrationSearch, req.SearchProviderID)
		switch {
		case err == nil:
			t.SearchProviderID = s.ID
		case errors.Is(err, store.ErrNotFound):
			return t, fmt.Errorf("search_provider_id: no search integration %s for this organization: %w", req.SearchProviderID, ErrInvalid)
		case errors.Is(err, integrations.ErrNoIntegration):
			if !llm.SupportsWebSearch(in.Provider, in.Model) {
				return t, fmt.Errorf("web_search: no search provider integration is configured and model %s/%s has no built-in web search: %w", in.Provider, in.Model, ErrNoSearch)
			}
			t.BuiltinSearch = true
		default:
			return t, err
		}
	}
	if t.IncludeXSearch {
		// X search belongs to one vendor's models; none of the supported
		// providers offers it through these APIs.
		t.Warnings = append(t.Warnings, fmt.Sprintf("include_x_search ignored: model %s/%s has no X search", in.Provider, in.Model))
	}
	return t, nil
}

// Status is the status body of a research task.
type Status struct {
	Outcome
	InterimResults map[string]json.RawMessage `json:"interim_results"`
}

// Status reports a research task: the stored final outcome when it
// completed, else the records finished so far.
func (p *Pipeline) Status(ctx context.Context, task store.Task) (Status, error) {
	if task.Status == store.TaskCompleted && len(task.Result) > 0 {
		var o Outcome
		if err := json.Unmarshal(task.Result, &o); err != nil {
			return Status{}, fmt.Errorf("research task %s: result: %w", task.ID, err)
		}
		return Status{Outcome: o, InterimResults: o.Results}, nil
	}
	var t Task
	if err := json.Unmarshal(task.Input, &t); err != nil {
		return Status{}, fmt.Errorf("research task %s: input: %w", task.ID, err)
	}
	recs, err := p.Records.ResearchRecords(ctx, task.ID)
	if err != nil {
		return Status{}, err
	}
	llmIn, err := p.Integrations.Store.GetIntegration(ctx, task.OrgID, store.IntegrationLLM, t.IntegrationID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return Status{}, err
	}
	var searchIn store.Integration
	if t.SearchProviderID != "" {
		if searchIn, err = p.Integrations.Store.GetIntegration(ctx, task.OrgID, store.IntegrationSearch, t.SearchProviderID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return Status{}, err
		}
	}
	o := Summarize(t, llmIn, searchIn, recs)
	st := Status{Outcome: o, InterimResults: o.Results}
	st.Results = nil // only once completed
	return st, nil
}
