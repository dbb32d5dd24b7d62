package prospecting_test

import (
	"context"
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
