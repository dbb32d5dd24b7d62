package embedded

import (
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
)

// keywordPostings are the documents of each value of one keyword field.
// A value held by one document alone keeps its id in one: a map entry
// (about 70 bytes with its key) against about 220 for a roaring bitmap
// with its one container under the same key. A value that is the
// document's own domain, held by no other document, is only a bit in
// self: it needs no key, since the domain table gives the document of a
// domain. Both are common where a field often names the company itself:
// a company hosting its own mail has its domain as mx_provider (7% of the
// demo companies, 678,000 values at 10M). Values with more documents have
// a bitmap in many. A value is in one of one, many and self at most.
type keywordPostings struct {
	one  map[string]uint32
	many map[string]*roaring.Bitmap
	self *roaring.Bitmap
}

func newKeywordPostings() keywordPostings {
	return keywordPostings{one: map[string]uint32{}, many: map[string]*roaring.Bitmap{}, self: roaring.New()}
}

// get returns the documents of value v (nil when none); domains is the
// engine's domain table. The bitmap may be the posting list itself:
// callers must not modify it.
func (p *keywordPostings) get(v string, domains *domainTable) *roaring.Bitmap {
	if bm := p.many[v]; bm != nil {
		return bm
	}
	if id, ok := p.one[v]; ok {
		return roaring.BitmapOf(id)
	}
	if id, ok := p.selfOf(v, domains); ok {
		return roaring.BitmapOf(id)
	}
	return nil
}

// selfOf returns the document whose own domain v is, if self holds it.
func (p *keywordPostings) selfOf(v string, domains *domainTable) (uint32, bool) {
	if p.self == nil || p.self.IsEmpty() {
		return 0, false
	}
	id, ok := domains.lookup(v)
	return id, ok && p.self.Contains(id)
}

// each calls fn with every value and its document count.
func (p *keywordPostings) each(domains *domainTable, fn func(v string, n uint64)) {
	for v := range p.one {
		fn(v, 1)
	}
	for v, bm := range p.many {
		fn(v, bm.GetCardinality())
	}
	if p.self != nil {
		for it := p.self.Iterator(); it.HasNext(); {
			fn(domains.get(it.Next()), 1)
		}
	}
}

// add adds documents ids to value v. v is copied when it becomes a key:
// it may share memory with the rest of its record (the ingest decoder's),
// which the key would keep alive.
func (p *keywordPostings) add(v string, ids []uint32, domains *domainTable) {
	if len(ids) == 0 {
		return
	}
	if bm := p.many[v]; bm != nil {
		bm.AddMany(ids)
		return
	}
	id, had := p.one[v]
	if !had {
		// The document whose own domain v is joins the others.
		if id, had = p.selfOf(v, domains); had {
			p.self.Remove(id)
			p.one[strings.Clone(v)] = id
		}
	}
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

// addSelf adds documents ids, each under its own domain as the value.
// Call it after add for the same batch of documents, so a value other
// documents hold too is found in one or many.
func (p *keywordPostings) addSelf(ids []uint32, domains *domainTable) {
	for _, id := range ids {
		d := domains.get(id)
		if _, held := p.one[d]; held || p.many[d] != nil {
			p.add(d, []uint32{id}, domains)
			continue
		}
		if p.self == nil {
			p.self = roaring.New()
		}
		p.self.Add(id)
	}
}

// remove removes document id from value v; a value left with one document
// moves to one, a value left with none is dropped. A value held by no
// key is the document's own domain (in self): the document's domain may
// already be gone from the domain table.
func (p *keywordPostings) remove(v string, id uint32) {
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
	if x, ok := p.one[v]; ok {
		if x == id {
			delete(p.one, v)
		}
		return
	}
	if p.self != nil {
		p.self.Remove(id)
	}
}

// compact rewrites every bitmap at its exact size (see compactBitmap).
func (p *keywordPostings) compact() {
	for v, bm := range p.many {
		p.many[v] = compactBitmap(bm)
	}
	if p.self != nil {
		p.self = compactBitmap(p.self)
	}
}

// compactPostings rewrites every posting bitmap at its exact size. Bitmaps
// filled id by id (AddMany) keep the growth slack of their array
// containers: at 1M demo companies 5.5 of the postings' 49.5 bytes a
// company (docs/benchmarks.md "Non-vector resident bytes a company"). Run
// containers are used where they are smaller. It runs at open, before the
// engine is shared.
func (e *Engine) compactPostings() {
	for i := range e.post {
		e.post[i].compact()
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
	e.releaseChunkTails()
}

// compactBitmap returns a copy of bm without spare capacity.
func compactBitmap(bm *roaring.Bitmap) *roaring.Bitmap {
	bm.RunOptimize()
	return bm.Clone()
}
