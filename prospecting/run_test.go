package prospecting_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/store"
)

func ptr[T any](v T) *T { return &v }

// waitStatus polls a run until it is in one of want.
func (e *env) waitStatus(t *testing.T, id string, timeout time.Duration, want ...string) prospecting.Run {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		r, err := e.svc.Get(context.Background(), e.actor.Org.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if r.Status == w {
				return r
			}
		}
		if r.Status == prospecting.StatusFailed {
			t.Fatalf("run failed: %s", r.Data.Error)
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s still %s (step %s) after %s", id, r.Status, r.Data.Progress.Step, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// startApproved starts a run and approves its first plan.
func (e *env) startApproved(t *testing.T, key string, req prospecting.Request) prospecting.Run {
	t.Helper()
	ctx := context.Background()
	r, created, err := e.svc.Start(ctx, e.actor, key, req)
	if err != nil || !created || r.Status != prospecting.StatusDrafting {
		t.Fatalf("Start = %+v %v %v", r.Status, created, err)
	}
	r = e.waitStatus(t, r.ID, 10*time.Second, prospecting.StatusProposed)
	if !r.Data.Plan.Ready {
		t.Fatalf("plan not ready: %+v", r.Data.Plan)
	}
	if _, err := e.svc.Approve(ctx, e.actor, r.ID, prospecting.ApproveRequest{PlanVersion: r.Data.PlanVersion}); err != nil {
		t.Fatal(err)
	}
	return r
}

func (e *env) usage(t *testing.T) store.Usage {
	t.Helper()
	u, err := e.st.Usage(context.Background(), e.actor.Org.ID, time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

const billingBrief = "Find 20 SaaS companies offering subscription billing and recurring invoicing, and 2 finance leaders at each"

func TestAccountsRun(t *testing.T) {
	e := newEnv(t, envOpts{})
	r := e.startApproved(t, "acc-1", prospecting.Request{Brief: billingBrief, Deliverable: ptr("accounts")})
	r = e.waitStatus(t, r.ID, 60*time.Second, prospecting.StatusCompleted)
	c := r.Data.Progress.Count()
	t.Logf("accounts run: %+v stop %s", c, r.Data.StopReason)
	if r.Data.StopReason != prospecting.StopTargetReached || c.Fit < 20 || c.Contacts != 0 {
		t.Fatalf("stop %s, counts %+v", r.Data.StopReason, c)
	}
	u := e.usage(t)
	if u.Records[store.KindContact] != 0 || u.Records[store.KindEmail] != 0 || u.Records[store.KindCompany] != c.Fit {
		t.Fatalf("billed %+v for %d fit companies", u.Records, c.Fit)
	}
	q, rows, err := e.svc.Results(context.Background(), e.actor.Org.ID, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if q.DomainCount != c.Fit || len(rows) != c.Fit || rows[0].Contacts != nil {
		t.Fatalf("results: %d domains, rows %+v", q.DomainCount, rows[:1])
	}
}

func TestLeadsRun(t *testing.T) {
	e := newEnv(t, envOpts{})
	r := e.startApproved(t, "leads-1", prospecting.Request{Brief: billingBrief})
	if r.Data.Plan.TargetCompanies != 20 || r.Data.Plan.ContactsPerCompany != 2 || r.Data.Plan.Deliverable != "leads" {
		t.Fatalf("plan %+v", r.Data.Plan)
	}
	r = e.waitStatus(t, r.ID, 90*time.Second, prospecting.StatusCompleted)
	c := r.Data.Progress.Count()
	t.Logf("leads run: %+v stop %s round %d", c, r.Data.StopReason, r.Data.Progress.Round)
	if r.Data.StopReason != prospecting.StopTargetReached || c.Covered < 20 {
		t.Fatalf("stop %s, counts %+v", r.Data.StopReason, c)
	}
	u := e.usage(t)
	found := 0
	for _, k := range r.Data.Progress.Contacts {
		if k.EmailStatus == "found" {
			found++
		}
	}
	if found == 0 || u.Records[store.KindEmail] != found || u.Records[store.KindCompany] != c.Fit {
		t.Fatalf("billed %+v; fit %d, found emails %d", u.Records, c.Fit, found)
	}
	_, rows, err := e.svc.Results(context.Background(), e.actor.Org.ID, r.ID)
	if err != nil || len(rows) != c.Fit {
		t.Fatalf("results %d rows, %v", len(rows), err)
	}
	msgs, _ := e.svc.Messages(context.Background(), e.actor.Org.ID, r.ID, 0)
	if len(msgs) < 3 {
		t.Fatalf("messages %d", len(msgs))
	}
}

func TestAskRunPausesAtContactsReview(t *testing.T) {
	e := newEnv(t, envOpts{})
	r := e.startApproved(t, "ask-1", prospecting.Request{Brief: billingBrief, Checkpoints: ptr("ask"), TargetCompanies: ptr(10)})
	r = e.waitStatus(t, r.ID, 60*time.Second, prospecting.StatusPaused)
	if r.Data.Checkpoint != prospecting.CheckpointContactsReview {
		t.Fatalf("paused at %q", r.Data.Checkpoint)
	}
	before := e.usage(t)
	if before.Records[store.KindEmail] != 0 {
		t.Fatalf("emails looked up before the review: %+v", before.Records)
	}
	msgs, _ := e.svc.Messages(context.Background(), e.actor.Org.ID, r.ID, 0)
	last := msgs[len(msgs)-1]
	if !strings.Contains(string(last.Body), `"checkpoint":"contacts_review"`) || !strings.Contains(string(last.Body), "lookups") {
		t.Fatalf("checkpoint message %s", last.Body)
	}
	ctx := context.Background()
	if _, err := e.svc.Reply(ctx, e.actor, r.ID, prospecting.ReplyRequest{Checkpoint: "top_up", Action: "continue"}); err == nil {
		t.Fatal("reply to the wrong checkpoint accepted")
	}
	if _, err := e.svc.Reply(ctx, e.actor, r.ID, prospecting.ReplyRequest{Checkpoint: "contacts_review", Action: "continue"}); err != nil {
		t.Fatal(err)
	}
	r = e.waitStatus(t, r.ID, 60*time.Second, prospecting.StatusCompleted)
	c := r.Data.Progress.Count()
	if r.Data.StopReason != prospecting.StopTargetReached || c.Covered < 10 || e.usage(t).Records[store.KindEmail] == 0 {
		t.Fatalf("after the reply: stop %s counts %+v", r.Data.StopReason, c)
	}
}

func TestCreditLimitKeepsResults(t *testing.T) {
	e := newEnv(t, envOpts{})
	// Team plan: $0.012 a record, so $0.30 pays for 25 records.
	r := e.startApproved(t, "cheap-1", prospecting.Request{Brief: billingBrief, MaxSpendUSD: ptr(0.30)})
	r = e.waitStatus(t, r.ID, 60*time.Second, prospecting.StatusCompleted)
	c := r.Data.Progress.Count()
	u := e.usage(t)
	t.Logf("credit-limited run: %+v billed %+v", c, u.Records)
	if r.Data.StopReason != prospecting.StopCreditLimit || c.Records > 25 || u.Credits > 25 || c.Fit == 0 {
		t.Fatalf("stop %s, counts %+v, credits %d", r.Data.StopReason, c, u.Credits)
	}
	_, rows, err := e.svc.Results(context.Background(), e.actor.Org.ID, r.ID)
	if err != nil || len(rows) != c.Fit {
		t.Fatalf("results kept: %d rows for %d fit, %v", len(rows), c.Fit, err)
	}
}

func TestOneActiveRunPerActor(t *testing.T) {
	e := newEnv(t, envOpts{})
	ctx := context.Background()
	a := e.startApproved(t, "busy-1", prospecting.Request{Brief: billingBrief, Checkpoints: ptr("ask")})
	// While the first is queued or running, another start is refused with
	// when to retry; repeating the accepted start is not.
	for {
		r, _ := e.svc.Get(ctx, e.actor.Org.ID, a.ID)
		if r.Status != prospecting.StatusQueued && r.Status != prospecting.StatusRunning {
			t.Skipf("run reached %s before the check", r.Status)
		}
		_, _, err := e.svc.Start(ctx, e.actor, "busy-2", prospecting.Request{Brief: billingBrief})
		if !errors.Is(err, prospecting.ErrBusy) || !strings.Contains(err.Error(), "retry") {
			t.Fatalf("second start: %v", err)
		}
		if r2, created, err := e.svc.Start(ctx, e.actor, "busy-1", prospecting.Request{Brief: billingBrief, Checkpoints: ptr("ask")}); err != nil || created || r2.ID != a.ID {
			t.Fatalf("repeated start: %v %v", created, err)
		}
		break
	}
}
