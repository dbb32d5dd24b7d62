package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

// SavedStore is a state store that also keeps saved queries.
type SavedStore interface {
	store.Store
	saved.Store
}

// RunSaved runs the saved-query suite; open must return a fresh, empty
// store.
func RunSaved(t *testing.T, open func(t *testing.T) SavedStore) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, s SavedStore)
	}{
		{"CreateGet", testSavedCreateGet},
		{"Orgs", testSavedOrgs},
		{"List", testSavedList},
		{"UpdateDelete", testSavedUpdateDelete},
		{"LargeList", testSavedLarge},
		{"CallerID", testSavedCallerID},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

type member struct{ org, user, email string }

func newMember(t *testing.T, s store.Store, org, email string) member {
	t.Helper()
	ctx := context.Background()
	o, err := s.OrgByName(ctx, org)
	if errors.Is(err, store.ErrNotFound) {
		o, err = s.CreateOrg(ctx, org, store.PlanStarter)
	}
	if err != nil {
		t.Fatal(err)
	}
	u, err := s.CreateUser(ctx, o.ID, email, store.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	return member{o.ID, u.ID, u.Email}
}

func testSavedCreateGet(t *testing.T, s SavedStore) {
	ctx := context.Background()
	m := newMember(t, s, "acme", "ops@acme.test")
	in := saved.Query{OrgID: m.org, UserID: m.user, Name: "Customers", Action: "thin_contacts", Tags: []string{"crm", "q3-2026"},
		Params: []byte(`{"icp_text":"payroll"}`), Domains: []string{"acme.com", "beta.io"}, PersonaIDs: []int64{7, 9007199254740993},
		RowCount: 3, Rows: []byte(`[{"domain":"acme.com","x":1},{"domain":"beta.io"},{"persona_id":7}]`)}
	q, err := s.CreateSavedQuery(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if q.ID == "" || q.UserName != m.email || q.DomainCount != 2 || q.PersonaIDCount != 2 || q.CreatedAt.IsZero() {
		t.Fatalf("created %+v", q)
	}
	got, err := s.SavedQuery(ctx, m.org, q.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Customers" || got.Action != "thin_contacts" || !slices.Equal(got.Tags, in.Tags) ||
		!slices.Equal(got.Domains, in.Domains) || !slices.Equal(got.PersonaIDs, in.PersonaIDs) ||
		string(got.Params) != `{"icp_text":"payroll"}` || got.RowCount != 3 || got.UserName != m.email ||
		!got.UpdatedAt.Equal(q.UpdatedAt) {
		t.Fatalf("read back %+v, want %+v", got, q)
	}
	info, err := s.SavedQueryInfo(ctx, m.org, q.ID)
	if err != nil || info.Name != "Customers" || info.DomainCount != 2 || info.PersonaIDCount != 2 || info.UserName != m.email || info.Domains != nil {
		t.Fatalf("info %+v, %v", info, err)
	}
	if _, err := s.SavedQueryInfo(ctx, "00000000-0000-0000-0000-000000000000", q.ID); !errors.Is(err, saved.ErrNotFound) {
		t.Fatalf("info of another organization's query: %v", err)
	}
	if _, err := s.SavedQuery(ctx, m.org, "00000000-0000-0000-0000-000000000000"); !errors.Is(err, saved.ErrNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
	if _, err := s.SavedQuery(ctx, m.org, "not-a-uuid"); !errors.Is(err, saved.ErrNotFound) {
		t.Fatalf("malformed id: %v", err)
	}
	if _, err := s.CreateSavedQuery(ctx, saved.Query{OrgID: "00000000-0000-0000-0000-000000000000", UserID: m.user, Name: "x", Action: "exclusion"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown org: %v", err)
	}
	// A persona-only list has no domains and no tags.
	p, err := s.CreateSavedQuery(ctx, saved.Query{OrgID: m.org, UserID: m.user, Name: "people", Action: "exclusion", PersonaIDs: []int64{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.SavedQuery(ctx, m.org, p.ID); len(got.Domains) != 0 || len(got.PersonaIDs) != 2 || got.Tags == nil || len(got.Tags) != 0 {
		t.Fatalf("persona-only list read back %+v", got)
	}
}

func testSavedOrgs(t *testing.T, s SavedStore) {
	ctx := context.Background()
	a := newMember(t, s, "acme", "ops@acme.test")
	b := newMember(t, s, "beta", "ops@beta.test")
	q, err := s.CreateSavedQuery(ctx, saved.Query{OrgID: a.org, UserID: a.user, Name: "mine", Action: "exclusion", Domains: []string{"acme.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SavedQuery(ctx, b.org, q.ID); !errors.Is(err, saved.ErrNotFound) {
		t.Errorf("another organization reads the query: %v", err)
	}
	if list, n, err := s.ListSavedQueries(ctx, b.org, saved.ListFilter{Limit: 10}); err != nil || n != 0 || len(list) != 0 {
		t.Errorf("another organization lists %d (%v)", n, err)
	}
	name := "theirs"
	if _, err := s.UpdateSavedQuery(ctx, b.org, "", q.ID, saved.Update{Name: &name}); !errors.Is(err, saved.ErrNotFound) {
		t.Errorf("another organization's admin renames the query: %v", err)
	}
	if err := s.DeleteSavedQuery(ctx, b.org, "", q.ID); !errors.Is(err, saved.ErrNotFound) {
		t.Errorf("another organization's admin deletes the query: %v", err)
	}
	if _, err := s.SavedQuery(ctx, a.org, q.ID); err != nil {
		t.Errorf("the query is gone after another organization's attempts: %v", err)
	}
}

func testSavedList(t *testing.T, s SavedStore) {
	ctx := context.Background()
	m := newMember(t, s, "acme", "ops@acme.test")
	mk := func(name, action string, tags []string, domains ...string) saved.Query {
		q, err := s.CreateSavedQuery(ctx, saved.Query{OrgID: m.org, UserID: m.user, Name: name, Action: action, Tags: tags, Domains: domains, PersonaIDs: []int64{1}})
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	long := make([]string, 1500)
	for i := range long {
		long[i] = fmt.Sprintf("d%04d.com", i)
	}
	q1 := mk("one", "exclusion", []string{"crm", "customers"}, long...)
	q2 := mk("two", "thin_discover", []string{"fintech"}, "a.com")
	mk("personas only", "exclusion", []string{"crm"})
	q4 := mk("four", "thin_discover", nil, "b.com", "c.com")

	names := func(qs []saved.Query) []string {
		var out []string
		for _, q := range qs {
			out = append(out, q.Name)
		}
		return out
	}
	for _, tc := range []struct {
		f     saved.ListFilter
		want  []string
		total int
	}{
		{saved.ListFilter{Limit: 10}, []string{"four", "two", "one"}, 3},
		{saved.ListFilter{Limit: 2}, []string{"four", "two"}, 3},
		{saved.ListFilter{Limit: 2, Offset: 2}, []string{"one"}, 3},
		{saved.ListFilter{Limit: 10, Offset: 5}, nil, 3},
		{saved.ListFilter{Limit: 10, Actions: []string{"thin_discover"}}, []string{"four", "two"}, 2},
		{saved.ListFilter{Limit: 10, Actions: []string{"discover", "exclusion"}}, []string{"one"}, 1},
		{saved.ListFilter{Limit: 10, Tags: []string{"crm"}}, []string{"one"}, 1},
		{saved.ListFilter{Limit: 10, Tags: []string{"fintech", "customers"}}, []string{"two", "one"}, 2},
		{saved.ListFilter{Limit: 10, Tags: []string{"nothing"}}, nil, 0},
		{saved.ListFilter{Limit: 10, Actions: []string{"exclusion"}, Tags: []string{"fintech"}}, nil, 0},
	} {
		list, total, err := s.ListSavedQueries(ctx, m.org, tc.f)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(names(list), tc.want) || total != tc.total {
			t.Errorf("%+v: %v (%d), want %v (%d)", tc.f, names(list), total, tc.want, tc.total)
		}
	}
	list, _, err := s.ListSavedQueries(ctx, m.org, saved.ListFilter{Limit: 10, DomainLimit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range list {
		switch q.ID {
		case q1.ID:
			if len(q.Domains) != 1000 || q.Domains[0] != "d0000.com" || q.DomainCount != 1500 || !slices.Equal(q.Tags, []string{"crm", "customers"}) {
				t.Errorf("long list: %d domains shown, count %d, tags %v", len(q.Domains), q.DomainCount, q.Tags)
			}
		case q2.ID:
			if !slices.Equal(q.Domains, []string{"a.com"}) || q.UserName != m.email {
				t.Errorf("listed %+v", q)
			}
		case q4.ID:
			if len(q.Tags) != 0 || q.Tags == nil {
				t.Errorf("untagged query lists tags %#v", q.Tags)
			}
		}
	}
}

func testSavedUpdateDelete(t *testing.T, s SavedStore) {
	ctx := context.Background()
	owner := newMember(t, s, "acme", "ops@acme.test")
	other := newMember(t, s, "acme", "sales@acme.test")
	q, err := s.CreateSavedQuery(ctx, saved.Query{OrgID: owner.org, UserID: owner.user, Name: "old", Action: "exclusion", Tags: []string{"a1", "b2"}, Domains: []string{"acme.com"}})
	if err != nil {
		t.Fatal(err)
	}
	name := "new"
	if _, err := s.UpdateSavedQuery(ctx, owner.org, other.user, q.ID, saved.Update{Name: &name}); !errors.Is(err, saved.ErrNotFound) {
		t.Errorf("a member renames another's query: %v", err)
	}
	got, err := s.UpdateSavedQuery(ctx, owner.org, owner.user, q.ID, saved.Update{Name: &name})
	if err != nil || got.Name != "new" || !slices.Equal(got.Tags, []string{"a1", "b2"}) || got.UpdatedAt.Before(q.UpdatedAt) {
		t.Fatalf("rename: %+v %v", got, err)
	}
	tags := []string{"c3"}
	got, err = s.UpdateSavedQuery(ctx, owner.org, "", q.ID, saved.Update{Tags: &tags})
	if err != nil || got.Name != "new" || !slices.Equal(got.Tags, []string{"c3"}) {
		t.Fatalf("retag by an admin: %+v %v", got, err)
	}
	empty := []string{}
	if got, err = s.UpdateSavedQuery(ctx, owner.org, owner.user, q.ID, saved.Update{Tags: &empty}); err != nil || len(got.Tags) != 0 {
		t.Fatalf("clear tags: %+v %v", got, err)
	}
	if read, _ := s.SavedQuery(ctx, owner.org, q.ID); read.Name != "new" || len(read.Tags) != 0 || len(read.Domains) != 1 {
		t.Fatalf("read back after updates: %+v", read)
	}
	if err := s.DeleteSavedQuery(ctx, owner.org, other.user, q.ID); !errors.Is(err, saved.ErrNotFound) {
		t.Errorf("a member deletes another's query: %v", err)
	}
	if err := s.DeleteSavedQuery(ctx, owner.org, owner.user, q.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSavedQuery(ctx, owner.org, owner.user, q.ID); !errors.Is(err, saved.ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}
	if _, err := s.SavedQuery(ctx, owner.org, q.ID); !errors.Is(err, saved.ErrNotFound) {
		t.Errorf("read after delete: %v", err)
	}
	if _, err := s.UpdateSavedQuery(ctx, owner.org, "", q.ID, saved.Update{Name: &name}); !errors.Is(err, saved.ErrNotFound) {
		t.Errorf("update after delete: %v", err)
	}
}

// testSavedLarge stores and reads back lists at the spec's caps.
func testSavedLarge(t *testing.T, s SavedStore) {
	ctx := context.Background()
	m := newMember(t, s, "acme", "ops@acme.test")
	domains := make([]string, 250_000)
	for i := range domains {
		domains[i] = fmt.Sprintf("company-%06d.com", i)
	}
	ids := make([]int64, 500_000)
	for i := range ids {
		ids[i] = int64(i + 1)
	}
	q, err := s.CreateSavedQuery(ctx, saved.Query{OrgID: m.org, UserID: m.user, Name: "big", Action: "exclusion", Domains: domains, PersonaIDs: ids})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.SavedQuery(ctx, m.org, q.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Domains, domains) || !slices.Equal(got.PersonaIDs, ids) || got.DomainCount != 250_000 || got.PersonaIDCount != 500_000 {
		t.Fatalf("read back %d domains, %d persona ids", len(got.Domains), len(got.PersonaIDs))
	}
}

// testSavedCallerID: a query created with an id of the caller's keeps it;
// a second create with that id is store.ErrConflict and stores nothing.
func testSavedCallerID(t *testing.T, s SavedStore) {
	ctx := context.Background()
	m := newMember(t, s, "acme", "ops@acme.test")
	const id = "6f1c3a52-1d0e-5b7a-9e44-0c2b8d1f7a33"
	q, err := s.CreateSavedQuery(ctx, saved.Query{ID: id, OrgID: m.org, UserID: m.user, Name: "run results", Action: "thin_discover",
		Tags: []string{"prospecting"}, Domains: []string{"acme.com"}, RowCount: 1, Rows: []byte(`[{"domain":"acme.com"}]`)})
	if err != nil {
		t.Fatal(err)
	}
	if q.ID != id {
		t.Fatalf("created with id %q, want %q", q.ID, id)
	}
	if got, err := s.SavedQueryInfo(ctx, m.org, id); err != nil || got.Name != "run results" {
		t.Fatalf("read back %+v, %v", got, err)
	}
	_, err = s.CreateSavedQuery(ctx, saved.Query{ID: id, OrgID: m.org, UserID: m.user, Name: "again", Action: "thin_discover", Domains: []string{"beta.io"}})
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("second create with the same id: %v", err)
	}
	if list, n, err := s.ListSavedQueries(ctx, m.org, saved.ListFilter{Limit: 10}); err != nil || n != 1 || list[0].Name != "run results" {
		t.Fatalf("after the conflict: %d queries (%v)", n, err)
	}
	// An empty id is still assigned by the store.
	if q, err := s.CreateSavedQuery(ctx, saved.Query{OrgID: m.org, UserID: m.user, Name: "other", Action: "exclusion", Domains: []string{"beta.io"}}); err != nil || q.ID == "" || q.ID == id {
		t.Fatalf("store-assigned id %q, %v", q.ID, err)
	}
}
