package embedding

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestTermIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, n := range []int{0, 1, 2, 3, 100, 30000} {
		set := map[uint64]bool{}
		for len(set) < n {
			h := rng.Uint64()
			if len(set)%7 == 0 {
				h >>= rng.IntN(64) // crowd the small hashes
			}
			set[h] = true
		}
		hashes := make([]uint64, 0, n)
		for h := range set {
			hashes = append(hashes, h)
		}
		slices.Sort(hashes)
		idx := newTermIndex(hashes)
		for row, h := range hashes {
			if r, ok := idx.get(h); !ok || int(r) != row {
				t.Fatalf("n=%d: get(%x) = %d, %v; want %d", n, h, r, ok, row)
			}
		}
		for range 1000 {
			if h := rng.Uint64(); !set[h] {
				if r, ok := idx.get(h); ok {
					t.Fatalf("n=%d: get(%x) = %d for an unknown hash", n, h, r)
				}
			}
		}
		for _, h := range []uint64{0, 1<<64 - 1} {
			if _, ok := idx.get(h); ok != set[h] {
				t.Fatalf("n=%d: get(%x) = %v", n, h, ok)
			}
		}
	}
}
