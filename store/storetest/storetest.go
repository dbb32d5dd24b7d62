// Package storetest is the behavioural suite every store.Store runs.
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

// RunAll runs the suite; open must return a fresh, empty store.
func RunAll(t *testing.T, open func(t *testing.T) store.Store) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"Orgs", testOrgs},
		{"Users", testUsers},
		{"Keys", testKeys},
		{"Concurrency", testConcurrency},
		{"Billing", testBilling},
		{"BillingConcurrent", testBillingConcurrent},
		{"Usage", testUsage},
		{"Signups", testSignups},
		{"TaskLifecycle", testTaskLifecycle},
		{"TaskOrgs", testTaskOrgs},
		{"TaskCancel", testTaskCancel},
		{"TaskClaimConcurrent", testTaskClaimConcurrent},
		{"TaskLeaseExpiry", testTaskLeaseExpiry},
		{"Logins", testLogins},
		{"OAuth", testOAuth},
		{"RefreshLease", testRefreshLease},
		{"RefreshFires", testRefreshFires},
		{"RefreshRuns", testRefreshRuns},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

func testOrgs(t *testing.T, s store.Store) {
	ctx := context.Background()
	o, err := s.CreateOrg(ctx, "Acme", store.PlanStarter)
	if err != nil || o.ID == "" || o.Plan != store.PlanStarter {
		t.Fatalf("CreateOrg = %+v, %v", o, err)
	}
	if _, err := s.CreateOrg(ctx, "Acme", store.PlanTeam); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate org: %v", err)
	}
	if _, err := s.CreateOrg(ctx, "Bad", store.Plan("gold")); err == nil {
		t.Fatal("unknown plan accepted")
	}
	got, err := s.OrgByName(ctx, "Acme")
	if err != nil || got.ID != o.ID {
		t.Fatalf("OrgByName = %+v, %v", got, err)
	}
	if _, err := s.OrgByName(ctx, "Nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing org: %v", err)
	}
	if err := s.SetOrgPlan(ctx, o.ID, store.PlanTeam); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.OrgByName(ctx, "Acme"); got.Plan != store.PlanTeam {
		t.Fatalf("plan after SetOrgPlan = %s", got.Plan)
	}
	if err := s.SetOrgPlan(ctx, "00000000-0000-0000-0000-000000000000", store.PlanTeam); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SetOrgPlan on a missing org: %v", err)
	}
}

func testUsers(t *testing.T, s store.Store) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanStarter)
	u, err := s.CreateUser(ctx, o.ID, " Ops@Acme.TEST ", store.RoleAdmin)
	if err != nil || u.Email != "ops@acme.test" || u.Role != store.RoleAdmin {
		t.Fatalf("CreateUser = %+v, %v", u, err)
	}
	if _, err := s.CreateUser(ctx, o.ID, "ops@acme.test", store.RoleMember); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate email: %v", err)
	}
	if got, err := s.UserByEmail(ctx, "OPS@acme.test"); err != nil || got.ID != u.ID {
		t.Fatalf("UserByEmail = %+v, %v", got, err)
	}
	if _, err := s.UserByEmail(ctx, "x@y.z"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing user: %v", err)
	}
}

func testKeys(t *testing.T, s store.Store) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanStarter)
	u, _ := s.CreateUser(ctx, o.ID, "a@acme.test", store.RoleMember)
	secret, k, err := s.CreateAPIKey(ctx, u.ID)
	if err != nil || k.ID == "" || k.OrgID != o.ID {
		t.Fatalf("CreateAPIKey = %+v, %v", k, err)
	}
	if secret == k.Prefix || len(secret) < 40 {
		t.Fatalf("secret %q too short or equal to its display prefix", secret)
	}
	p, err := s.Authenticate(ctx, secret)
	if err != nil || p.Org.ID != o.ID || p.User.ID != u.ID || p.KeyID != k.ID {
		t.Fatalf("Authenticate = %+v, %v", p, err)
	}
	for _, bad := range []string{"", "nope", secret + "x", store.KeyPrefix} {
		if _, err := s.Authenticate(ctx, bad); !errors.Is(err, store.ErrUnauthorized) {
			t.Errorf("Authenticate(%q) = %v, want ErrUnauthorized", bad, err)
		}
	}
	keys, err := s.ListAPIKeys(ctx, o.ID)
	if err != nil || len(keys) != 1 || keys[0].LastUsedAt == nil {
		t.Fatalf("ListAPIKeys = %+v, %v (last used must be recorded)", keys, err)
	}
	if err := s.RevokeAPIKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(ctx, secret); !errors.Is(err, store.ErrUnauthorized) {
		t.Fatalf("revoked key still works: %v", err)
	}
	if err := s.RevokeAPIKey(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("revoke missing: %v", err)
	}
	if _, _, err := s.CreateAPIKey(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("key for a missing user: %v", err)
	}
	other, _ := s.CreateOrg(ctx, "Other", store.PlanTeam)
	if keys, _ := s.ListAPIKeys(ctx, other.ID); len(keys) != 0 {
		t.Fatalf("another org sees %d keys", len(keys))
	}
}

func testConcurrency(t *testing.T, s store.Store) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanStarter)
	u, _ := s.CreateUser(ctx, o.ID, "a@acme.test", store.RoleMember)
	secret, _, _ := s.CreateAPIKey(ctx, u.ID)
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if _, err := s.Authenticate(ctx, secret); err != nil {
				errs <- fmt.Errorf("authenticate: %w", err)
			}
			if _, _, err := s.CreateAPIKey(ctx, u.ID); err != nil {
				errs <- fmt.Errorf("create key: %w", err)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if keys, _ := s.ListAPIKeys(ctx, o.ID); len(keys) != 51 {
		t.Fatalf("%d keys after 50 concurrent creations, want 51", len(keys))
	}
}

func company(keys ...string) []store.Charge {
	out := make([]store.Charge, len(keys))
	for i, k := range keys {
		out[i] = store.Charge{Kind: store.KindCompany, Key: k}
	}
	return out
}

func testBilling(t *testing.T, s store.Store) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanStarter)
	period := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	now := period.Add(48 * time.Hour)
	bill := func(at time.Time, quota int, charges []store.Charge) store.BillResult {
		t.Helper()
		r, err := s.Bill(ctx, store.BillRequest{OrgID: o.ID, Endpoint: "test", Charges: charges, Quota: quota, PeriodStart: period, Now: at})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// Duplicates within a request are billed once.
	r := bill(now, 10, company("a.com", "b.com", "a.com"))
	if r.Billed != 2 || r.Free != 1 || r.Used != 2 || r.Left != 8 || !all(r.Covered) {
		t.Fatalf("first bill: %+v", r)
	}
	// Records billed within 90 days are free.
	r = bill(now.Add(24*time.Hour), 10, company("a.com", "c.com"))
	if r.Billed != 1 || r.Free != 1 || r.Used != 3 {
		t.Fatalf("second bill: %+v", r)
	}
	// ... and billed again after 90 days.
	r = bill(now.Add(store.NoRebillWindow+time.Hour), 10, company("a.com"))
	if r.Billed != 1 || r.Free != 0 {
		t.Fatalf("after 90 days: %+v", r)
	}
	// The same key of another kind is another record; NoCache rows are
	// billed every time.
	rows := []store.Charge{{Kind: store.KindRow, Key: "b.com", NoCache: true}, {Kind: store.KindRow, Key: "b.com", NoCache: true}}
	r = bill(now, 100, rows)
	if r.Billed != 2 {
		t.Fatalf("rows: %+v", r)
	}
	r = bill(now, 100, rows)
	if r.Billed != 2 {
		t.Fatalf("rows again: %+v", r)
	}
	// Out of credits: charges are covered in order until the quota is
	// spent; cached records stay free; the refused ones are not remembered.
	used := r.Used
	r = bill(now, used+2, company("x.com", "b.com", "y.com", "z.com"))
	if r.Billed != 2 || r.Free != 1 || r.Refused != 1 || r.Left != 0 ||
		!r.Covered[0] || !r.Covered[1] || !r.Covered[2] || r.Covered[3] {
		t.Fatalf("partial: %+v", r)
	}
	r = bill(now, used+2, company("z.com", "y.com"))
	if r.Billed != 0 || r.Refused != 1 || r.Free != 1 || !r.Covered[1] {
		t.Fatalf("after the quota: %+v", r)
	}
	// Another organization has its own cache and quota.
	o2, _ := s.CreateOrg(ctx, "Other", store.PlanStarter)
	r2, err := s.Bill(ctx, store.BillRequest{OrgID: o2.ID, Endpoint: "test", Charges: company("a.com"), Quota: 5, PeriodStart: period, Now: now})
	if err != nil || r2.Billed != 1 || r2.Used != 1 {
		t.Fatalf("other org: %+v %v", r2, err)
	}
	// A new period starts from zero.
	next := period.AddDate(0, 6, 0) // after every bill above
	r, err = s.Bill(ctx, store.BillRequest{OrgID: o.ID, Endpoint: "test", Charges: company("q.com"), Quota: 3, PeriodStart: next, Now: next.Add(time.Hour)})
	if err != nil || r.Used != 1 || r.Left != 2 {
		t.Fatalf("new period: %+v %v", r, err)
	}
}

func all(b []bool) bool {
	for _, v := range b {
		if !v {
			return false
		}
	}
	return true
}

// testBillingConcurrent: 200 parallel bills on one organization, with
// overlapping records, never overspend and never bill a record twice.
func testBillingConcurrent(t *testing.T, s store.Store) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanStarter)
	period := time.Now().UTC().Add(-time.Hour)
	const quota = 150
	var wg sync.WaitGroup
	var mu sync.Mutex
	billed, covered := 0, map[string]int{}
	errs := make(chan error, 200)
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			// Each request asks for 3 records out of 100, so many overlap.
			keys := []string{fmt.Sprintf("d%d.com", i%100), fmt.Sprintf("d%d.com", (i*7)%100), fmt.Sprintf("d%d.com", (i*13+5)%100)}
			r, err := s.Bill(ctx, store.BillRequest{OrgID: o.ID, Endpoint: "test", Charges: company(keys...), Quota: quota, PeriodStart: period, Now: time.Now()})
			if err != nil {
				errs <- err
				return
			}
			mu.Lock()
			billed += r.Billed
			for j, c := range r.Covered {
				if c {
					covered[keys[j]]++
				}
			}
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if billed > quota {
		t.Fatalf("billed %d credits with a quota of %d", billed, quota)
	}
	if billed != len(covered) {
		t.Fatalf("billed %d credits for %d distinct records: a record was billed twice", billed, len(covered))
	}
	u, err := s.Usage(ctx, o.ID, period, time.Now().Add(time.Hour))
	if err != nil || u.Credits != billed {
		t.Fatalf("usage %+v (%v), billed %d", u, err, billed)
	}
}

func testUsage(t *testing.T, s store.Store) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanTeam)
	period := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	at := period.Add(time.Hour)
	for _, charges := range [][]store.Charge{
		company("a.com", "b.com"),
		append(company("a.com"), store.Charge{Kind: store.KindContact, Key: "42"}),
	} {
		if _, err := s.Bill(ctx, store.BillRequest{OrgID: o.ID, Endpoint: "test", Charges: charges, Quota: 100, PeriodStart: period, Now: at}); err != nil {
			t.Fatal(err)
		}
	}
	u, err := s.Usage(ctx, o.ID, period, period.AddDate(0, 1, 0))
	if err != nil {
		t.Fatal(err)
	}
	if u.Credits != 3 || u.Records[store.KindCompany] != 2 || u.Records[store.KindContact] != 1 || u.Free[store.KindCompany] != 1 {
		t.Fatalf("usage %+v", u)
	}
	if u, _ := s.Usage(ctx, o.ID, period.AddDate(0, 1, 0), period.AddDate(0, 2, 0)); u.Credits != 0 {
		t.Fatalf("next period usage %+v", u)
	}
	if _, err := s.OrgByID(ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OrgByID(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("OrgByID(unknown) = %v", err)
	}
}

func testSignups(t *testing.T, s store.Store) {
	ctx := context.Background()
	su := store.Signup{Email: "Jo@Acme.test", FirstName: "Jo", LastName: "Doe", Agent: "claude"}
	if err := s.SaveSignup(ctx, su, "hash1"); err != nil {
		t.Fatal(err)
	}
	// Signing up again replaces the token.
	if err := s.SaveSignup(ctx, su, "hash2"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ConfirmSignup(ctx, "hash1", time.Hour); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("old token: %v", err)
	}
	if _, err := s.ConfirmSignup(ctx, "hash2", 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("expired token: %v", err)
	}
	u, err := s.ConfirmSignup(ctx, "hash2", time.Hour)
	if err != nil || u.Email != "jo@acme.test" || u.Role != store.RoleAdmin {
		t.Fatalf("confirm: %+v %v", u, err)
	}
	if org, err := s.OrgByID(ctx, u.OrgID); err != nil || org.Plan != store.PlanNone {
		t.Fatalf("new org %+v %v", org, err)
	}
	if _, err := s.ConfirmSignup(ctx, "hash2", time.Hour); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("token used twice: %v", err)
	}
	if err := s.SaveSignup(ctx, su, "hash3"); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("signup of an existing account: %v", err)
	}
	o, _ := s.CreateOrg(ctx, "Other", store.PlanStarter)
	s.CreateUser(ctx, o.ID, "member@other.test", store.RoleMember)
	if err := s.SaveSignup(ctx, store.Signup{Email: "member@other.test"}, "hash4"); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("signup of an existing user: %v", err)
	}
}
