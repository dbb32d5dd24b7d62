package embedded

import (
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
)

// keywordPostings are the documents of each value of one keyword field.
// A value held by one document alone keeps its id in one: a map entry of
// 4 bytes against about 150 for a roaring bitmap with its one container.
// Such values are common where a field often names the company itself
// (a company hosting its own mail has its domain as mx_provider: 7% of
// the demo companies, 700,000 values at 10M). Values with more documents
// have a bitmap in many. A value is in at most one of the two maps.
type keywordPostings struct {
	one  map[string]uint32
	many map[string]*roaring.Bitmap
}

func newKeywordPostings() keywordPostings {
	return keywordPostings{one: map[string]uint32{}, many: map[string]*roaring.Bitmap{}}
}

// get returns the documents of value v (nil when none). The bitmap may be
// the posting list itself: callers must not modify it.
func (p keywordPostings) get(v string) *roaring.Bitmap {
	if bm := p.many[v]; bm != nil {
		return bm
	}
	if id, ok := p.one[v]; ok {
		return roaring.BitmapOf(id)
	}
	return nil
}

// each calls fn with every value and its document count.
func (p keywordPostings) each(fn func(v string, n uint64)) {
	for v := range p.one {
		fn(v, 1)
	}
	for v, bm := range p.many {
		fn(v, bm.GetCardinality())
	}
}

// add adds documents ids to value v. v is copied when it becomes a key:
// it may share memory with the rest of its record (the ingest decoder's),
// which the key would keep alive.
func (p keywordPostings) add(v string, ids []uint32) {
	if len(ids) == 0 {
		return
	}
	if bm := p.many[v]; bm != nil {
		bm.AddMany(ids)
		return
	}
	id, had := p.one[v]
	single := !had || id == ids[0]
	for _, x := range ids {
		single = single && x == ids[0]
	}
	if single {
		if !had {
			p.one[strings.Clone(v)] = ids[0]
		}
		return
	}
	bm := roaring.New()
	if had {
		delete(p.one, v)
		bm.Add(id)
	}
	bm.AddMany(ids)
	p.many[strings.Clone(v)] = bm
}

// remove removes document id from value v; a value left with one document
// moves to one, a value left with none is dropped.
func (p keywordPostings) remove(v string, id uint32) {
	if bm := p.many[v]; bm != nil {
		bm.Remove(id)
		switch bm.GetCardinality() {
		case 0:
			delete(p.many, v)
		case 1:
			delete(p.many, v)
			p.one[strings.Clone(v)] = bm.Minimum()
		}
		return
	}
	if x, ok := p.one[v]; ok && x == id {
		delete(p.one, v)
	}
}

// compact rewrites every bitmap at its exact size (see compactBitmap).
func (p keywordPostings) compact() {
	for v, bm := range p.many {
		p.many[v] = compactBitmap(bm)
	}
}

// compactPostings rewrites every posting bitmap at its exact size. Bitmaps
// filled id by id (AddMany) keep the growth slack of their array
// containers: at 1M demo companies 5.5 of the postings' 49.5 bytes a
// company (docs/benchmarks.md "Non-vector resident bytes a company"). Run
// containers are used where they are smaller. It runs at open, before the
// engine is shared.
func (e *Engine) compactPostings() {
	for _, p := range e.post {
		p.compact()
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
