package prospecting

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/openprospect/prospectd/providers/llm"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/store"
)

// Brief readers.
const (
	ReaderLLM   = "llm"
	ReaderRules = "rules"
)

// BriefReading says how a plan's quantities were read from the brief: by
// the organization's LLM integration, or by the deterministic rules (no
// LLM integration, or its answer could not be used — Fallback says why).
type BriefReading struct {
	Reader        string `json:"reader" enum:"llm,rules"`
	IntegrationID string `json:"integration_id,omitempty" doc:"The LLM integration asked to read the brief"`
	Fallback      string `json:"fallback,omitempty" doc:"Why the LLM reading was not used; the rules read the brief instead"`
	// CostUSD is what the reading cost on the integration's key (list
	// prices); it counts as the run's provider AI cost.
	CostUSD float64 `json:"cost_usd,omitempty"`
	// Persona is the people the LLM read the brief as asking for ("" when
	// it named none or the rules read the brief).
	Persona string `json:"persona,omitempty"`
}

// LLMBrief is an LLM's reading of a brief, validated: nil fields are not
// stated in the brief.
type LLMBrief struct {
	TargetCompanies    *int
	ContactsPerCompany *int
	Deliverable        *string
	Persona            string
	// Ambiguous are the fields the model says the brief states
	// ambiguously.
	Ambiguous []string
}

// maxPersonaChars caps the persona an LLM reads from a brief.
const maxPersonaChars = 300

// briefFields are the fields an LLM reading may call ambiguous.
var briefFields = []string{"target_companies", "contacts_per_company", "deliverable"}

var nullableInt = map[string]any{"type": []string{"integer", "null"}}

// briefSchema is the JSON schema of an LLM brief reading (strict: every
// property required, null when the brief does not say).
var briefSchema = map[string]any{
	"type": "object", "additionalProperties": false,
	"required": []string{"target_companies", "contacts_per_company", "deliverable", "persona", "ambiguous"},
	"properties": map[string]any{
		"target_companies":     nullableInt,
		"contacts_per_company": nullableInt,
		"deliverable":          map[string]any{"type": []string{"string", "null"}, "enum": []any{DeliverLeads, DeliverAccounts, nil}},
		"persona":              map[string]any{"type": []string{"string", "null"}},
		"ambiguous":            map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": briefFields}},
	},
}

const briefSystem = "You read briefs for a B2B prospecting service and extract what they ask for. " +
	"Report only what the brief states; never guess a number it does not give. Answer with one JSON object and nothing else."

func briefPrompt(brief string) string {
	return fmt.Sprintf(`Extract from the brief below:
- target_companies: how many companies the user wants (integer as written, even if it is outside 1-%d; null if the brief gives no company count).
- contacts_per_company: how many people per company (integer as written, even if outside 1-%d; null if not stated).
- deliverable: "accounts" if the user wants companies only and no people, "leads" if people are wanted, null if the brief does not say.
- persona: the people to find (titles, seniority, departments) in a few words, or null.
- ambiguous: the fields among target_companies, contacts_per_company, deliverable whose value the brief states ambiguously (several different numbers, a range, "a few hundred"); an empty list otherwise.
Numbers about the companies themselves (employees, revenue, founding year) are not counts of companies.

Brief:
"""
%s
"""`, MaxTarget, MaxContactsPer, brief)
}

// ParseLLMBrief reads and validates an LLM's answer to the brief prompt:
// every field present with its type, integers whole, the deliverable one
// of the two, the ambiguous list naming known fields. A count outside the
// request table's range is kept (it becomes a clarification question).
func ParseLLMBrief(text string) (LLMBrief, error) {
	var out LLMBrief
	obj, err := llm.ParseObject(text)
	if err != nil {
		return out, err
	}
	for _, k := range []string{"target_companies", "contacts_per_company", "deliverable", "persona", "ambiguous"} {
		if _, ok := obj[k]; !ok {
			return out, fmt.Errorf("field %s missing", k)
		}
	}
	count := func(k string) (*int, error) {
		switch v := obj[k].(type) {
		case nil:
			return nil, nil
		case float64:
			if v != math.Trunc(v) || math.Abs(v) > 1e9 {
				return nil, fmt.Errorf("%s: %v is not a whole number", k, v)
			}
			n := int(v)
			return &n, nil
		}
		return nil, fmt.Errorf("%s: %T is not an integer or null", k, obj[k])
	}
	if out.TargetCompanies, err = count("target_companies"); err != nil {
		return out, err
	}
	if out.ContactsPerCompany, err = count("contacts_per_company"); err != nil {
		return out, err
	}
	switch v := obj["deliverable"].(type) {
	case nil:
	case string:
		d := strings.ToLower(strings.TrimSpace(v))
		if d != DeliverLeads && d != DeliverAccounts {
			return out, fmt.Errorf("deliverable: %q is not leads, accounts or null", v)
		}
		out.Deliverable = &d
	default:
		return out, fmt.Errorf("deliverable: %T is not a string or null", v)
	}
	switch v := obj["persona"].(type) {
	case nil:
	case string:
		p := strings.Join(strings.Fields(v), " ")
		if r := []rune(p); len(r) > maxPersonaChars {
			p = string(r[:maxPersonaChars])
		}
		out.Persona = p
	default:
		return out, fmt.Errorf("persona: %T is not a string or null", v)
	}
	list, ok := obj["ambiguous"].([]any)
	if !ok {
		return out, fmt.Errorf("ambiguous: %T is not a list", obj["ambiguous"])
	}
	for _, x := range list {
		f, _ := x.(string)
		known := false
		for _, k := range briefFields {
			known = known || f == k
		}
		if !known {
			return out, fmt.Errorf("ambiguous: %v is not one of %s", x, strings.Join(briefFields, ", "))
		}
		out.Ambiguous = append(out.Ambiguous, f)
	}
	return out, nil
}

func (l LLMBrief) ambiguous(field string) bool {
	for _, f := range l.Ambiguous {
		if f == field {
			return true
		}
	}
	return false
}

// MergeBrief merges an LLM's reading into the rules' reading, field by
// field: a field the LLM read (a value, or a flag that the brief states it
// ambiguously) replaces the rules' value and question about it; a field
// the LLM left null keeps the rules' reading. An out-of-range count or an
// ambiguous field becomes a clarification question, as with the rules.
func MergeBrief(rules BriefQuantities, l LLMBrief) BriefQuantities {
	q := rules
	count := func(field, noun string, v *int, hi int, into *int) {
		switch {
		case l.ambiguous(field):
			q.Questions = dropQuestionsAbout(q.Questions, field)
			q.Questions = append(q.Questions, fmt.Sprintf("The brief states the %s ambiguously; which is it? Set %s in the plan.", noun, field))
			*into = 0
		case v != nil && (*v < 1 || *v > hi):
			q.Questions = dropQuestionsAbout(q.Questions, field)
			q.Questions = append(q.Questions, fmt.Sprintf("The brief asks for %d as the %s; a run takes 1-%d. Set %s in the plan.", *v, noun, hi, field))
			*into = 0
		case v != nil:
			q.Questions = dropQuestionsAbout(q.Questions, field)
			*into = *v
		}
	}
	count("target_companies", "number of companies", l.TargetCompanies, MaxTarget, &q.Target)
	count("contacts_per_company", "number of people per company", l.ContactsPerCompany, MaxContactsPer, &q.ContactsPer)
	switch {
	case l.ambiguous("deliverable"):
		q.Questions = append(q.Questions, "The brief does not make clear whether people are wanted or companies only. Set deliverable (leads or accounts) in the plan.")
	case l.Deliverable != nil:
		q.AccountsOnly = *l.Deliverable == DeliverAccounts
	}
	return q
}

// briefTimeout bounds the LLM reading of a brief (30 s when 0).
func (s *Service) briefTimeout() time.Duration {
	if s.BriefTimeout > 0 {
		return s.BriefTimeout
	}
	return 30 * time.Second
}

// briefIntegration is the LLM integration that reads a brief: the
// organization's default, else its only one, else one the request names as
// an engine. "" when none (the rules read the brief).
func (s *Service) briefIntegration(ctx context.Context, orgID string, req Request) (string, string, error) {
	if s.Integrations == nil {
		return "", "", nil
	}
	llms, err := s.Integrations.Store.ListIntegrations(ctx, orgID, store.IntegrationLLM)
	if err != nil {
		return "", "", fmt.Errorf("brief reader: %w", err)
	}
	sort.Slice(llms, func(i, j int) bool { return llms[i].CreatedAt.Before(llms[j].CreatedAt) })
	for _, in := range llms {
		if in.IsDefault {
			return in.ID, "", nil
		}
	}
	if len(llms) == 1 {
		return llms[0].ID, "", nil
	}
	for _, id := range []*string{req.ValidationIntegrationID, req.ContactIntegrationID} {
		if id == nil {
			continue
		}
		for _, in := range llms {
			if in.ID == *id {
				return in.ID, "", nil
			}
		}
	}
	if len(llms) > 1 {
		return "", "several LLM integrations and no default: the brief was read by rules", nil
	}
	return "", "", nil
}

// readBrief reads the brief's quantities: the rules always, and the
// organization's LLM integration when there is one, merged over them. An
// LLM that fails, times out or answers with something unusable leaves
// the rules' reading, and the reading says why. The call runs on the
// customer's key only; nothing falls back to the service's credentials.
func (s *Service) readBrief(ctx context.Context, orgID string, req Request) (BriefQuantities, BriefReading, error) {
	rules := ReadBrief(req.Brief)
	reading := BriefReading{Reader: ReaderRules}
	id, note, err := s.briefIntegration(ctx, orgID, req)
	if err != nil {
		return rules, reading, err
	}
	reading.Fallback = note
	if id == "" {
		return rules, reading, nil
	}
	reading.IntegrationID = id
	fallback := func(why string) (BriefQuantities, BriefReading, error) {
		reading.Fallback = why
		s.Log.Info().Str("org", orgID).Str("integration", id).Str("why", why).Msg("brief read by rules")
		return rules, reading, nil
	}
	cctx, cancel := context.WithTimeout(ctx, s.briefTimeout())
	defer cancel()
	client, in, err := s.Integrations.LLM(cctx, orgID, id, s.briefTimeout())
	if err != nil {
		return fallback("LLM integration unavailable: " + err.Error())
	}
	resp, err := client.Complete(cctx, llm.Request{System: briefSystem, Prompt: briefPrompt(req.Brief), Schema: briefSchema,
		SchemaName: "brief_reading", MaxTokens: 400})
	if err != nil {
		if ctx.Err() != nil {
			return rules, reading, ctx.Err()
		}
		if errors.Is(err, context.DeadlineExceeded) || cctx.Err() != nil {
			return fallback(fmt.Sprintf("the LLM did not answer within %s", s.briefTimeout()))
		}
		return fallback("the LLM call failed: " + err.Error())
	}
	if resp.TokensReported {
		reading.CostUSD = round6(research.ModelCost(in.Provider, in.Model, resp.PromptTokens, resp.CompletionTokens))
	}
	l, err := ParseLLMBrief(resp.Text)
	if err != nil {
		return fallback("the LLM's answer was not a valid reading: " + err.Error())
	}
	reading.Reader, reading.Persona = ReaderLLM, l.Persona
	return MergeBrief(rules, l), reading, nil
}
