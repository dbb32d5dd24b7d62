package embedded

import (
	"context"
	"math/bits"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// TestAllocSigns checks the chunks allocSigns carves: zeroed, the chunk
// size, and capped so that appending to one cannot write into the next.
func TestAllocSigns(t *testing.T) {
	for _, tc := range []struct{ n, w int }{{0, 4}, {1, 4}, {3, 4}, {signBlock, 2}} {
		got := allocSigns(tc.n, tc.w)
		if len(got) != tc.n {
			t.Fatalf("allocSigns(%d, %d): %d chunks", tc.n, tc.w, len(got))
		}
		for i, c := range got {
			if len(c) != chunkDocs*tc.w || cap(c) != len(c) {
				t.Fatalf("chunk %d: len %d cap %d, want %d", i, len(c), cap(c), chunkDocs*tc.w)
			}
			if slices.ContainsFunc(c, func(x uint64) bool { return x != 0 }) {
				t.Fatalf("chunk %d not zeroed", i)
			}
			c[0], c[len(c)-1] = uint64(i+1), uint64(i+1)
		}
		for i, c := range got {
			if c[0] != uint64(i+1) || c[len(c)-1] != uint64(i+1) {
				t.Fatalf("chunk %d overlaps another", i)
			}
		}
	}
	e := &Engine{dim: 256}
	seen := map[*uint64]bool{}
	for range signBlock + 2 {
		c := e.signChunk()
		if len(c) != chunkDocs*4 || seen[&c[0]] {
			t.Fatalf("signChunk: len %d, reused %v", len(c), seen[&c[0]])
		}
		seen[&c[0]] = true
	}
}

// TestScreenKeepsTheBest checks the screen's first pass: its survivors are
// candidates, in id order, at least about keep of them, and none scores
// below a candidate it dropped.
func TestScreenKeepsTheBest(t *testing.T) {
	const dim, n = 256, 4 * chunkDocs
	e, r := randomEngine(n, dim)
	q := randomQuery(r, dim)
	qp := newQTop(q, dim/2)
	score := func(id uint32) int {
		x := e.signOf(id)
		v := 0
		for w := range x {
			v += bits.OnesCount64(^(x[w] ^ qp.sign[w]) & qp.planes[0][w])
		}
		return v
	}
	for _, frac := range []float64{0.02, 0.3} {
		var ids []uint32
		for i := range n {
			if r.Float64() < frac {
				ids = append(ids, uint32(i))
			}
		}
		keep := len(ids) / 20
		sc := new(scratch)
		got := e.screen(context.Background(), sc, qp, ids, keep, nil)
		if !slices.IsSorted(got) || len(got) < keep*3/4 || len(got) > len(ids) {
			t.Fatalf("frac %v: %d survivors of %d (keep %d), sorted %v", frac, len(got), len(ids), keep, slices.IsSorted(got))
		}
		kept := map[uint32]bool{}
		low := dim
		for _, id := range got {
			if _, ok := slices.BinarySearch(ids, id); !ok {
				t.Fatalf("frac %v: survivor %d is not a candidate", frac, id)
			}
			kept[id] = true
			low = min(low, score(id))
		}
		for _, id := range ids {
			if !kept[id] && score(id) >= low {
				t.Fatalf("frac %v: dropped %d scores %d, a survivor %d", frac, id, score(id), low)
			}
		}
	}
}

// TestEstimate3 checks the refine pass's block-copying loop against the
// one that scores each sketch as it reads it: the same estimates and
// histogram, for candidate counts around the block size.
func TestEstimate3(t *testing.T) {
	const dim, n = 256, 2 * chunkDocs
	e, r := randomEngine(n, dim)
	q := randomQuery(r, dim)
	qw := newQPlanes(q, refinePlanes)
	for _, m := range []int{0, 1, sketchBlock - 1, sketchBlock, sketchBlock + 1, 40_000} {
		ids := make([]uint32, m)
		for i := range ids {
			ids[i] = uint32(r.IntN(n))
		}
		slices.Sort(ids)
		var est [2][]uint16
		var hist [2][]int32
		for i, gather := range []bool{false, true} {
			old := sketchGather
			sketchGather = gather
			est[i] = make([]uint16, m)
			hist[i] = e.estimateAll(context.Background(), qw, ids, est[i])
			sketchGather = old
		}
		if !slices.Equal(est[0], est[1]) || !slices.Equal(hist[0], hist[1]) {
			t.Fatalf("%d candidates: the block loop's estimates differ", m)
		}
	}
}

// TestSketchBlocks checks the pass over a kept set's copy (blocks of 32,
// nibble tables, AVX2 where the processor has it, and the portable loop)
// against planes3.score of each candidate's sketch in the index: the
// same estimates and histogram, for counts around the block and round
// sizes.
func TestSketchBlocks(t *testing.T) {
	const dim, n = 256, 2 * chunkDocs
	e, r := randomEngine(n, dim)
	for _, m := range []int{1, blockDocs - 1, blockDocs, blockDocs + 1, 256*blockDocs + 5, 40_000} {
		q := randomQuery(r, dim)
		qw := newQPlanes(q, refinePlanes)
		p := qw.unpack3()
		kept := roaring.New()
		for kept.GetCardinality() < uint64(m) {
			kept.Add(uint32(r.IntN(n)))
		}
		cp := e.signCopyOf(kept, m)
		want := make([]uint16, m)
		wantHist := make([]int32, qw.max+1)
		for i, id := range cp.ids {
			v := p.score((*[4]uint64)(e.signOf(id)))
			want[i] = uint16(v)
			wantHist[v]++
		}
		for _, avx := range []bool{false, useAVX2} {
			old := useAVX2
			useAVX2 = avx
			est := make([]uint16, m)
			hist := cp.estimateAll(context.Background(), qw, est)
			useAVX2 = old
			if !slices.Equal(est, want) || !slices.Equal(hist, wantHist) {
				t.Fatalf("%d candidates, AVX2 %v: the blocks' estimates differ from planes3.score", m, avx)
			}
		}
		e.mu.Lock()
		e.dropSignCopies()
		e.mu.Unlock()
	}
}
