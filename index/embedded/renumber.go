package embedded

import (
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

// renumberShare is how many breaks in the runs of list order (adjacent
// slots of the order whose numbers are not adjacent), beyond one a list,
// make Close renumber, as a share of the live companies; a company out of
// place makes about two. A variable so tests can force it.
var renumberShare = 0.05

// errRenumber is a vector file that could not be read through.
var errRenumber = errors.New("renumber: vector file unreadable")

// listOrder returns the live slots in ANN list order (list by list, each
// list's members ascending, then the live slots in no list) when the
// current numbering strays from it by more than renumberShare; nil when it
// does not, or when there is no trained index. Callers hold mu.
func (e *Engine) listOrder() []uint32 {
	a := e.ann.idx
	n := int(e.live.GetCardinality())
	if a == nil || len(a.mean) != len(a.cent) || annLists(n) >= 2*a.nlist {
		// No index, or one the builder will train again (its lists
		// would be other lists next session).
		return nil
	}
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
	// The live slots in no list, from the assignments (not a bitmap of the
	// 10M listed, built at every Close).
	rest := len(order)
	e.live.Iterate(func(id uint32) bool {
		if int(id) >= len(a.assign) || a.assign[id] == annNone {
			order = append(order, id)
		}
		return true
	})
	if len(order) > rest {
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
	fv, err := e.flat.permuted(order)
	if err != nil {
		return fmt.Errorf("renumber %d companies: %w", len(order), err)
	}
	e.flat = fv
	// The snapshot on disk no longer holds these slots. (Had the process
	// died since the new vector file took the old one's name, the snapshot
	// would not have been trusted either: the file's header says dirty
	// until Close marks it.)
	e.snapMarkDirty()

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
	e.permuteVectors(order, old)
	vchunks := (n + chunkDocs - 1) / chunkDocs
	e.chunks, e.signs, e.signSpare = e.chunks[:vchunks:vchunks], e.signs[:vchunks:vchunks], nil
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
	byList := make([][]uint32, a.nlist)
	for i, id := range order {
		assign[i] = annNone
		if int(id) < len(a.assign) {
			assign[i] = a.assign[id]
		}
		if l := assign[i]; l != annNone {
			byList[l] = append(byList[l], uint32(i))
		}
	}
	a.assign = assign
	for l, ids := range byList {
		a.lists[l] = roaring.New()
		a.lists[l].AddMany(ids)
		a.lists[l].RunOptimize()
	}
	a.dirty, _ = remapBitmap(a.dirty, newOf, scratch)
	a.retouched = roaring.New()
	return nil
}

// permuteVectors moves the int8 codes and sign sketches in place so that
// slot i holds what slot order[i] held, following the permutation's
// cycles: a copy of them would take 2.9 GB more at 10M on top of the
// resident index, at Close. The slots order leaves out (free ones) take
// the positions past len(order), in no particular order. old is the slot
// count.
func (e *Engine) permuteVectors(order []uint32, old int) {
	// src[i]: the slot whose vector slot i receives.
	src := make([]uint32, old)
	copy(src, order)
	placed := roaring.New()
	placed.AddMany(order)
	i := len(order)
	for id := range uint32(old) {
		if !placed.Contains(id) {
			src[i] = id
			i++
		}
	}
	w := signWords(e.dim)
	code, sign := make([]int8, e.dim), make([]uint64, w)
	done := make([]uint64, (old+63)/64)
	for start := range uint32(old) {
		if done[start/64]&(1<<(start%64)) != 0 || src[start] == start {
			continue
		}
		copy(code, e.int8Of(start))
		copy(sign, e.signOf(start))
		j := start
		for {
			done[j/64] |= 1 << (j % 64)
			k := src[j]
			if k == start {
				copy(e.int8Of(j), code)
				copy(e.signOf(j), sign)
				break
			}
			copy(e.int8Of(j), e.int8Of(k))
			copy(e.signOf(j), e.signOf(k))
			j = k
		}
	}
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

// renumberForClose renumbers the slots before Close writes the snapshot,
// when one will be written and the numbering strays from list order.
// Callers hold writeMu; writers and the ANN builder have stopped. A failed
// renumbering leaves the engine as it was.
func (e *Engine) renumberForClose() {
	if e.noRenumber || !e.snapWritable() {
		return
	}
	e.mu.RLock()
	order := e.listOrder()
	e.mu.RUnlock()
	if order != nil {
		_ = e.renumber(order)
	}
}
