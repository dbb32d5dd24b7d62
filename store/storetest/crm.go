package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

// CRMStore is a state store that keeps saved queries and CRM connections.
type CRMStore interface {
	store.Store
	saved.Store
	crm.Store
}

// RunCRM runs the CRM suite; open must return a fresh, empty store.
func RunCRM(t *testing.T, open func(t *testing.T) CRMStore) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, s CRMStore)
	}{
		{"States", testCRMStates},
		{"Connections", testCRMConnections},
		{"Checkpoints", testCRMCheckpoints},
		{"FinishSnapshot", testCRMFinish},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

func testCRMStates(t *testing.T, s CRMStore) {
	ctx := context.Background()
	m := newMember(t, s, "acme", "ops@acme.test")
	now := time.Now().UTC().Truncate(time.Second)
	for _, tc := range []struct {
		name string
		hash string
		exp  time.Time
		at   time.Time
		ok   bool
	}{
		{"valid", "h1", now.Add(10 * time.Minute), now, true},
		{"expired", "h2", now.Add(10 * time.Minute), now.Add(11 * time.Minute), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := s.CreateCRMState(ctx, crm.State{Hash: tc.hash, OrgID: m.org, UserID: m.user, Provider: crm.HubSpot, ExpiresAt: tc.exp}); err != nil {
				t.Fatal(err)
			}
			st, err := s.TakeCRMState(ctx, tc.hash, tc.at)
			if tc.ok && (err != nil || st.OrgID != m.org || st.UserID != m.user || st.Provider != crm.HubSpot) {
				t.Fatalf("take = %+v, %v", st, err)
			}
			if !tc.ok && !errors.Is(err, crm.ErrBadState) {
				t.Fatalf("take expired: %v", err)
			}
			// Single use: a second take fails whatever the first did.
			if _, err := s.TakeCRMState(ctx, tc.hash, tc.at); !errors.Is(err, crm.ErrBadState) {
				t.Fatalf("second take: %v", err)
			}
		})
	}
	if _, err := s.TakeCRMState(ctx, "unknown", now); !errors.Is(err, crm.ErrBadState) {
		t.Fatalf("unknown state: %v", err)
	}
}

func testCRMConnections(t *testing.T, s CRMStore) {
	ctx := context.Background()
	a := newMember(t, s, "acme", "ops@acme.test")
	b := newMember(t, s, "beta", "ops@beta.test")
	at := time.Now().UTC().Truncate(time.Second)
	exp := at.Add(30 * time.Minute)
	c := crm.Connection{OrgID: a.org, Provider: crm.HubSpot, UserID: a.user, Status: crm.StatusActive, SealedAccess: "v1:k:a",
		SealedRefresh: "v1:k:r", Expiry: exp, APIBase: "https://x.example", ConnectedAt: at}
	if err := s.PutCRMConnection(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := s.PutCRMConnection(ctx, crm.Connection{OrgID: a.org, Provider: crm.Salesforce, UserID: a.user, Status: crm.StatusActive,
		SealedAccess: "x", SealedRefresh: "y", ConnectedAt: at}); err != nil {
		t.Fatal(err)
	}
	got, err := s.CRMConnection(ctx, a.org, crm.HubSpot)
	if err != nil || got.SealedAccess != "v1:k:a" || got.SealedRefresh != "v1:k:r" || !got.Expiry.Equal(exp) || !got.ConnectedAt.Equal(at) ||
		got.APIBase != "https://x.example" || got.Status != crm.StatusActive || got.UserID != a.user {
		t.Fatalf("get = %+v, %v", got, err)
	}
	if sf, _ := s.CRMConnection(ctx, a.org, crm.Salesforce); !sf.Expiry.IsZero() {
		t.Fatalf("no expiry read back as %v", sf.Expiry)
	}
	for _, probe := range []struct{ org, provider string }{{b.org, crm.HubSpot}, {a.org, crm.Pipedrive}} {
		if _, err := s.CRMConnection(ctx, probe.org, probe.provider); !errors.Is(err, crm.ErrNoConnection) {
			t.Fatalf("%+v: %v", probe, err)
		}
	}
	if l, err := s.ListCRMConnections(ctx, b.org); err != nil || len(l) != 0 {
		t.Fatalf("another organization lists %+v, %v", l, err)
	}
	l, err := s.ListCRMConnections(ctx, a.org)
	if err != nil || len(l) != 2 || l[0].Provider != crm.HubSpot || l[1].Provider != crm.Salesforce {
		t.Fatalf("list = %+v, %v", l, err)
	}
	if err := s.SetCRMStatus(ctx, a.org, crm.HubSpot, crm.StatusNeedsReauth, "refresh refused"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.CRMConnection(ctx, a.org, crm.HubSpot); got.Status != crm.StatusNeedsReauth || got.StatusReason != "refresh refused" {
		t.Fatalf("status = %+v", got)
	}
	exp2 := exp.Add(time.Hour)
	if err := s.UpdateCRMTokens(ctx, a.org, crm.HubSpot, "a2", "r2", exp2); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.CRMConnection(ctx, a.org, crm.HubSpot); got.Status != crm.StatusActive || got.SealedAccess != "a2" || got.SealedRefresh != "r2" || !got.Expiry.Equal(exp2) {
		t.Fatalf("after refresh = %+v", got)
	}
	for _, err := range []error{
		s.UpdateCRMTokens(ctx, b.org, crm.HubSpot, "a", "r", exp),
		s.SetCRMStatus(ctx, b.org, crm.HubSpot, crm.StatusActive, ""),
		s.DeleteCRMConnection(ctx, b.org, crm.HubSpot),
	} {
		if !errors.Is(err, crm.ErrNoConnection) {
			t.Fatalf("another organization's connection changed: %v", err)
		}
	}
	// Reconnecting replaces tokens and status in place.
	c.SealedAccess, c.Status = "v1:k:a3", crm.StatusActive
	if err := s.PutCRMConnection(ctx, c); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.CRMConnection(ctx, a.org, crm.HubSpot); got.SealedAccess != "v1:k:a3" {
		t.Fatalf("reconnect = %+v", got)
	}
	if err := s.DeleteCRMConnection(ctx, a.org, crm.HubSpot); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteCRMConnection(ctx, a.org, crm.HubSpot); !errors.Is(err, crm.ErrNoConnection) {
		t.Fatalf("second delete: %v", err)
	}
}

func newTask(t *testing.T, s CRMStore, org string) string {
	t.Helper()
	tk, err := s.CreateTask(context.Background(), org, crm.KindSnapshot, []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	return tk.ID
}

func testCRMCheckpoints(t *testing.T, s CRMStore) {
	ctx := context.Background()
	m := newMember(t, s, "acme", "ops@acme.test")
	task := newTask(t, s, m.org)
	if cp, err := s.CRMCheckpoint(ctx, task); err != nil || cp != (crm.Checkpoint{}) {
		t.Fatalf("fresh checkpoint = %+v, %v", cp, err)
	}
	pages := []struct {
		cursor string
		done   bool
		items  []string
	}{
		{"100", false, []string{"b.com", "a.com", "b.com"}},
		{"200", false, []string{"c.com", "a.com"}},
		{"", true, nil},
	}
	for _, p := range pages {
		if err := s.SaveCRMPage(ctx, task, p.cursor, p.done, p.items); err != nil {
			t.Fatal(err)
		}
	}
	cp, err := s.CRMCheckpoint(ctx, task)
	if err != nil || cp.Pages != 3 || !cp.Done || cp.Items != 3 || cp.Cursor != "" {
		t.Fatalf("checkpoint = %+v, %v", cp, err)
	}
	items, err := s.CRMItems(ctx, task)
	if err != nil || !slices.Equal(items, []string{"b.com", "a.com", "c.com"}) {
		t.Fatalf("items = %v, %v (distinct, in order stored)", items, err)
	}
	other := newTask(t, s, m.org)
	if items, _ := s.CRMItems(ctx, other); len(items) != 0 {
		t.Fatalf("another task's items: %v", items)
	}
	if err := s.ResetCRMCheckpoint(ctx, task); err != nil {
		t.Fatal(err)
	}
	if cp, _ := s.CRMCheckpoint(ctx, task); cp != (crm.Checkpoint{}) {
		t.Fatalf("after reset = %+v", cp)
	}
	if items, _ := s.CRMItems(ctx, task); len(items) != 0 {
		t.Fatalf("items after reset: %v", items)
	}
}

func testCRMFinish(t *testing.T, s CRMStore) {
	ctx := context.Background()
	m := newMember(t, s, "acme", "ops@acme.test")
	if err := s.PutCRMConnection(ctx, crm.Connection{OrgID: m.org, Provider: crm.Pipedrive, UserID: m.user, Status: crm.StatusActive,
		SealedAccess: "a", SealedRefresh: "r", ConnectedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	list := func(domains ...string) saved.Query {
		return saved.Query{OrgID: m.org, UserID: m.user, Name: "CRM", Action: saved.ActionExclusion, Tags: []string{"crm"}, Domains: domains}
	}
	task := newTask(t, s, m.org)
	if err := s.SaveCRMPage(ctx, task, "", true, []string{"a.com"}); err != nil {
		t.Fatal(err)
	}
	first, err := s.FinishCRMSnapshot(ctx, task, crm.Pipedrive, crm.KindCompanies, list("a.com"))
	if err != nil || first.ID == "" {
		t.Fatalf("finish = %+v, %v", first, err)
	}
	if cp, _ := s.CRMCheckpoint(ctx, task); cp != (crm.Checkpoint{}) {
		t.Fatalf("progress kept after finishing: %+v", cp)
	}
	c, _ := s.CRMConnection(ctx, m.org, crm.Pipedrive)
	if c.CompaniesQueryID != first.ID || c.ContactsQueryID != "" {
		t.Fatalf("connection lists = %q, %q", c.CompaniesQueryID, c.ContactsQueryID)
	}
	second, err := s.FinishCRMSnapshot(ctx, newTask(t, s, m.org), crm.Pipedrive, crm.KindCompanies, list("b.com", "c.com"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SavedQuery(ctx, m.org, first.ID); !errors.Is(err, saved.ErrNotFound) {
		t.Fatalf("the replaced list is still there: %v", err)
	}
	if got, err := s.SavedQuery(ctx, m.org, second.ID); err != nil || !slices.Equal(got.Domains, []string{"b.com", "c.com"}) || got.Action != saved.ActionExclusion {
		t.Fatalf("new list = %+v, %v", got, err)
	}
	// The contacts list is separate from the companies list.
	people := saved.Query{OrgID: m.org, UserID: m.user, Name: "CRM people", Action: saved.ActionExclusion, PersonaIDs: []int64{5}}
	p, err := s.FinishCRMSnapshot(ctx, newTask(t, s, m.org), crm.Pipedrive, crm.KindContacts, people)
	if err != nil {
		t.Fatal(err)
	}
	c, _ = s.CRMConnection(ctx, m.org, crm.Pipedrive)
	if c.CompaniesQueryID != second.ID || c.ContactsQueryID != p.ID {
		t.Fatalf("connection lists = %q, %q", c.CompaniesQueryID, c.ContactsQueryID)
	}
	// Deleting the list by hand leaves the connection without one.
	if err := s.DeleteSavedQuery(ctx, m.org, "", p.ID); err != nil {
		t.Fatal(err)
	}
	if c, _ = s.CRMConnection(ctx, m.org, crm.Pipedrive); c.ContactsQueryID != "" {
		t.Fatalf("deleted list still referenced: %q", c.ContactsQueryID)
	}
	// A connection deleted meanwhile: nothing is saved.
	if err := s.DeleteCRMConnection(ctx, m.org, crm.Pipedrive); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FinishCRMSnapshot(ctx, newTask(t, s, m.org), crm.Pipedrive, crm.KindCompanies, list("z.com")); !errors.Is(err, crm.ErrNoConnection) {
		t.Fatalf("finish without connection: %v", err)
	}
	if qs, _, _ := s.ListSavedQueries(ctx, m.org, saved.ListFilter{Limit: 10}); len(qs) != 1 || qs[0].ID != second.ID {
		t.Fatalf("saved lists = %+v", qs)
	}
}
