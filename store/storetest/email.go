package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/openprospect/prospectd/store"
)

// EmailStore is a store with the email role.
type EmailStore interface {
	store.Store
	store.EmailStore
}

// RunEmail runs the email store suite; open must return a fresh, empty
// store.
func RunEmail(t *testing.T, open func(t *testing.T) EmailStore) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, s EmailStore)
	}{
		{"Lifecycle", testEmailLifecycle},
		{"Limit", testEmailLimit},
		{"LimitConcurrent", testEmailLimitConcurrent},
		{"Cache", testEmailCache},
		{"PatternFeedback", testEmailPatternFeedback},
	} {
		t.Run("Email"+tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

func emailJobs(n int) []store.EmailJob {
	out := make([]store.EmailJob, n)
	for i := range out {
		out[i] = store.EmailJob{Kind: "find", Ref: fmt.Sprintf("r%d", i), Request: []byte(fmt.Sprintf(`{"first_name":"p%d"}`, i))}
	}
	return out
}

func testEmailLifecycle(t *testing.T, s EmailStore) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanTeam)
	other, _ := s.CreateOrg(ctx, "Other", store.PlanTeam)
	b, jobs, err := s.CreateEmailBatch(ctx, store.EmailBatch{OrgID: o.ID, SourceQueryID: "q1", Round: "verify"}, emailJobs(3), 0)
	if err != nil || b.ID == "" || b.Total != 3 || len(jobs) != 3 || b.CreatedAt.IsZero() {
		t.Fatalf("CreateEmailBatch = %+v %+v %v", b, jobs, err)
	}
	for i, j := range jobs {
		if j.ID == "" || j.BatchID != b.ID || j.OrgID != o.ID || j.Position != i || j.Status != store.EmailQueued {
			t.Fatalf("job %d = %+v", i, j)
		}
	}
	if _, _, err := s.CreateEmailBatch(ctx, store.EmailBatch{OrgID: "00000000-0000-0000-0000-000000000000"}, emailJobs(1), 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("batch of an unknown org: %v", err)
	}
	if err := s.SetEmailBatchTask(ctx, b.ID, "task-1"); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetEmailBatch(ctx, o.ID, b.ID)
	if err != nil || got.TaskID != "task-1" || got.SourceQueryID != "q1" || got.Round != "verify" || got.Total != 3 {
		t.Fatalf("GetEmailBatch = %+v %v", got, err)
	}
	if _, err := s.GetEmailBatch(ctx, other.ID, b.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another org's batch: %v", err)
	}
	j, err := s.GetEmailJob(ctx, o.ID, jobs[1].ID)
	if err != nil || j.Ref != "r1" || string(j.Request) != `{"first_name":"p1"}` || j.FinishedAt != nil {
		t.Fatalf("GetEmailJob = %+v %v", j, err)
	}
	if _, err := s.GetEmailJob(ctx, other.ID, jobs[1].ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another org's job: %v", err)
	}
	if n, _ := s.CountActiveEmailJobs(ctx, o.ID); n != 3 {
		t.Fatalf("active = %d", n)
	}
	if err := s.UpdateEmailJob(ctx, jobs[0].ID, store.EmailProcessing, []byte(`{"status":"greylisted"}`), ""); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateEmailJob(ctx, jobs[0].ID, store.EmailCompleted, []byte(`{"status":"found"}`), ""); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateEmailJob(ctx, jobs[1].ID, store.EmailFailed, nil, "boom"); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateEmailJob(ctx, jobs[0].ID, store.EmailCompleted, []byte(`{}`), ""); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("finishing twice: %v", err)
	}
	if err := s.UpdateEmailJob(ctx, "nope", store.EmailCompleted, nil, ""); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown job: %v", err)
	}
	list, err := s.ListEmailJobs(ctx, b.ID)
	if err != nil || len(list) != 3 {
		t.Fatalf("ListEmailJobs = %d %v", len(list), err)
	}
	if list[0].Status != store.EmailCompleted || string(list[0].Result) != `{"status":"found"}` || list[0].FinishedAt == nil ||
		list[1].Status != store.EmailFailed || list[1].Error != "boom" || list[2].Status != store.EmailQueued || list[2].Position != 2 {
		t.Fatalf("jobs after updates: %+v", list)
	}
	if n, _ := s.CountActiveEmailJobs(ctx, o.ID); n != 1 {
		t.Fatalf("active = %d, want 1", n)
	}
}

func testEmailLimit(t *testing.T, s EmailStore) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanTeam)
	if _, _, err := s.CreateEmailBatch(ctx, store.EmailBatch{OrgID: o.ID}, emailJobs(4), 5); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.CreateEmailBatch(ctx, store.EmailBatch{OrgID: o.ID}, emailJobs(2), 5); !errors.Is(err, store.ErrOverLimit) {
		t.Fatalf("over the limit: %v", err)
	}
	_, jobs, err := s.CreateEmailBatch(ctx, store.EmailBatch{OrgID: o.ID}, emailJobs(1), 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateEmailJob(ctx, jobs[0].ID, store.EmailCompleted, []byte(`{}`), ""); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.CreateEmailBatch(ctx, store.EmailBatch{OrgID: o.ID}, emailJobs(1), 5); err != nil {
		t.Fatalf("a finished job frees its place: %v", err)
	}
}

// testEmailLimitConcurrent: 20 submissions of 3 at once against a limit
// of 30 never let more than 30 through.
func testEmailLimitConcurrent(t *testing.T, s EmailStore) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanTeam)
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, refused := 0, 0
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := s.CreateEmailBatch(ctx, store.EmailBatch{OrgID: o.ID}, emailJobs(3), 30)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.Is(err, store.ErrOverLimit):
				refused++
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n, _ := s.CountActiveEmailJobs(ctx, o.ID); ok != 10 || refused != 10 || n != 30 {
		t.Fatalf("%d accepted, %d refused, %d active; want 10, 10, 30", ok, refused, n)
	}
}

func testEmailCache(t *testing.T, s EmailStore) {
	ctx := context.Background()
	if _, err := s.GetEmailCache(ctx, "find:acme.test:jane:doe"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("empty cache: %v", err)
	}
	at := time.Now().UTC().Add(-time.Hour).Truncate(time.Microsecond)
	if err := s.PutEmailCache(ctx, store.EmailCacheEntry{Key: "k", Result: []byte(`{"a":1}`), CheckedAt: at}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutEmailCache(ctx, store.EmailCacheEntry{Key: "k", Result: []byte(`{"a":2}`), CheckedAt: at.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	e, err := s.GetEmailCache(ctx, "k")
	if err != nil || string(e.Result) != `{"a":2}` || !e.CheckedAt.Equal(at.Add(time.Minute)) {
		t.Fatalf("GetEmailCache = %+v %v", e, err)
	}
	if err := s.DeleteEmailCache(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetEmailCache(ctx, "k"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
	if err := s.DeleteEmailCache(ctx, "k"); err != nil {
		t.Fatalf("deleting an absent entry: %v", err)
	}
	if _, err := s.GetEmailDomain(ctx, "acme.test"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown domain: %v", err)
	}
	if err := s.PutEmailDomain(ctx, store.EmailDomain{Domain: "acme.test", CatchAll: true, Provider: "google", CheckedAt: at}); err != nil {
		t.Fatal(err)
	}
	d, err := s.GetEmailDomain(ctx, "acme.test")
	if err != nil || !d.CatchAll || d.Provider != "google" || !d.CheckedAt.Equal(at) {
		t.Fatalf("GetEmailDomain = %+v %v", d, err)
	}
	if err := s.PutEmailDomain(ctx, store.EmailDomain{Domain: "acme.test", CatchAll: false, CheckedAt: at}); err != nil {
		t.Fatal(err)
	}
	if d, _ := s.GetEmailDomain(ctx, "acme.test"); d.CatchAll || d.Provider != "" {
		t.Fatalf("after replace: %+v", d)
	}
}

func testEmailPatternFeedback(t *testing.T, s EmailStore) {
	ctx := context.Background()
	if fb, err := s.ListEmailPatternFeedback(ctx, "acme.test"); err != nil || len(fb) != 0 {
		t.Fatalf("no feedback yet: %+v %v", fb, err)
	}
	for _, delivered := range []bool{true, true, false} {
		if err := s.RecordEmailPatternFeedback(ctx, "acme.test", "{first}.{last}", delivered); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.RecordEmailPatternFeedback(ctx, "acme.test", "{f}{last}", false); err != nil {
		t.Fatal(err)
	}
	s.RecordEmailPatternFeedback(ctx, "other.test", "{first}", true)
	fb, err := s.ListEmailPatternFeedback(ctx, "acme.test")
	if err != nil || len(fb) != 2 {
		t.Fatalf("ListEmailPatternFeedback = %+v %v", fb, err)
	}
	byTpl := map[string]store.EmailPatternFeedback{}
	for _, f := range fb {
		byTpl[f.Template] = f
	}
	if f := byTpl["{first}.{last}"]; f.Delivered != 2 || f.Bounced != 1 || f.UpdatedAt.IsZero() || f.Domain != "acme.test" {
		t.Fatalf("first.last: %+v", f)
	}
	if f := byTpl["{f}{last}"]; f.Delivered != 0 || f.Bounced != 1 {
		t.Fatalf("flast: %+v", f)
	}
}
