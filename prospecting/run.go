package prospecting

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

// Stop reasons: the spec's four, and user_stopped for a stop answered at
// a checkpoint (the spec names no reason for it).
const (
	StopTargetReached   = "target_reached"
	StopCompaniesWorked = "companies_worked"
	StopCreditLimit     = "credit_limit"
	StopProviderLimit   = "provider_limit"
	StopUser            = "user_stopped"
)

// Checkpoints.
const (
	CheckpointContactsReview = "contacts_review"
	CheckpointTopUp          = "top_up"
)

// Phases and the steps within them.
const (
	PhaseCompanies = "companies"
	PhasePeople    = "people"

	stepCompanies = "companies"
	stepPeople    = "people"
	stepEmails    = "emails"
	stepEvaluate  = "evaluate"
)

// BillEndpoint is the ledger endpoint of a run's records.
const BillEndpoint = "prospecting/runs"

// Progress is where a run is: everything a resumed task needs.
type Progress struct {
	Round      int         `json:"round"`
	Step       string      `json:"step"`
	Candidates []Candidate `json:"candidates,omitempty"`
	Offset     int         `json:"offset,omitempty"`
	Exhausted  bool        `json:"exhausted,omitempty"`
	// CheckGoal is how many candidates a later round has checked when its
	// companies phase ends.
	CheckGoal int  `json:"check_goal,omitempty"`
	Raised    bool `json:"raised,omitempty"`
	Actions   int  `json:"actions"`
	// ICPTask and ContactTask hold the run's research records.
	ICPTask     string    `json:"icp_task,omitempty"`
	ContactTask string    `json:"contact_task,omitempty"`
	Contacts    []Contact `json:"contacts,omitempty"`
	EmailBatch  string    `json:"email_batch,omitempty"`
	// CreditStop: the spending limit or the account's credits stopped
	// new billed work.
	CreditStop bool     `json:"credit_stop,omitempty"`
	Answered   []string `json:"answered,omitempty"`
	StopAsked  bool     `json:"stop_asked,omitempty"`
	// ReviewLookups are the lookups a wave run's contacts_review offered
	// and the reply agreed to, not yet sent.
	ReviewLookups int `json:"review_lookups,omitempty"`
}

// Candidate is a company the run found and worked.
type Candidate struct {
	Domain     string  `json:"domain"`
	Name       string  `json:"name,omitempty"`
	Similarity float64 `json:"similarity,omitempty"`
	Round      int     `json:"round"`
	Checked    bool    `json:"checked,omitempty"`
	Fit        bool    `json:"fit,omitempty"`
	Reason     string  `json:"reason,omitempty"`
	Billed     bool    `json:"billed,omitempty"`
	PeopleDone bool    `json:"people_done,omitempty"`
	// IndexDone: the index was searched for its contacts (wave runs
	// search the index of every fit company before researching any).
	IndexDone bool   `json:"index_done,omitempty"`
	Queries   int    `json:"queries,omitempty"`
	Segment   string `json:"segment,omitempty"`
	// SegmentID is the company's segment in the run's segmentation (-1:
	// unclustered); nil when not segmented.
	SegmentID *int `json:"segment_id,omitempty"`
}

// Contact is a person the run kept at a fit company.
type Contact struct {
	Key         string `json:"key"`
	Domain      string `json:"domain"`
	PersonaID   int64  `json:"persona_id,omitempty"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Email       string `json:"email,omitempty"`
	EmailStatus string `json:"email_status,omitempty"`
	Source      string `json:"source"`
	RoleFit     string `json:"role_fit"`
	RoleReason  string `json:"role_reason"`
	Billed      bool   `json:"billed,omitempty"`
	EmailTries  int    `json:"email_tries,omitempty"`
	// Early: looked up before the contacts_review (a wave run's early
	// lookups); LookupWave is the wave that looked it up.
	Early      bool `json:"early,omitempty"`
	LookupWave int  `json:"lookup_wave,omitempty"`
}

// maxEmailTries bounds the lookups of one contact that end without a
// verdict.
const maxEmailTries = 3

// Email statuses of a kept contact.
const (
	emailIndexed  = "indexed"
	emailPending  = "pending"
	emailFound    = "found"
	emailNotFound = "not_found"
)

func (p *Progress) answered(checkpoint string) bool {
	for _, a := range p.Answered {
		if a == fmt.Sprintf("%s@%d", checkpoint, p.Round) {
			return true
		}
	}
	return false
}

// Counts summarize a run's progress.
type Counts struct {
	Candidates int `json:"candidates"`
	Checked    int `json:"checked"`
	Fit        int `json:"fit"`
	Contacts   int `json:"contacts"`
	Emails     int `json:"emails"`
	Covered    int `json:"covered_companies"`
	// Records are the service-credit records the run kept (fit companies,
	// index contacts, found emails).
	Records int `json:"records"`
}

// Count summarizes p.
func (p *Progress) Count() Counts {
	var c Counts
	c.Candidates = len(p.Candidates)
	for _, x := range p.Candidates {
		if x.Checked {
			c.Checked++
		}
		if x.Fit && x.Billed {
			c.Fit++
			c.Records++
		}
	}
	covered := map[string]bool{}
	for _, k := range p.Contacts {
		c.Contacts++
		if k.Billed {
			c.Records++
		}
		if k.Email != "" {
			c.Emails++
			covered[k.Domain] = true
		}
		if k.EmailStatus == emailFound {
			c.Records++
		}
	}
	c.Covered = len(covered)
	return c
}

// Outcome is a run task's result.
type Outcome struct {
	RunID  string `json:"run_id"`
	Status string `json:"status"`
}

// Run is the task body of a run: it plans a drafting run, and advances a
// queued or running one step by step — each step persisted — until it
// pauses at a checkpoint or ends.
func (s *Service) Run(ctx context.Context, t store.Task, in TaskInput, progress func(int)) (Outcome, error) {
	r, err := s.owner(ctx, t, in)
	if err != nil || r == nil {
		return Outcome{RunID: in.RunID, Status: "superseded"}, err
	}
	if t.Attempts > 1 {
		if r.Status == StatusDrafting || r.Status == StatusQueued || r.Status == StatusRunning {
			// A resumed task hands the run to a fresh task: a run killed
			// again and again never exhausts one task's attempts.
			if err := s.submit(ctx, r); err != nil {
				return Outcome{}, err
			}
			return Outcome{RunID: r.ID, Status: "handed_off"}, nil
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return Outcome{}, err
		}
		r, err := s.load(ctx, in.OrgID, in.RunID)
		if err != nil {
			return Outcome{}, err
		}
		if r.Data.TaskID != t.ID {
			return Outcome{RunID: r.ID, Status: "superseded"}, nil
		}
		out := Outcome{RunID: r.ID, Status: r.Status}
		var stepErr error
		switch r.Status {
		case StatusDrafting:
			stepErr = s.planRun(ctx, &r)
			if stepErr == nil {
				return Outcome{RunID: r.ID, Status: r.Status}, nil
			}
		case StatusQueued:
			first := r.Data.Progress.Round == 0
			r.Status = StatusRunning
			if r.Data.Phase == "" {
				r.Data.Phase = PhaseCompanies
			}
			if first {
				r.Data.Progress.Round, r.Data.Progress.Step = 1, stepCompanies
				if isWave(&r) {
					r.Data.Progress.CheckGoal = s.firstWave(&r)
				}
			}
			if err := s.save(ctx, &r); errors.Is(err, ErrStale) {
				continue
			} else if err != nil {
				return out, err
			}
			if first {
				text := "Run approved and started: searching and checking companies."
				if isWave(&r) {
					x := rates(&r)
					text = fmt.Sprintf("Run approved and started: wave 1 checks %d companies (sized for %d covered companies at a %.0f%% fit rate, "+
						"%.0f%% persona match share and %.0f%% email find rate, with a 25%% margin).", r.Data.Progress.CheckGoal,
						r.Data.Plan.TargetCompanies, 100*x.Fit, 100*x.MatchShare, 100*x.Find)
				}
				if _, err := s.message(ctx, r.ID, "started", MessageBody{Type: "text", Text: text}); err != nil {
					return out, err
				}
			}
			continue
		case StatusRunning:
			var done bool
			done, stepErr = s.step(ctx, &r)
			if errors.Is(stepErr, ErrStale) {
				continue // a step that keeps its work midway lost a compare-and-set: redo it on the current run
			}
			if stepErr == nil {
				if err := s.save(ctx, &r); errors.Is(err, ErrStale) {
					continue
				} else if err != nil {
					return out, err
				}
				c := r.Data.Progress.Count()
				if t := r.Data.Plan.TargetCompanies; progress != nil && t > 0 {
					progress(min(99, 100*max(c.Fit, c.Covered)/t))
				}
				if done {
					return Outcome{RunID: r.ID, Status: r.Status}, nil
				}
				continue
			}
		default:
			return out, nil // paused or ended: nothing to do
		}
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		// A provider failure or a broken input fails the run, never falls
		// back to another engine or the service's credentials.
		s.Log.Warn().Err(stepErr).Str("run", r.ID).Msg("prospecting run failed")
		if err := s.fail(ctx, in, stepErr); err != nil {
			return out, err
		}
		return Outcome{RunID: r.ID, Status: StatusFailed}, nil
	}
}

// ownerWait bounds how long a task waits for its submitter to record it
// as the run's driver.
const ownerWait = 3 * time.Second

// owner returns the run once it names t as its driver, nil when another
// task drives it: a task queued by a submitter that died before
// recording it, or one a later task superseded.
func (s *Service) owner(ctx context.Context, t store.Task, in TaskInput) (*Run, error) {
	deadline := time.Now().Add(ownerWait)
	for {
		r, err := s.load(ctx, in.OrgID, in.RunID)
		if err != nil {
			return nil, err
		}
		if r.Data.TaskID == t.ID {
			return &r, nil
		}
		if time.Now().After(deadline) {
			s.Log.Debug().Str("run", r.ID).Str("task", t.ID).Msg("another task drives the run")
			return nil, nil
		}
		if err := sleep(ctx, 20*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

// fail ends a run as failed with err's message.
func (s *Service) fail(ctx context.Context, in TaskInput, cause error) error {
	for {
		r, err := s.load(ctx, in.OrgID, in.RunID)
		if err != nil {
			return err
		}
		r.Status, r.Data.Error = StatusFailed, cause.Error()
		if err := s.save(ctx, &r); errors.Is(err, ErrStale) {
			continue
		} else if err != nil {
			return err
		}
		_, err = s.message(ctx, r.ID, "failed", MessageBody{Type: "text", Text: "The run failed: " + cause.Error()})
		return err
	}
}

// planRun drafts the plan of a drafting run and proposes it.
func (s *Service) planRun(ctx context.Context, r *Run) error {
	org, err := s.State.OrgByID(ctx, r.OrgID)
	if err != nil {
		return err
	}
	p, err := s.draft(ctx, org, r.Data.Request)
	if err != nil {
		return err
	}
	r.Data.Plan, r.Data.PlanVersion, r.Status = p, 1, StatusProposed
	r.Data.Costs.PlanAI = p.BriefReading.CostUSD
	if err := s.save(ctx, r); err != nil {
		return err
	}
	return s.planMessage(ctx, *r)
}

func (s *Service) batchSize() int {
	if s.BatchSize > 0 {
		return s.BatchSize
	}
	return 25
}

func (s *Service) price(r *Run) float64 { return r.Data.Plan.PricePerRecordUSD }

// spent is the run's service spend at plan rates.
func (s *Service) spent(r *Run) float64 {
	return float64(r.Data.Progress.Count().Records) * s.price(r)
}

// recordsLeft is how many more records the spending limit allows (-1: no
// limit).
func (s *Service) recordsLeft(r *Run) int {
	p := r.Data.Plan
	if p.MaxSpendUSD <= 0 || p.PricePerRecordUSD <= 0 {
		return -1
	}
	return max(0, int(math.Floor((p.MaxSpendUSD+1e-9)/p.PricePerRecordUSD))-r.Data.Progress.Count().Records)
}

func providerCost(r *Run) float64 { return r.Data.Costs.AI() + r.Data.Costs.Search() }

// step does one unit of work. done reports that the task should end (the
// run paused or ended).
func (s *Service) step(ctx context.Context, r *Run) (bool, error) {
	pr, p := &r.Data.Progress, r.Data.Plan
	if pr.StopAsked {
		return true, s.finish(ctx, r, StopUser)
	}
	if p.MaxProviderSpendUSD > 0 && providerCost(r) >= p.MaxProviderSpendUSD {
		return true, s.finish(ctx, r, StopProviderLimit)
	}
	switch pr.Step {
	case stepCompanies:
		return s.stepCompanies(ctx, r)
	case stepPeople:
		return s.stepPeople(ctx, r)
	case stepEmails:
		return s.stepEmails(ctx, r)
	case stepEvaluate:
		return s.evaluate(ctx, r)
	}
	return false, fmt.Errorf("run %s: unknown step %q", r.ID, pr.Step)
}

// companiesOver reports whether the round's companies phase is done.
func companiesOver(r *Run) bool {
	pr, p := &r.Data.Progress, r.Data.Plan
	c := pr.Count()
	unchecked := c.Candidates - c.Checked
	switch {
	case pr.CreditStop:
		return true
	case isWave(r) && c.Checked >= pr.CheckGoal:
		return true // a wave checks all its companies
	case !isWave(r) && pr.Round == 1 && c.Fit >= p.TargetCompanies:
		return true
	case !isWave(r) && pr.Round > 1 && c.Checked >= pr.CheckGoal:
		return true
	case unchecked == 0 && (pr.Exhausted || c.Candidates >= p.MaxCandidates):
		return true
	case pr.Actions >= p.MaxActions:
		return true
	}
	return false
}

func (s *Service) stepCompanies(ctx context.Context, r *Run) (bool, error) {
	pr, p := &r.Data.Progress, r.Data.Plan
	if companiesOver(r) {
		if p.Deliverable == DeliverAccounts {
			return s.evaluate(ctx, r)
		}
		pr.Step, r.Data.Phase = stepPeople, PhasePeople
		return false, nil
	}
	size := s.batchSize()
	if isWave(r) {
		size = min(size, pr.CheckGoal-pr.Count().Checked) // a wave checks its size, no more
	}
	var batch []int
	for i, c := range pr.Candidates {
		if !c.Checked {
			batch = append(batch, i)
			if len(batch) == size {
				break
			}
		}
	}
	if len(batch) == 0 {
		return false, s.fetch(ctx, r)
	}
	if err := s.check(ctx, r, batch); err != nil {
		return false, err
	}
	pr.Actions++
	return false, nil
}

// fetch adds candidates: the supplied companies at once, else the next
// page of discovery for the brief (or the selected seed segments).
func (s *Service) fetch(ctx context.Context, r *Run) error {
	pr, p, req := &r.Data.Progress, r.Data.Plan, r.Data.Request
	skip := map[string]bool{}
	for _, d := range req.ExcludeDomains {
		skip[d] = true
	}
	for _, d := range req.CustomerDomains {
		skip[d] = true // never returned as results
	}
	for _, c := range pr.Candidates {
		skip[c.Domain] = true
	}
	add := func(domain, name string, sim float64) {
		if skip[domain] || len(pr.Candidates) >= p.MaxCandidates {
			return
		}
		skip[domain] = true
		pr.Candidates = append(pr.Candidates, Candidate{Domain: domain, Name: name, Similarity: sim, Round: pr.Round})
	}
	if len(req.Domains)+len(req.CompanyNames) > 0 {
		list := append([]string{}, req.Domains...)
		for _, n := range req.CompanyNames {
			m, err := s.Names.MatchOne(ctx, namematch.Query{Name: n})
			if err != nil && !errors.Is(err, namematch.ErrNoName) {
				return fmt.Errorf("match company name %q: %w", n, err)
			}
			if m.Domain != "" {
				list = append(list, m.Domain)
			}
		}
		cs, err := s.Engine.GetCompanies(ctx, list)
		if err != nil {
			return fmt.Errorf("read supplied companies: %w", err)
		}
		names := map[string]string{}
		for _, c := range cs {
			names[c.Domain] = c.Name
		}
		for _, d := range list {
			add(d, names[d], 0)
		}
		pr.Exhausted = true
		return nil
	}
	want := min(4*s.batchSize(), p.MaxCandidates-len(pr.Candidates))
	if want <= 0 {
		pr.Exhausted = true
		return nil
	}
	var examples []string
	for _, sg := range p.SeedSegments {
		if sg.Selected {
			examples = append(examples, sg.Customers...)
		}
	}
	if pr.Offset+want > query.MaxRecords {
		want = query.MaxRecords - pr.Offset
	}
	if want < query.MinRecords {
		pr.Exhausted = true
		return nil
	}
	d, err := discoverOf(req.Brief, examples, pr.Offset, want)
	if err != nil {
		return err
	}
	res, err := s.Companies.Discover(ctx, d)
	if err != nil {
		return fmt.Errorf("discover candidates: %w", err)
	}
	pr.Offset += len(res.Matches)
	for _, m := range res.Matches {
		add(m.Company.Domain, m.Company.Name, m.Similarity)
	}
	if len(res.Matches) < want {
		pr.Exhausted = true
	}
	return nil
}

// check runs the company check engine on the batch and bills the fit
// companies within the spending limit.
func (s *Service) check(ctx context.Context, r *Run, batch []int) error {
	pr, p := &r.Data.Progress, r.Data.Plan
	domains := make([]string, len(batch))
	for k, i := range batch {
		domains[k] = pr.Candidates[i].Domain
	}
	type verdict struct {
		fit    bool
		reason string
	}
	verdicts := map[string]verdict{}
	switch engine := p.CompanyCheckEngine.id(); engine {
	case EngineNativeICP:
		cs, err := s.Engine.GetCompanies(ctx, domains)
		if err != nil {
			return fmt.Errorf("company check: %w", err)
		}
		chk := NewNativeCheck(r.Data.Request.Brief)
		for _, c := range cs {
			fit, reason := chk.Check(c)
			verdicts[c.Domain] = verdict{fit, reason}
		}
	default:
		if s.Research == nil {
			return fmt.Errorf("company check engine %s: this deployment has no research pipeline", engine)
		}
		if pr.ICPTask == "" {
			return s.holder(ctx, r, &pr.ICPTask)
		}
		task := research.Task{Kind: research.KindICP, Query: r.Data.Request.Brief, IntegrationID: engine, SearchContextSize: "low",
			ContextMode: research.ModeProfile, Keys: domains}
		out, err := s.runResearch(ctx, r, pr.ICPTask, task)
		if err != nil {
			return err
		}
		r.Data.Costs.CheckAI, r.Data.Costs.CheckSearch = splitCost(out)
		for _, d := range domains {
			if e, bad := out.RecordErrors[d]; bad {
				verdicts[d] = verdict{false, "check failed: " + e}
				continue
			}
			var v struct{ Fit, Confidence, Reasoning string }
			if err := json.Unmarshal(out.Results[d], &v); err != nil {
				verdicts[d] = verdict{false, "check failed: unreadable answer"}
				continue
			}
			verdicts[d] = verdict{v.Fit == "yes", fmt.Sprintf("%s (%s confidence): %s", v.Fit, v.Confidence, v.Reasoning)}
		}
	}
	var fit []int
	for _, i := range batch {
		c := &pr.Candidates[i]
		v, ok := verdicts[c.Domain]
		if !ok {
			v = verdict{false, "not in the index"}
		}
		c.Checked, c.Fit, c.Reason = true, v.fit, v.reason
		if v.fit {
			fit = append(fit, i)
		}
	}
	return s.billCompanies(ctx, r, fit)
}

// billCompanies bills fit companies in order while the spending limit and
// the account's credits allow; the rest stop the run's billed work.
func (s *Service) billCompanies(ctx context.Context, r *Run, idx []int) error {
	pr := &r.Data.Progress
	if left := s.recordsLeft(r); left >= 0 && left < len(idx) {
		idx, pr.CreditStop = idx[:left], true
	}
	if len(idx) == 0 {
		return nil
	}
	org, err := s.State.OrgByID(ctx, r.OrgID)
	if err != nil {
		return err
	}
	cov, err := account.BillRecords(ctx, s.Biller, org, BillEndpoint, idx, func(i int) []store.Charge {
		return []store.Charge{{Kind: store.KindCompany, Key: pr.Candidates[i].Domain}}
	})
	if err != nil && !errors.Is(err, account.ErrNoCredits) {
		return err
	}
	for k, i := range idx {
		pr.Candidates[i].Billed = cov.Mask[k]
	}
	if cov.Withheld > 0 {
		pr.CreditStop = true
	}
	return nil
}

// holder creates a task that holds research records and records its id;
// the step runs again with it. A crash between the two leaves an empty
// holder behind, never a record researched twice.
func (s *Service) holder(ctx context.Context, r *Run, into *string) error {
	t, err := s.State.CreateTask(ctx, r.OrgID, holderKind, json.RawMessage(fmt.Sprintf(`{"run_id":%q}`, r.ID)))
	if err != nil {
		return fmt.Errorf("research holder: %w", err)
	}
	*into = t.ID
	return nil
}

func (s *Service) runResearch(ctx context.Context, r *Run, holder string, t research.Task) (*research.Outcome, error) {
	body, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	out, err := s.Research.Run(ctx, holder, r.OrgID, body, nil)
	if err != nil {
		return nil, fmt.Errorf("research (%s): %w", t.Kind, err)
	}
	return out, nil
}

// splitCost reads an outcome's provider cost: the model's (AI) and the
// search integration's.
func splitCost(o *research.Outcome) (ai, search float64) {
	for k, v := range o.CostMetadata {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		c, _ := m["est_cost_usd"].(float64)
		if k == "search_provider" {
			search += c
		} else {
			ai += c
		}
	}
	return ai, search
}

func (s *Service) stepPeople(ctx context.Context, r *Run) (bool, error) {
	if isWave(r) {
		return s.wavePeople(ctx, r)
	}
	pr, p := &r.Data.Progress, r.Data.Plan
	batch := s.peopleBatch(r, func(c Candidate) bool { return !c.PeopleDone })
	if len(batch) == 0 || pr.CreditStop {
		if p.Checkpoints == CheckpointsAsk && !pr.answered(CheckpointContactsReview) {
			return true, s.pause(ctx, r, CheckpointContactsReview, s.reviewQuestion(r))
		}
		pr.Step = stepEmails
		return false, nil
	}
	have, err := s.indexContacts(ctx, r, batch)
	if err != nil {
		return false, err
	}
	// Companies still short: the contact engine researches them.
	var short []int
	for _, i := range batch {
		if have[pr.Candidates[i].Domain] < p.ContactsPerCompany {
			short = append(short, i)
		}
	}
	if len(short) > 0 && !pr.CreditStop {
		if err := s.research(ctx, r, short, have); err != nil {
			return false, err
		}
	}
	for _, i := range batch {
		pr.Candidates[i].PeopleDone, pr.Candidates[i].IndexDone = true, true
	}
	pr.Actions++
	return false, nil
}

// indexContacts keeps the persona-ranked index contacts of the batch's
// companies that the limit and the credits pay for, and returns the
// contacts each company has.
func (s *Service) indexContacts(ctx context.Context, r *Run, batch []int) (map[string]int, error) {
	pr, p := &r.Data.Progress, r.Data.Plan
	domains := make([]string, len(batch))
	for k, i := range batch {
		domains[k] = pr.Candidates[i].Domain
	}
	have := contactsPer(pr)
	// Index contacts first, ranked by the persona.
	v := url.Values{"domain": domains, "max_companies": {strconv.Itoa(len(domains))}, "results_by_company": {strconv.Itoa(p.ContactsPerCompany)},
		"icp_text": {p.Persona}}
	d, err := query.ParseContactQuery(v)
	if err != nil {
		return nil, fmt.Errorf("contact search: %w", err)
	}
	res, err := s.Contacts.Discover(ctx, d)
	if err != nil {
		return nil, fmt.Errorf("contact search: %w", err)
	}
	var found []Contact
	for _, g := range res.Groups {
		for _, m := range g.Contacts {
			c := m.Contact
			if have[c.Domain] >= p.ContactsPerCompany {
				continue
			}
			key := "p" + strconv.FormatInt(c.PersonaID, 10)
			if hasContact(pr.Contacts, key) {
				continue
			}
			have[c.Domain]++
			k := Contact{Key: key, Domain: c.Domain, PersonaID: c.PersonaID, Name: c.Name, Title: c.Title, Source: "index",
				RoleFit: "accepted", RoleReason: "kept without persona checking: ranked by similarity to the persona (" + p.Persona + ")"}
			if c.Email != "" {
				k.Email, k.EmailStatus = c.Email, emailIndexed
			}
			found = append(found, k)
		}
	}
	if err := s.billContacts(ctx, r, found); err != nil {
		return nil, err
	}
	return contactsPer(pr), nil
}

func hasContact(list []Contact, key string) bool {
	for _, c := range list {
		if c.Key == key {
			return true
		}
	}
	return false
}

// billContacts keeps index contacts the limit and the credits pay for.
func (s *Service) billContacts(ctx context.Context, r *Run, found []Contact) error {
	pr := &r.Data.Progress
	if left := s.recordsLeft(r); left >= 0 && left < len(found) {
		found, pr.CreditStop = found[:left], true
	}
	if len(found) == 0 {
		return nil
	}
	org, err := s.State.OrgByID(ctx, r.OrgID)
	if err != nil {
		return err
	}
	cov, err := account.BillRecords(ctx, s.Biller, org, BillEndpoint, found, func(c Contact) []store.Charge {
		return []store.Charge{{Kind: store.KindContact, Key: strconv.FormatInt(c.PersonaID, 10)}}
	})
	if err != nil && !errors.Is(err, account.ErrNoCredits) {
		return err
	}
	for k := range found {
		if cov.Mask[k] {
			found[k].Billed = true
			pr.Contacts = append(pr.Contacts, found[k])
		}
	}
	if cov.Withheld > 0 {
		pr.CreditStop = true
	}
	return nil
}

// research finds people at companies the index left short, with the
// contact engine: an LLM integration (contact generation), or the
// built-in engine's web searches on the customer's search provider.
func (s *Service) research(ctx context.Context, r *Run, short []int, have map[string]int) error {
	pr, p := &r.Data.Progress, r.Data.Plan
	engine := p.ContactEngine.id()
	searchID := p.SearchProvider.id()
	if engine == EngineNative {
		if searchID == "" || searchID == SearchNone {
			return nil // indexed contacts only
		}
		return s.webResearch(ctx, r, short, have, searchID)
	}
	if s.Research == nil {
		return fmt.Errorf("contact engine %s: this deployment has no research pipeline", engine)
	}
	if pr.ContactTask == "" {
		if err := s.holder(ctx, r, &pr.ContactTask); err != nil {
			return err
		}
	}
	domains := make([]string, len(short))
	for k, i := range short {
		domains[k] = pr.Candidates[i].Domain
	}
	t := research.Task{Kind: research.KindContacts, Query: p.Persona, IntegrationID: engine, WebSearch: searchID != "" && searchID != SearchNone,
		SearchContextSize: "low", ContextMode: research.ModeProfile, Keys: domains}
	if t.WebSearch {
		t.SearchProviderID = searchID
	}
	out, err := s.runResearch(ctx, r, pr.ContactTask, t)
	if err != nil {
		return err
	}
	r.Data.Costs.ContactAI, r.Data.Costs.ContactSearch = splitCost(out)
	for _, d := range domains {
		var rows []research.ContactRow
		if json.Unmarshal(out.Results[d], &rows) != nil {
			continue
		}
		for _, row := range rows {
			if have[d] >= p.ContactsPerCompany {
				break
			}
			key := "g:" + d + ":" + strings.ToLower(row.Name)
			if hasContact(pr.Contacts, key) {
				continue
			}
			have[d]++
			c := Contact{Key: key, Domain: d, Name: row.Name, Source: "research", RoleFit: "accepted", RoleReason: "named by contact research for the persona"}
			if row.Title != nil {
				c.Title = *row.Title
			}
			if row.Email != nil {
				c.Email, c.EmailStatus = *row.Email, emailIndexed
			}
			pr.Contacts = append(pr.Contacts, c)
		}
	}
	return nil
}

// webResearch is the built-in contact engine's web research: about two
// queries per company on the customer's search provider; people named in
// result titles ("Jane Doe - VP Sales - Acme") are kept.
func (s *Service) webResearch(ctx context.Context, r *Run, short []int, have map[string]int, searchID string) error {
	pr, p := &r.Data.Progress, r.Data.Plan
	client, in, err := s.Integrations.Search(ctx, r.OrgID, searchID)
	if err != nil {
		return fmt.Errorf("search provider %s: %w", searchID, err)
	}
	for _, i := range short {
		c := &pr.Candidates[i]
		name := c.Name
		if name == "" {
			name = c.Domain
		}
		for _, q := range []string{fmt.Sprintf("%q %s linkedin", name, p.Persona), fmt.Sprintf("%s team leadership", c.Domain)} {
			if p.MaxProviderSpendUSD > 0 && providerCost(r) >= p.MaxProviderSpendUSD {
				return nil // running work finishes; no new queries
			}
			results, err := client.Search(ctx, q, 5)
			c.Queries++
			r.Data.Costs.WebSearch = round6(r.Data.Costs.WebSearch + in.CostPerQuery)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return fmt.Errorf("search provider %s: %w", in.Provider, err)
			}
			for _, res := range results {
				person, title, ok := PersonFromTitle(res.Title)
				if !ok || have[c.Domain] >= p.ContactsPerCompany {
					continue
				}
				key := "w:" + c.Domain + ":" + strings.ToLower(person)
				if hasContact(pr.Contacts, key) {
					continue
				}
				have[c.Domain]++
				pr.Contacts = append(pr.Contacts, Contact{Key: key, Domain: c.Domain, Name: person, Title: title, Source: "web",
					RoleFit: "accepted", RoleReason: "kept without persona checking: named in a web search result"})
			}
		}
	}
	return nil
}

// stepEmails finds the addresses of kept contacts that have none, one
// email batch at a time, within the spending limit.
func (s *Service) stepEmails(ctx context.Context, r *Run) (bool, error) {
	pr := &r.Data.Progress
	if isWave(r) {
		return s.waveEmails(ctx, r)
	}
	if s.Email == nil {
		pr.Step = stepEvaluate
		return false, nil
	}
	if pr.EmailBatch != "" {
		settled, err := s.collectEmails(ctx, r)
		if err != nil || settled {
			return false, err
		}
		return false, sleep(ctx, s.poll())
	}
	var todo []int
	for k, c := range pr.Contacts {
		if c.Email == "" && c.EmailStatus == "" {
			todo = append(todo, k)
		}
	}
	if left := s.recordsLeft(r); left >= 0 && left < len(todo) {
		todo, pr.CreditStop = todo[:left], true
	}
	if len(todo) == 0 {
		pr.Step = stepEvaluate
		return false, nil
	}
	// One batch per step, sized like a step of companies, so a step
	// never holds the run for long.
	todo = todo[:min(len(todo), email.MaxBatch, s.batchSize()*r.Data.Plan.ContactsPerCompany)]
	_, err := s.submitLookups(ctx, r, todo, false)
	return false, err
}

// collectEmails applies the run's email batch to its contacts once every
// lookup of it has settled (settled false, nothing applied, before).
func (s *Service) collectEmails(ctx context.Context, r *Run) (bool, error) {
	pr := &r.Data.Progress
	b, err := s.Email.Batch(ctx, r.OrgID, pr.EmailBatch)
	if err != nil {
		return false, fmt.Errorf("email lookups: %w", err)
	}
	if b.Completed+b.Failed < b.Total {
		return false, nil
	}
	byRef := map[string]email.JobView{}
	for _, j := range b.Results {
		byRef[j.Ref] = j
	}
	for k := range pr.Contacts {
		c := &pr.Contacts[k]
		j, ok := byRef[c.Key]
		if !ok || c.EmailStatus != emailPending {
			continue
		}
		c.EmailStatus = emailNotFound
		switch {
		case j.Result != nil && j.Result.Result != nil && j.Result.Withheld == "" && j.Result.Status == email.StatusFound:
			c.Email, c.EmailStatus = j.Result.Result.Email, emailFound
		case j.Status == store.EmailFailed && j.Result == nil && c.EmailTries < maxEmailTries:
			// The lookup never ran to a verdict (its batch was given up
			// after repeated crashes): ask again in a later batch.
			c.EmailStatus = ""
		}
		c.EmailTries++
	}
	pr.EmailBatch = ""
	return true, nil
}

func (s *Service) poll() time.Duration {
	if s.Poll > 0 {
		return s.Poll
	}
	return 250 * time.Millisecond
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func splitName(name string) (first, last string) {
	f := strings.Fields(name)
	switch len(f) {
	case 0:
		return "", ""
	case 1:
		return f[0], ""
	}
	return f[0], f[len(f)-1]
}

// evaluate ends a round: the target reached, a limit hit, or another
// round sized from the measured yield.
func (s *Service) evaluate(ctx context.Context, r *Run) (bool, error) {
	pr, p := &r.Data.Progress, r.Data.Plan
	c := pr.Count()
	got := c.Covered
	if p.Deliverable == DeliverAccounts {
		got = c.Fit
	}
	switch {
	case got >= p.TargetCompanies:
		return true, s.finish(ctx, r, StopTargetReached)
	case pr.CreditStop:
		return true, s.finish(ctx, r, StopCreditLimit)
	case p.MaxProviderSpendUSD > 0 && providerCost(r) >= p.MaxProviderSpendUSD:
		return true, s.finish(ctx, r, StopProviderLimit)
	case p.Goal == GoalCompanies || p.Deliverable == DeliverAccounts || c.Checked == 0:
		return true, s.finish(ctx, r, StopCompaniesWorked)
	}
	unchecked := c.Candidates - c.Checked
	if pr.Exhausted && unchecked == 0 || pr.Actions >= p.MaxActions {
		return true, s.finish(ctx, r, StopCompaniesWorked)
	}
	// Another round sized from the yield, with a 25% margin.
	yield := float64(max(got, 1)) / float64(c.Checked)
	add := int(math.Ceil(float64(p.TargetCompanies-got) / yield * 1.25))
	if isWave(r) {
		// The next wave is sized from the run's own rates.
		add = waveSize(r)
	}
	room := p.MaxCandidates - c.Candidates + unchecked
	if room < add && p.MaxCandidatesAuto && !pr.Raised {
		// The automatic limit is raised once, within a per-target ceiling.
		ceiling := max(p.TargetCompanies*20, p.MaxCandidates)
		p.MaxCandidates = min(ceiling, c.Candidates-unchecked+add)
		pr.Raised = true
		room = p.MaxCandidates - c.Candidates + unchecked
	}
	add = min(add, room)
	if add <= 0 {
		return true, s.finish(ctx, r, StopCompaniesWorked)
	}
	fitRate := float64(max(c.Fit, 1)) / float64(c.Checked)
	perCompany := fitRate * float64(c.Records) / float64(max(c.Fit, 1)) // records per checked company so far
	cost := float64(add) * perCompany * s.price(r)
	if p.MaxSpendUSD > 0 {
		left := p.MaxSpendUSD - s.spent(r)
		if left < s.price(r) {
			return true, s.finish(ctx, r, StopCreditLimit)
		}
		if cost > left && !pr.answered(CheckpointTopUp) {
			q := fmt.Sprintf("Round %d needs about %d more companies (about $%.2f in credits), more than the $%.2f left under max_spend_usd. "+
				"Reply continue with a higher max_spend_usd to top up, continue to use what is left, or stop.", pr.Round+1, add, cost, left)
			return true, s.pause(ctx, r, CheckpointTopUp, q)
		}
	}
	if p.MaxProviderSpendUSD > 0 && c.Checked > 0 {
		left := p.MaxProviderSpendUSD - providerCost(r)
		pcost := float64(add) * providerCost(r) / float64(c.Checked)
		if pcost > left && !pr.answered(CheckpointTopUp) {
			q := fmt.Sprintf("Round %d needs about $%.2f on your provider keys, more than the $%.2f left under max_provider_spend_usd. "+
				"Reply continue with a higher max_provider_spend_usd, continue, or stop.", pr.Round+1, pcost, left)
			return true, s.pause(ctx, r, CheckpointTopUp, q)
		}
	}
	pr.Round++
	pr.CheckGoal = c.Checked + add
	pr.Step, r.Data.Phase = stepCompanies, PhaseCompanies
	word := "Round"
	if isWave(r) {
		word = "Wave"
	}
	_, err := s.message(ctx, r.ID, fmt.Sprintf("round-%d", pr.Round), MessageBody{Type: "text",
		Text: fmt.Sprintf("%s %d: %d of %d companies covered; adding %d companies to check (about $%.2f in credits).", word, pr.Round, got, p.TargetCompanies, add, cost)})
	return false, err
}

// reviewQuestion is the contacts_review checkpoint's question.
func (s *Service) reviewQuestion(r *Run) string {
	pr := &r.Data.Progress
	c := pr.Count()
	companies := map[string]bool{}
	missing := 0
	for _, k := range pr.Contacts {
		companies[k.Domain] = true
		if k.Email == "" && k.EmailStatus == "" {
			missing++
		}
	}
	lookups := missing
	if left := s.recordsLeft(r); left >= 0 {
		lookups = min(lookups, left)
	}
	found := int(math.Ceil(float64(lookups) * expectFindRate))
	minutes := math.Ceil(float64(lookups) / 70)
	return fmt.Sprintf("Checked %d companies, %d fit. Matched %d contacts at %d companies; %d already have an email. "+
		"Finding the remaining emails takes %d lookups (about %.0f min at ~70 per minute), expecting about %d emails, up to $%.2f in credits reserved until each lookup settles. "+
		"Reply continue to find them, or stop.", c.Checked, c.Fit, c.Contacts, len(companies), c.Emails, lookups, minutes, found, float64(found)*s.price(r))
}

// pause stops the run at a checkpoint with its question.
func (s *Service) pause(ctx context.Context, r *Run, checkpoint, question string) error {
	return s.pauseWith(ctx, r, checkpoint, question, nil)
}

// pauseWith is pause with a wave run's review numbers in the message.
func (s *Service) pauseWith(ctx context.Context, r *Run, checkpoint, question string, rv *Review) error {
	r.Status, r.Data.Checkpoint = StatusPaused, checkpoint
	_, err := s.message(ctx, r.ID, fmt.Sprintf("%s-%d", checkpoint, r.Data.Progress.Round), MessageBody{Type: "checkpoint", Checkpoint: checkpoint,
		Text: question, Options: []string{"continue", "stop"}, Review: rv})
	return err
}

// finish ends the run: its results saved as a saved query, its research
// holders closed, the stop reason recorded.
func (s *Service) finish(ctx context.Context, r *Run, reason string) error {
	// Lookups still running (a wave run's early ones) settle first, so
	// the addresses they find, and bill, are in the results.
	for r.Data.Progress.EmailBatch != "" && s.Email != nil {
		settled, err := s.collectEmails(ctx, r)
		if err != nil {
			return err
		}
		if !settled {
			if err := sleep(ctx, s.poll()); err != nil {
				return err
			}
		}
	}
	if r.Data.ResultsQueryID == "" {
		if r.Data.Plan.Segment && r.Data.Segmentation == nil {
			segmented, err := s.segment(ctx, r)
			if err != nil {
				return err
			}
			if segmented {
				// The segments are kept in the run before the results use
				// them: a resumed finish reuses them, never segments again.
				if err := s.save(ctx, r); err != nil {
					return fmt.Errorf("keep the run's segmentation: %w", err)
				}
			}
		}
		q, err := s.saveResults(ctx, r)
		if err != nil {
			return err
		}
		r.Data.ResultsQueryID = q.ID
	}
	for _, id := range []string{r.Data.Progress.ICPTask, r.Data.Progress.ContactTask} {
		if id != "" {
			if err := s.State.CancelTask(ctx, r.OrgID, id); err != nil && !errors.Is(err, store.ErrConflict) {
				s.Log.Warn().Err(err).Str("task", id).Msg("close research holder")
			}
		}
	}
	r.Status, r.Data.StopReason = StatusCompleted, reason
	c := r.Data.Progress.Count()
	text := fmt.Sprintf("Run complete (%s): %d companies checked, %d fit", reason, c.Checked, c.Fit)
	if r.Data.Plan.Deliverable == DeliverLeads {
		text += fmt.Sprintf(", %d contacts, %d with an email at %d companies", c.Contacts, c.Emails, c.Covered)
	}
	_, err := s.message(ctx, r.ID, "completed", MessageBody{Type: "text", Text: text + "."})
	return err
}

// ResultRow is one row of a run's saved results: a fit company and, on a
// leads run, its contacts.
type ResultRow struct {
	Domain   string          `json:"domain"`
	Name     string          `json:"name,omitempty"`
	Reason   string          `json:"fit_reason,omitempty"`
	Segment  string          `json:"segment,omitempty" doc:"The company's segment description (segment=true runs with at least ten fit companies)"`
	Contacts []ResultContact `json:"contacts,omitempty"`
	// SegmentID is the segment's number in the run's segmentation.
	SegmentID *int `json:"segment_id,omitempty" doc:"-1 means unclustered"`
}

// ResultContact is a contact of a result row.
type ResultContact struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	PersonaID   int64  `json:"persona_id,omitempty"`
	Email       string `json:"email,omitempty"`
	EmailStatus string `json:"email_status,omitempty"`
	Source      string `json:"source"`
	RoleFit     string `json:"role_fit"`
	RoleReason  string `json:"role_reason"`
}

// Rows are the run's results: one row per fit company.
func Rows(r Run) []ResultRow {
	pr := &r.Data.Progress
	byDomain := map[string][]ResultContact{}
	if r.Data.Plan != nil && r.Data.Plan.Deliverable == DeliverLeads {
		for _, c := range pr.Contacts {
			byDomain[c.Domain] = append(byDomain[c.Domain], ResultContact{Name: c.Name, Title: c.Title, PersonaID: c.PersonaID, Email: c.Email,
				EmailStatus: c.EmailStatus, Source: c.Source, RoleFit: c.RoleFit, RoleReason: c.RoleReason})
		}
	}
	rows := []ResultRow{}
	for _, c := range pr.Candidates {
		if c.Fit && c.Billed {
			rows = append(rows, ResultRow{Domain: c.Domain, Name: c.Name, Reason: c.Reason, Segment: c.Segment, SegmentID: c.SegmentID,
				Contacts: byDomain[c.Domain]})
		}
	}
	return rows
}

// resultsNamespace names the saved queries holding runs' results.
var resultsNamespace = uuid.MustParse("5b0f3c2e-8f4a-4d6e-9c1a-2f7d3e6b9a41")

// ResultsQueryID is the id of the saved query holding a run's results:
// derived from the run id, so a finish repeated after a crash between
// creating the query and recording it on the run finds the query instead
// of creating a second one.
func ResultsQueryID(runID string) string {
	return uuid.NewSHA1(resultsNamespace, []byte(runID)).String()
}

// saveResults stores the run's results as a saved query under the run's
// results id, or returns the one an earlier attempt stored.
func (s *Service) saveResults(ctx context.Context, r *Run) (saved.Query, error) {
	id := ResultsQueryID(r.ID)
	switch q, err := s.State.SavedQueryInfo(ctx, r.OrgID, id); {
	case err == nil:
		return q, nil
	case !errors.Is(err, saved.ErrNotFound):
		return q, fmt.Errorf("save run results: %w", err)
	}
	rows := Rows(*r)
	q := saved.Query{ID: id, OrgID: r.OrgID, UserID: r.UserID, Name: "Prospecting run " + r.ID, Action: saved.ThinPrefix + "discover",
		Tags: []string{"prospecting"}, Params: json.RawMessage(fmt.Sprintf(`{"prospecting_run_id":%q}`, r.ID)), RowCount: len(rows)}
	for _, row := range rows {
		q.Domains = append(q.Domains, row.Domain)
		for _, c := range row.Contacts {
			if c.PersonaID > 0 {
				q.PersonaIDs = append(q.PersonaIDs, c.PersonaID)
			}
		}
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return saved.Query{}, err
	}
	q.Rows = b
	out, err := s.State.CreateSavedQuery(ctx, q)
	if errors.Is(err, store.ErrConflict) {
		// Another attempt stored it meanwhile.
		out, err = s.State.SavedQueryInfo(ctx, r.OrgID, id)
	}
	if err != nil {
		return out, fmt.Errorf("save run results: %w", err)
	}
	return out, nil
}
