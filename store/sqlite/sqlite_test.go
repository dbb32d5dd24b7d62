package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.RunAll(t, func(t *testing.T) store.Store {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "state.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

func TestReopenKeepsData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanTeam)
	u, _ := s.CreateUser(ctx, o.ID, "a@acme.test", store.RoleAdmin)
	secret, _, _ := s.CreateAPIKey(ctx, u.ID)
	s.Close()
	s, err = Open(ctx, path) // migrations must be idempotent
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if p, err := s.Authenticate(ctx, secret); err != nil || p.Org.Plan != store.PlanTeam {
		t.Fatalf("after reopen: %+v %v", p, err)
	}
}
