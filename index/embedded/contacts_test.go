package embedded

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/openprospect/prospectd/index"
)

// TestPickMatchesFullSort checks the partial ranking (selection, then
// sorting a growing prefix) against sorting every candidate.
func TestPickMatchesFullSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 20_000
	x := newContactIndex()
	for i := 0; i < n; i++ {
		x.persona = append(x.persona, int64(i+1))
		x.rank = append(x.rank, uint8(rng.IntN(8)))
		x.conns = append(x.conns, int32(rng.IntN(3000)))
		x.domID = append(x.domID, uint32(rng.IntN(3000)))
	}
	for d := range 3000 {
		x.domNames = append(x.domNames, strconv.Itoa(d)+".example")
	}
	all := make([]cScored, n)
	for i := range all {
		// Coarse scores make ties, which the persona id must break.
		all[i] = cScored{id: uint32(i), score: float32(rng.IntN(500)) / 500}
	}
	for _, s := range []index.ContactSearch{
		{Vector: []float32{1}, PerCompany: 5, MaxCompanies: 100, Limit: 10_000},
		{Vector: []float32{1}, PerCompany: 1, MaxCompanies: 2000, Limit: 10_000},
		{Vector: []float32{1}, Limit: 100},
		{Vector: []float32{1}, Offset: 300, Limit: 20},
		{PerCompany: 2, Limit: 700},
		{MaxCompanies: 10, Limit: 10_000},
		{Limit: 5000, PerCompany: 100},
		{Vector: []float32{1}, PerCompany: 3, MaxCompanies: 50, Limit: 150},
		{Vector: []float32{1}, PerCompany: 2, MaxCompanies: 7, Limit: 10_000},
	} {
		byVector := s.Vector != nil
		full := slices.Clone(all)
		slices.SortFunc(full, x.compare(byVector))
		want := x.group(full, s)
		got := x.pick(slices.Clone(all), s)
		if !slices.Equal(got, want) {
			t.Errorf("%+v: pick differs from a full sort (%d vs %d picked)", s, len(got), len(want))
		}
	}
}

// TestKthLargest checks the float quickselect against sorting, with many
// ties, all ties, and k at both ends.
func TestKthLargest(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ n, distinct int }{{1, 1}, {2, 2}, {10, 1}, {1000, 7}, {1000, 1000}, {50_000, 300}} {
		a := make([]float32, c.n)
		for i := range a {
			a[i] = float32(rng.IntN(c.distinct)) - float32(c.distinct)/2
		}
		sorted := slices.Clone(a)
		slices.Sort(sorted)
		slices.Reverse(sorted)
		for _, k := range []int{1, 2, c.n / 3, c.n / 2, c.n - 1, c.n} {
			if k < 1 || k > c.n {
				continue
			}
			if got := kthLargest(slices.Clone(a), k); got != sorted[k-1] {
				t.Errorf("n %d, %d distinct: kthLargest(k=%d) = %v, want %v", c.n, c.distinct, k, got, sorted[k-1])
			}
		}
	}
}

// TestInRange checks the dense and sparse paths of inRange against a
// filter of every candidate, at the bounds and past them.
func TestInRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	col := make([]int32, 300_000)
	for i := range col {
		col[i] = int32(rng.IntN(1000)) - 100
	}
	col[7] = math.MinInt32
	dense := roaring.New()
	dense.AddRange(0, uint64(len(col)))
	dense.Remove(5)
	sparse := roaring.BitmapOf(3, 7, 900, 150_000, 299_999)
	for _, cand := range []*roaring.Bitmap{dense, sparse, roaring.New()} {
		for _, b := range [][2]int32{{0, 10}, {-100, -100}, {899, 2000}, {math.MinInt32, math.MaxInt32}, {5, 4}, {math.MinInt32 + 1, 0}} {
			want := roaring.New()
			for _, id := range cand.ToArray() {
				if v := col[id]; v >= b[0] && v <= b[1] {
					want.Add(id)
				}
			}
			if got := inRange(cand, col, b[0], b[1]); !got.Equals(want) {
				t.Errorf("%d candidates, [%d, %d]: %d ids, want %d", cand.GetCardinality(), b[0], b[1], got.GetCardinality(), want.GetCardinality())
			}
		}
	}
}

// TestEvalOverLiveSkipsIntersection holds eval over every live contact
// (cand == x.live, where within skips the intersection and may return a
// posting list itself) to eval over an equal copy of x.live (which
// intersects), after deletions and in-place replacements, and checks that
// searches leave the shared posting lists unchanged.
func TestEvalOverLiveSkipsIntersection(t *testing.T) {
	e, x := sketchCorpus(t, 16, 3000, 200)
	ctx := context.Background()
	var gone []int64
	for pid := int64(5); pid <= 3000; pid += 7 {
		gone = append(gone, pid)
	}
	if _, err := e.DeleteContacts(ctx, gone); err != nil {
		t.Fatal(err)
	}
	vp := index.Terms{Field: index.SeniorityField, Values: []string{"vp"}}
	for _, tc := range []struct {
		name string
		f    index.Filter
	}{
		{"one list", vp},
		{"two lists", index.Terms{Field: index.SeniorityField, Values: []string{"vp", "manager"}}},
		{"no list", index.Terms{Field: index.SeniorityField, Values: []string{"cxo"}}},
		{"one employer", index.Terms{Field: index.DomainField, Values: []string{"c7.example"}}},
		{"flag", index.Exists{Field: index.ContactEmailField}},
		{"and not", index.And{vp, index.Terms{Field: index.DomainField, Values: []string{"c7.example", "c9.example", "c11.example"}},
			index.Not{Filter: index.Terms{Field: index.PersonaIDField, Values: []string{"8"}}}}},
		{"or", index.Or{vp, index.Terms{Field: index.DomainField, Values: []string{"c3.example"}}}},
		{"nested", index.And{vp, index.Or{index.And{index.Terms{Field: index.DomainField, Values: []string{"c7.example", "c9.example"}}},
			index.Terms{Field: index.PersonaIDField, Values: []string{"10"}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x.mu.RLock()
			defer x.mu.RUnlock()
			before := x.post[index.SeniorityField]["vp"].GetCardinality()
			got, err := x.eval(tc.f, x.live)
			if err != nil {
				t.Fatal(err)
			}
			copied, err := x.eval(tc.f, x.live.Clone())
			if err != nil {
				t.Fatal(err)
			}
			want := roaring.New()
			for it := x.live.Iterator(); it.HasNext(); {
				if id := it.Next(); matchContact(x, tc.f, id) {
					want.Add(id)
				}
			}
			if !got.Equals(want) || !copied.Equals(want) {
				t.Fatalf("over x.live: %d contacts, over a copy: %d, want %d", got.GetCardinality(), copied.GetCardinality(), want.GetCardinality())
			}
			if !roaring.AndNot(got, x.live).IsEmpty() {
				t.Fatal("a deleted contact matched")
			}
			if _, err := x.eval(index.Not{Filter: tc.f}, got); err != nil {
				t.Fatal(err)
			}
			if after := x.post[index.SeniorityField]["vp"].GetCardinality(); after != before {
				t.Fatalf("the vp posting list changed: %d → %d", before, after)
			}
		})
	}
	if n := x.post[index.SeniorityField]["vp"].GetCardinality(); n == 0 || n >= 3000/2 {
		t.Fatalf("vp contacts after deletions: %d", n)
	}
}

// matchContact evaluates the filters of TestEvalOverLiveSkipsIntersection
// on one contact of sketchCorpus (odd persona ids are "vp", no addresses).
func matchContact(x *contactIndex, f index.Filter, id uint32) bool {
	switch n := f.(type) {
	case index.Terms:
		var v string
		switch n.Field {
		case index.SeniorityField:
			v = "manager"
			if x.persona[id]%2 == 1 {
				v = "vp"
			}
		case index.DomainField:
			v = x.domNames[x.domID[id]]
		case index.PersonaIDField:
			v = strconv.FormatInt(x.persona[id], 10)
		}
		return slices.Contains(n.Values, v)
	case index.Exists:
		return false
	case index.And:
		for _, c := range n {
			if !matchContact(x, c, id) {
				return false
			}
		}
		return true
	case index.Or:
		for _, c := range n {
			if matchContact(x, c, id) {
				return true
			}
		}
		return false
	case index.Not:
		return !matchContact(x, n.Filter, id)
	}
	panic(fmt.Sprintf("filter %T", f))
}

// BenchmarkIntersectAll intersects a grouped search's filter at 15M
// contacts, synthetic: two seniorities (12% each), a department (10%) and
// a company country (40% of the employers, 7 consecutive contacts each:
// runs), at once (intersectAll) and as the chain of intersections eval
// made before, each filter's with the candidates so far.
func BenchmarkIntersectAll(b *testing.B) {
	const n = 15_000_000
	rng := rand.New(rand.NewPCG(9, 9))
	s1, s2, dept, country := roaring.New(), roaring.New(), roaring.New(), roaring.New()
	for id := uint32(0); id < n; id++ {
		switch r := rng.IntN(100); {
		case r < 12:
			s1.Add(id)
		case r < 24:
			s2.Add(id)
		}
		if rng.IntN(10) == 0 {
			dept.Add(id)
		}
	}
	for id := uint64(0); id < n; id += 7 {
		if rng.IntN(10) < 4 {
			country.AddRange(id, min(id+7, n))
		}
	}
	country.RunOptimize()
	live := roaring.New()
	live.AddRange(0, n)
	b.Run("once", func(b *testing.B) {
		for b.Loop() {
			intersectAll([]*roaring.Bitmap{roaring.FastOr(s1, s2), dept, country})
		}
	})
	b.Run("chain", func(b *testing.B) {
		for b.Loop() {
			cur := roaring.And(roaring.FastOr(s1, s2), live)
			cur = roaring.And(roaring.FastOr(dept), cur)
			roaring.And(roaring.FastOr(country), cur)
		}
	})
}
