package prospecting

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/store"
)

// Option is one choice of an engine.
type Option struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// Engine is an engine's selection and its options. Selected is null with
// PickRequired when several providers exist with no default.
type Engine struct {
	Selected     *string  `json:"selected"`
	PickRequired bool     `json:"pick_required"`
	Options      []Option `json:"options"`
}

func (e Engine) has(id string) bool {
	for _, o := range e.Options {
		if o.ID == id {
			return true
		}
	}
	return false
}

func (e Engine) id() string {
	if e.Selected == nil {
		return ""
	}
	return *e.Selected
}

// SeedSegment is a group of customer domains with lookalikes found for it.
type SeedSegment struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Customers []string `json:"customers"`
	Examples  []string `json:"examples"`
	Selected  bool     `json:"selected"`
	// Matching is how many companies its filter query matches (capped).
	Matching int `json:"matching"`
}

// Estimate is what a plan expects to bill and spend.
type Estimate struct {
	Records                int      `json:"records"`
	BilledCalls            int      `json:"billed_calls"`
	RecordsCostUSD         float64  `json:"records_cost_usd"`
	LLMCostUSD             float64  `json:"llm_cost_usd"`
	AICostUSD              float64  `json:"ai_cost_usd"`
	SearchCostUSD          *float64 `json:"search_cost_usd"`
	SearchBilledSeparately bool     `json:"search_billed_separately"`
}

// Plan is the plan message's data.
type Plan struct {
	TargetCompanies     int           `json:"target_companies"`
	ContactsPerCompany  int           `json:"contacts_per_company"`
	Deliverable         string        `json:"deliverable"`
	Goal                string        `json:"goal"`
	Checkpoints         string        `json:"checkpoints"`
	MaxCandidates       int           `json:"max_candidates"`
	MaxCandidatesAuto   bool          `json:"max_candidates_auto"`
	MaxActions          int           `json:"max_actions"`
	MaxActionsAuto      bool          `json:"max_actions_auto"`
	MarketSize          *int          `json:"market_size"`
	AllMatchingTarget   *int          `json:"all_matching_target,omitempty"`
	SeedSegments        []SeedSegment `json:"seed_segments,omitempty"`
	Segment             bool          `json:"segment"`
	ContactEngine       Engine        `json:"contact_engine"`
	CompanyCheckEngine  Engine        `json:"company_check_engine"`
	SearchProvider      Engine        `json:"search_provider"`
	MaxSpendUSD         float64       `json:"max_spend_usd" doc:"0: no limit"`
	MaxProviderSpendUSD float64       `json:"max_provider_spend_usd" doc:"0: no limit"`
	AccountSpendLeftUSD float64       `json:"account_spend_left_usd"`
	PricePerRecordUSD   float64       `json:"price_per_record_usd"`
	Persona             string        `json:"persona,omitempty"`
	BriefReading        BriefReading  `json:"brief_reading"`
	Estimate            Estimate      `json:"estimate"`
	Questions           []string      `json:"questions,omitempty"`
	// EmailLookupNote is set on a wave run's plan only (absent otherwise):
	// it says which email lookups run before the contacts_review.
	EmailLookupNote string `json:"email_lookup_note,omitempty"`
	// HistoryRates are the rates of the organization's finished runs a wave
	// run's first wave is sized with (absent when there are too few
	// results, and the priors are used).
	HistoryRates *Rates `json:"history_rates,omitempty"`
	// Ready is false while a question or an engine pick is open.
	Ready bool `json:"ready"`
	// Picked are the fields the user set in a plan patch; a later
	// re-derivation never replaces them.
	Picked map[string]bool `json:"-"`
}

// Expected rates the first estimate assumes (no history yet): half the
// candidates fit, the index or research finds the contacts asked for, and
// about two thirds of the lookups find an address.
const (
	expectFitRate   = 0.5
	expectFindRate  = 0.65
	callTokensIn    = 1500
	callTokensOut   = 250
	searchesPerComp = 2 // the built-in contact engine's queries per researched company
)

// autoCandidates and autoActions are the spec's automatic limits.
func autoCandidates(target, supplied int) int { return max(target*8, 50, supplied) }
func autoActions(target int) int {
	return max(int(math.Ceil(float64(target)/10))*6+12, 24)
}

// draft builds the first plan of a request. Explicit request values win
// over the brief's reading (the LLM's merged over the rules').
func (s *Service) draft(ctx context.Context, org store.Org, req Request) (*Plan, error) {
	q, reading, err := s.readBrief(ctx, org.ID, req)
	if err != nil {
		return nil, err
	}
	p := &Plan{Picked: map[string]bool{}, Questions: q.Questions, BriefReading: reading}
	p.TargetCompanies = DefaultTarget
	if req.TargetCompanies != nil {
		p.TargetCompanies = *req.TargetCompanies
	} else if q.Target > 0 {
		p.TargetCompanies = q.Target
	}
	p.ContactsPerCompany = DefaultContactsPer
	if req.ContactsPerCompany != nil {
		p.ContactsPerCompany = *req.ContactsPerCompany
	} else if q.ContactsPer > 0 {
		p.ContactsPerCompany = q.ContactsPer
	}
	if req.TargetCompanies != nil {
		p.Questions = dropQuestionsAbout(p.Questions, "target_companies")
	}
	if req.ContactsPerCompany != nil {
		p.Questions = dropQuestionsAbout(p.Questions, "contacts_per_company")
	}
	p.Deliverable = DeliverLeads
	if req.Deliverable != nil {
		p.Deliverable = *req.Deliverable
		p.Questions = dropQuestionsAbout(p.Questions, "deliverable")
	} else if q.AccountsOnly {
		p.Deliverable = DeliverAccounts
	}
	p.Goal = GoalLeads
	if req.Goal != nil {
		p.Goal = *req.Goal
	}
	p.Checkpoints = CheckpointsAuto
	if req.Checkpoints != nil {
		p.Checkpoints = *req.Checkpoints
	}
	if req.Segment != nil {
		p.Segment = *req.Segment
	}
	if req.MaxCandidates != nil && *req.MaxCandidates > 0 {
		p.MaxCandidates = *req.MaxCandidates
	} else {
		p.MaxCandidatesAuto = true
	}
	if req.MaxActions != nil && *req.MaxActions > 0 {
		p.MaxActions = *req.MaxActions
	} else {
		p.MaxActionsAuto = true
	}
	price := s.plans()[org.Plan].PricePer1K / 1000
	p.PricePerRecordUSD = price
	if req.MaxSpendUSD != nil {
		if *req.MaxSpendUSD > 0 && price == 0 {
			return nil, invalid("max_spend_usd", "this plan has no per-record price")
		}
		p.MaxSpendUSD = *req.MaxSpendUSD
	}
	if req.MaxProviderSpendUSD != nil {
		p.MaxProviderSpendUSD = *req.MaxProviderSpendUSD
	}
	if p.Deliverable == DeliverLeads {
		p.Persona = p.persona(req.Brief)
	}
	if err := s.engines(ctx, org.ID, p, req.ValidationIntegrationID, req.ContactIntegrationID, req.SearchProviderID); err != nil {
		return nil, err
	}
	if len(req.CustomerDomains) > 0 {
		segs, err := s.seedSegments(ctx, req.CustomerDomains)
		if err != nil {
			return nil, err
		}
		p.SeedSegments = segs
	}
	if err := s.rederive(ctx, org, req, p); err != nil {
		return nil, err
	}
	return p, nil
}

// persona is the people a leads plan searches for: the LLM's reading of
// the brief when it named them, else the rules'.
func (p *Plan) persona(brief string) string {
	if p.BriefReading.Persona != "" {
		return p.BriefReading.Persona
	}
	return personaOf(brief)
}

func dropQuestionsAbout(qs []string, field string) []string {
	var out []string
	for _, q := range qs {
		if !strings.Contains(q, field) {
			out = append(out, q)
		}
	}
	return out
}

// rederive recomputes what follows from the plan's choices: automatic
// limits, market size, readiness and the estimate.
func (s *Service) rederive(ctx context.Context, org store.Org, req Request, p *Plan) error {
	supplied := len(req.Domains) + len(req.CompanyNames)
	if p.MaxCandidatesAuto {
		p.MaxCandidates = autoCandidates(p.TargetCompanies, supplied)
	}
	if p.MaxActionsAuto {
		p.MaxActions = autoActions(p.TargetCompanies)
	}
	p.MarketSize, p.AllMatchingTarget = nil, nil
	if supplied == 0 {
		n, err := s.marketSize(ctx, req, p)
		if err != nil {
			return err
		}
		p.MarketSize = &n
		if n > p.TargetCompanies {
			p.AllMatchingTarget = &n
		}
	}
	left, err := s.spendLeft(ctx, org)
	if err != nil {
		return err
	}
	p.AccountSpendLeftUSD = left
	p.EmailLookupNote = s.lookupNote(org.ID, p)
	p.HistoryRates = nil
	if p.EmailLookupNote != "" {
		if p.HistoryRates, err = s.historyRates(ctx, org.ID); err != nil {
			return err
		}
	}
	p.Ready = len(p.Questions) == 0 && !p.CompanyCheckEngine.PickRequired && !p.ContactEngine.PickRequired && !p.SearchProvider.PickRequired
	return s.estimate(ctx, org.ID, p, supplied)
}

// marketSize counts the companies the brief's discovery query matches,
// capped at MarketSizeCap; for customer_domains runs it sums the selected
// seed segments' counts.
func (s *Service) marketSize(ctx context.Context, req Request, p *Plan) (int, error) {
	if len(p.SeedSegments) > 0 {
		n := 0
		for _, sg := range p.SeedSegments {
			if sg.Selected {
				n += sg.Matching
			}
		}
		return min(n, MarketSizeCap), nil
	}
	d, err := discoverOf(req.Brief, nil, 0, query.MinRecords)
	if err != nil {
		return 0, err
	}
	n, _, err := s.Companies.Count(ctx, d)
	if err != nil {
		return 0, fmt.Errorf("market size: %w", err)
	}
	return min(n, MarketSizeCap), nil
}

// discoverOf is the discovery request of a brief (and seed examples).
func discoverOf(brief string, examples []string, offset, n int) (query.Discover, error) {
	v := url.Values{}
	if len(examples) > 0 {
		v["domain"] = examples[:min(len(examples), query.MaxExampleDomains)]
	} else {
		prompt := CompanyText(brief)
		if len([]rune(prompt)) > query.MaxPromptChars {
			prompt = string([]rune(prompt)[:query.MaxPromptChars])
		}
		v.Set("icp_prompt", prompt)
	}
	v.Set("max_records", strconv.Itoa(max(query.MinRecords, min(n, query.MaxRecords))))
	if offset > 0 {
		v.Set("offset", strconv.Itoa(offset))
	}
	d, err := query.ParseDiscover(v)
	if err != nil {
		return d, fmt.Errorf("discovery request of the brief: %w", err)
	}
	return d, nil
}

func (s *Service) spendLeft(ctx context.Context, org store.Org) (float64, error) {
	u, err := s.Biller.Usage(ctx, org)
	if err != nil {
		return 0, fmt.Errorf("account spend left: %w", err)
	}
	return round2(float64(u.CreditsLeft) * u.Config.PricePer1K / 1000), nil
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }
func round6(f float64) float64 { return math.Round(f*1e6) / 1e6 }

// engines fills the three engines' options and selections. given are the
// request's (or the patch's) explicit choices; nil keeps a pick or derives.
func (s *Service) engines(ctx context.Context, orgID string, p *Plan, validation, contact, searchID *string) error {
	llms, err := s.Integrations.Store.ListIntegrations(ctx, orgID, store.IntegrationLLM)
	if err != nil {
		return fmt.Errorf("plan engines: %w", err)
	}
	searches, err := s.Integrations.Store.ListIntegrations(ctx, orgID, store.IntegrationSearch)
	if err != nil {
		return fmt.Errorf("plan engines: %w", err)
	}
	sort.Slice(llms, func(i, j int) bool { return llms[i].CreatedAt.Before(llms[j].CreatedAt) })
	sort.Slice(searches, func(i, j int) bool { return searches[i].CreatedAt.Before(searches[j].CreatedAt) })
	llmOpts := make([]Option, 0, len(llms)+1)
	var llmDefault string
	for _, in := range llms {
		llmOpts = append(llmOpts, Option{ID: in.ID, Label: in.Name + " (" + in.Provider + "/" + in.Model + ")"})
		if in.IsDefault {
			llmDefault = in.ID
		}
	}
	check := Engine{Options: append(append([]Option{}, llmOpts...), Option{ID: EngineNativeICP, Label: "Built-in company check"})}
	contactE := Engine{Options: append(append([]Option{}, llmOpts...), Option{ID: EngineNative, Label: "Built-in contact research"})}
	srch := Engine{Options: []Option{}}
	var searchDefault string
	for _, in := range searches {
		srch.Options = append(srch.Options, Option{ID: in.ID, Label: in.Name + " (" + in.Provider + ")"})
		if in.IsDefault {
			searchDefault = in.ID
		}
	}
	srch.Options = append(srch.Options, Option{ID: SearchNone, Label: "None: indexed contacts only"})

	pick := func(field string, e *Engine, given *string, prev Engine, derive func() (string, bool)) error {
		switch {
		case given != nil:
			if !e.has(*given) {
				return invalid(field, "%q is not one of the options (%s)", *given, optionIDs(e.Options))
			}
			v := *given
			e.Selected = &v
			p.Picked[field] = true
		case p.Picked[field] && prev.Selected != nil && e.has(*prev.Selected):
			e.Selected = prev.Selected
		default:
			if id, ok := derive(); ok {
				e.Selected = &id
			} else {
				e.PickRequired = true
			}
		}
		return nil
	}
	if err := pick("validation_integration_id", &check, validation, p.CompanyCheckEngine, func() (string, bool) {
		switch {
		case llmDefault != "":
			return llmDefault, true
		case len(llms) == 1:
			return llms[0].ID, true
		case len(llms) == 0:
			return EngineNativeICP, true
		}
		return "", false
	}); err != nil {
		return err
	}
	if err := pick("search_provider_id", &srch, searchID, p.SearchProvider, func() (string, bool) {
		switch {
		case searchDefault != "":
			return searchDefault, true
		case len(searches) == 1:
			return searches[0].ID, true
		case len(searches) == 0:
			return SearchNone, true
		}
		return "", false
	}); err != nil {
		return err
	}
	// Picking a search provider returns research to the built-in engine.
	if searchID != nil && contact == nil {
		delete(p.Picked, "contact_integration_id")
	}
	if err := pick("contact_integration_id", &contactE, contact, p.ContactEngine, func() (string, bool) { return EngineNative, true }); err != nil {
		return err
	}
	if p.Deliverable == DeliverAccounts {
		contactE.PickRequired = false // no contact work
	}
	p.CompanyCheckEngine, p.ContactEngine, p.SearchProvider = check, contactE, srch
	return nil
}

func optionIDs(os []Option) string {
	s := ""
	for i, o := range os {
		if i > 0 {
			s += ", "
		}
		s += o.ID
	}
	return s
}

// estimate fills p.Estimate from the plan's prices and the integrations'
// list prices.
func (s *Service) estimate(ctx context.Context, orgID string, p *Plan, supplied int) error {
	candidates := min(p.MaxCandidates, int(math.Ceil(float64(p.TargetCompanies)/expectFitRate)))
	if supplied > 0 {
		candidates = supplied
	}
	e := Estimate{Records: p.TargetCompanies}
	if p.Deliverable == DeliverLeads {
		contacts := p.TargetCompanies * p.ContactsPerCompany
		e.Records += contacts + int(math.Ceil(float64(contacts)*expectFindRate))
	}
	e.RecordsCostUSD = round2(float64(e.Records) * p.PricePerRecordUSD)
	if id := p.CompanyCheckEngine.id(); id != "" && id != EngineNativeICP {
		in, err := s.Integrations.Store.GetIntegration(ctx, orgID, store.IntegrationLLM, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("estimate: %w", err)
		}
		e.BilledCalls += candidates
		e.LLMCostUSD += float64(candidates) * research.ModelCost(in.Provider, in.Model, callTokensIn, callTokensOut)
	}
	var searchCost float64
	searchID := p.SearchProvider.id()
	if p.Deliverable == DeliverLeads {
		if id := p.ContactEngine.id(); id != "" && id != EngineNative {
			in, err := s.Integrations.Store.GetIntegration(ctx, orgID, store.IntegrationLLM, id)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("estimate: %w", err)
			}
			e.BilledCalls += p.TargetCompanies
			e.LLMCostUSD += float64(p.TargetCompanies) * research.ModelCost(in.Provider, in.Model, callTokensIn*2, callTokensOut*2)
		}
		if searchID != "" && searchID != SearchNone {
			in, err := s.Integrations.Store.GetIntegration(ctx, orgID, store.IntegrationSearch, searchID)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("estimate: %w", err)
			}
			e.BilledCalls += p.TargetCompanies * searchesPerComp
			searchCost = float64(p.TargetCompanies*searchesPerComp) * in.CostPerQuery
		}
	}
	e.LLMCostUSD = round6(e.LLMCostUSD)
	e.AICostUSD = e.LLMCostUSD
	sc := round6(searchCost)
	e.SearchCostUSD = &sc
	p.Estimate = e
	return nil
}
