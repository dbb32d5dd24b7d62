package research

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openprospect/prospectd/providers/llm"
	"github.com/openprospect/prospectd/providers/search"
	"github.com/openprospect/prospectd/record"
)

const systemPrompt = "You are a careful B2B research analyst. Answer about exactly one record using only the context given " +
	"(profile, website text, web search results). When the context does not settle the question, say so briefly instead of guessing."

var answerSchema = map[string]any{
	"type": "object", "additionalProperties": false, "required": []string{"answer"},
	"properties": map[string]any{"answer": map[string]any{"type": "string"}},
}

var icpSchema = map[string]any{
	"type": "object", "additionalProperties": false, "required": []string{"Fit", "Confidence", "Reasoning"},
	"properties": map[string]any{
		"Fit":        map[string]any{"type": "string", "enum": []string{"yes", "partial", "no"}},
		"Confidence": map[string]any{"type": "string", "enum": []string{"high", "medium", "low"}},
		"Reasoning":  map[string]any{"type": "string"},
	},
}

var nullableString = map[string]any{"type": []string{"string", "null"}}

var contactsSchema = map[string]any{
	"type": "object", "additionalProperties": false,
	"required": []string{"contacts", "email_pattern", "email_pattern_confidence", "email_pattern_guess"},
	"properties": map[string]any{
		"contacts": map[string]any{"type": "array", "items": map[string]any{
			"type": "object", "additionalProperties": false,
			"required": []string{"name", "title", "department", "seniority", "email", "linkedin_url", "skills", "phone"},
			"properties": map[string]any{
				"name": map[string]any{"type": "string"}, "title": nullableString, "department": nullableString,
				"seniority": nullableString, "email": nullableString, "linkedin_url": nullableString,
				"skills": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
				"phone": map[string]any{"type": "array", "items": map[string]any{"type": "object", "additionalProperties": false,
					"required": []string{"phone", "type"}, "properties": map[string]any{"phone": map[string]any{"type": "string"}, "type": map[string]any{"type": "string"}}}},
			},
		}},
		"email_pattern":            nullableString,
		"email_pattern_confidence": map[string]any{"type": "number"},
		"email_pattern_guess":      nullableString,
	},
}

// queries are the web searches of one record.
func (r *run) queries(key string, rc recordContext) []string {
	d := rc.Domain
	name := rc.Name
	if name == "" {
		name = d
	}
	switch r.task.Kind {
	case KindICP:
		// Low depth, two fixed queries per domain.
		return []string{fmt.Sprintf("%q company overview products", d), fmt.Sprintf("%q customers industry", d)}
	case KindContacts:
		return []string{fmt.Sprintf("%q leadership team", name), fmt.Sprintf("site:linkedin.com/in %q", name), fmt.Sprintf("%q email contact @%s", name, d)}
	}
	n := searchQueries[r.task.SearchContextSize]
	if n == 0 {
		n = 1
	}
	q := trimText(r.task.Query, 200)
	all := []string{
		fmt.Sprintf("%s %s", name, q),
		fmt.Sprintf("%q %s", d, q),
		fmt.Sprintf("site:%s %s", d, q),
		fmt.Sprintf("%s news", name),
		fmt.Sprintf("%s %s reviews", name, d),
	}
	if r.task.Kind == KindPersonas {
		all[1] = fmt.Sprintf("%q %s", name, q)
		all[2] = fmt.Sprintf("%q %s linkedin", name, rc.Domain)
	}
	return all[:min(n, len(all))]
}

// request builds the model request of one record.
func (r *run) request(key string, rc recordContext, evidence []search.Result) llm.Request {
	var b strings.Builder
	switch r.task.Kind {
	case KindICP:
		fmt.Fprintf(&b, "Rate how well this company fits the ideal customer profile (ICP) below. Fit is yes, partial or no; Confidence is high, medium or low; Reasoning is one or two sentences.\n\nICP: %s\n\n", r.task.Query)
	case KindContacts:
		fmt.Fprintf(&b, "List people who work at this company and match the target below, only people the context or search results name. "+
			"Department is one of: %s. Seniority is one of: %s. Give an email only when it is published verbatim in the context; "+
			"otherwise null. Also give the company's likely email pattern (for example {first}.{last}@%s), your confidence in it from 0 to 1, and an example for a hypothetical person named Jane Doe.\n\nTarget: %s\n\n",
			strings.Join(record.Departments, ", "), strings.Join(record.Seniorities, ", "), rc.Domain, r.task.Query)
	default:
		fmt.Fprintf(&b, "Question: %s\n\n", r.task.Query)
	}
	if r.task.Kind == KindPersonas {
		fmt.Fprintf(&b, "Person: %s\n", rc.Name)
	} else {
		fmt.Fprintf(&b, "Company domain: %s\n", key)
	}
	if rc.Profile != "" {
		fmt.Fprintf(&b, "Profile: %s\n", rc.Profile)
	}
	if rc.Homepage != "" {
		fmt.Fprintf(&b, "Homepage text: %s\n", rc.Homepage)
	}
	if prev, ok := r.task.Previous[key]; ok {
		fmt.Fprintf(&b, "Earlier findings: %s\n", string(prev))
	}
	if len(evidence) > 0 {
		b.WriteString("Web search results:\n")
		for i, e := range evidence {
			if i >= 15 {
				break
			}
			fmt.Fprintf(&b, "- %s (%s): %s\n", e.Title, e.URL, trimText(e.Snippet, 400))
		}
	}
	req := llm.Request{System: systemPrompt, Prompt: b.String(), MaxTokens: 1024}
	switch r.task.Kind {
	case KindICP:
		req.Schema, req.SchemaName = icpSchema, "icp_fit"
	case KindContacts:
		req.Schema, req.SchemaName, req.MaxTokens = contactsSchema, "contacts", 4096
	default:
		req.Schema, req.SchemaName = answerSchema, "answer"
	}
	if r.task.BuiltinSearch {
		req.WebSearch, req.SearchContextSize = true, r.task.SearchContextSize
		if r.task.Kind == KindICP {
			req.SearchContextSize = "low"
		}
	}
	return req
}

// parse checks a model answer against the task's shape and returns the
// record's value.
func (r *run) parse(key string, rc recordContext, text string) (json.RawMessage, error) {
	obj, err := llm.ParseObject(text)
	if err != nil {
		if r.task.Kind == KindGen || r.task.Kind == KindPersonas {
			// A model that ignores the JSON instruction still answered.
			if t := strings.TrimSpace(text); t != "" {
				return json.Marshal(t)
			}
		}
		return nil, err
	}
	switch r.task.Kind {
	case KindICP:
		fit, _ := obj["Fit"].(string)
		conf, _ := obj["Confidence"].(string)
		reason, _ := obj["Reasoning"].(string)
		fit, conf = strings.ToLower(strings.TrimSpace(fit)), strings.ToLower(strings.TrimSpace(conf))
		if fit != "yes" && fit != "partial" && fit != "no" {
			return nil, fmt.Errorf("Fit %q is not yes, partial or no", obj["Fit"])
		}
		if conf != "high" && conf != "medium" && conf != "low" {
			return nil, fmt.Errorf("Confidence %q is not high, medium or low", obj["Confidence"])
		}
		if strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("Reasoning is empty")
		}
		return json.Marshal(map[string]string{"Fit": fit, "Confidence": conf, "Reasoning": strings.TrimSpace(reason)})
	case KindContacts:
		return contactRows(obj, rc.Domain)
	}
	a, ok := obj["answer"]
	if !ok {
		return nil, fmt.Errorf("no answer field")
	}
	return json.Marshal(a)
}

// ContactRow is one generated contact.
type ContactRow struct {
	Name                   string         `json:"name"`
	Title                  *string        `json:"title"`
	Department             *string        `json:"department"`
	Seniority              *string        `json:"seniority"`
	Email                  *string        `json:"email"`
	LinkedInURL            *string        `json:"linkedin_url"`
	Skills                 []string       `json:"skills"`
	Phone                  []ContactPhone `json:"phone"`
	EmailPattern           *string        `json:"email_pattern"`
	EmailPatternConfidence float64        `json:"email_pattern_confidence"`
	EmailPatternGuess      *string        `json:"email_pattern_guess"`
	// Candidate marks a generated row: the person may not exist until a
	// validation confirms it.
	Candidate bool `json:"candidate"`
}

// ContactPhone is a phone of a generated contact.
type ContactPhone struct {
	Phone string `json:"phone"`
	Type  string `json:"type"`
}

func str(v any) *string {
	s, ok := v.(string)
	if !ok || strings.TrimSpace(s) == "" {
		return nil
	}
	s = strings.TrimSpace(s)
	return &s
}

func contactRows(obj map[string]any, domain string) (json.RawMessage, error) {
	list, ok := obj["contacts"].([]any)
	if !ok {
		return nil, fmt.Errorf("no contacts array")
	}
	pattern, guess := str(obj["email_pattern"]), str(obj["email_pattern_guess"])
	conf, _ := obj["email_pattern_confidence"].(float64)
	conf = min(1, max(0, conf))
	rows := []ContactRow{}
	for _, it := range list {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		name := str(m["name"])
		if name == nil {
			continue
		}
		row := ContactRow{Name: *name, Title: str(m["title"]), LinkedInURL: str(m["linkedin_url"]), Skills: []string{}, Phone: []ContactPhone{},
			EmailPattern: pattern, EmailPatternConfidence: conf, EmailPatternGuess: guess, Candidate: true}
		if d := str(m["department"]); d != nil && record.IsDepartment(*d) {
			row.Department = d
		}
		if s := str(m["seniority"]); s != nil && record.IsSeniority(strings.ToLower(*s)) {
			v := strings.ToLower(*s)
			row.Seniority = &v
		}
		// An email is kept only at the company's own domain; anything else
		// is not a work address the model could have seen published.
		if e := str(m["email"]); e != nil && strings.HasSuffix(strings.ToLower(*e), "@"+domain) {
			row.Email = e
		}
		if sk, ok := m["skills"].([]any); ok {
			for _, s := range sk {
				if v := str(s); v != nil {
					row.Skills = append(row.Skills, *v)
				}
			}
		}
		if ph, ok := m["phone"].([]any); ok {
			for _, p := range ph {
				if pm, ok := p.(map[string]any); ok {
					if n := str(pm["phone"]); n != nil {
						t := "unknown"
						if ty := str(pm["type"]); ty != nil {
							t = *ty
						}
						row.Phone = append(row.Phone, ContactPhone{Phone: *n, Type: t})
					}
				}
			}
		}
		rows = append(rows, row)
	}
	return json.Marshal(rows)
}
