package prospecting

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
)

// TaskKind is the jobs kind of a run's task: it plans a drafting run and
// advances a queued one until it pauses or ends.
const TaskKind = "prospecting_run"

// holderKind marks the tasks that hold a run's research records: never
// claimed by a worker (no handler has the kind), they exist so the
// research pipeline can keep each record as it finishes.
const holderKind = "prospecting_research"

// Submitter queues tasks (the jobs runner).
type Submitter interface {
	Submit(ctx context.Context, orgID, kind string, input any) (store.Task, error)
}

// State is the part of the state store runs use besides their own role.
type State interface {
	Store
	store.Orgs
	store.Tasks
	saved.Store
}

// Service plans and runs prospecting runs; the HTTP handlers, the tool
// server and the task body (Run) all call it.
type Service struct {
	State  State
	Tasks  Submitter // set once the runner exists (jobs.New)
	Biller *account.Biller
	Plans  account.Plans
	// Engine reads company profiles; Companies and Contacts search them.
	Engine    index.Reader
	Companies *query.Companies
	Contacts  *query.ContactService
	// Names resolves company_names; nil refuses them.
	Names        *namematch.Service
	Integrations *integrations.Service
	// Research runs LLM checks and contact research; nil offers only the
	// built-in engines.
	Research *research.Pipeline
	// Email finds addresses; nil leaves contacts without one.
	Email *email.Service
	// Webhooks delivers run events to the webhook a run names (a client
	// refusing non-public addresses when nil).
	Webhooks *Webhooks
	Log      zerolog.Logger
	Now      func() time.Time
	// Poll is how often a run waits on email lookups (250 ms when 0).
	Poll time.Duration
	// BatchSize is how many companies a step checks or researches (25
	// when 0).
	BatchSize int
	// Waves is the wave runs' rollout: leads runs of the organizations it
	// reaches are planned as wave runs (none when zero).
	Waves WaveRollout
	// BriefTimeout bounds the LLM reading of a brief (30 s when 0).
	BriefTimeout time.Duration
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) plans() account.Plans {
	if s.Plans != nil {
		return s.Plans
	}
	return account.DefaultPlans()
}

// Data is a run's document (Record.Data).
type Data struct {
	Request         Request         `json:"request"`
	Plan            *Plan           `json:"plan,omitempty"`
	Picked          map[string]bool `json:"picked,omitempty"`
	PlanVersion     int             `json:"plan_version"`
	ApprovedVersion int             `json:"approved_version,omitempty"`
	Phase           string          `json:"phase,omitempty"`
	StopReason      string          `json:"stop_reason,omitempty"`
	Checkpoint      string          `json:"checkpoint,omitempty"`
	Error           string          `json:"error,omitempty"`
	TaskID          string          `json:"task_id,omitempty"`
	ResultsQueryID  string          `json:"results_query_id,omitempty"`
	Progress        Progress        `json:"progress"`
	Costs           Costs           `json:"costs"`
	// WebhookSecret signs the events sent to Request.WebhookURL, as
	// stored: sealed with the sender's secrets.Box and bound to the run
	// (store.RunWebhookSource), or plaintext in a run stored before
	// sealing (sealed by the next save). The plaintext is Run.Secret.
	WebhookSecret string `json:"webhook_secret,omitempty"`
	// Segmentation is the outcome of segmenting the fit companies
	// (segment=true), kept before the results are saved.
	Segmentation *Segmentation `json:"segmentation,omitempty"`
}

// Costs are a run's provider costs by source, each recomputed from what
// is stored (never accumulated), so a repeated step cannot count twice.
type Costs struct {
	CheckAI       float64 `json:"check_ai,omitempty"`
	CheckSearch   float64 `json:"check_search,omitempty"`
	ContactAI     float64 `json:"contact_ai,omitempty"`
	ContactSearch float64 `json:"contact_search,omitempty"`
	WebSearch     float64 `json:"web_search,omitempty"`
	// PlanAI is the LLM reading of the brief while planning.
	PlanAI float64 `json:"plan_ai,omitempty"`
}

// AI and Search split the provider cost.
func (c Costs) AI() float64     { return round6(c.PlanAI + c.CheckAI + c.ContactAI) }
func (c Costs) Search() float64 { return round6(c.CheckSearch + c.ContactSearch + c.WebSearch) }

// Run is a run as the service hands it out.
type Run struct {
	Record
	Data Data
	// Secret is the plaintext webhook secret, set only on the Run that
	// Start returns when it created the run (to be shown once); never
	// stored.
	Secret string
	// stored is the status as last read or written: save sends an event
	// when it changes.
	stored string
}

func decode(rec Record) (Run, error) {
	r := Run{Record: rec, stored: rec.Status}
	if err := json.Unmarshal(rec.Data, &r.Data); err != nil {
		return r, fmt.Errorf("run %s: decode: %w", rec.ID, err)
	}
	if r.Data.Plan != nil {
		r.Data.Plan.Picked = r.Data.Picked
		if r.Data.Plan.Picked == nil {
			r.Data.Plan.Picked = map[string]bool{}
		}
	}
	return r, nil
}

func (r *Run) encode() error {
	if r.Data.Plan != nil {
		r.Data.Picked = r.Data.Plan.Picked
	}
	b, err := json.Marshal(r.Data)
	if err != nil {
		return fmt.Errorf("run %s: encode: %w", r.ID, err)
	}
	r.Record.Data = b
	return nil
}

// save writes r with compare-and-set and refreshes its revision. A
// plaintext secret, stored before sealing, is sealed on the way.
func (s *Service) save(ctx context.Context, r *Run) error {
	if sec := r.Data.WebhookSecret; sec != "" && !secrets.IsSealed(sec) {
		if box := s.webhooks().box(); box != nil {
			sealed, err := saved.SealSecret(box, sec, store.RunWebhookSource(r.ID))
			if err != nil {
				return fmt.Errorf("run %s: %w", r.ID, err)
			}
			r.Data.WebhookSecret = sealed
		}
	}
	if err := r.encode(); err != nil {
		return err
	}
	// A status change queues its webhook event in the same write.
	var events []store.WebhookEvent
	if r.stored != r.Status && s.queue() != nil {
		if ev, ok := s.event(r); ok {
			events = append(events, ev)
		}
	}
	rec, err := s.State.UpdateRun(ctx, r.Record, events...)
	if err != nil {
		return err
	}
	r.Record = rec
	r.stored = rec.Status
	for _, ev := range events {
		s.send(ev.ID)
	}
	return nil
}

// load reads a run of an organization.
func (s *Service) load(ctx context.Context, orgID, id string) (Run, error) {
	rec, err := s.State.GetRun(ctx, orgID, id)
	if err != nil {
		return Run{}, err
	}
	return decode(rec)
}

// TaskInput is the persisted input of a run's task.
type TaskInput struct {
	RunID string `json:"run_id"`
	OrgID string `json:"org_id"`
}

// Actor is who starts and steers runs.
type Actor struct {
	Org    store.Org
	UserID string
}

// Start creates a run for req under the idempotency key, or returns the
// run the key already started (created false). A changed request under
// a used key is ErrConflict; an actor with a queued or running run gets
// ErrBusy (with the run in the error) unless the key is a repeat.
func (s *Service) Start(ctx context.Context, a Actor, key string, req Request) (Run, bool, error) {
	if n := len(key); n < 1 || n > MaxIdemKeyChars {
		return Run{}, false, invalid("Idempotency-Key", "header required, 1-%d characters, got %d", MaxIdemKeyChars, n)
	}
	if err := req.Normalize(); err != nil {
		return Run{}, false, err
	}
	if len(req.CompanyNames) > 0 && s.Names == nil {
		return Run{}, false, invalid("company_names", "this deployment has no company name index")
	}
	if err := s.webhooks().check(req.WebhookURL); err != nil {
		return Run{}, false, err
	}
	hash := req.Hash()
	if prev, ok, err := s.State.RunByKey(ctx, a.Org.ID, key); err != nil {
		return Run{}, false, err
	} else if ok {
		return s.repeat(ctx, prev, hash)
	}
	if err := s.canStart(ctx, a.Org.ID); err != nil {
		return Run{}, false, err
	}
	if active, ok, err := s.State.ActiveRun(ctx, a.Org.ID, a.UserID); err != nil {
		return Run{}, false, err
	} else if ok {
		return Run{}, false, &BusyError{RunID: active.ID}
	}
	// The id is chosen here so the secret can be sealed bound to the run.
	r := Run{Record: Record{ID: uuid.NewString()}, Data: Data{Request: req}}
	var secret string
	if req.WebhookURL != "" {
		var err error
		if secret, err = saved.NewSecret(); err != nil {
			return Run{}, false, err
		}
		if r.Data.WebhookSecret, err = saved.SealSecret(s.webhooks().box(), secret, store.RunWebhookSource(r.ID)); err != nil {
			return Run{}, false, err
		}
	}
	if err := r.encode(); err != nil {
		return Run{}, false, err
	}
	rec, created, err := s.State.CreateRun(ctx, Record{ID: r.ID, OrgID: a.Org.ID, UserID: a.UserID, IdemKey: key, ReqHash: hash, Status: StatusDrafting, Data: r.Record.Data})
	if err != nil {
		return Run{}, false, err
	}
	if !created {
		return s.repeat(ctx, rec, hash)
	}
	r, err = decode(rec)
	if err != nil {
		return r, false, err
	}
	err = s.submit(ctx, &r)
	r.Secret = secret // submit may have read the run again
	return r, true, err
}

// repeat answers a start request whose key was used before.
func (s *Service) repeat(ctx context.Context, rec Record, hash string) (Run, bool, error) {
	if rec.ReqHash != hash {
		return Run{}, false, fmt.Errorf("Idempotency-Key: used for a different request (run %s): %w", rec.ID, ErrConflict)
	}
	r, err := decode(rec)
	if err != nil {
		return r, false, err
	}
	if r.Status == StatusDrafting && r.Data.TaskID == "" {
		// The first request stored the run but could not queue its
		// planning: this retry does.
		if err := s.submit(ctx, &r); err != nil {
			return r, false, err
		}
	}
	return r, false, nil
}

// submit queues the run's task and records its id.
func (s *Service) submit(ctx context.Context, r *Run) error {
	if s.Tasks == nil {
		return errors.New("prospecting: no task runner")
	}
	t, err := s.Tasks.Submit(ctx, r.OrgID, TaskKind, TaskInput{RunID: r.ID, OrgID: r.OrgID})
	if err != nil {
		return fmt.Errorf("queue run %s: %w", r.ID, err)
	}
	for {
		r.Data.TaskID = t.ID
		err := s.save(ctx, r)
		if !errors.Is(err, ErrStale) {
			return err
		}
		// The task may already have moved the run on: record the id on
		// the current revision.
		fresh, err := s.load(ctx, r.OrgID, r.ID)
		if err != nil {
			return err
		}
		*r = fresh
	}
}

// canStart checks that the organization may start a run (spec: requires
// an active paid account with quota): its plan, read fresh, is a paid one
// (*account.PlanError, 403), and credits are left this period
// (*QuotaError, 402). A repeat of an accepted start, or of an accepted
// approval, never gets here.
func (s *Service) canStart(ctx context.Context, orgID string) error {
	org, err := s.State.OrgByID(ctx, orgID)
	if err != nil {
		return fmt.Errorf("start run: %w", err)
	}
	if err := account.Require(org, store.PlanStarter); err != nil {
		return err
	}
	u, err := s.Biller.Usage(ctx, org)
	if err != nil {
		return fmt.Errorf("start run: %w", err)
	}
	if u.CreditsLeft <= 0 {
		return &QuotaError{Used: u.CreditsUsed, Credits: u.Config.Credits, Renews: u.PeriodEnd}
	}
	return nil
}

// QuotaError is account.ErrNoCredits for a start refused because the
// organization has no credits left this period.
type QuotaError struct {
	Used, Credits int
	Renews        time.Time
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("no credits left this period (%d of %d used): a run needs credits to start; credits renew on %s; see GET /v1/usage",
		e.Used, e.Credits, e.Renews.UTC().Format("2006-01-02"))
}

// Unwrap lets errors.Is find account.ErrNoCredits.
func (e *QuotaError) Unwrap() error { return account.ErrNoCredits }

// BusyError is ErrBusy naming the actor's queued or running run.
type BusyError struct{ RunID string }

func (e *BusyError) Error() string {
	return fmt.Sprintf("run %s of this user is queued or running; retry once it completes or pauses (poll GET /v1/prospecting/runs/%s)", e.RunID, e.RunID)
}

// Unwrap lets errors.Is find ErrBusy.
func (e *BusyError) Unwrap() error { return ErrBusy }

// DryRun plans req without creating a run.
func (s *Service) DryRun(ctx context.Context, a Actor, req Request) (*Plan, error) {
	if err := req.Normalize(); err != nil {
		return nil, err
	}
	return s.draft(ctx, a.Org, req)
}

// Get returns an organization's run.
func (s *Service) Get(ctx context.Context, orgID, id string) (Run, error) {
	return s.load(ctx, orgID, id)
}

// Messages returns a run's messages after the cursor.
func (s *Service) Messages(ctx context.Context, orgID, id string, after int64) ([]Message, error) {
	if _, err := s.State.GetRun(ctx, orgID, id); err != nil {
		return nil, err
	}
	return s.State.Messages(ctx, id, after)
}

// ApproveRequest is an approval.
type ApproveRequest struct {
	PlanVersion  int
	Checkpoints  *string
	SeedSegments *[]string
	Segment      *bool
}

// Approve queues a proposed run whose plan is at req.PlanVersion and
// ready. Repeating the approval of the approved version is a no-op.
func (s *Service) Approve(ctx context.Context, a Actor, id string, req ApproveRequest) (Run, error) {
	if req.PlanVersion < 1 {
		return Run{}, invalid("plan_version", "must be >= 1")
	}
	if err := oneOf("checkpoints", req.Checkpoints, CheckpointsAsk, CheckpointsAuto); err != nil {
		return Run{}, err
	}
	for {
		r, err := s.load(ctx, a.Org.ID, id)
		if err != nil {
			return r, err
		}
		if r.Status != StatusDrafting && r.Status != StatusProposed && r.Data.ApprovedVersion == req.PlanVersion {
			return r, nil
		}
		switch {
		case r.Status == StatusDrafting:
			return r, fmt.Errorf("plan not ready: the run is still drafting; poll until proposed: %w", ErrConflict)
		case r.Status != StatusProposed:
			return r, fmt.Errorf("run is %s, not waiting for approval: %w", r.Status, ErrConflict)
		case req.PlanVersion != r.Data.PlanVersion:
			return r, fmt.Errorf("plan_version %d is stale; the current plan is version %d: %w", req.PlanVersion, r.Data.PlanVersion, ErrConflict)
		}
		p := r.Data.Plan
		if req.SeedSegments != nil {
			if err := selectSegments(p, *req.SeedSegments); err != nil {
				return r, err
			}
		}
		if req.Checkpoints != nil {
			p.Checkpoints = *req.Checkpoints
		}
		if req.Segment != nil {
			p.Segment = *req.Segment
		}
		switch {
		case p.CompanyCheckEngine.PickRequired || p.SearchProvider.PickRequired || p.ContactEngine.PickRequired:
			return r, fmt.Errorf("pick_required: several providers and no default; pick one with PATCH /v1/prospecting/runs/%s/plan: %w", id, ErrConflict)
		case len(p.Questions) > 0:
			return r, fmt.Errorf("plan not ready: %s: %w", p.Questions[0], ErrConflict)
		}
		// Approval starts the billed work, so the account is checked again:
		// the plan may have lapsed or the credits run out since the start.
		if err := s.canStart(ctx, a.Org.ID); err != nil {
			return r, err
		}
		r.Status = StatusQueued
		r.Data.ApprovedVersion = req.PlanVersion
		switch err := s.save(ctx, &r); {
		case errors.Is(err, ErrStale):
			continue
		case errors.Is(err, ErrBusy):
			active, _, _ := s.State.ActiveRun(ctx, a.Org.ID, a.UserID)
			return r, &BusyError{RunID: active.ID}
		case err != nil:
			return r, err
		}
		if err := s.submit(ctx, &r); err != nil {
			return r, err
		}
		return r, nil
	}
}

func selectSegments(p *Plan, ids []string) error {
	if len(p.SeedSegments) == 0 {
		return invalid("seed_segments", "this run has no seed segments (no customer_domains)")
	}
	if len(ids) == 0 {
		return invalid("seed_segments", "must name at least one segment; omit it to keep the current selection")
	}
	want := map[string]bool{}
	for i, id := range ids {
		found := false
		for _, sg := range p.SeedSegments {
			found = found || sg.ID == id
		}
		if !found {
			return invalid(fmt.Sprintf("seed_segments[%d]", i), "%q is not a segment of the plan", id)
		}
		want[id] = true
	}
	for i := range p.SeedSegments {
		p.SeedSegments[i].Selected = want[p.SeedSegments[i].ID]
	}
	return nil
}

// Patch is a plan change; nil fields keep their value.
type Patch struct {
	PlanVersion             int
	ContactIntegrationID    *string
	ValidationIntegrationID *string
	SearchProviderID        *string
	TargetCompanies         *int
	ContactsPerCompany      *int
	Deliverable             *string
	Goal                    *string
	MaxSpendUSD             *float64
	MaxProviderSpendUSD     *float64
}

// PatchPlan changes a proposed plan: re-derived, re-estimated, a new
// version, and the plan message rewritten in place. A patch that changes
// nothing returns the run unchanged.
func (s *Service) PatchPlan(ctx context.Context, a Actor, id string, in Patch) (Run, error) {
	if in.PlanVersion < 1 {
		return Run{}, invalid("plan_version", "must be >= 1")
	}
	if err := intIn("target_companies", in.TargetCompanies, 1, MaxTarget); err != nil {
		return Run{}, err
	}
	if err := intIn("contacts_per_company", in.ContactsPerCompany, 1, MaxContactsPer); err != nil {
		return Run{}, err
	}
	if err := oneOf("deliverable", in.Deliverable, DeliverLeads, DeliverAccounts); err != nil {
		return Run{}, err
	}
	if err := oneOf("goal", in.Goal, GoalLeads, GoalCompanies); err != nil {
		return Run{}, err
	}
	for field, v := range map[string]*float64{"max_spend_usd": in.MaxSpendUSD, "max_provider_spend_usd": in.MaxProviderSpendUSD} {
		if v != nil && *v < 0 {
			return Run{}, invalid(field, "must be >= 0, got %v", *v)
		}
	}
	for {
		r, err := s.load(ctx, a.Org.ID, id)
		if err != nil {
			return r, err
		}
		if r.Status != StatusProposed {
			return r, fmt.Errorf("run is %s, not waiting for approval: %w", r.Status, ErrConflict)
		}
		if in.PlanVersion != r.Data.PlanVersion {
			return r, fmt.Errorf("plan_version %d is stale; the current plan is version %d: %w", in.PlanVersion, r.Data.PlanVersion, ErrConflict)
		}
		before, _ := json.Marshal(r.Data.Plan)
		p := r.Data.Plan
		if in.MaxSpendUSD != nil && *in.MaxSpendUSD > 0 && p.PricePerRecordUSD == 0 {
			return r, invalid("max_spend_usd", "this plan has no per-record price")
		}
		if in.TargetCompanies != nil {
			p.TargetCompanies = *in.TargetCompanies
			p.Questions = dropQuestionsAbout(p.Questions, "target_companies")
		}
		if in.ContactsPerCompany != nil {
			p.ContactsPerCompany = *in.ContactsPerCompany
			p.Questions = dropQuestionsAbout(p.Questions, "contacts_per_company")
		}
		if in.Deliverable != nil {
			p.Deliverable = *in.Deliverable
			p.Questions = dropQuestionsAbout(p.Questions, "deliverable")
			if p.Deliverable == DeliverLeads && p.Persona == "" {
				p.Persona = p.persona(r.Data.Request.Brief)
			}
		}
		if in.Goal != nil {
			p.Goal = *in.Goal
		}
		if in.MaxSpendUSD != nil {
			p.MaxSpendUSD = *in.MaxSpendUSD
		}
		if in.MaxProviderSpendUSD != nil {
			p.MaxProviderSpendUSD = *in.MaxProviderSpendUSD
		}
		if err := s.engines(ctx, a.Org.ID, p, in.ValidationIntegrationID, in.ContactIntegrationID, in.SearchProviderID); err != nil {
			return r, err
		}
		if err := s.rederive(ctx, a.Org, r.Data.Request, p); err != nil {
			return r, err
		}
		after, _ := json.Marshal(p)
		if string(before) == string(after) {
			return s.load(ctx, a.Org.ID, id) // nothing changed: same version
		}
		r.Data.PlanVersion++
		switch err := s.save(ctx, &r); {
		case errors.Is(err, ErrStale):
			continue
		case err != nil:
			return r, err
		}
		if err := s.planMessage(ctx, r); err != nil {
			return r, err
		}
		return r, nil
	}
}

// ReplyRequest answers a checkpoint.
type ReplyRequest struct {
	Checkpoint string
	// Action is continue or stop.
	Action string
	// New spending limits (top_up); nil keeps a limit.
	MaxSpendUSD, MaxProviderSpendUSD *float64
	Text                             string
}

// Reply answers the checkpoint a run is paused at: continue re-queues it,
// stop ends it with the results found so far.
func (s *Service) Reply(ctx context.Context, a Actor, id string, in ReplyRequest) (Run, error) {
	if in.Action != "continue" && in.Action != "stop" {
		return Run{}, invalid("action", "must be continue or stop, got %q", in.Action)
	}
	for field, v := range map[string]*float64{"max_spend_usd": in.MaxSpendUSD, "max_provider_spend_usd": in.MaxProviderSpendUSD} {
		if v != nil && *v < 0 {
			return Run{}, invalid(field, "must be >= 0, got %v", *v)
		}
	}
	for {
		r, err := s.load(ctx, a.Org.ID, id)
		if err != nil {
			return r, err
		}
		if r.Status != StatusPaused {
			return r, fmt.Errorf("run is %s, not paused at a checkpoint: %w", r.Status, ErrConflict)
		}
		if in.Checkpoint != r.Data.Checkpoint {
			return r, invalid("checkpoint", "the run is paused at %s, not %q", r.Data.Checkpoint, in.Checkpoint)
		}
		p := r.Data.Plan
		if in.MaxSpendUSD != nil {
			p.MaxSpendUSD = *in.MaxSpendUSD
		}
		if in.MaxProviderSpendUSD != nil {
			p.MaxProviderSpendUSD = *in.MaxProviderSpendUSD
		}
		answered := r.Data.Checkpoint
		pr := &r.Data.Progress
		pr.Answered = append(pr.Answered, fmt.Sprintf("%s@%d", answered, pr.Round))
		r.Data.Checkpoint = ""
		if in.Action == "stop" {
			pr.StopAsked = true
		}
		r.Status = StatusQueued
		switch err := s.save(ctx, &r); {
		case errors.Is(err, ErrStale):
			continue
		case errors.Is(err, ErrBusy):
			active, _, _ := s.State.ActiveRun(ctx, a.Org.ID, a.UserID)
			return r, &BusyError{RunID: active.ID}
		case err != nil:
			return r, err
		}
		text := in.Text
		if text == "" {
			text = in.Action
		}
		if _, err := s.message(ctx, r.ID, "", MessageBody{Type: "reply", Role: "user", Checkpoint: answered, Text: text}); err != nil {
			return r, err
		}
		if err := s.submit(ctx, &r); err != nil {
			return r, err
		}
		return r, nil
	}
}

// Results returns the saved query holding an ended run's results and
// their rows; ErrConflict while the run has not ended (results are saved
// when it ends).
func (s *Service) Results(ctx context.Context, orgID, id string) (saved.Query, []ResultRow, error) {
	r, err := s.load(ctx, orgID, id)
	if err != nil {
		return saved.Query{}, nil, err
	}
	if r.Data.ResultsQueryID == "" {
		return saved.Query{}, nil, fmt.Errorf("run is %s; results are saved when it ends: %w", r.Status, ErrConflict)
	}
	q, err := s.State.SavedQuery(ctx, orgID, r.Data.ResultsQueryID)
	if err != nil {
		return q, nil, fmt.Errorf("run %s results: %w", id, err)
	}
	return q, Rows(r), nil
}
