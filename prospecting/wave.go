package prospecting

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/store"
)

// Wave runs (the spec's run behaviours 3 and 4): a leads run planned
// while the rollout reaches its organization checks companies in waves
// sized for the target, looks up emails of persona-matched index contacts
// while the wave's contacts are researched (approving the plan is
// consent), and stops at contacts_review — in ask and auto mode alike —
// when the wave's research settles short of the target.

// WaveRollout says which organizations' leads runs are planned as wave
// runs: every one (All) or those listed. The zero value reaches none, so
// new runs are phased runs.
type WaveRollout struct {
	All  bool
	Orgs []string
}

// ParseWaveRollout reads the --prospecting-waves setting: "" or "off"
// (none), "all", or a comma-separated list of organization ids.
func ParseWaveRollout(s string) WaveRollout {
	switch s = strings.TrimSpace(s); s {
	case "", "off", "none":
		return WaveRollout{}
	case "all":
		return WaveRollout{All: true}
	}
	var w WaveRollout
	for _, id := range strings.Split(s, ",") {
		if id = strings.TrimSpace(id); id != "" {
			w.Orgs = append(w.Orgs, id)
		}
	}
	return w
}

// Reaches reports whether the rollout includes the organization.
func (w WaveRollout) Reaches(orgID string) bool {
	if w.All {
		return true
	}
	for _, id := range w.Orgs {
		if id == orgID {
			return true
		}
	}
	return false
}

// Priors of the first wave: the run has no results yet and these rates are
// fixed (see docs/decisions.md). The fit and find rates are the
// planner's; the persona-match share is the share of fit companies where
// the index or research finds at least one contact for the persona.
const (
	priorMatchShare = 0.8
	// waveMargin is the wave's margin over what the rates say reaches the
	// target; reviewMargin the margin of the lookups the review offers.
	waveMargin   = 1.25
	reviewMargin = 1.15
	// earlyBatchMin is how many index contacts wait before an early
	// batch is sent while the index search still runs.
	earlyBatchMin = 50
	// laterWaveLookups is the floor of a later wave's review lookups,
	// counted across the wave (early ones included).
	laterWaveLookups = 50
	// lookupsPerMinute is the email finder's shared pace.
	lookupsPerMinute = 70
	// minRateSample is how many settled lookups (or checked companies)
	// make a measured rate replace the prior.
	minRateSample = 5
)

// isWave reports whether r is a wave run: its plan carries the note.
func isWave(r *Run) bool { return r.Data.Plan != nil && r.Data.Plan.EmailLookupNote != "" }

// lookupNote is the plan's email_lookup_note: set on leads runs the wave
// rollout reaches, absent otherwise.
func (s *Service) lookupNote(orgID string, p *Plan) string {
	if p.Deliverable != DeliverLeads || !s.Waves.Reaches(orgID) {
		return ""
	}
	early := int(math.Ceil(float64(p.TargetCompanies) / expectFindRate))
	return fmt.Sprintf("Wave run: companies are checked in waves sized for the target, then contacts at fit companies are found. "+
		"While contacts are researched, up to about %d email lookups (what the target still needs at the expected find rate) run for "+
		"persona-matched contacts from the index, without asking: approving this plan consents to them. "+
		"When a wave's research settles short of the target the run stops at contacts_review with the cost of finding the remaining emails.", early)
}

// Rates are the rates a wave is sized with.
type Rates struct {
	Fit        float64 `json:"fit_rate"`
	MatchShare float64 `json:"persona_match_share"`
	Find       float64 `json:"email_find_rate"`
	// Measured says the rates are the run's own (else the history's or
	// the priors).
	Measured bool `json:"measured"`
	// History says some rate comes from the organization's finished runs.
	History bool `json:"history,omitempty"`
}

// priors are the rates a wave is sized with when nothing was measured.
func priors() Rates {
	return Rates{Fit: expectFitRate, MatchShare: priorMatchShare, Find: expectFindRate}
}

// tally is what a run's rates are measured from.
type tally struct{ checked, fit, worked, hit, settled, found int }

func tallyOf(pr *Progress) tally {
	c := pr.Count()
	t := tally{checked: c.Checked, fit: c.Fit}
	matched := map[string]bool{}
	for _, k := range pr.Contacts {
		matched[k.Domain] = true
		switch k.EmailStatus {
		case emailFound:
			t.found++
			t.settled++
		case emailNotFound:
			t.settled++
		}
	}
	for _, cd := range pr.Candidates {
		if cd.Fit && cd.Billed && cd.PeopleDone {
			t.worked++
			if matched[cd.Domain] {
				t.hit++
			}
		}
	}
	return t
}

func (t *tally) add(o tally) {
	t.checked += o.checked
	t.fit += o.fit
	t.worked += o.worked
	t.hit += o.hit
	t.settled += o.settled
	t.found += o.found
}

// over replaces each rate of base that the tally backs with enough results
// by the measured one; measured says one was.
func (t tally) over(base Rates) (x Rates, measured bool) {
	x = base
	if t.checked >= minRateSample {
		x.Fit, measured = clampRate(float64(t.fit)/float64(t.checked)), true
	}
	if t.worked >= minRateSample {
		x.MatchShare, measured = clampRate(float64(t.hit)/float64(t.worked)), true
	}
	if t.settled >= minRateSample {
		x.Find, measured = clampRate(float64(t.found)/float64(t.settled)), true
	}
	return x, measured
}

// rates are the run's measured rates, each falling back to the rate of
// the organization's history stored with the plan, else to its prior,
// while too few of the run's results back it.
func rates(r *Run) Rates {
	base := priors()
	if r.Data.Plan != nil && r.Data.Plan.HistoryRates != nil {
		base = *r.Data.Plan.HistoryRates
	}
	x, measured := tallyOf(&r.Data.Progress).over(base)
	x.Measured = measured
	return x
}

// historyRuns is how many of the organization's latest completed runs
// the first wave's rates are measured on.
const historyRuns = 20

// historyRates are the rates of the organization's latest completed runs
// pooled (the spec's "rates from history for the first wave"); nil when
// they back none of the rates, and the priors are used.
func (s *Service) historyRates(ctx context.Context, orgID string) (*Rates, error) {
	recs, err := s.State.FinishedRuns(ctx, orgID, historyRuns)
	if err != nil {
		return nil, fmt.Errorf("history of runs: %w", err)
	}
	var t tally
	for _, rec := range recs {
		r, err := decode(rec)
		if err != nil {
			s.Log.Warn().Err(err).Str("run", rec.ID).Msg("history rates: skip a run that does not decode")
			continue
		}
		if r.Data.Plan == nil || r.Data.Plan.Deliverable != DeliverLeads {
			continue // a companies-only run measures no contact or email rate
		}
		t.add(tallyOf(&r.Data.Progress))
	}
	x, measured := t.over(priors())
	if !measured {
		return nil, nil
	}
	x.History = true
	return &x, nil
}

func clampRate(f float64) float64 { return min(1, max(0.05, f)) }

// waveSize is how many companies the next wave checks: what the rates say
// reaches the target's missing companies, with the wave margin.
func waveSize(r *Run) int {
	pr := &r.Data.Progress
	need := r.Data.Plan.TargetCompanies - pr.Count().Covered
	if need <= 0 {
		return 0
	}
	x := rates(r)
	return int(math.Ceil(float64(need) / (x.Fit * x.MatchShare * x.Find) * waveMargin))
}

// firstWave is the first wave's size, within the candidate limit.
func (s *Service) firstWave(r *Run) int { return min(waveSize(r), r.Data.Plan.MaxCandidates) }

// lookupsNeeded is how many lookups the target still needs at the find
// rate, times margin.
func lookupsNeeded(r *Run, margin float64) int {
	need := r.Data.Plan.TargetCompanies - r.Data.Progress.Count().Covered
	if need <= 0 {
		return 0
	}
	return int(math.Ceil(float64(need) / rates(r).Find * margin))
}

// running counts the lookups in flight and the companies they may cover.
func running(pr *Progress) (lookups, companies int) {
	seen := map[string]bool{}
	for _, k := range pr.Contacts {
		if k.EmailStatus == emailPending {
			lookups++
			seen[k.Domain] = true
		}
	}
	return lookups, len(seen)
}

// lookupOrder lists the contacts still without an email and never looked
// up, the most useful first: one contact at each company not yet covered
// and without a lookup running, then the other contacts of such
// companies, then contacts at covered companies. indexOnly keeps contacts
// from the index only (the early lookups), firstOnly only the first group.
func lookupOrder(pr *Progress, indexOnly, firstOnly bool) []int {
	covered, busy := map[string]bool{}, map[string]bool{}
	for _, k := range pr.Contacts {
		if k.Email != "" {
			covered[k.Domain] = true
		}
		if k.EmailStatus == emailPending {
			busy[k.Domain] = true
		}
	}
	var first, second, third []int
	taken := map[string]bool{}
	for i, k := range pr.Contacts {
		if k.Email != "" || k.EmailStatus != "" || indexOnly && k.Source != "index" {
			continue
		}
		switch {
		case covered[k.Domain]:
			third = append(third, i)
		case busy[k.Domain] || taken[k.Domain]:
			second = append(second, i)
		default:
			taken[k.Domain] = true
			first = append(first, i)
		}
	}
	if firstOnly {
		return first
	}
	return append(append(first, second...), third...)
}

// researches reports whether the plan's contact engine does research
// beyond the index.
func researches(p *Plan) bool {
	if p.ContactEngine.id() != EngineNative {
		return true
	}
	id := p.SearchProvider.id()
	return id != "" && id != SearchNone
}

// wavePeople is a wave's people phase, one persisted step at a time: the
// index search of the fit companies, then their research; early email
// lookups run beside both; when the research settles the run completes
// (target reached) or stops at contacts_review.
func (s *Service) wavePeople(ctx context.Context, r *Run) (bool, error) {
	pr, p := &r.Data.Progress, r.Data.Plan
	if pr.EmailBatch != "" {
		settled, err := s.collectEmails(ctx, r)
		if err != nil {
			return false, err
		}
		if settled && pr.Count().Covered >= p.TargetCompanies {
			return true, s.finish(ctx, r, StopTargetReached)
		}
	}
	if pr.answered(CheckpointContactsReview) {
		pr.Step = stepEmails // the review was answered: its lookups
		return false, nil
	}
	if !pr.CreditStop {
		if batch := s.peopleBatch(r, func(c Candidate) bool { return !c.IndexDone }); len(batch) > 0 {
			have, err := s.indexContacts(ctx, r, batch)
			if err != nil {
				return false, err
			}
			for _, i := range batch {
				pr.Candidates[i].IndexDone = true
				if !researches(p) || have[pr.Candidates[i].Domain] >= p.ContactsPerCompany {
					pr.Candidates[i].PeopleDone = true
				}
			}
			pr.Actions++
			return false, s.earlyLookups(ctx, r)
		}
		if batch := s.peopleBatch(r, func(c Candidate) bool { return !c.PeopleDone }); len(batch) > 0 {
			// The early lookups run while the research does.
			if err := s.earlyLookups(ctx, r); err != nil {
				return false, err
			}
			if err := s.research(ctx, r, batch, contactsPer(pr)); err != nil {
				return false, err
			}
			for _, i := range batch {
				pr.Candidates[i].PeopleDone = true
			}
			pr.Actions++
			return false, nil
		}
	}
	// The wave's research has settled.
	if err := s.earlyLookups(ctx, r); err != nil {
		return false, err
	}
	c := pr.Count()
	if c.Covered >= p.TargetCompanies {
		return true, s.finish(ctx, r, StopTargetReached)
	}
	if pr.EmailBatch != "" {
		if _, companies := running(pr); c.Covered+companies >= p.TargetCompanies {
			// The lookups running may still reach the target: wait for
			// them before asking for more.
			return false, sleep(ctx, s.poll())
		}
	}
	rv := s.review(r)
	pr.ReviewLookups = rv.Lookups
	return true, s.pauseWith(ctx, r, CheckpointContactsReview, rv.question(), &rv)
}

// peopleBatch is the next batch of fit companies whose people work want
// says is still to do.
func (s *Service) peopleBatch(r *Run, want func(Candidate) bool) []int {
	var batch []int
	for i, c := range r.Data.Progress.Candidates {
		if c.Fit && c.Billed && want(c) {
			batch = append(batch, i)
			if len(batch) == s.batchSize() {
				break
			}
		}
	}
	return batch
}

// contactsPer counts the kept contacts of each company.
func contactsPer(pr *Progress) map[string]int {
	have := map[string]int{}
	for _, c := range pr.Contacts {
		have[c.Domain]++
	}
	return have
}

// earlyLookups sends one batch of lookups for persona-matched index
// contacts once 50 are waiting or the index search is done, within the
// lookups the target still needs and the spending limit; one batch at a
// time.
func (s *Service) earlyLookups(ctx context.Context, r *Run) error {
	pr := &r.Data.Progress
	if s.Email == nil || pr.EmailBatch != "" || pr.CreditStop {
		return nil
	}
	picks := lookupOrder(pr, true, true)
	indexDone := len(s.peopleBatch(r, func(c Candidate) bool { return !c.IndexDone })) == 0
	if len(picks) == 0 || len(picks) < earlyBatchMin && !indexDone {
		return nil
	}
	n := min(len(picks), lookupsNeeded(r, 1), email.MaxBatch)
	if left := s.recordsLeft(r); left >= 0 {
		n = min(n, left)
	}
	if n <= 0 {
		return nil
	}
	_, err := s.submitLookups(ctx, r, picks[:n], true)
	return err
}

// Review is the contacts_review question's numbers on a wave run.
type Review struct {
	Wave            int     `json:"wave"`
	Checked         int     `json:"companies_checked"`
	Fit             int     `json:"companies_fit"`
	Contacts        int     `json:"contacts_matched"`
	ContactCompany  int     `json:"contacts_companies"`
	Covered         int     `json:"companies_covered"`
	EarlyLookups    int     `json:"early_lookups_done"`
	EarlyFound      int     `json:"early_emails_found"`
	Running         int     `json:"lookups_running"`
	Lookups         int     `json:"lookups"`
	Minutes         int     `json:"duration_minutes"`
	ExpectedEmails  int     `json:"expected_emails"`
	ReservedCredits int     `json:"credits_reserved"`
	ReservedUSD     float64 `json:"credits_reserved_usd"`
	// Capped says what limited Lookups: target, wave_floor, contacts or
	// credit_limit.
	Capped string `json:"capped_by"`
	Rates  Rates  `json:"rates"`
}

// review computes the contacts_review numbers: the lookups offered are
// what the target still needs at the find rate plus 15%, less those
// running; in later waves at least 50 across the wave; never more than
// the contacts waiting or the spending limit allows.
func (s *Service) review(r *Run) Review {
	pr := &r.Data.Progress
	c := pr.Count()
	rv := Review{Wave: pr.Round, Checked: c.Checked, Fit: c.Fit, Contacts: c.Contacts, Covered: c.Covered, Rates: rates(r)}
	companies, waveLookups := map[string]bool{}, 0
	for _, k := range pr.Contacts {
		companies[k.Domain] = true
		if k.Early && (k.EmailStatus == emailFound || k.EmailStatus == emailNotFound) {
			rv.EarlyLookups++
			if k.EmailStatus == emailFound {
				rv.EarlyFound++
			}
		}
		if k.LookupWave == pr.Round {
			waveLookups++
		}
	}
	rv.ContactCompany = len(companies)
	rv.Running, _ = running(pr)
	n := lookupsNeeded(r, reviewMargin) - rv.Running
	rv.Capped = "target"
	if pr.Round > 1 && laterWaveLookups-waveLookups > n {
		n, rv.Capped = laterWaveLookups-waveLookups, "wave_floor"
	}
	if waiting := len(lookupOrder(pr, false, false)); waiting < n {
		n, rv.Capped = waiting, "contacts"
	}
	if left := s.recordsLeft(r); left >= 0 && left-rv.Running < n {
		n, rv.Capped = left-rv.Running, "credit_limit"
	}
	rv.Lookups = max(0, n)
	rv.Minutes = int(math.Ceil(float64(rv.Lookups) / lookupsPerMinute))
	rv.ExpectedEmails = int(math.Round(float64(rv.Lookups) * rv.Rates.Find))
	rv.ReservedCredits = rv.Lookups
	rv.ReservedUSD = round2(float64(rv.Lookups) * s.price(r))
	return rv
}

func (rv Review) question() string {
	return fmt.Sprintf("Wave %d: checked %d companies, %d fit. Matched %d contacts at %d companies; %d companies have an email. "+
		"Early email lookups: %d done, %d found, %d still running. "+
		"Finding the remaining emails takes %d lookups (about %d min at ~%d per minute), expecting about %d emails; "+
		"%d credits ($%.2f) are reserved until each lookup settles. Reply continue to find them, or stop.",
		rv.Wave, rv.Checked, rv.Fit, rv.Contacts, rv.ContactCompany, rv.Covered, rv.EarlyLookups, rv.EarlyFound, rv.Running,
		rv.Lookups, rv.Minutes, lookupsPerMinute, rv.ExpectedEmails, rv.ReservedCredits, rv.ReservedUSD)
}

// waveEmails runs the lookups the contacts_review reply agreed to: the
// running batch is collected, then the offered lookups are sent in
// batches, the most useful contacts first.
func (s *Service) waveEmails(ctx context.Context, r *Run) (bool, error) {
	pr := &r.Data.Progress
	if pr.EmailBatch != "" {
		settled, err := s.collectEmails(ctx, r)
		if err != nil || !settled {
			return false, err
		}
		return false, nil
	}
	todo := lookupOrder(pr, false, false)
	n := min(len(todo), pr.ReviewLookups, email.MaxBatch, s.batchSize()*r.Data.Plan.ContactsPerCompany)
	if left := s.recordsLeft(r); left >= 0 && left < n {
		n, pr.CreditStop = left, true
	}
	if s.Email == nil || n <= 0 || pr.Count().Covered >= r.Data.Plan.TargetCompanies {
		pr.Step, pr.ReviewLookups = stepEvaluate, 0
		return false, nil
	}
	ok, err := s.submitLookups(ctx, r, todo[:n], false)
	if ok {
		pr.ReviewLookups -= n
	}
	return false, err
}

// submitLookups sends one email batch for the contacts idx and records
// it; ok is false (and nothing recorded) while the account's lookups are
// full.
func (s *Service) submitLookups(ctx context.Context, r *Run, idx []int, early bool) (bool, error) {
	pr := &r.Data.Progress
	sub := email.Submission{Kind: email.KindFind, Round: "prospecting:" + r.ID}
	for _, k := range idx {
		c := pr.Contacts[k]
		first, last := splitName(c.Name)
		sub.Requests = append(sub.Requests, email.Request{FirstName: first, LastName: last, Domain: c.Domain})
		sub.Refs = append(sub.Refs, c.Key)
	}
	b, _, err := s.Email.Submit(ctx, r.OrgID, sub)
	if errors.Is(err, store.ErrOverLimit) {
		return false, sleep(ctx, 4*s.poll()) // the account's lookups are full: wait for room
	}
	if err != nil {
		return false, fmt.Errorf("email lookups: %w", err)
	}
	for _, k := range idx {
		c := &pr.Contacts[k]
		c.EmailStatus, c.Early, c.LookupWave = emailPending, early, pr.Round
	}
	pr.EmailBatch = b.ID
	return true, nil
}
