package embedded

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// TestANNGatherAppends checks that the walk's listing is the union of the
// lists it walks, intersected with the candidates, plus the unindexed tail:
// in id order, each candidate once, none outside the candidates, the lists
// taken in rankLists' order until the target is reached.
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
			sc := new(scratch)
			ok := e.annGather(tc.cand, q, target, nil, sc)
			got := sc.ids
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
			if !slices.IsSorted(got) {
				t.Errorf("%s query %d: ids not in order", tc.name, i)
			}
			if !slices.Equal(got, want.ToArray()) {
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

// TestSortIDs checks sortIDs against slices.Sort, twice on the same
// scratch.
func TestSortIDs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var buf []uint32
	for _, n := range []int{0, 1, 2, 100, 5000} {
		for _, hi := range []uint32{10, 1 << 20, 10_000_000} {
			for range 2 {
				ids := make([]uint32, n)
				for i := range ids {
					ids[i] = uint32(r.Uint64N(uint64(hi) + 1))
				}
				slices.Sort(ids)
				ids = slices.Compact(ids)
				want := slices.Clone(ids)
				r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
				var got []uint32
				got, buf = sortIDs(ids, buf)
				if !slices.Equal(got, want) {
					t.Errorf("n %d, ids up to %d: not sorted", n, hi)
				}
			}
		}
	}
}

// BenchmarkSortIDs sorts 112,000 ids of 10M (the ANN plan's gathered set
// at 10M) and, for comparison, unites them from 36 lists the way the walk
// did before (roaring.FastOr, then the listing).
func BenchmarkSortIDs(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	ids := make([]uint32, 112_000)
	for i := range ids {
		ids[i] = uint32(r.IntN(10_000_000))
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	lists := make([]*roaring.Bitmap, 36)
	for l := range lists {
		lists[l] = roaring.New()
	}
	for _, id := range ids {
		lists[r.IntN(len(lists))].Add(id)
	}
	var grouped []uint32
	for _, l := range lists {
		grouped = appendIDs(grouped, l)
	}
	b.Run("sortIDs", func(b *testing.B) {
		work := make([]uint32, len(grouped))
		var buf []uint32
		for i := 0; i < b.N; i++ {
			copy(work, grouped)
			_, buf = sortIDs(work, buf)
		}
	})
	b.Run("fastor", func(b *testing.B) {
		var buf []uint32
		for i := 0; i < b.N; i++ {
			u := roaring.FastOr(lists...)
			buf = candIDs(u, int(u.GetCardinality()), buf)
		}
	})
}
