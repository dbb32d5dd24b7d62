package account

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/openprospect/prospectd/store"
)

func TestBillRecords(t *testing.T) {
	// A group is a company with contacts: one company charge, then one per
	// contact, as the contact routes bill them.
	type group struct {
		domain   string
		contacts []int
	}
	charges := func(g group) []store.Charge {
		out := []store.Charge{{Kind: store.KindCompany, Key: g.domain}}
		for _, c := range g.contacts {
			out = append(out, store.Charge{Kind: store.KindContact, Key: strconv.Itoa(c)})
		}
		return out
	}
	for _, tc := range []struct {
		name          string
		credits       int
		paid          []group // billed before, within the no-rebill window
		bill          []group
		mask          []bool
		billed, left  int
		withheld      int
		wantNoCredits bool
	}{
		{name: "all covered", credits: 10, bill: []group{{"a.com", []int{1}}, {"b.com", nil}},
			mask: []bool{true, true}, billed: 3, left: 7},
		{name: "credits run out mid-record", credits: 3, bill: []group{{"a.com", []int{1}}, {"b.com", []int{2, 3}}},
			mask: []bool{true, false}, billed: 3, left: 0, withheld: 1},
		{name: "first records first", credits: 1, bill: []group{{"a.com", nil}, {"b.com", nil}, {"c.com", nil}},
			mask: []bool{true, false, false}, billed: 1, left: 0, withheld: 2},
		{name: "paid within the window stays free", credits: 2, paid: []group{{"a.com", []int{1}}},
			bill: []group{{"b.com", nil}, {"a.com", []int{1}}}, mask: []bool{false, true}, billed: 0, left: 0, withheld: 1},
		{name: "repeated record billed once", credits: 2, bill: []group{{"a.com", nil}, {"a.com", nil}, {"b.com", nil}},
			mask: []bool{true, true, true}, billed: 2, left: 0},
		{name: "nothing covered", credits: 1, paid: []group{{"z.com", nil}}, bill: []group{{"a.com", nil}},
			mask: []bool{false}, billed: 0, left: 0, withheld: 1, wantNoCredits: true},
		{name: "no records", credits: 1, mask: []bool{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := openStore(t)
			ctx := context.Background()
			org, _ := st.CreateOrg(ctx, "Acme", store.PlanStarter)
			plans := DefaultPlans()
			plans[store.PlanStarter] = PlanConfig{Credits: tc.credits, RateMultiplier: 1}
			b := &Biller{Store: st, Plans: plans, Now: func() time.Time { return time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC) }}
			if len(tc.paid) > 0 {
				if _, err := BillRecords(ctx, b, org, "test", tc.paid, charges); err != nil {
					t.Fatal(err)
				}
			}
			got, err := BillRecords(ctx, b, org, "test", tc.bill, charges)
			if errors.Is(err, ErrNoCredits) != tc.wantNoCredits || err != nil && !tc.wantNoCredits {
				t.Fatalf("err = %v, want no-credits %v", err, tc.wantNoCredits)
			}
			if !reflect.DeepEqual(got.Mask, tc.mask) || got.Withheld != tc.withheld {
				t.Errorf("mask %v withheld %d, want %v %d", got.Mask, got.Withheld, tc.mask, tc.withheld)
			}
			if len(tc.bill) > 0 && (got.Billed != tc.billed || got.Left != tc.left) {
				t.Errorf("billed %d left %d, want %d %d", got.Billed, got.Left, tc.billed, tc.left)
			}
			var want []group
			for i, g := range tc.bill {
				if tc.mask[i] {
					want = append(want, g)
				}
			}
			if !reflect.DeepEqual(got.Records, want) {
				t.Errorf("records %v, want %v", got.Records, want)
			}
		})
	}
}

func TestBillRecordsStoreFailure(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	b := &Biller{Store: st, Plans: DefaultPlans()}
	// An organization the store does not know cannot be billed.
	_, err := BillRecords(ctx, b, store.Org{ID: "missing", Plan: store.PlanStarter}, "test", []string{"a.com"},
		func(d string) []store.Charge { return Companies([]string{d}) })
	if err == nil || errors.Is(err, ErrNoCredits) {
		t.Fatalf("err = %v, want a store error", err)
	}
}
