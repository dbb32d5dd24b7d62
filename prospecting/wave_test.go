package prospecting_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/store"
)

func TestParseWaveRollout(t *testing.T) {
	for _, tc := range []struct {
		in   string
		org  string
		want bool
	}{
		{"", "o1", false}, {"off", "o1", false}, {"all", "o1", true}, {"o1, o2", "o2", true}, {"o1,o2", "o3", false},
	} {
		if got := prospecting.ParseWaveRollout(tc.in).Reaches(tc.org); got != tc.want {
			t.Errorf("%q reaches %s = %v, want %v", tc.in, tc.org, got, tc.want)
		}
	}
}

// review reads the run's last checkpoint message.
func (e *env) review(t *testing.T, id string) (prospecting.MessageBody, prospecting.Review) {
	t.Helper()
	msgs, err := e.svc.Messages(context.Background(), e.actor.Org.ID, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		var b prospecting.MessageBody
		if err := json.Unmarshal(msgs[i].Body, &b); err != nil {
			t.Fatal(err)
		}
		if b.Type == "checkpoint" {
			if b.Review == nil {
				t.Fatalf("checkpoint without review numbers: %s", msgs[i].Body)
			}
			return b, *b.Review
		}
	}
	t.Fatal("no checkpoint message")
	return prospecting.MessageBody{}, prospecting.Review{}
}

func (e *env) checkBilling(t *testing.T, r prospecting.Run) {
	t.Helper()
	c := r.Data.Progress.Count()
	found, indexed := 0, 0
	for _, k := range r.Data.Progress.Contacts {
		if k.EmailStatus == "found" {
			found++
		}
		if k.Billed {
			indexed++
		}
	}
	u := e.usage(t)
	if u.Records[store.KindEmail] != found || u.Records[store.KindCompany] != c.Fit || u.Records[store.KindContact] != indexed {
		t.Fatalf("billed %+v; run has %d found emails, %d fit, %d index contacts", u.Records, found, c.Fit, indexed)
	}
}

// TestWaveRunEarlyLookupsReachTarget: on a corpus whose contacts carry no
// address, a wave run's early lookups (persona-matched index contacts,
// looked up while the wave's people are found) reach the target and the
// run completes without a review.
func TestWaveRunEarlyLookupsReachTarget(t *testing.T) {
	e := newEnv(t, envOpts{waves: true, hideEmails: true})
	r := e.startApproved(t, "wave-1", prospecting.Request{Brief: billingBrief, TargetCompanies: ptr(6), ContactsPerCompany: ptr(1)})
	if r.Data.Plan.EmailLookupNote == "" || !strings.Contains(r.Data.Plan.EmailLookupNote, "consents") {
		t.Fatalf("wave plan without email_lookup_note: %+v", r.Data.Plan)
	}
	r = e.waitStatus(t, r.ID, 90*time.Second, prospecting.StatusCompleted, prospecting.StatusPaused)
	if r.Status != prospecting.StatusCompleted || r.Data.StopReason != prospecting.StopTargetReached {
		_, rv := e.review(t, r.ID)
		t.Fatalf("status %s stop %s checkpoint %s, review %+v", r.Status, r.Data.StopReason, r.Data.Checkpoint, rv)
	}
	early, found := 0, 0
	for _, k := range r.Data.Progress.Contacts {
		if k.LookupWave > 0 && !k.Early {
			t.Fatalf("contact %s looked up outside the early lookups", k.Key)
		}
		if k.Early {
			early++
			if k.EmailStatus == "found" {
				found++
			}
		}
	}
	c := r.Data.Progress.Count()
	t.Logf("wave run: %+v, %d early lookups, %d found", c, early, found)
	if early == 0 || found == 0 || c.Covered < 6 || c.Emails != found {
		t.Fatalf("early lookups %d found %d; counts %+v", early, found, c)
	}
	// Within what the target needed at the prior find rate (65%).
	if early > int(math.Ceil(6/0.65)) {
		t.Fatalf("%d early lookups for a target of 6", early)
	}
	msgs, _ := e.svc.Messages(context.Background(), e.actor.Org.ID, r.ID, 0)
	for _, m := range msgs {
		if strings.Contains(string(m.Body), `"type":"checkpoint"`) {
			t.Fatalf("a review was asked: %s", m.Body)
		}
	}
	e.checkBilling(t, r)

	// The next wave run of the organization sizes its first wave from this
	// one's rates instead of the priors.
	p, err := e.svc.DryRun(context.Background(), e.actor, prospecting.Request{Brief: billingBrief, TargetCompanies: ptr(6), ContactsPerCompany: ptr(1)})
	if err != nil {
		t.Fatal(err)
	}
	h := p.HistoryRates
	if h == nil || !h.History || h.Measured {
		t.Fatalf("history rates after a completed wave run: %+v", h)
	}
	if c.Checked >= 5 {
		if want := min(1, max(0.05, float64(c.Fit)/float64(c.Checked))); math.Abs(h.Fit-want) > 1e-9 {
			t.Errorf("history fit rate %v, want %v (%d fit of %d checked)", h.Fit, want, c.Fit, c.Checked)
		}
	}
	if early >= 5 {
		if want := min(1, max(0.05, float64(found)/float64(early))); math.Abs(h.Find-want) > 1e-9 {
			t.Errorf("history find rate %v, want %v (%d found of %d lookups)", h.Find, want, found, early)
		}
	}
}

// TestWaveRunStopsAtContactsReview: where two companies in three have no
// mailbox for their people, the early lookups fall short; the auto run
// stops at contacts_review with the numbers of the wave, resumes on the
// reply with the lookups it offered, and goes on wave by wave until it
// ends.
func TestWaveRunStopsAtContactsReview(t *testing.T) {
	e := newEnv(t, envOpts{waves: true, hideEmails: true, noMailbox: func(i int) bool { return i%3 != 0 }})
	ctx := context.Background()
	r := e.startApproved(t, "wave-2", prospecting.Request{Brief: billingBrief, TargetCompanies: ptr(8), ContactsPerCompany: ptr(2)})
	if r.Data.Plan.Checkpoints != prospecting.CheckpointsAuto {
		t.Fatalf("checkpoints %s", r.Data.Plan.Checkpoints)
	}
	reviews := 0
	for {
		r = e.waitStatus(t, r.ID, 120*time.Second, prospecting.StatusCompleted, prospecting.StatusPaused)
		if r.Status == prospecting.StatusCompleted {
			break
		}
		if r.Data.Checkpoint != prospecting.CheckpointContactsReview {
			t.Fatalf("paused at %s", r.Data.Checkpoint)
		}
		reviews++
		msg, rv := e.review(t, r.ID)
		pr := &r.Data.Progress
		checkReview(t, r, rv)
		for _, want := range []string{
			fmt.Sprintf("checked %d companies, %d fit", rv.Checked, rv.Fit),
			fmt.Sprintf("Matched %d contacts at %d companies", rv.Contacts, rv.ContactCompany),
			fmt.Sprintf("%d done, %d found, %d still running", rv.EarlyLookups, rv.EarlyFound, rv.Running),
			fmt.Sprintf("takes %d lookups (about %d min", rv.Lookups, rv.Minutes),
			fmt.Sprintf("about %d emails", rv.ExpectedEmails),
		} {
			if !strings.Contains(msg.Text, want) {
				t.Fatalf("question %q lacks %q", msg.Text, want)
			}
		}
		t.Logf("review %d: %s", reviews, msg.Text)
		if reviews == 1 && (rv.Wave != 1 || rv.EarlyLookups+rv.Running == 0) {
			t.Fatalf("first review %+v: no early lookups", rv)
		}
		before := lateLookups(pr, rv.Wave)
		if _, err := e.svc.Reply(ctx, e.actor, r.ID, prospecting.ReplyRequest{Checkpoint: prospecting.CheckpointContactsReview, Action: "continue"}); err != nil {
			t.Fatal(err)
		}
		// The reply's lookups are the ones offered, no more.
		next := e.waitStatus(t, r.ID, 120*time.Second, prospecting.StatusCompleted, prospecting.StatusPaused)
		if n := lateLookups(&next.Data.Progress, rv.Wave) - before; n > rv.Lookups || n == 0 && rv.Lookups > 0 && next.Data.Progress.Count().Covered < 8 {
			t.Fatalf("wave %d: %d lookups after the reply, %d offered", rv.Wave, n, rv.Lookups)
		}
		r = next
		if reviews > 8 {
			t.Fatalf("%d reviews", reviews)
		}
	}
	if reviews == 0 {
		t.Fatal("the run never stopped at contacts_review")
	}
	c := r.Data.Progress.Count()
	t.Logf("after %d reviews: %+v stop %s wave %d", reviews, c, r.Data.StopReason, r.Data.Progress.Round)
	if r.Data.StopReason != prospecting.StopTargetReached && r.Data.StopReason != prospecting.StopCompaniesWorked {
		t.Fatalf("stop %s", r.Data.StopReason)
	}
	e.checkBilling(t, r)
}

// lateLookups counts a wave's lookups made after its review.
func lateLookups(pr *prospecting.Progress, wave int) int {
	n := 0
	for _, k := range pr.Contacts {
		if k.LookupWave == wave && !k.Early {
			n++
		}
	}
	return n
}

// checkReview recomputes the review's numbers from the run.
func checkReview(t *testing.T, r prospecting.Run, rv prospecting.Review) {
	t.Helper()
	pr := &r.Data.Progress
	c := pr.Count()
	companies := map[string]bool{}
	early, earlyFound, running, waiting, found, settled, waveLookups := 0, 0, 0, 0, 0, 0, 0
	for _, k := range pr.Contacts {
		companies[k.Domain] = true
		switch k.EmailStatus {
		case "found":
			found++
			settled++
		case "not_found":
			settled++
		case "pending":
			running++
		case "":
			if k.Email == "" {
				waiting++
			}
		}
		if k.Early && (k.EmailStatus == "found" || k.EmailStatus == "not_found") {
			early++
			if k.EmailStatus == "found" {
				earlyFound++
			}
		}
		if k.LookupWave == pr.Round {
			waveLookups++
		}
	}
	find := 0.65
	if settled >= 5 {
		find = min(1, max(0.05, float64(found)/float64(settled)))
	}
	need := r.Data.Plan.TargetCompanies - c.Covered
	lookups := int(math.Ceil(float64(need)/find*1.15)) - running
	if pr.Round > 1 {
		lookups = max(lookups, 50-waveLookups)
	}
	lookups = max(0, min(lookups, waiting))
	want := prospecting.Review{Wave: pr.Round, Checked: c.Checked, Fit: c.Fit, Contacts: c.Contacts, ContactCompany: len(companies), Covered: c.Covered,
		EarlyLookups: early, EarlyFound: earlyFound, Running: running, Lookups: lookups, Minutes: int(math.Ceil(float64(lookups) / 70)),
		ExpectedEmails: int(math.Round(float64(lookups) * find)), ReservedCredits: lookups,
		ReservedUSD: math.Round(float64(lookups)*r.Data.Plan.PricePerRecordUSD*100) / 100}
	got := rv
	got.Capped, got.Rates = "", prospecting.Rates{}
	if got != want {
		t.Fatalf("review %+v\nwant   %+v", got, want)
	}
	if math.Abs(rv.Rates.Find-find) > 1e-9 {
		t.Fatalf("find rate %v, want %v", rv.Rates.Find, find)
	}
	if c.Covered >= r.Data.Plan.TargetCompanies {
		t.Fatalf("review with the target reached: %+v", c)
	}
}

// TestLookupNoteOnlyOnWaveRuns: the plan carries email_lookup_note on
// leads runs the rollout reaches, never on companies-only runs or before
// the rollout.
func TestLookupNoteOnlyOnWaveRuns(t *testing.T) {
	e := newEnv(t, envOpts{})
	ctx := context.Background()
	for _, tc := range []struct {
		rollout     prospecting.WaveRollout
		deliverable string
		want        bool
	}{
		{prospecting.WaveRollout{}, "leads", false},
		{prospecting.WaveRollout{Orgs: []string{"another"}}, "leads", false},
		{prospecting.WaveRollout{Orgs: []string{e.actor.Org.ID}}, "leads", true},
		{prospecting.WaveRollout{All: true}, "leads", true},
		{prospecting.WaveRollout{All: true}, "accounts", false},
	} {
		e.svc.Waves = tc.rollout
		p, err := e.svc.DryRun(ctx, e.actor, prospecting.Request{Brief: billingBrief, Deliverable: ptr(tc.deliverable)})
		if err != nil {
			t.Fatal(err)
		}
		if p.HistoryRates != nil {
			t.Errorf("history rates with no finished run: %+v", p.HistoryRates)
		}
		if got := p.EmailLookupNote != ""; got != tc.want {
			t.Errorf("rollout %+v, %s: note %q", tc.rollout, tc.deliverable, p.EmailLookupNote)
		}
		b, _ := json.Marshal(p)
		if strings.Contains(string(b), "email_lookup_note") != tc.want {
			t.Errorf("plan JSON %s", b)
		}
	}
}

// TestWaveRunResumesAfterRestarts: a wave run's runners (its task and the
// email batches) are stopped at random moments and started again on the
// same state store; the run still ends, every fit company, index contact
// and found address billed once, and no contact with an address found is
// looked up again.
func TestWaveRunResumesAfterRestarts(t *testing.T) {
	e := newEnv(t, envOpts{waves: true, hideEmails: true, noMailbox: func(i int) bool { return i%2 == 0 }})
	e.svc.BatchSize = 3 // many persisted steps to stop between
	ctx := context.Background()
	r := e.startApproved(t, "wave-kill", prospecting.Request{Brief: billingBrief, TargetCompanies: ptr(8), ContactsPerCompany: ptr(2)})
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	restarts, reviews := 0, 0
	for deadline := time.Now().Add(3 * time.Minute); ; {
		if time.Now().After(deadline) {
			t.Fatalf("run still %s after %d restarts", r.Status, restarts)
		}
		// Short random pauses: with up to 60 ms a quick run could end
		// before its third stop.
		time.Sleep(time.Duration(rng.IntN(15)) * time.Millisecond)
		cur, err := e.svc.Get(ctx, e.actor.Org.ID, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		switch cur.Status {
		case prospecting.StatusFailed:
			t.Fatalf("run failed: %s", cur.Data.Error)
		case prospecting.StatusCompleted:
			r = cur
		case prospecting.StatusPaused:
			reviews++
			if _, err := e.svc.Reply(ctx, e.actor, r.ID, prospecting.ReplyRequest{Checkpoint: cur.Data.Checkpoint, Action: "continue"}); err != nil {
				t.Fatal(err)
			}
			continue
		default:
			if restarts < 6 {
				restarts++
				t.Logf("restart %d at %s step %s wave %d, %+v", restarts, cur.Status, cur.Data.Progress.Step, cur.Data.Progress.Round, cur.Data.Progress.Count())
				e.restart(t)
				// Let the new runners make progress before the next stop.
				for until := time.Now().Add(20 * time.Second); time.Now().Before(until); time.Sleep(5 * time.Millisecond) {
					if now, _ := e.svc.Get(ctx, e.actor.Org.ID, r.ID); now.Rev != cur.Rev {
						break
					}
				}
			} else {
				time.Sleep(50 * time.Millisecond)
			}
			continue
		}
		break
	}
	c := r.Data.Progress.Count()
	t.Logf("after %d restarts and %d reviews: %+v stop %s", restarts, reviews, c, r.Data.StopReason)
	if restarts < 3 {
		t.Fatalf("only %d restarts before the run ended", restarts)
	}
	e.checkBilling(t, r)
	// Each found address once; each contact asked at most its tries.
	seen := map[string]bool{}
	for _, k := range r.Data.Progress.Contacts {
		if k.EmailStatus == "found" {
			if seen[k.Email] {
				t.Fatalf("address %s found twice", k.Email)
			}
			seen[k.Email] = true
		}
		if k.EmailTries > 3 {
			t.Fatalf("contact %s looked up %d times", k.Key, k.EmailTries)
		}
	}
}
