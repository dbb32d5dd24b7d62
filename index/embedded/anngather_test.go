package embedded

import (
	"context"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// TestANNGatherAppends checks that the walk's listing is the union of the
// lists it walks, intersected with the candidates, plus the unindexed tail:
// each candidate once, none outside the candidates, the lists taken in
// rankLists' order until the target is reached.
func TestANNGatherAppends(t *testing.T) {
	e := annEngine(t, 40_000, 11)
	// Some companies written again: dirty until the builder assigns them,
	// so the tail is not empty (or was assigned: either must list right).
	docs := make([]index.CompanyDoc, 0, 50)
	for i, d := range allDomains(e)[:50] {
		q := benchQueries(e, 1, true, uint64(100+i))[0]
		docs = append(docs, index.CompanyDoc{Vector: q, Company: mustCompany(t, e, d)})
	}
	if _, err := e.UpsertCompanies(context.Background(), docs); err != nil {
		t.Fatal(err)
	}
	us, err := e.eval(index.Terms{Field: index.CountryField, Values: []string{"US"}}, e.live)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		cand *roaring.Bitmap
	}{{"all", e.live}, {"country", us}} {
		for i, q := range append(benchQueries(e, 3, false, 21), benchQueries(e, 3, true, 22)...) {
			e.mu.RLock()
			a := e.ann.idx
			c := int(tc.cand.GetCardinality())
			target := annTarget(c, 10, a.nlist)
			got, ok := e.annGather(tc.cand, q, target, nil, nil)
			// The reference: the tail and the walked lists merged.
			want := roaring.And(a.dirty, tc.cand)
			for _, l := range a.rankLists(q) {
				if int(want.GetCardinality()) >= target {
					break
				}
				want.Or(roaring.And(a.lists[l], tc.cand))
			}
			e.mu.RUnlock()
			if !ok {
				t.Fatalf("%s: the walk gave up", tc.name)
			}
			sorted := slices.Clone(got)
			slices.Sort(sorted)
			if len(slices.Compact(sorted)) != len(got) {
				t.Errorf("%s query %d: %d ids listed, some twice", tc.name, i, len(got))
			}
			if !slices.Equal(sorted, want.ToArray()) {
				t.Errorf("%s query %d: listed %d ids, want the %d of the lists walked", tc.name, i, len(got), want.GetCardinality())
			}
		}
	}
}

// mustCompany reads a stored company's profile.
func mustCompany(t *testing.T, e *Engine, domain string) record.Company {
	t.Helper()
	res, err := e.GetCompanies(context.Background(), []string{domain})
	if err != nil || len(res) != 1 {
		t.Fatalf("get %s: %v (%d)", domain, err, len(res))
	}
	return res[0]
}

// TestANNRescore checks the ANN plan's full-precision floor: rescoreK's
// up to 1,000 lists (the 1M plans unchanged), growing with the square root
// of the lists beyond, and that the plan hands that many to the pass.
func TestANNRescore(t *testing.T) {
	for _, tc := range []struct{ nlist, want int }{{16, rescoreMin}, {1000, rescoreMin}, {3163, 391}, {4000, 2 * rescoreMin}} {
		if got := annRescore(tc.nlist); got != tc.want {
			t.Errorf("annRescore(%d) = %d, want %d", tc.nlist, got, tc.want)
		}
	}
	e := annEngine(t, 40_000, 11)
	t.Cleanup(func() { annRescoreFloor = 0 })
	annRescoreFloor = 300
	ctx := context.Background()
	q := benchQueries(e, 1, true, 41)[0]
	var top []scored
	plan := planOf(e, func() {
		e.mu.RLock()
		top, _ = e.scanVectors(ctx, e.live, q, -2, 10)
		e.mu.RUnlock()
	})
	if plan != planANN || len(top) != 300 {
		t.Errorf("plan %d with %d ranked, want the ANN plan with 300", plan, len(top))
	}
}
