package prospecting_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

// TestStartNeedsPaidAccountWithQuota: a start needs a paid plan and
// credits left; repeating an accepted start with its key is unaffected.
func TestStartNeedsPaidAccountWithQuota(t *testing.T) {
	e := newEnv(t, envOpts{credits: 30})
	ctx := context.Background()
	req := prospecting.Request{Brief: billingBrief, Deliverable: ptr("accounts")}
	first, created, err := e.svc.Start(ctx, e.actor, "quota-1", req)
	if err != nil || !created {
		t.Fatalf("first start: %v %v", created, err)
	}
	proposed := e.waitStatus(t, first.ID, 10*time.Second, prospecting.StatusProposed)

	// Spend the period's credits elsewhere.
	domains := make([]string, 30)
	for i := range domains {
		domains[i] = "spent" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ".example.com"
	}
	if _, err := e.svc.Biller.Bill(ctx, e.actor.Org, "bizdata", account.Companies(domains)); err != nil {
		t.Fatal(err)
	}
	_, _, err = e.svc.Start(ctx, e.actor, "quota-2", req)
	var qe *prospecting.QuotaError
	if !errors.Is(err, account.ErrNoCredits) || !errors.As(err, &qe) || qe.Used != 30 || !strings.Contains(err.Error(), "no credits left") {
		t.Fatalf("start without credits: %v", err)
	}
	if r, err := e.svc.Get(ctx, e.actor.Org.ID, first.ID); err != nil || r.Status != prospecting.StatusProposed {
		t.Fatalf("first run after the refusal: %v %v", r.Status, err)
	}
	// Approving the proposed run starts billed work: refused alike, and
	// the run stays proposed for when credits renew.
	if _, err := e.svc.Approve(ctx, e.actor, first.ID, prospecting.ApproveRequest{PlanVersion: proposed.Data.PlanVersion}); !errors.As(err, &qe) {
		t.Fatalf("approve without credits: %v", err)
	}
	if r, _ := e.svc.Get(ctx, e.actor.Org.ID, first.ID); r.Status != prospecting.StatusProposed {
		t.Fatalf("run after a refused approval: %s", r.Status)
	}
	// The accepted request, repeated with its key, still returns its run.
	again, created, err := e.svc.Start(ctx, e.actor, "quota-1", req)
	if err != nil || created || again.ID != first.ID {
		t.Fatalf("repeat with quota 0: %v %v %v", again.ID, created, err)
	}

	// A plan that lapsed to none is no paid account.
	if err := e.st.SetOrgPlan(ctx, e.actor.Org.ID, store.PlanNone); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.svc.Start(ctx, e.actor, "quota-3", req); !errors.Is(err, account.ErrPlan) || !strings.Contains(err.Error(), "paid plan") {
		t.Fatalf("start on plan none: %v", err)
	}
	if again, _, err := e.svc.Start(ctx, e.actor, "quota-1", req); err != nil || again.ID != first.ID {
		t.Fatalf("repeat on plan none: %v", err)
	}
}

// killable wraps a run's state to simulate a server killed at two points
// of the run's end: while creating the results' saved query, and after
// creating it but before the run records its id.
type killable struct {
	prospecting.State
	cancel        context.CancelFunc
	killOnCreate  atomic.Bool
	killOnRecord  atomic.Bool
	createdQuerys atomic.Int32
}

func (k *killable) CreateSavedQuery(ctx context.Context, q saved.Query) (saved.Query, error) {
	if k.killOnCreate.CompareAndSwap(true, false) {
		k.cancel()
		return saved.Query{}, context.Canceled
	}
	out, err := k.State.CreateSavedQuery(ctx, q)
	if err == nil {
		k.createdQuerys.Add(1)
	}
	return out, err
}

func (k *killable) UpdateRun(ctx context.Context, r store.ProspectingRun, events ...store.WebhookEvent) (store.ProspectingRun, error) {
	if strings.Contains(string(r.Data), `"results_query_id"`) && k.killOnRecord.CompareAndSwap(true, false) {
		k.cancel()
		return r, context.Canceled
	}
	return k.State.UpdateRun(ctx, r, events...)
}

// TestFinishSurvivesKills: a segment=true run ending is killed after its
// segmentation is kept, then after its saved query is created but before
// the run records it; the resumed run reuses the kept segmentation and
// ends with exactly one results saved query.
func TestFinishSurvivesKills(t *testing.T) {
	e := newEnv(t, envOpts{})
	ctx := context.Background()
	d, err := query.ParseDiscover(url.Values{"icp_prompt": {"software companies"}, "max_records": {"24"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.svc.Companies.Discover(ctx, d)
	if err != nil || len(res.Matches) < 20 {
		t.Fatalf("%d candidates, %v", len(res.Matches), err)
	}
	data := prospecting.Data{Request: prospecting.Request{Brief: "software companies, accounts only"}, PlanVersion: 1, ApprovedVersion: 1,
		Phase: prospecting.PhaseCompanies, TaskID: "task-manual",
		Plan: &prospecting.Plan{TargetCompanies: 20, Deliverable: prospecting.DeliverAccounts, Goal: prospecting.GoalLeads, Segment: true,
			Checkpoints: prospecting.CheckpointsAuto, MaxCandidates: 200, MaxActions: 100}}
	var fit []string
	for i, m := range res.Matches {
		c := prospecting.Candidate{Domain: m.Company.Domain, Name: m.Company.Name, Round: 1, Checked: true}
		if i < 20 {
			c.Fit, c.Billed, c.Reason = true, true, "fit"
			fit = append(fit, c.Domain)
		}
		data.Progress.Candidates = append(data.Progress.Candidates, c)
	}
	data.Progress.Round, data.Progress.Step, data.Progress.StopAsked = 1, "evaluate", true
	body, _ := json.Marshal(data)
	rec, _, err := e.st.CreateRun(ctx, store.ProspectingRun{OrgID: e.actor.Org.ID, UserID: e.actor.UserID, IdemKey: "kill-finish", ReqHash: "h",
		Status: prospecting.StatusRunning, Data: body})
	if err != nil {
		t.Fatal(err)
	}
	k := &killable{State: e.st}
	svc := *e.svc
	svc.State = k
	task := store.Task{ID: "task-manual", OrgID: e.actor.Org.ID, Attempts: 1}
	in := prospecting.TaskInput{RunID: rec.ID, OrgID: e.actor.Org.ID}
	run := func() error {
		c, cancel := context.WithCancel(ctx)
		defer cancel()
		k.cancel = cancel
		_, err := svc.Run(c, task, in, nil)
		return err
	}

	// Kill 1: while the saved query is being created. The segmentation
	// was kept in the run first.
	k.killOnCreate.Store(true)
	if err := run(); err == nil {
		t.Fatal("killed run returned no error")
	}
	r, _ := e.svc.Get(ctx, e.actor.Org.ID, rec.ID)
	if r.Status != prospecting.StatusRunning || r.Data.Segmentation == nil || r.Data.Segmentation.Companies != 20 || r.Data.ResultsQueryID != "" {
		t.Fatalf("after kill 1: %s %+v", r.Status, r.Data.Segmentation)
	}
	want, err := e.svc.Companies.Segment(ctx, fit, 0, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	segOf := map[string]query.SegmentRow{}
	for _, row := range want.Rows {
		segOf[row.Company.Domain] = row
	}
	for _, c := range r.Data.Progress.Candidates {
		w, ok := segOf[c.Domain]
		switch {
		case !c.Fit && c.SegmentID != nil:
			t.Fatalf("unfit %s segmented", c.Domain)
		case c.Fit && ok && (c.SegmentID == nil || *c.SegmentID != w.SegmentID || c.Segment != w.Description):
			t.Fatalf("%s kept segment %v %q, the segmentation task gives %d %q", c.Domain, c.SegmentID, c.Segment, w.SegmentID, w.Description)
		}
	}
	// Mark the kept outcome: a resumed finish must use it, not segment again.
	for i := range r.Data.Progress.Candidates {
		if r.Data.Progress.Candidates[i].Fit {
			r.Data.Progress.Candidates[i].Segment = "KEPT"
			break
		}
	}
	r.Record.Data, _ = json.Marshal(r.Data)
	if _, err := e.st.UpdateRun(ctx, r.Record); err != nil {
		t.Fatal(err)
	}

	// Kill 2: the saved query is created, the run has not recorded it.
	k.killOnRecord.Store(true)
	if err := run(); err == nil {
		t.Fatal("killed run returned no error")
	}
	if r, _ = e.svc.Get(ctx, e.actor.Org.ID, rec.ID); r.Status != prospecting.StatusRunning || r.Data.ResultsQueryID != "" || k.createdQuerys.Load() != 1 {
		t.Fatalf("after kill 2: %s %q, %d queries created", r.Status, r.Data.ResultsQueryID, k.createdQuerys.Load())
	}

	// Resumed: ends with the one saved query.
	if err := run(); err != nil {
		t.Fatal(err)
	}
	r, _ = e.svc.Get(ctx, e.actor.Org.ID, rec.ID)
	if r.Status != prospecting.StatusCompleted || r.Data.ResultsQueryID != prospecting.ResultsQueryID(rec.ID) || k.createdQuerys.Load() != 1 {
		t.Fatalf("resumed: %s %q, %d queries created", r.Status, r.Data.ResultsQueryID, k.createdQuerys.Load())
	}
	list, n, err := e.st.ListSavedQueries(ctx, e.actor.Org.ID, saved.ListFilter{Tags: []string{"prospecting"}, Limit: 10})
	if err != nil || n != 1 || list[0].ID != r.Data.ResultsQueryID || list[0].DomainCount != 20 {
		t.Fatalf("saved queries %d (%v)", n, err)
	}
	q, rows, err := e.svc.Results(ctx, e.actor.Org.ID, rec.ID)
	if err != nil || q.ID != r.Data.ResultsQueryID || len(rows) != 20 {
		t.Fatalf("results %d rows, %v", len(rows), err)
	}
	kept := 0
	for _, row := range rows {
		if row.Segment == "KEPT" {
			kept++
		}
		if row.SegmentID == nil && segOf[row.Domain].Description != "" {
			t.Fatalf("row %+v without its segment", row)
		}
	}
	if kept != 1 {
		t.Fatalf("%d rows carry the kept segmentation", kept)
	}
}

// TestSegmentRun: segment=true segments the fit companies with the
// segmentation clustering when at least ten are found, and not below.
func TestSegmentRun(t *testing.T) {
	e := newEnv(t, envOpts{})
	ctx := context.Background()
	r := e.startApproved(t, "seg-1", prospecting.Request{Brief: billingBrief, Deliverable: ptr("accounts"), TargetCompanies: ptr(12), Segment: ptr(true)})
	r = e.waitStatus(t, r.ID, 60*time.Second, prospecting.StatusCompleted)
	fit := r.Data.Progress.Count().Fit
	sg := r.Data.Segmentation
	if fit < 10 || sg == nil || sg.Companies != fit {
		t.Fatalf("%d fit, segmentation %+v", fit, sg)
	}
	_, rows, err := e.svc.Results(ctx, e.actor.Org.ID, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	segmented := 0
	for _, row := range rows {
		if row.SegmentID != nil && row.Segment != "" {
			segmented++
		}
	}
	if segmented != fit-sg.Omitted {
		t.Fatalf("%d of %d rows segmented (%d omitted)", segmented, fit, sg.Omitted)
	}

	// Small batches: the run stops checking soon after 5 fit companies.
	e.svc.BatchSize = 4
	r = e.startApproved(t, "seg-2", prospecting.Request{Brief: billingBrief, Deliverable: ptr("accounts"), TargetCompanies: ptr(5), Segment: ptr(true)})
	r = e.waitStatus(t, r.ID, 60*time.Second, prospecting.StatusCompleted)
	if n := r.Data.Progress.Count().Fit; n >= 10 || r.Data.Segmentation != nil {
		t.Fatalf("%d fit companies (want < 10), segmentation %+v", n, r.Data.Segmentation)
	}
}
