package embedded

import (
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
