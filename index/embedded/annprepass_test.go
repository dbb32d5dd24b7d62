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
			got, _, ok := e.annGather(tc.cand, q, target, nil, nil, nil)
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

// TestANNPrepass checks the sketch pre-pass of the ANN plan: it keeps at
// least its pool, only gathered candidates, the tail always, and a pool of
// a third of the gathered set keeps the exact ranking's top 10 of the
// gathered set for stored companies and mixtures.
func TestANNPrepass(t *testing.T) {
	e := annEngine(t, 40_000, 11)
	oldFrac, oldMin := annPoolFrac, annPoolMin
	t.Cleanup(func() { annPoolFrac, annPoolMin = oldFrac, oldMin })
	annPoolFrac, annPoolMin = 0.3, 0
	ctx := context.Background()
	for _, mix := range []bool{false, true} {
		var r10, r100 float64
		queries := benchQueries(e, 20, mix, 31)
		for _, q := range queries {
			e.mu.RLock()
			sc := new(scratch)
			var ok bool
			sc.ids, sc.segs, ok = e.annGather(e.live, q, 15_000, nil, nil, nil) // 15,000 of 40,000: the pool (4,500) is a share of it
			if !ok {
				e.mu.RUnlock()
				t.Fatal("the walk gave up")
			}
			gathered := slices.Clone(sc.ids)
			k := rescoreK(10)
			kept := slices.Clone(e.annPrepass(ctx, sc, q, k))
			want, _ := e.exact(ctx, gathered, q, -2, 100)
			got, _ := e.exact(ctx, kept, q, -2, 100)
			e.mu.RUnlock()
			if pool := annPool(len(gathered), k); len(kept) < pool*9/10 || len(kept) >= len(gathered) {
				t.Errorf("kept %d of %d, want about %d", len(kept), len(gathered), pool)
			}
			slices.Sort(gathered)
			for _, id := range kept {
				if _, found := slices.BinarySearch(gathered, id); !found {
					t.Fatalf("kept %d, not gathered", id)
				}
			}
			r10 += overlap(got, want, 10) / float64(len(queries))
			r100 += overlap(got, want, 100) / float64(len(queries))
		}
		t.Logf("mix=%v: recall@10 %.3f, @100 %.3f of the gathered set's exact top", mix, r10, r100)
		if r10 < 0.95 {
			t.Errorf("mix=%v: recall@10 %.3f, want >= 0.95", mix, r10)
		}
	}
}
