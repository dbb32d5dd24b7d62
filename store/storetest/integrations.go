package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/openprospect/prospectd/store"
)

// IntegrationsStore is what the integration suite needs of a store.
type IntegrationsStore interface {
	store.Store
	store.IntegrationStore
	store.ResearchRecordStore
}

// RunIntegrations runs the integration and research-record suite; open
// must return a fresh, empty store.
func RunIntegrations(t *testing.T, open func(t *testing.T) IntegrationsStore) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, s IntegrationsStore)
	}{
		{"IntegrationCRUD", testIntegrationCRUD},
		{"IntegrationDefaults", testIntegrationDefaults},
		{"IntegrationFirstDefaultConcurrent", testIntegrationFirstDefaultConcurrent},
		{"ResearchRecords", testResearchRecords},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

func newIntegration(org, kind, name string) store.Integration {
	return store.Integration{ID: uuid.NewString(), OrgID: org, Kind: kind, Name: name, Provider: "openai",
		Model: "gpt-4o-mini", SealedKey: "v1:abcd:sealed", CostPerQuery: 0.005}
}

func testIntegrationCRUD(t *testing.T, s IntegrationsStore) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanStarter)
	other, _ := s.CreateOrg(ctx, "Other", store.PlanStarter)
	a, err := s.CreateIntegration(ctx, newIntegration(o.ID, store.IntegrationLLM, "main"))
	if err != nil || !a.IsDefault || a.CreatedAt.IsZero() {
		t.Fatalf("create = %+v, %v (first one is default)", a, err)
	}
	if _, err := s.CreateIntegration(ctx, a); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate id: %v", err)
	}
	if _, err := s.CreateIntegration(ctx, newIntegration("no-such-org", store.IntegrationLLM, "x")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown org: %v", err)
	}
	got, err := s.GetIntegration(ctx, o.ID, store.IntegrationLLM, a.ID)
	if err != nil || got.Name != "main" || got.SealedKey != a.SealedKey || got.CostPerQuery != 0.005 {
		t.Fatalf("get = %+v, %v", got, err)
	}
	for _, probe := range []struct{ org, kind string }{{other.ID, store.IntegrationLLM}, {o.ID, store.IntegrationSearch}} {
		if _, err := s.GetIntegration(ctx, probe.org, probe.kind, a.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("get as %v: %v", probe, err)
		}
	}
	a.Name, a.Model, a.ModelDeprecated, a.SupportsWebSearch, a.BaseURL = "renamed", "gpt-4o-search-preview", true, true, "https://llm.example.com/v1"
	up, err := s.UpdateIntegration(ctx, a)
	if err != nil || up.Name != "renamed" || !up.ModelDeprecated || !up.SupportsWebSearch || up.BaseURL != a.BaseURL || !up.IsDefault {
		t.Fatalf("update = %+v, %v", up, err)
	}
	a.OrgID = other.ID
	if _, err := s.UpdateIntegration(ctx, a); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("update as other org: %v", err)
	}
	b, _ := s.CreateIntegration(ctx, newIntegration(o.ID, store.IntegrationLLM, "second"))
	if b.IsDefault {
		t.Fatal("second integration became default")
	}
	list, err := s.ListIntegrations(ctx, o.ID, store.IntegrationLLM)
	if err != nil || len(list) != 2 || list[0].Name != "renamed" || list[1].Name != "second" {
		t.Fatalf("list = %+v, %v", list, err)
	}
	if l, _ := s.ListIntegrations(ctx, o.ID, store.IntegrationSearch); len(l) != 0 {
		t.Fatalf("search list = %+v", l)
	}
	if err := s.DeleteIntegration(ctx, other.ID, store.IntegrationLLM, b.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("delete as other org: %v", err)
	}
	if err := s.DeleteIntegration(ctx, o.ID, store.IntegrationLLM, b.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetIntegration(ctx, o.ID, store.IntegrationLLM, b.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted: %v", err)
	}
}

func testIntegrationDefaults(t *testing.T, s IntegrationsStore) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanStarter)
	if _, err := s.DefaultIntegration(ctx, o.ID, store.IntegrationSearch); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("no default: %v", err)
	}
	a, _ := s.CreateIntegration(ctx, newIntegration(o.ID, store.IntegrationSearch, "a"))
	b, _ := s.CreateIntegration(ctx, newIntegration(o.ID, store.IntegrationSearch, "b"))
	l, _ := s.CreateIntegration(ctx, newIntegration(o.ID, store.IntegrationLLM, "llm"))
	if !l.IsDefault {
		t.Fatal("defaults are per kind")
	}
	if err := s.SetDefaultIntegration(ctx, o.ID, store.IntegrationSearch, b.ID); err != nil {
		t.Fatal(err)
	}
	d, err := s.DefaultIntegration(ctx, o.ID, store.IntegrationSearch)
	if err != nil || d.ID != b.ID {
		t.Fatalf("default = %+v, %v", d, err)
	}
	if got, _ := s.GetIntegration(ctx, o.ID, store.IntegrationSearch, a.ID); got.IsDefault {
		t.Fatal("old default kept its flag")
	}
	if err := s.ClearDefaultIntegration(ctx, o.ID, store.IntegrationSearch, a.ID); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("clear a non-default: %v", err)
	}
	if err := s.SetDefaultIntegration(ctx, o.ID, store.IntegrationSearch, l.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("set default across kinds: %v", err)
	}
	if err := s.ClearDefaultIntegration(ctx, o.ID, store.IntegrationSearch, b.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DefaultIntegration(ctx, o.ID, store.IntegrationSearch); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("cleared default: %v", err)
	}
	if d, err := s.DefaultIntegration(ctx, o.ID, store.IntegrationLLM); err != nil || d.ID != l.ID {
		t.Fatalf("llm default touched: %+v %v", d, err)
	}
	// Deleting the default leaves none; the next new one becomes default.
	if err := s.DeleteIntegration(ctx, o.ID, store.IntegrationLLM, l.ID); err != nil {
		t.Fatal(err)
	}
	n, _ := s.CreateIntegration(ctx, newIntegration(o.ID, store.IntegrationLLM, "next"))
	if !n.IsDefault {
		t.Fatal("new integration after deleting the default is not default")
	}
}

func testIntegrationFirstDefaultConcurrent(t *testing.T, s IntegrationsStore) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanStarter)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.CreateIntegration(ctx, newIntegration(o.ID, store.IntegrationLLM, "x")); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	list, _ := s.ListIntegrations(ctx, o.ID, store.IntegrationLLM)
	defaults := 0
	for _, in := range list {
		if in.IsDefault {
			defaults++
		}
	}
	if len(list) != 8 || defaults != 1 {
		t.Fatalf("%d integrations, %d defaults", len(list), defaults)
	}
}

func testResearchRecords(t *testing.T, s IntegrationsStore) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "Acme", store.PlanStarter)
	task, _ := s.CreateTask(ctx, o.ID, "research", []byte(`{}`))
	if err := s.PutResearchRecord(ctx, task.ID, "acme.com", []byte(`{"v":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutResearchRecord(ctx, task.ID, "acme.com", []byte(`{"v":2}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutResearchRecord(ctx, task.ID, "b.com", []byte(`{"v":3}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutResearchRecord(ctx, "no-such-task", "x", []byte(`{}`)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown task: %v", err)
	}
	got, err := s.ResearchRecords(ctx, task.ID)
	if err != nil || len(got) != 2 || string(got["acme.com"]) != `{"v":2}` {
		t.Fatalf("records = %q, %v", got, err)
	}
	if got, _ := s.ResearchRecords(ctx, "other"); len(got) != 0 {
		t.Fatalf("other task: %q", got)
	}
}
