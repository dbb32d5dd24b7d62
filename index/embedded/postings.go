package embedded

import (
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
)

// compactPostings rewrites every posting bitmap at its exact size. Bitmaps
// filled id by id (AddMany) keep the growth slack of their array
// containers: at 1M demo companies 5.5 of the postings' 49.5 bytes a
// company (docs/benchmarks.md "Non-vector resident bytes a company"). Run
// containers are used where they are smaller. It runs at open, before the
// engine is shared.
func (e *Engine) compactPostings() {
	for slot := range e.post {
		for v, bm := range e.post[slot] {
			e.post[slot][v] = compactBitmap(bm)
		}
	}
	for bit, bm := range e.exists {
		e.exists[bit] = compactBitmap(bm)
	}
	e.live = compactBitmap(e.live)
}

// trimSlots copies the slot-indexed columns to their length: appending
// slot by slot leaves up to a quarter of spare capacity. It runs at open,
// before the engine is shared.
func (e *Engine) trimSlots() {
	e.scores = slices.Clip(slices.Clone(e.scores))
	e.starts = slices.Clip(slices.Clone(e.starts))
	e.scales = slices.Clip(slices.Clone(e.scales))
	e.domains.trim()
}

// compactBitmap returns a copy of bm without spare capacity.
func compactBitmap(bm *roaring.Bitmap) *roaring.Bitmap {
	bm.RunOptimize()
	return bm.Clone()
}
