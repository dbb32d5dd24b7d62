// Package storetest is the behavioural suite every store.Store runs.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

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
