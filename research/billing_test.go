package research

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

func TestCharges(t *testing.T) {
	for _, tc := range []struct {
		kind, mode string
		want       string // charge kind billed, "" for none
	}{
		{KindGen, ModeWebsite, store.KindCompany},
		{KindGen, ModeProfile, store.KindCompany},
		{KindGen, ModeDomain, ""},
		{KindICP, ModeWebsite, store.KindCompany},
		{KindICP, ModeDomain, ""},
		{KindPersonas, ModeProfile, store.KindContact},
		{KindPersonas, ModeFull, store.KindContact},
		{KindPersonas, ModeNameOnly, ""},
		{KindContacts, ModeWebsite, ""},
	} {
		fn := Charges(tc.kind, tc.mode)
		if tc.want == "" {
			if fn != nil {
				t.Errorf("%s/%s bills %v, want nothing", tc.kind, tc.mode, fn([]string{"a.com"}))
			}
			continue
		}
		if fn == nil {
			t.Errorf("%s/%s bills nothing, want %s", tc.kind, tc.mode, tc.want)
			continue
		}
		got := fn([]string{"a.com", "b.com"})
		if len(got) != 2 || got[0].Kind != tc.want || got[1].Key != "b.com" {
			t.Errorf("%s/%s bills %+v, want %s per key", tc.kind, tc.mode, got, tc.want)
		}
	}
}

func TestPreviousByDomain(t *testing.T) {
	got, err := PreviousByDomain(map[string]json.RawMessage{"https://www.Acme.com/x": json.RawMessage(`1`)})
	if err != nil || string(got["acme.com"]) != "1" {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := PreviousByDomain(map[string]json.RawMessage{"not a domain": nil}); err == nil {
		t.Fatal("a key that is not a domain was accepted")
	}
}

// queue records what Submit queues.
type queue struct{ got []Task }

func (q *queue) Submit(_ context.Context, orgID, kind string, input any) (store.Task, error) {
	q.got = append(q.got, input.(Task))
	return store.Task{ID: fmt.Sprintf("t%d", len(q.got)), OrgID: orgID, Kind: kind, Status: store.TaskInProgress}, nil
}

func TestSubmit(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	plans := account.DefaultPlans()
	plans[store.PlanStarter] = account.PlanConfig{Credits: 3, PricePer1K: 20, RateMultiplier: 1}
	b := &account.Biller{Store: st, Plans: plans}
	org, _ := st.CreateOrg(ctx, "acme", store.PlanStarter)
	for _, tc := range []struct {
		name     string
		keys     []string
		charge   func([]string) []store.Charge
		queued   []string
		billed   int
		warnings int
		noCredit bool
	}{
		{"model fees only", []string{"a.com", "b.com"}, nil, []string{"a.com", "b.com"}, 0, 0, false},
		{"two of three credits", []string{"a.com", "b.com"}, account.Companies, []string{"a.com", "b.com"}, 2, 0, false},
		{"the last credit", []string{"a.com", "c.com", "d.com"}, account.Companies, []string{"a.com", "c.com"}, 1, 1, false},
		{"none left", []string{"e.com"}, account.Companies, nil, 0, 0, true},
	} {
		q := &queue{}
		sub, err := Submit(ctx, b, q, org, "gen/process", Task{Kind: KindGen, Keys: tc.keys}, tc.charge)
		if tc.noCredit {
			if !errors.Is(err, account.ErrNoCredits) || sub.Used != 3 || len(q.got) != 0 {
				t.Errorf("%s: %+v %v, queued %d", tc.name, sub, err, len(q.got))
			}
			continue
		}
		if err != nil || len(q.got) != 1 || !slices.Equal(q.got[0].Keys, tc.queued) || sub.Billed != tc.billed ||
			len(sub.Input.Warnings) != tc.warnings || sub.Task.ID != "t1" {
			t.Errorf("%s: %+v %v, queued %+v", tc.name, sub, err, q.got)
		}
	}
}
