package prospecting

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openprospect/prospectd/record/domain"
)

// Limits of a start request (spec: Managed prospecting, Limits).
const (
	MinBriefChars      = 10
	MaxBriefChars      = 4000
	MaxDomains         = 1000
	MaxCompanyNames    = 100
	MaxCustomerDomains = 1000
	MaxExcludeDomains  = 1000
	MaxTarget          = 10_000
	DefaultTarget      = 1000
	MaxContactsPer     = 10
	DefaultContactsPer = 1 // the spec's fallback when neither field nor brief gives one
	MaxCandidatesLimit = 100_000
	MaxActionsLimit    = 10_000
	MaxIdemKeyChars    = 128
	MarketSizeCap      = 10_000
)

// Built-in engines and the "no search provider" option.
const (
	EngineNativeICP = "native-icp"
	EngineNative    = "native"
	SearchNone      = "none"
)

// Deliverables, goals and checkpoint modes.
const (
	DeliverLeads    = "leads"
	DeliverAccounts = "accounts"
	GoalLeads       = "leads"
	GoalCompanies   = "companies"
	CheckpointsAsk  = "ask"
	CheckpointsAuto = "auto"
)

// Request is a start request. Pointer fields tell an omitted setting from
// an explicit one: the idempotency hash tells them apart too, as the spec
// asks (turning an omitted setting into an explicit one is a change).
type Request struct {
	Brief                   string   `json:"brief"`
	Domains                 []string `json:"domains,omitempty"`
	CompanyNames            []string `json:"company_names,omitempty"`
	CustomerDomains         []string `json:"customer_domains,omitempty"`
	ExcludeDomains          []string `json:"exclude_domains,omitempty"`
	TargetCompanies         *int     `json:"target_companies,omitempty"`
	ContactsPerCompany      *int     `json:"contacts_per_company,omitempty"`
	MaxCandidates           *int     `json:"max_candidates,omitempty"`
	MaxActions              *int     `json:"max_actions,omitempty"`
	ValidationIntegrationID *string  `json:"validation_integration_id,omitempty"`
	ContactIntegrationID    *string  `json:"contact_integration_id,omitempty"`
	SearchProviderID        *string  `json:"search_provider_id,omitempty"`
	Segment                 *bool    `json:"segment,omitempty"`
	Deliverable             *string  `json:"deliverable,omitempty"`
	Goal                    *string  `json:"goal,omitempty"`
	Checkpoints             *string  `json:"checkpoints,omitempty"`
	MaxSpendUSD             *float64 `json:"max_spend_usd,omitempty"`
	MaxProviderSpendUSD     *float64 `json:"max_provider_spend_usd,omitempty"`
	// WebhookURL receives the run's status events, signed as saved-query
	// monitor webhooks are.
	WebhookURL string `json:"webhook_url,omitempty"`
}

// Hash is the idempotency fingerprint of a normalized request.
func (r Request) Hash() string {
	b, _ := json.Marshal(r)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func invalid(field, format string, args ...any) error {
	return &FieldError{Field: field, Rule: fmt.Sprintf(format, args...)}
}

// Normalize checks a request against the spec's rules and normalizes its
// domains (registrable roots, first occurrence kept).
func (r *Request) Normalize() error {
	r.Brief = strings.TrimSpace(r.Brief)
	r.WebhookURL = strings.TrimSpace(r.WebhookURL)
	if n := len([]rune(r.Brief)); n < MinBriefChars || n > MaxBriefChars {
		return invalid("brief", "must be %d-%d characters, got %d", MinBriefChars, MaxBriefChars, n)
	}
	var err error
	if r.Domains, err = domains("domains", r.Domains, MaxDomains); err != nil {
		return err
	}
	if r.CustomerDomains, err = domains("customer_domains", r.CustomerDomains, MaxCustomerDomains); err != nil {
		return err
	}
	if r.ExcludeDomains, err = domains("exclude_domains", r.ExcludeDomains, MaxExcludeDomains); err != nil {
		return err
	}
	if len(r.CompanyNames) > MaxCompanyNames {
		return invalid("company_names", "at most %d names, got %d", MaxCompanyNames, len(r.CompanyNames))
	}
	names := r.CompanyNames[:0:0]
	for i, n := range r.CompanyNames {
		n = strings.TrimSpace(n)
		if n == "" {
			return invalid(fmt.Sprintf("company_names[%d]", i), "must not be blank")
		}
		names = append(names, n)
	}
	if len(names) > 0 {
		r.CompanyNames = names
	}
	if len(r.CustomerDomains) > 0 && (len(r.Domains) > 0 || len(r.CompanyNames) > 0) {
		return invalid("customer_domains", "cannot be combined with domains or company_names")
	}
	if err := intIn("target_companies", r.TargetCompanies, 1, MaxTarget); err != nil {
		return err
	}
	if err := intIn("contacts_per_company", r.ContactsPerCompany, 1, MaxContactsPer); err != nil {
		return err
	}
	if r.MaxCandidates != nil && *r.MaxCandidates != 0 {
		if err := intIn("max_candidates", r.MaxCandidates, 1, MaxCandidatesLimit); err != nil {
			return err
		}
		if r.TargetCompanies != nil && *r.MaxCandidates < *r.TargetCompanies {
			return invalid("max_candidates", "must be at least target_companies (%d)", *r.TargetCompanies)
		}
		if n := len(r.Domains) + len(r.CompanyNames); *r.MaxCandidates < n {
			return invalid("max_candidates", "must be at least the number of supplied companies (%d)", n)
		}
	}
	if r.MaxActions != nil && *r.MaxActions != 0 {
		if err := intIn("max_actions", r.MaxActions, 1, MaxActionsLimit); err != nil {
			return err
		}
	}
	if err := oneOf("deliverable", r.Deliverable, DeliverLeads, DeliverAccounts); err != nil {
		return err
	}
	if err := oneOf("goal", r.Goal, GoalLeads, GoalCompanies); err != nil {
		return err
	}
	if err := oneOf("checkpoints", r.Checkpoints, CheckpointsAsk, CheckpointsAuto); err != nil {
		return err
	}
	for field, v := range map[string]*float64{"max_spend_usd": r.MaxSpendUSD, "max_provider_spend_usd": r.MaxProviderSpendUSD} {
		if v != nil && *v < 0 {
			return invalid(field, "must be >= 0, got %v", *v)
		}
	}
	return nil
}

func domains(field string, list []string, max int) ([]string, error) {
	if len(list) > max {
		return nil, invalid(field, "at most %d domains, got %d", max, len(list))
	}
	if len(list) == 0 {
		return nil, nil
	}
	out := make([]string, 0, len(list))
	seen := map[string]bool{}
	for i, v := range list {
		d, err := domain.Normalize(v)
		if err != nil {
			return nil, invalid(fmt.Sprintf("%s[%d]", field, i), "%q is not a domain", v)
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out, nil
}

func intIn(field string, v *int, lo, hi int) error {
	if v != nil && (*v < lo || *v > hi) {
		return invalid(field, "must be %d-%d, got %d", lo, hi, *v)
	}
	return nil
}

func oneOf(field string, v *string, allowed ...string) error {
	if v == nil {
		return nil
	}
	for _, a := range allowed {
		if *v == a {
			return nil
		}
	}
	return invalid(field, "must be one of %s, got %q", strings.Join(allowed, ", "), *v)
}
