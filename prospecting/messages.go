package prospecting

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openprospect/prospectd/query"
)

// MessageBody is a chat message's content. Type is plan, text, checkpoint
// or reply; Role is assistant or user.
type MessageBody struct {
	Type        string `json:"type"`
	Role        string `json:"role"`
	Text        string `json:"text,omitempty"`
	PlanVersion int    `json:"plan_version,omitempty"`
	Plan        *Plan  `json:"data,omitempty"`
	Checkpoint  string `json:"checkpoint,omitempty"`
	// Options of a checkpoint question: the replies it takes.
	Options []string `json:"options,omitempty"`
	// Review holds a wave run's contacts_review numbers.
	Review *Review `json:"review,omitempty"`
}

// message writes a message; key "" appends, a key rewrites that message.
func (s *Service) message(ctx context.Context, runID, key string, b MessageBody) (Message, error) {
	if b.Role == "" {
		b.Role = "assistant"
	}
	body, err := json.Marshal(b)
	if err != nil {
		return Message{}, fmt.Errorf("run message: %w", err)
	}
	m, err := s.State.PutMessage(ctx, runID, Message{Key: key, Body: body})
	if err != nil {
		return m, fmt.Errorf("run %s message: %w", runID, err)
	}
	return m, nil
}

// planMessage (re)writes the run's plan message: always key "plan", so a
// new version keeps the first one's seq.
func (s *Service) planMessage(ctx context.Context, r Run) error {
	p := *r.Data.Plan
	text := fmt.Sprintf("Plan v%d: %d %s", r.Data.PlanVersion, p.TargetCompanies, map[string]string{DeliverLeads: "companies with contacts", DeliverAccounts: "fit companies (no contacts)"}[p.Deliverable])
	if p.Deliverable == DeliverLeads {
		text += fmt.Sprintf(", %d per company", p.ContactsPerCompany)
	}
	text += fmt.Sprintf("; estimate %d records, $%.2f in credits", p.Estimate.Records, p.Estimate.RecordsCostUSD)
	if br := p.BriefReading; br.Reader == ReaderRules && br.IntegrationID != "" {
		text += ". The brief was read by rules, not by the LLM integration (" + br.Fallback + ")"
	}
	if len(p.Questions) > 0 {
		text += ". Before approval: " + strings.Join(p.Questions, " ")
	}
	_, err := s.message(ctx, r.ID, "plan", MessageBody{Type: "plan", Text: text, PlanVersion: r.Data.PlanVersion, Plan: &p})
	return err
}

// personaOf is the persona a leads brief asks for: the titles, seniorities
// and departments the deterministic reader finds in it.
func personaOf(brief string) string {
	x := query.ExtractPersona(PersonaText(brief))
	var parts []string
	parts = append(parts, x.Titles...)
	parts = append(parts, x.Seniority...)
	parts = append(parts, x.Department...)
	if len(parts) == 0 {
		return "decision makers"
	}
	return strings.Join(parts, ", ")
}
