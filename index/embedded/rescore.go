package embedded

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
)

// Full-precision rescoring. The resident int8 codes choose the candidates;
// the returned order and similarities come from the full-precision
// (binary16) vectors on disk, read for the best rescoreK(k) of them only:
// from the slot-indexed vector file (flatfile.go), a memory read of the
// page cache, or a store point read (~20 µs) without one.
// Quantization moves a similarity by up to ~0.005, enough to reorder the
// near-ties of a dense neighbourhood: on the 300k demo index int8 alone
// returned 0.88 of the exact top 10 (docs/benchmarks.md, issue 24); with
// this pass the recall is the float32 scan's. Every plan ends here, so a
// returned document scores the same whichever plan ran.

// rescoreK is how many int8-ranked candidates are rescored for a top k:
// 2k+20, and at least rescoreMin. The floor is for small pages of a large
// index: at 10M companies a stored company's neighbourhood holds many
// companies within the int8 codes' error of each other, and rescoring the
// best 40 for a top 10 returned 0.68-0.84 of the exact top 10 on every
// plan (the exact scan too), rescoring the best 220 0.96-1.00
// (docs/benchmarks.md, "10M search phases").
func rescoreK(k int) int {
	if k <= 0 {
		return k
	}
	return max(2*k+20, rescoreMin)
}

// rescoreMin is rescoreK's floor (a variable for the benchmarks).
var rescoreMin = 220

// rescoreFull rescores top (ranked by dotID) with the stored full-precision
// vectors and returns the best k with similarity >= min. A document whose
// entry vanished since the scan (deleted) keeps its int8 score; hydration
// drops it. Callers hold mu for reading.
func (e *Engine) rescoreFull(ctx context.Context, top []scored, q []float32, min float32, k int) ([]scored, error) {
	if len(top) == 0 || k <= 0 {
		return top, nil
	}
	out := make([]scored, len(top))
	errs := make([]error, len(top))
	e.flat.prefetch(top)
	parallel(len(top), 16, func(_, lo, hi int) {
		v := make([]float32, len(q))
		scratch := make([]byte, 2*len(q))
		for i := lo; i < hi; i++ {
			out[i] = top[i]
			if ctx.Err() != nil {
				return
			}
			if half := e.flat.vec(top[i].id, scratch); half != nil {
				out[i].score = halfDot(q, half)
				continue
			}
			ok, err := e.storedVector(top[i].id, v)
			if err != nil {
				errs[i] = err
				return
			}
			if ok {
				out[i].score = fullDot(q, v)
			}
		}
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	h := &topK{k: k, domains: e.domains, items: make([]scored, 0, k)}
	for _, s := range out {
		if s.score >= min {
			h.offer(s)
		}
	}
	return h.sorted(), nil
}

// prefetch asks the kernel to read the mapped pages of top's vectors that
// are not in the page cache, all at once. The pass then reads them in
// GOMAXPROCS goroutines, and a goroutine that faults on a page the cache
// misses holds its processor until the disk answers: at 10M companies the
// 5 GB file is mostly not cached, and 220 such faults two at a time cost
// tens of ms (docs/benchmarks.md, "10M search phases"). A page already
// cached costs a system call (about a µs).
func (fv *flatVectors) prefetch(top []scored) {
	if fv == nil || fv.broken || fv.m == nil || prefetchOff {
		return
	}
	const page = 4096
	last := int64(-1)
	for _, s := range top {
		if int(s.id) >= fv.slots {
			continue
		}
		off := fv.off(s.id)
		end := off + int64(2*fv.dim)
		for p := off &^ (page - 1); p < end; p += page {
			if p == last || p+page > int64(len(fv.m)) {
				continue
			}
			willNeed(fv.m[p : p+page])
			last = p
		}
	}
}

// prefetchOff turns prefetch off (the benchmarks' A/B).
var prefetchOff bool

// storedVector reads a live document's full-precision vector from its
// stored entry into v (the final pass without a vector file); ok is false
// when the entry is gone. Callers hold mu for reading.
func (e *Engine) storedVector(id uint32, v []float32) (ok bool, err error) {
	domain := e.domains.get(id)
	val, ok, err := e.stored(prefixEntry, domain)
	if err != nil || !ok {
		return false, err
	}
	// A codec 3 entry ends with the binary16 vector.
	if len(val) > 2*len(v) && val[0] == codecVersion {
		getHalfs(v, val[len(val)-2*len(v):])
		return true, nil
	}
	var en entry
	if err := en.unmarshal(val); err != nil {
		return false, fmt.Errorf("read vector of %s: %w", domain, err)
	}
	if len(en.codes) != len(v) {
		return false, fmt.Errorf("read vector of %s: %d dimensions, want %d", domain, len(en.codes), len(v))
	}
	copy(v, en.full())
	return true, nil
}

// halfDot is fullDot of q and a little-endian binary16 vector, summed in
// the same order (the same float32 result as converting first).
func halfDot(q []float32, h []byte) float32 {
	h = h[:2*len(q)]
	t := halfValues
	var a0, a1, a2, a3 float32
	k := 0
	for ; k+4 <= len(q); k += 4 {
		a0 += q[k] * t[binary.LittleEndian.Uint16(h[2*k:])]
		a1 += q[k+1] * t[binary.LittleEndian.Uint16(h[2*k+2:])]
		a2 += q[k+2] * t[binary.LittleEndian.Uint16(h[2*k+4:])]
		a3 += q[k+3] * t[binary.LittleEndian.Uint16(h[2*k+6:])]
	}
	for ; k < len(q); k++ {
		a0 += q[k] * t[binary.LittleEndian.Uint16(h[2*k:])]
	}
	return (a0 + a1) + (a2 + a3)
}

// fullDot is the float32 dot product of the rescoring pass.
func fullDot(q, v []float32) float32 {
	v = v[:len(q)]
	var a0, a1, a2, a3 float32
	k := 0
	for ; k+4 <= len(q); k += 4 {
		a0 += q[k] * v[k]
		a1 += q[k+1] * v[k+1]
		a2 += q[k+2] * v[k+2]
		a3 += q[k+3] * v[k+3]
	}
	for ; k < len(q); k++ {
		a0 += q[k] * v[k]
	}
	return (a0 + a1) + (a2 + a3)
}
