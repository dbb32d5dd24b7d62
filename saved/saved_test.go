package saved_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

func TestNormalizeTag(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"CRM", "crm"},
		{"  Open   Deals ", "open-deals"},
		{"Q3/2026!", "q32026"},
		{"fin_tech", "fin_tech"},
		{"Zürich Kunden", "zürich-kunden"},
		{"--a--b--", "a-b"},
		{"a - b", "a-b"},
		{"!!!", ""},
	} {
		if got := saved.NormalizeTag(tc.in); got != tc.want {
			t.Errorf("NormalizeTag(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestValidTags(t *testing.T) {
	many := make([]string, 21)
	for i := range many {
		many[i] = fmt.Sprintf("tag%d", i)
	}
	for _, tc := range []struct {
		in      []string
		want    []string
		wantErr string
	}{
		{nil, []string{}, ""},
		{[]string{"CRM", "crm", "Open Deals"}, []string{"crm", "open-deals"}, ""},
		{[]string{"x"}, nil, "2-50 characters"},
		{[]string{"a!"}, nil, "2-50 characters"},
		{[]string{strings.Repeat("a", 51)}, nil, "2-50 characters"},
		{[]string{strings.Repeat("a", 50)}, []string{strings.Repeat("a", 50)}, ""},
		{many, nil, "at most 20 tags"},
		{append(many[:20:20], "TAG0"), many[:20], ""},
	} {
		got, err := saved.ValidTags(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, saved.ErrInvalid) {
				t.Errorf("ValidTags(%v) error = %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ValidTags(%v) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestFilterTags(t *testing.T) {
	got := saved.FilterTags([]string{"CRM, Open Deals", "crm", " ", "fintech"})
	if want := []string{"crm", "open-deals", "fintech"}; !slices.Equal(got, want) {
		t.Errorf("FilterTags = %v, want %v", got, want)
	}
}

func newService(t testing.TB) (*saved.Service, saved.Caller) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	o, _ := st.CreateOrg(ctx, "acme", store.PlanStarter)
	u, _ := st.CreateUser(ctx, o.ID, "ops@acme.test", store.RoleMember)
	return saved.NewService(st), saved.Caller{OrgID: o.ID, UserID: u.ID}
}

func rows(t *testing.T, js string) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	if err := json.Unmarshal([]byte(js), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSaveResults(t *testing.T) {
	svc, c := newService(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		in      saved.SaveResults
		wantErr string
		check   func(t *testing.T, q saved.Query)
	}{
		{"discover", saved.SaveResults{Name: " Fintech ", Action: "discover", Tags: []string{"Open Deals"},
			Data:   rows(t, `[{"domain":"https://www.Acme.com/x","score":3},{"domain":"acme.com"},{"domain":"beta.co.uk","extra":{"a":1}},{"domain":null},{"domain":""}]`),
			Params: json.RawMessage(`{"icp_text":"payments"}`)}, "", func(t *testing.T, q saved.Query) {
			if q.Action != "thin_discover" || q.Name != "Fintech" || !slices.Equal(q.Domains, []string{"acme.com", "beta.co.uk"}) ||
				q.RowCount != 5 || q.DomainCount != 2 || !slices.Equal(q.Tags, []string{"open-deals"}) || len(q.PersonaIDs) != 0 {
				t.Errorf("saved %+v", q)
			}
			if !strings.Contains(string(q.Rows), `"extra":{"a":1}`) || !strings.Contains(string(q.Rows), `"score":3`) {
				t.Errorf("rows not kept as sent: %s", q.Rows)
			}
		}},
		{"domain column", saved.SaveResults{Name: "x", Action: "append", DomainColumn: "website", Data: rows(t, `[{"website":"acme.com"}]`)}, "",
			func(t *testing.T, q saved.Query) {
				if !slices.Equal(q.Domains, []string{"acme.com"}) || q.Action != "thin_append" {
					t.Errorf("saved %+v", q)
				}
			}},
		{"contacts persona only", saved.SaveResults{Name: "people", Action: "contacts", Data: rows(t, `[{"persona_id":12,"name":"A"},{"persona_id":12},{"persona_id":9007199254740993}]`)}, "",
			func(t *testing.T, q saved.Query) {
				if !slices.Equal(q.PersonaIDs, []int64{12, 9007199254740993}) || q.PersonaIDCount != 2 || len(q.Domains) != 0 {
					t.Errorf("saved %+v", q)
				}
			}},
		{"persona only for segment", saved.SaveResults{Name: "x", Action: "segment", Data: rows(t, `[{"persona_id":12}]`)}, "needs at least one domain", nil},
		{"no rows", saved.SaveResults{Name: "x", Action: "match", Data: rows(t, `[]`)}, "needs at least one domain", nil},
		{"missing data", saved.SaveResults{Name: "x", Action: "match"}, "data: required", nil},
		{"bad domains", saved.SaveResults{Name: "x", Action: "discover", Data: rows(t, `[{"domain":"acme.com"},{"domain":"not a domain"},{"domain":42},{"domain":"localhost"}]`)},
			`not domains: row 1: "not a domain"; row 2: 42; row 3: "localhost"`, nil},
		{"fraction persona", saved.SaveResults{Name: "x", Action: "contacts", Data: rows(t, `[{"persona_id":1.5}]`)}, "row 0: 1.5", nil},
		{"integral fraction persona", saved.SaveResults{Name: "x", Action: "contacts", Data: rows(t, `[{"persona_id":2.0}]`)}, "row 0: 2.0", nil},
		{"string persona", saved.SaveResults{Name: "x", Action: "contacts", Data: rows(t, `[{"persona_id":"12"}]`)}, `row 0: "12"`, nil},
		{"bool persona", saved.SaveResults{Name: "x", Action: "contacts", Data: rows(t, `[{"persona_id":true}]`)}, "row 0: true", nil},
		{"row not object", saved.SaveResults{Name: "x", Action: "discover", Data: rows(t, `[{"domain":"acme.com"},["acme.com"]]`)}, "rows 1 are not", nil},
		{"bad action", saved.SaveResults{Name: "x", Action: "exclusion", Data: rows(t, `[{"domain":"acme.com"}]`)}, "action: must be one of", nil},
		{"empty name", saved.SaveResults{Name: "  ", Action: "discover", Data: rows(t, `[{"domain":"acme.com"}]`)}, "query_name: must be 1-255", nil},
		{"long name", saved.SaveResults{Name: strings.Repeat("é", 256), Action: "discover", Data: rows(t, `[{"domain":"acme.com"}]`)}, "query_name: must be 1-255", nil},
		{"params not object", saved.SaveResults{Name: "x", Action: "discover", Params: json.RawMessage(`[1]`), Data: rows(t, `[{"domain":"acme.com"}]`)}, "query_params", nil},
		{"bad tag", saved.SaveResults{Name: "x", Action: "discover", Tags: []string{"!"}, Data: rows(t, `[{"domain":"acme.com"}]`)}, "tags:", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, err := svc.SaveResults(ctx, c, tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, saved.ErrInvalid) {
					t.Fatalf("error = %v, want 400 containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, q)
		})
	}
}

func TestSaveResultsCaps(t *testing.T) {
	svc, c := newService(t)
	ctx := context.Background()
	data := make([]json.RawMessage, 50_001)
	for i := range data {
		data[i] = json.RawMessage(fmt.Sprintf(`{"domain":"c%d.com"}`, i))
	}
	if _, err := svc.SaveResults(ctx, c, saved.SaveResults{Name: "x", Action: "discover", Data: data}); !errors.Is(err, saved.ErrTooLarge) {
		t.Fatalf("50,001 rows: %v, want ErrTooLarge", err)
	}
	q, err := svc.SaveResults(ctx, c, saved.SaveResults{Name: "x", Action: "discover", Data: data[:50_000]})
	if err != nil || q.DomainCount != 50_000 {
		t.Fatalf("50,000 rows: %d domains, %v", q.DomainCount, err)
	}
	svc.Limits.MaxBytes = 100
	if _, err := svc.DecodeSaveResults([]byte(`{"query_name":"x","action":"discover","data":[{"domain":"` + strings.Repeat("a", 100) + `.com"}]}`)); !errors.Is(err, saved.ErrTooLarge) {
		t.Fatalf("over the byte cap: %v", err)
	}
	if _, err := svc.DecodeSaveResults([]byte(`{"query_name":"x","data":{}}`)); !errors.Is(err, saved.ErrInvalid) || !strings.Contains(err.Error(), "data") {
		t.Fatalf("data not an array: %v", err)
	}
}

func TestExclusionList(t *testing.T) {
	svc, c := newService(t)
	ctx := context.Background()
	twenty := make([]string, 20)
	for i := range twenty {
		twenty[i] = fmt.Sprintf("www.c%d.com", i)
	}
	q, trunc, err := svc.CreateExclusionList(ctx, c, saved.ExclusionList{Name: "customers", Domains: append(twenty, "C0.com", "https://c1.com/about"), Tags: []string{"CRM"}})
	if err != nil || trunc || q.DomainCount != 20 || q.Action != "exclusion" || q.Domains[0] != "c0.com" || !slices.Equal(q.Tags, []string{"crm"}) {
		t.Fatalf("created %+v truncated=%v %v", q, trunc, err)
	}
	if _, _, err := svc.CreateExclusionList(ctx, c, saved.ExclusionList{Name: "few", Domains: append(twenty[:19:19], "c0.com")}); !errors.Is(err, saved.ErrInvalid) || !strings.Contains(err.Error(), "at least 20") {
		t.Fatalf("19 distinct domains: %v", err)
	}
	if _, _, err := svc.CreateExclusionList(ctx, c, saved.ExclusionList{Name: "none"}); !errors.Is(err, saved.ErrInvalid) {
		t.Fatalf("empty list: %v", err)
	}
	if _, _, err := svc.CreateExclusionList(ctx, c, saved.ExclusionList{Name: "bad", Domains: append(twenty, "nope")}); !errors.Is(err, saved.ErrInvalid) || !strings.Contains(err.Error(), `"nope"`) {
		t.Fatalf("bad domain: %v", err)
	}
	if _, _, err := svc.CreateExclusionList(ctx, c, saved.ExclusionList{Name: "neg", PersonaIDs: []int64{-1}}); !errors.Is(err, saved.ErrInvalid) {
		t.Fatalf("negative persona id: %v", err)
	}
	p, _, err := svc.CreateExclusionList(ctx, c, saved.ExclusionList{Name: "people", PersonaIDs: []int64{3, 3, 4}})
	if err != nil || p.PersonaIDCount != 2 || p.DomainCount != 0 {
		t.Fatalf("persona-only list: %+v %v", p, err)
	}
	svc.Limits.MaxDomains, svc.Limits.MaxPersonaIDs = 25, 1
	big := make([]string, 30)
	for i := range big {
		big[i] = fmt.Sprintf("big%d.com", i)
	}
	q, trunc, err = svc.CreateExclusionList(ctx, c, saved.ExclusionList{Name: "big", Domains: big, PersonaIDs: []int64{1, 2}})
	if err != nil || !trunc || q.DomainCount != 25 || q.PersonaIDCount != 1 || q.Domains[24] != "big24.com" {
		t.Fatalf("over the caps: %+v truncated=%v %v", q, trunc, err)
	}
}

func TestOwnership(t *testing.T) {
	svc, c := newService(t)
	ctx := context.Background()
	st := svc.Store.(store.Store)
	o2, _ := st.CreateOrg(ctx, "other", store.PlanStarter)
	u2, _ := st.CreateUser(ctx, o2.ID, "ops@other.test", store.RoleAdmin)
	other := saved.Caller{OrgID: o2.ID, UserID: u2.ID, Admin: true}
	u3, _ := st.CreateUser(ctx, c.OrgID, "sales@acme.test", store.RoleMember)
	colleague := saved.Caller{OrgID: c.OrgID, UserID: u3.ID}
	admin := saved.Caller{OrgID: c.OrgID, UserID: u3.ID, Admin: true}

	q, err := svc.SaveResults(ctx, c, saved.SaveResults{Name: "mine", Action: "discover", Data: rows(t, `[{"domain":"acme.com"}]`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Get(ctx, other, q.ID); !errors.Is(err, saved.ErrNotFound) {
		t.Errorf("other org reads: %v", err)
	}
	if _, err := svc.UnionDomains(ctx, other, "query_id", []string{q.ID}); !errors.Is(err, saved.ErrNotFound) {
		t.Errorf("other org resolves: %v", err)
	}
	if doms, err := svc.UnionDomains(ctx, colleague, "query_id", []string{q.ID}); err != nil || !slices.Equal(doms, []string{"acme.com"}) {
		t.Errorf("colleague resolves: %v %v", doms, err)
	}
	name := "renamed"
	if _, err := svc.Update(ctx, colleague, q.ID, &name, nil); !errors.Is(err, saved.ErrNotFound) {
		t.Errorf("colleague renames: %v", err)
	}
	if err := svc.Delete(ctx, other, q.ID); !errors.Is(err, saved.ErrNotFound) {
		t.Errorf("other org's admin deletes: %v", err)
	}
	if got, err := svc.Update(ctx, admin, q.ID, &name, nil); err != nil || got.Name != "renamed" {
		t.Errorf("admin renames: %+v %v", got, err)
	}
	if err := svc.Delete(ctx, c, q.ID); err != nil {
		t.Errorf("owner deletes: %v", err)
	}
	if _, err := svc.Update(ctx, c, q.ID, nil, nil); !errors.Is(err, saved.ErrInvalid) {
		t.Errorf("empty update: %v", err)
	}
}

func TestUnionDomains(t *testing.T) {
	svc, c := newService(t)
	ctx := context.Background()
	a, _ := svc.SaveResults(ctx, c, saved.SaveResults{Name: "a", Action: "discover", Data: rows(t, `[{"domain":"a.com"},{"domain":"b.com"},{"domain":"c.com"}]`)})
	b, _ := svc.SaveResults(ctx, c, saved.SaveResults{Name: "b", Action: "discover", Data: rows(t, `[{"domain":"c.com"},{"domain":"d.com"}]`)})
	svc.Limits.MaxDomains = 2 // each list contributes up to its cap
	got, err := svc.UnionDomains(ctx, c, "query_id", saved.SplitIDs([]string{a.ID + "," + b.ID, a.ID}))
	if err != nil || !slices.Equal(got, []string{"a.com", "b.com", "c.com", "d.com"}) {
		t.Fatalf("union = %v, %v", got, err)
	}
	_, err = svc.UnionDomains(ctx, c, "query_id", []string{a.ID, "nope", "gone"})
	var nf *saved.NotFoundError
	if !errors.As(err, &nf) || !slices.Equal(nf.IDs, []string{"nope", "gone"}) {
		t.Fatalf("unknown ids: %v", err)
	}
}

func TestList(t *testing.T) {
	svc, c := newService(t)
	ctx := context.Background()
	for _, lim := range []int{0, 1001} {
		if _, _, err := svc.List(ctx, c, saved.List{Limit: lim}); !errors.Is(err, saved.ErrInvalid) {
			t.Errorf("max_records %d: %v", lim, err)
		}
	}
	if _, _, err := svc.List(ctx, c, saved.List{Limit: 5, Offset: -1}); !errors.Is(err, saved.ErrInvalid) {
		t.Errorf("negative offset: %v", err)
	}
	svc.SaveResults(ctx, c, saved.SaveResults{Name: "a", Action: "discover", Tags: []string{"Open Deals"}, Data: rows(t, `[{"domain":"a.com"}]`)})
	list, n, err := svc.List(ctx, c, saved.List{Limit: 10, Tags: []string{"OPEN deals,other"}, Action: "THIN_discover"})
	if err != nil || n != 1 || len(list) != 1 {
		t.Fatalf("tag filter normalized like stored tags: %d %v", n, err)
	}
}

func TestListsCache(t *testing.T) {
	svc, c := newService(t)
	ctx := context.Background()
	q, err := svc.SaveResults(ctx, c, saved.SaveResults{Name: "a", Action: "contacts", Data: rows(t, `[{"domain":"a.com","persona_id":4}]`)})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // a read, then from memory
		got, err := svc.Lists(ctx, c, q.ID)
		if err != nil || !slices.Equal(got.Domains, []string{"a.com"}) || !slices.Equal(got.PersonaIDs, []int64{4}) || got.Name != "a" {
			t.Fatalf("Lists #%d = %+v, %v", i, got, err)
		}
	}
	other := saved.Caller{OrgID: "00000000-0000-0000-0000-000000000000", UserID: c.UserID}
	if _, err := svc.Lists(ctx, other, q.ID); !errors.Is(err, saved.ErrNotFound) {
		t.Fatalf("another organization after caching: %v", err)
	}
	// Deleted behind the service's back (another process): gone at once.
	if err := svc.Store.DeleteSavedQuery(ctx, c.OrgID, "", q.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Lists(ctx, c, q.ID); !errors.Is(err, saved.ErrNotFound) {
		t.Fatalf("deleted query: %v", err)
	}
}
