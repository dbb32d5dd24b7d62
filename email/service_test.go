package email_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/time/rate"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/email/mailworld"
	"github.com/openprospect/prospectd/email/smtpprobe"
	"github.com/openprospect/prospectd/jobs"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

func openStore(t *testing.T) *sqlite.Store { return openStoreTB(t) }

func openStoreTB(t testing.TB) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// newService wires a Service and a runner over st.
func newService(t *testing.T, st *sqlite.Store, w *mailworld.World, lease time.Duration) (*email.Service, *jobs.Runner) {
	t.Helper()
	f := testFinder(t, w, smtpprobe.Config{AllowPrivate: true})
	r := &jobs.Runner{Store: st, Workers: 2, Lease: lease, PollInterval: 50 * time.Millisecond, StopTimeout: 5 * time.Second, Log: zerolog.Nop()}
	svc := &email.Service{Store: st, Orgs: st, Finder: f, Biller: &account.Biller{Store: st, Plans: account.DefaultPlans()}, Tasks: r, Log: zerolog.Nop()}
	jobs.RegisterEmail(r, svc)
	return svc, r
}

func waitBatchTB(t testing.TB, svc *email.Service, orgID, batchID string, timeout time.Duration) email.BatchView {
	t.Helper()
	return waitBatch(t, svc, orgID, batchID, timeout, nil)
}

func waitBatch(t testing.TB, svc *email.Service, orgID, batchID string, timeout time.Duration, during func(email.BatchView)) email.BatchView {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		v, err := svc.Batch(context.Background(), orgID, batchID)
		if err != nil {
			t.Fatal(err)
		}
		if during != nil {
			during(v)
		}
		if v.Completed+v.Failed == v.Total {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("batch not finished after %s: %d completed, %d failed of %d", timeout, v.Completed, v.Failed, v.Total)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func findReq(first, last, domain string) email.Request {
	r, _ := email.Validate(email.KindFind, email.Request{FirstName: first, LastName: last, Domain: domain})
	return r
}

// TestBatchSurvivesRestart: a runner stopped mid-batch (as a killed server
// stops renewing its lease) leaves the batch to another runner, which
// finishes every job and never asks again about the jobs already recorded.
func TestBatchSurvivesRestart(t *testing.T) {
	w := testWorld(t)
	const n = 40
	var reqs []email.Request
	for i := 0; i < n; i++ {
		host := fmt.Sprintf("mx%d.slowish.example.com", i%8)
		if i < 8 {
			if err := w.AddHost(host, mailworld.Behaviour{Tarpit: 8 * time.Millisecond}); err != nil {
				t.Fatal(err)
			}
		}
		d := fmt.Sprintf("co%d.example.com", i)
		w.AddDomain(mailworld.Domain{Name: d, MX: []string{host}, Mailboxes: []string{"jane.doe"}})
		reqs = append(reqs, findReq("Jane", "Doe", d))
	}
	st := openStore(t)
	ctx := context.Background()
	org, _ := st.CreateOrg(ctx, "Acme", store.PlanTeam)
	svc1, r1 := newService(t, st, w, 300*time.Millisecond)
	b, jobIDs, err := svc1.Submit(ctx, org.ID, email.Submission{Kind: email.KindFind, Requests: reqs})
	if err != nil || len(jobIDs) != n {
		t.Fatalf("Submit = %v (%d jobs)", err, len(jobIDs))
	}
	if err := r1.Start(ctx); err != nil {
		t.Fatal(err)
	}
	// Stop the first runner once some jobs are recorded.
	deadline := time.Now().Add(20 * time.Second)
	var v email.BatchView
	for {
		v, _ = svc1.Batch(ctx, org.ID, b.ID)
		if v.Completed >= 8 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	r1.Stop()
	stoppedAt := time.Now()
	v, _ = svc1.Batch(ctx, org.ID, b.ID)
	if v.Completed == v.Total {
		t.Fatal("batch finished before the stop; the test needs a slower world")
	}
	recorded := map[string]bool{}
	for _, j := range v.Results {
		if j.Status == store.EmailCompleted {
			recorded[j.Result.Domain] = true
		}
	}
	t.Logf("stopped with %d of %d recorded", len(recorded), n)

	svc2, r2 := newService(t, st, w, 300*time.Millisecond)
	if err := r2.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer r2.Stop()
	v = waitBatch(t, svc2, org.ID, b.ID, 30*time.Second, nil)
	if v.Completed != n || v.Failed != 0 {
		t.Fatalf("%d completed, %d failed of %d", v.Completed, v.Failed, n)
	}
	for _, j := range v.Results {
		if j.Result == nil || j.Result.Status != email.StatusFound || j.Result.Result.Email != "jane.doe@"+j.Result.Domain {
			t.Fatalf("job %s: %+v", j.JobID, j.Result)
		}
	}
	for _, ev := range w.Rcpts() {
		_, dom, _ := stringsCut(ev.Address)
		if ev.At.After(stoppedAt) && recorded[dom] {
			t.Fatalf("%s asked again at %s after its result was recorded", ev.Address, ev.At)
		}
	}
	// Each found address was billed once.
	u, _ := st.Usage(ctx, org.ID, time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
	if u.Records[store.KindEmail] != n {
		t.Fatalf("billed %d emails, want %d", u.Records[store.KindEmail], n)
	}
}

func stringsCut(addr string) (string, string, bool) {
	for i := 0; i < len(addr); i++ {
		if addr[i] == '@' {
			return addr[:i], addr[i+1:], true
		}
	}
	return addr, "", false
}

// TestGreylistedJobStaysProcessing: the job shows processing with a
// greylisted result while it waits, then completes found.
func TestGreylistedJobStaysProcessing(t *testing.T) {
	w := testWorld(t)
	st := openStore(t)
	ctx := context.Background()
	org, _ := st.CreateOrg(ctx, "Acme", store.PlanTeam)
	svc, r := newService(t, st, w, time.Second)
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	b, _, err := svc.Submit(ctx, org.ID, email.Submission{Kind: email.KindFind, Requests: []email.Request{findReq("Jane", "Doe", "grey.example.com")}})
	if err != nil {
		t.Fatal(err)
	}
	sawGrey := false
	v := waitBatch(t, svc, org.ID, b.ID, 20*time.Second, func(v email.BatchView) {
		j := v.Results[0]
		if j.Status == store.EmailProcessing && j.Result != nil && j.Result.Status == email.StatusGreylisted {
			sawGrey = true
		}
	})
	if !sawGrey {
		t.Fatal("never saw the job processing with a greylisted result")
	}
	j := v.Results[0]
	if j.Status != store.EmailCompleted || j.Result.Status != email.StatusFound || j.Result.Attempts < 2 || j.Result.RetryAt != nil {
		t.Fatalf("final job %+v %+v", j, j.Result)
	}
}

func TestServiceCacheBillingAndLimit(t *testing.T) {
	w := testWorld(t)
	st := openStore(t)
	ctx := context.Background()
	org, _ := st.CreateOrg(ctx, "Acme", store.PlanTeam)
	svc, r := newService(t, st, w, time.Second)
	svc.MaxActive = 3
	// Over the cap as a whole: nothing is recorded.
	many := []email.Request{findReq("A", "B", "strict.example.com"), findReq("C", "D", "strict.example.com"),
		findReq("E", "F", "strict.example.com"), findReq("G", "H", "strict.example.com")}
	if _, _, err := svc.Submit(ctx, org.ID, email.Submission{Kind: email.KindFind, Requests: many}); !errors.Is(err, store.ErrOverLimit) {
		t.Fatalf("over the cap: %v", err)
	}
	if n, _ := st.CountActiveEmailJobs(ctx, org.ID); n != 0 {
		t.Fatalf("%d jobs recorded by a refused request", n)
	}
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	run := func(reqs ...email.Request) email.BatchView {
		b, _, err := svc.Submit(ctx, org.ID, email.Submission{Kind: email.KindFind, Requests: reqs})
		if err != nil {
			t.Fatal(err)
		}
		return waitBatch(t, svc, org.ID, b.ID, 20*time.Second, nil)
	}
	v := run(findReq("Jane", "Doe", "strict.example.com"), findReq("Jane", "Doe", "catch.example.com"), findReq("Bob", "Ray", "strict.example.com"))
	if v.Results[0].Result.Status != email.StatusFound || v.Results[0].Result.Cached ||
		v.Results[1].Result.Status != email.StatusCatchAll || v.Results[2].Result.Status != email.StatusNotFound {
		t.Fatalf("first batch: %+v %+v %+v", v.Results[0].Result, v.Results[1].Result, v.Results[2].Result)
	}
	before := len(w.Rcpts())
	v = run(findReq("Jane", "Doe", "strict.example.com"), findReq("Other", "Person", "catch.example.com"))
	first, second := v.Results[0].Result, v.Results[1].Result
	if !first.Cached || first.AgeSeconds == nil || first.Status != email.StatusFound || first.Result.Email != "jane.doe@strict.example.com" {
		t.Fatalf("cached found: %+v", first)
	}
	if !second.Cached || second.Status != email.StatusCatchAll || second.Evidence.Method != email.MethodCatchAllCache {
		t.Fatalf("catch-all from the domain cache: %+v", second)
	}
	if len(w.Rcpts()) != before {
		t.Fatal("cached lookups asked the exchanger")
	}
	u, _ := st.Usage(ctx, org.ID, time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
	if u.Records[store.KindEmail] != 1 || u.Free[store.KindEmail] != 1 {
		t.Fatalf("billing %+v: want the found address billed once, free the second time", u)
	}
}

// TestGlobalRateAndHostConcurrency: the limiter paces sessions, and one
// exchanger never sees two sessions at once.
func TestGlobalRateAndHostConcurrency(t *testing.T) {
	w := testWorld(t)
	f := testFinder(t, w, smtpprobe.Config{AllowPrivate: true, Pace: rate.NewLimiter(rate.Limit(20), 1)}) // 1,200 a minute
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < 11; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			f.Find(context.Background(), findReq(fmt.Sprintf("P%d", i), "Doe", "strict.example.com"))
		}(i)
	}
	wg.Wait()
	took := time.Since(start)
	if took < 450*time.Millisecond {
		t.Fatalf("11 lookups at 20/s took %s, want >= 0.5 s", took)
	}
	if m := w.MaxConcurrent("mx.strict.example.com"); m != 1 {
		t.Fatalf("%d sessions at once on one exchanger", m)
	}
}

// TestGivenUpBatchSettles: when the runner gives a batch task up (it kept
// crashing), reading the batch fails its unfinished jobs with the reason,
// so every job ends.
func TestGivenUpBatchSettles(t *testing.T) {
	w := testWorld(t)
	st := openStore(t)
	ctx := context.Background()
	org, _ := st.CreateOrg(ctx, "Acme", store.PlanTeam)
	svc, _ := newService(t, st, w, time.Second)
	svc.TaskStatus = st
	// Submitted, but no runner ever runs it; the task is then failed as a
	// runner does after too many attempts.
	b, _, err := svc.Submit(ctx, org.ID, email.Submission{Kind: email.KindFind, Requests: []email.Request{findReq("Jane", "Doe", "strict.example.com")}})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := svc.Batch(ctx, org.ID, b.ID); v.Results[0].Status != store.EmailQueued {
		t.Fatalf("before: %+v", v.Results[0])
	}
	task, ok, err := st.ClaimTask(ctx, "w", []string{email.TaskKind}, time.Minute)
	if err != nil || !ok || task.ID != b.TaskID {
		t.Fatalf("claim %+v %v %v", task, ok, err)
	}
	if err := st.FailTask(ctx, task.ID, "w", "gave up after 5 attempts"); err != nil {
		t.Fatal(err)
	}
	v, err := svc.Batch(ctx, org.ID, b.ID)
	if err != nil || v.Failed != 1 || !strings.Contains(v.Results[0].Error, "gave up after 5 attempts") {
		t.Fatalf("after the task failed: %+v %v", v, err)
	}
}
