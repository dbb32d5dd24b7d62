// Package research is the /gen pipeline: it runs a prompt against each
// company or contact of a task, each record in its own context, with the
// organization's own LLM integration and, for web search, its own search
// integration or the model's built-in search. ICP validation and contact
// generation are two fixed prompts on the same pipeline.
//
// Every record's result (value or error, tokens and searches spent) is
// stored as soon as the record finishes, so a task resumed after a crash
// never sends a finished record to the model again: the customer pays for
// every call. A malformed answer fails that record, never the task.
package research

import (
	"encoding/json"
	"errors"
)

// Task kinds (the jobs kinds of the research tasks).
const (
	KindGen      = "research"          // POST /gen/process
	KindPersonas = "research_personas" // POST /gen/process-personas
	KindICP      = "icp_validation"    // POST /validate/icp
	KindContacts = "contact_generation"
)

// Kinds are every research task kind.
var Kinds = []string{KindGen, KindPersonas, KindICP, KindContacts}

// Context modes.
const (
	ModeWebsite        = "website"
	ModeProfile        = "profile"
	ModeDomain         = "domain"
	ModeFull           = "full"
	ModeCompany        = "company"
	ModeProfileSummary = "profile_summary"
	ModeNameOnly       = "name_only"
)

// Search depths: queries per record through a search integration.
var searchQueries = map[string]int{"low": 1, "medium": 3, "high": 5}

// Sentinel errors of Prepare.
var (
	ErrInvalid  = errors.New("invalid research request")
	ErrNoSearch = errors.New("web_search needs a search provider or a model with built-in search")
)

// Task is the persisted input of a research task, with integrations
// already resolved so a later change of defaults does not move it.
type Task struct {
	Kind              string                     `json:"kind"`
	Query             string                     `json:"query"`
	IntegrationID     string                     `json:"integration_id"`
	SearchProviderID  string                     `json:"search_provider_id,omitempty"`
	WebSearch         bool                       `json:"web_search"`
	BuiltinSearch     bool                       `json:"builtin_search,omitempty"`
	SearchContextSize string                     `json:"search_context_size"`
	IncludeXSearch    bool                       `json:"include_x_search,omitempty"`
	ContextMode       string                     `json:"context_mode"`
	Keys              []string                   `json:"keys"`
	Previous          map[string]json.RawMessage `json:"previous,omitempty"`
	// Warnings found at submit (an option the model cannot honour).
	Warnings []string `json:"warnings,omitempty"`
}

// ColumnNames are the column_name of a submit response.
func (t Task) ColumnNames() []string {
	switch t.Kind {
	case KindICP:
		return []string{"Fit", "Confidence", "Reasoning"}
	case KindContacts:
		return ContactColumns
	}
	return []string{"answer"}
}

// ContactColumns are the columns of a generated contact row.
var ContactColumns = []string{"name", "title", "department", "seniority", "email", "linkedin_url", "skills", "phone",
	"email_pattern", "email_pattern_confidence", "email_pattern_guess"}

// ResponseFormat describes the values of a task's results.
type ResponseFormat struct {
	ResponseType string            `json:"response_type"`
	Description  string            `json:"description"`
	FieldLabels  map[string]string `json:"field_labels"`
}

func (t Task) responseFormat() ResponseFormat {
	switch t.Kind {
	case KindICP:
		return ResponseFormat{ResponseType: "object", Description: "ICP fit per domain: Fit (yes, partial, no), Confidence (high, medium, low), Reasoning",
			FieldLabels: map[string]string{"answer": "ICP fit", "Fit": "Fit", "Confidence": "Confidence", "Reasoning": "Reasoning"}}
	case KindContacts:
		return ResponseFormat{ResponseType: "array", Description: "Candidate contacts per domain (generated; unverified until validated)",
			FieldLabels: map[string]string{"answer": "Candidate contacts"}}
	}
	return ResponseFormat{ResponseType: "text", Description: t.Query, FieldLabels: map[string]string{"answer": label(t.Query)}}
}

func label(q string) string {
	r := []rune(q)
	if len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return q
}
