package embedded

import (
	"math/rand/v2"
	"slices"
	"testing"

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
	} {
		byVector := s.Vector != nil
		full := slices.Clone(all)
		slices.SortFunc(full, func(a, b cScored) int {
			if x.before(a, b, byVector) {
				return -1
			}
			if x.before(b, a, byVector) {
				return 1
			}
			return 0
		})
		want := x.group(full, s)
		got := x.pick(slices.Clone(all), s)
		if !slices.Equal(got, want) {
			t.Errorf("%+v: pick differs from a full sort (%d vs %d picked)", s, len(got), len(want))
		}
	}
}
