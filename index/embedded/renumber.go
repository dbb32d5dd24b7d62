package embedded

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
)

// Renumbering puts the company slots in ANN list order at Close: the
// members of each list become a run of consecutive slots, so the ANN plan's
// exact ranking of the gathered lists reads their int8 codes sequentially
// instead of four random cache lines a candidate (~10 ms of the 14 ms of a
// broad query at 10M). Every slot-indexed structure goes through one
// permutation; the resident snapshot written right after is what keeps the
// order, since an open from it takes any slot layout. Companies written
// later sit outside the order until a Close finds enough of them to renumber
// again.

// renumberShare is the share of live companies out of list order above
// which Close renumbers (a variable so tests can force it).
var renumberShare = 0.05

// errRenumber is a vector file that could not be read through.
var errRenumber = errors.New("renumber: vector file unreadable")

// listOrder returns the live slots in ANN list order (list by list, each
// list's members ascending, then the live slots in no list) when the
// current numbering strays from it by more than renumberShare; nil when it
// does not, or when there is no trained index. Callers hold mu.
func (e *Engine) listOrder() []uint32 {
	a := e.ann.idx
	if a == nil || len(a.mean) != len(a.cent) {
		return nil
	}
	n := int(e.live.GetCardinality())
	order := make([]uint32, 0, n)
	var buf []uint32
	runs := 0
	for _, l := range a.lists {
		if l.IsEmpty() {
			continue
		}
		buf = candIDs(l, int(l.GetCardinality()), buf)
		order = append(order, buf...)
		runs++
	}
	listed := roaring.New()
	listed.AddMany(order)
	rest := roaring.AndNot(e.live, listed)
	if !rest.IsEmpty() {
		order = append(order, candIDs(rest, int(rest.GetCardinality()), buf)...)
		runs++
	}
	if len(order) != n {
		return nil // a list holds a slot that is not live: leave it as it is
	}
	breaks := 0
	for i := 1; i < len(order); i++ {
		if order[i] != order[i-1]+1 {
			breaks++
		}
	}
	if float64(breaks-runs) <= renumberShare*float64(n) {
		return nil
	}
	return order
}

// renumber moves the live companies to the slots order gives them: slot i
// holds what slot order[i] held, and the free list is dropped. The vector
// file is rewritten through the same permutation first, so a failure
// leaves the engine as it was. Callers hold writeMu; writers and the ANN
// builder have stopped.
func (e *Engine) renumber(order []uint32) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	// The snapshot on disk no longer holds these slots from here on.
	e.snapMarkDirty()
	fv, err := e.flat.permuted(order)
	if err != nil {
		return fmt.Errorf("renumber %d companies: %w", len(order), err)
	}
	e.flat = fv

	old := e.domains.slots()
	newOf := make([]uint32, old)
	for i := range newOf {
		newOf[i] = math.MaxUint32
	}
	for i, id := range order {
		newOf[id] = uint32(i)
	}
	n := len(order)

	t := e.domains
	refs := make([]uint32, n)
	var hi []uint8
	if t.refsHi != nil {
		hi = make([]uint8, n)
	}
	for i, id := range order {
		refs[i] = t.refs[id]
		if hi != nil {
			hi[i] = t.refsHi[id]
		}
	}
	t.refs, t.refsHi = refs, hi
	t.rebuildCells()

	e.scores = gather(e.scores, order)
	e.starts = gather(e.starts, order)
	e.scales = gather(e.scales, order)
	w := signWords(e.dim)
	vchunks := (n + chunkDocs - 1) / chunkDocs
	chunks, signs := make([][]int8, vchunks), allocSigns(vchunks, w)
	for c := range chunks {
		chunks[c] = allocInt8(chunkDocs * e.dim)
	}
	for i, id := range order {
		c, off := i/chunkDocs, i%chunkDocs
		copy(chunks[c][off*e.dim:(off+1)*e.dim], e.int8Of(id))
		copy(signs[c][off*w:(off+1)*w], e.signOf(id))
	}
	e.chunks, e.signs, e.signSpare = chunks, signs, nil
	e.free = nil
	e.releaseChunkTails()

	e.live = roaring.New()
	e.live.AddRange(0, uint64(n))
	e.live.RunOptimize()
	var scratch []uint32
	for i := range e.post {
		p := &e.post[i]
		for v, id := range p.one {
			p.one[v] = newOf[id]
		}
		for v, bm := range p.many {
			p.many[v], scratch = remapBitmap(bm, newOf, scratch)
		}
		if p.self != nil {
			p.self, scratch = remapBitmap(p.self, newOf, scratch)
		}
	}
	for bit, bm := range e.exists {
		e.exists[bit], scratch = remapBitmap(bm, newOf, scratch)
	}
	e.rangeCache = nil
	e.dropSignCopies()

	a := e.ann.idx
	assign := make([]uint16, n)
	for i, id := range order {
		assign[i] = annNone
		if int(id) < len(a.assign) {
			assign[i] = a.assign[id]
		}
	}
	a.assign = assign
	start := 0
	for l, bm := range a.lists {
		size := int(bm.GetCardinality())
		a.lists[l] = roaring.New()
		if size > 0 {
			a.lists[l].AddRange(uint64(start), uint64(start+size))
		}
		start += size
	}
	a.dirty, scratch = remapBitmap(a.dirty, newOf, scratch)
	a.retouched = roaring.New()
	return nil
}

// gather returns col's values at the slots of order.
func gather[T any](col []T, order []uint32) []T {
	out := make([]T, len(order))
	for i, id := range order {
		out[i] = col[id]
	}
	return out
}

// remapBitmap returns bm's slots renumbered through newOf (slots with no
// new number, which only free slots have, are left out).
func remapBitmap(bm *roaring.Bitmap, newOf []uint32, scratch []uint32) (*roaring.Bitmap, []uint32) {
	ids := candIDs(bm, int(bm.GetCardinality()), scratch)
	out := ids[:0]
	for _, id := range ids {
		if int(id) < len(newOf) && newOf[id] != math.MaxUint32 {
			out = append(out, newOf[id])
		}
	}
	slices.Sort(out)
	r := roaring.New()
	r.AddMany(out)
	r.RunOptimize()
	return r, ids
}

// permuted writes a new vector file holding, at slot i, the vector of
// order[i], and returns it open in place of fv (closed). On failure fv is
// left as it was.
func (fv *flatVectors) permuted(order []uint32) (*flatVectors, error) {
	b, err := newFlatBuilder(fv.path, fv.dim)
	if err != nil {
		return nil, err
	}
	scratch := make([]byte, 2*fv.dim)
	for i, id := range order {
		v := fv.vec(id, scratch)
		if v == nil {
			b.abort()
			return nil, errRenumber
		}
		b.add(uint32(i), v)
	}
	nf, err := b.finish(fv.embedder, len(order))
	if err != nil {
		return nil, err
	}
	// The old file's name now holds the new one: close the old descriptor
	// without touching its header.
	unmapFlat(fv.m)
	fv.m = nil
	fv.f.Close()
	return nf, nil
}

// sortByDomain sorts slots by their domains, eight bytes at a time as
// integers, refining only the runs that share them: at 10M companies in no
// order, a quarter of the time of comparing the strings (14 s).
func sortByDomain(t *domainTable, ids []uint32) {
	keys := make([]domainKey, len(ids))
	for i, id := range ids {
		keys[i].id = id
	}
	sortDomainKeys(t, keys, 0)
	for i := range keys {
		ids[i] = keys[i].id
	}
}

type domainKey struct {
	word uint64
	id   uint32
}

func sortDomainKeys(t *domainTable, keys []domainKey, depth int) {
	for i := range keys {
		keys[i].word = domainWord(t.get(keys[i].id), depth)
	}
	slices.SortFunc(keys, func(a, b domainKey) int { return cmp.Compare(a.word, b.word) })
	for lo := 0; lo < len(keys); {
		hi := lo + 1
		for hi < len(keys) && keys[hi].word == keys[lo].word {
			hi++
		}
		// A word ending in a zero byte is a domain that ended in it
		// (domains hold no zero bytes): the run's domains are equal.
		if hi-lo > 1 && keys[lo].word&0xff != 0 {
			sortDomainKeys(t, keys[lo:hi], depth+8)
		}
		lo = hi
	}
}

// domainWord is the eight bytes of d from depth on, big-endian, padded with
// zeros: comparing words compares the strings' bytes there.
func domainWord(d string, depth int) uint64 {
	var b [8]byte
	if depth < len(d) {
		copy(b[:], d[depth:])
	}
	return binary.BigEndian.Uint64(b[:])
}

// renumberForClose renumbers the slots before Close writes the snapshot,
// when one will be written and the numbering strays from list order.
// Callers hold writeMu; writers and the ANN builder have stopped. A failed
// renumbering leaves the engine as it was.
func (e *Engine) renumberForClose() {
	if !e.snapWritable() {
		return
	}
	e.mu.RLock()
	order := e.listOrder()
	e.mu.RUnlock()
	if order != nil {
		_ = e.renumber(order)
	}
}
