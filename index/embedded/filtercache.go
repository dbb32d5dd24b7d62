package embedded

import (
	"context"
	"strconv"
	"strings"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/openprospect/prospectd/index"
)

// Broad requests repeat the same filters: discovery's defaults (active
// status, the footprint floor with unknown scores kept, no redirects, no
// lead-generation sites) hold for nearly every company, and at 10M
// companies evaluating them took ~25 ms of a broad lookalike's ~37 ms of
// CPU (roaring And/AndNot over bitmaps of 10M; docs/benchmarks.md "Ten
// million companies: the merged build"). evalAll keeps what such a group
// evaluates to over every live company with the range bitmaps, until the
// next write, so a request pays one intersection with it.

// cacheKey writes a canonical form of f to b and reports whether f may be
// kept: its answer over every live company depends only on the index.
// Phrases read documents (evaluated after the bitmaps, on fewer
// candidates) and ad hoc domain lists differ per request (example domains,
// exclusions), so neither is kept; a keyed domain list is (domainSet).
func cacheKey(b *strings.Builder, f index.Filter) bool {
	switch n := f.(type) {
	case index.Terms:
		if n.Field == index.DomainField && n.Key == "" {
			return false
		}
		b.WriteString("t(")
		b.WriteString(string(n.Field))
		if n.Key != "" {
			b.WriteString("|k")
			b.WriteString(strconv.Quote(n.Key))
		} else {
			for _, v := range n.Values {
				b.WriteByte('|')
				b.WriteString(strconv.Quote(v))
			}
		}
	case index.Range:
		b.WriteString("r(")
		b.WriteString(string(n.Field))
		for _, p := range []*int{n.Min, n.Max} {
			b.WriteByte('|')
			if p != nil {
				b.WriteString(strconv.Itoa(*p))
			}
		}
	case index.DateRange:
		b.WriteString("d(")
		b.WriteString(string(n.Field) + "|" + strconv.Quote(n.From) + "|" + strconv.Quote(n.To))
	case index.Exists:
		b.WriteString("e(")
		b.WriteString(string(n.Field))
	case index.And, index.Or:
		kids := []index.Filter(nil)
		if a, ok := n.(index.And); ok {
			b.WriteString("a(")
			kids = a
		} else {
			b.WriteString("o(")
			kids = n.(index.Or)
		}
		for _, c := range kids {
			if !cacheKey(b, c) {
				return false
			}
		}
	case index.Not:
		b.WriteString("n(")
		if !cacheKey(b, n.Filter) {
			return false
		}
	default:
		return false
	}
	b.WriteByte(')')
	return true
}

// evalAll evaluates an And over every live company: the children that can
// be kept are answered as one group from the cache (computed on a miss),
// the others over what the group leaves. kept is the group's bitmap from
// the cache (nil when there is no group), which the answer lies within.
func (e *Engine) evalAll(n index.And) (res, kept *roaring.Bitmap, err error) {
	var group, rest index.And
	var b strings.Builder
	b.WriteString("f:")
	for _, c := range n {
		mark := b.Len()
		if cacheKey(&b, c) {
			group = append(group, c)
			continue
		}
		// Drop the partial key of a child that cannot be kept.
		s := b.String()[:mark]
		b.Reset()
		b.WriteString(s)
		rest = append(rest, c)
	}
	if len(group) < 2 && !composite(group) {
		// One plain term: nothing to save. A single keyword's posting
		// list is kept as it is (evalTop).
		if len(group) == 1 && singleKeyword(group[0]) {
			if kept, err = e.eval(group[0], e.live); err != nil {
				return nil, nil, err
			}
			res, err = e.evalAnd(rest, kept)
			return res, kept, err
		}
		res, err = e.evalAnd(n, e.live)
		return res, nil, err
	}
	key := b.String()
	cur, ok := e.cached(key)
	if !ok {
		bm, err := e.evalAnd(group, e.live)
		if err != nil {
			return nil, nil, err
		}
		// A copy: the group's answer may alias a posting list, which the
		// next write changes in place after the cache is cleared but
		// while a search may still hold it.
		cur = bm.Clone()
		cur.RunOptimize()
		e.keep(key, cur)
	}
	if len(rest) == 0 {
		return cur, cur, nil
	}
	res, err = e.evalAnd(rest, cur)
	return res, cur, err
}

// composite reports whether the only child of g is an And, Or or Not (worth
// keeping alone: it combines bitmaps).
func composite(g index.And) bool {
	if len(g) != 1 {
		return false
	}
	switch g[0].(type) {
	case index.And, index.Or, index.Not:
		return true
	}
	return false
}

// Sketches of kept candidate sets. A filter's candidates lie at random
// across the index, so the screen's weighted pass read each one's sketch
// from anywhere in the 320 MB of them at 10M companies: ~10 ms of a 5%
// filter's ~11 ms of engine time went to 500,000 random reads
// (docs/decisions.md "Filtered lookalikes at 10M"). For a candidate set
// that stays the same object until the next write — a group kept by
// evalAll, a single keyword's posting list (evalTop) — the first screened
// search copies its candidates' ids and sketches into one array in id
// order (signCopy), laid out for a pass that scores 32 candidates at a
// time (sketchscan.go), and the searches after it read that array from
// start to end: the 5% filter's engine time at 10M 11 → 3.7-4.5 ms with
// the slots in key order, 5.8-6.0 → 2.7-3.0 in ANN list order, the
// results the same (docs/decisions.md "Filtered lookalikes at 10M: a
// kept set's sketches in blocks"). Writes drop the copies with the
// filter cache; they are made only for the screen's plan (not the exact
// scan's or the ANN walk's), and all of them together stay within
// signCopyMax.

// signCopy is the candidates of a kept set, in id order, and their sign
// sketches (4 words each) in the same order, in blocks of 32
// (sketchscan.go).
type signCopy struct {
	once   sync.Once
	ids    []uint32
	blocks []byte
}

// signCopyBytes is what signCopy holds a candidate: its id and its sketch.
const signCopyBytes = 4 + 4*8

// signCopyMax bounds the bytes of every copy together (a variable for the
// tests): 64 MiB is a 5% filter's copy at 10M companies (18 MB) three
// times over. A copy that would pass it empties the others first, as a
// full filter cache does.
var signCopyMax = 64 << 20

// signCopyOf returns the copy of kept (c candidates), made by the first
// caller, or nil when the index's sketches are not 4 words or one copy
// would pass signCopyMax. Callers hold mu for reading; writers drop the
// copies under mu (dropSignCopies).
func (e *Engine) signCopyOf(kept *roaring.Bitmap, c int) *signCopy {
	need := c * signCopyBytes
	if signWords(e.dim) != 4 || need > signCopyMax {
		return nil
	}
	e.rangeMu.Lock()
	cp, ok := e.signCopies[kept]
	if !ok {
		if e.signCopies == nil || e.signCopyUsed+need > signCopyMax {
			e.signCopies, e.signCopyUsed = map[*roaring.Bitmap]*signCopy{}, 0
		}
		cp = &signCopy{}
		e.signCopies[kept] = cp
		e.signCopyUsed += need
	}
	e.rangeMu.Unlock()
	cp.once.Do(func() {
		ids := candIDs(kept, c, nil)
		blocks := make([]byte, (len(ids)+blockDocs-1)/blockDocs*blockBytes)
		if in := hugeInterior(blocks); len(in) > 0 {
			adviseHuge(in)
		}
		// The sketches of 8 blocks are read into buf first, in a loop that
		// only copies (each read misses the caches; see estimate3), then
		// laid out 8 at a time (putBlock8); a gap at the end is laid out
		// as zeros.
		const step = sketchBlock / blockDocs
		parallel(len(blocks)/blockBytes, 512, func(_, lo, hi int) {
			var buf [step * blockDocs][4]uint64
			for b := lo; b < hi; b += step {
				end := min(hi, b+step)
				part := ids[b*blockDocs : min(len(ids), end*blockDocs)]
				for i, id := range part {
					buf[i] = *(*[4]uint64)(e.signs[id/chunkDocs][int(id%chunkDocs)*4:])
				}
				clear(buf[len(part):])
				for i := 0; i < (end-b)*blockDocs; i += 8 {
					putBlock8(blocks[(b+i/blockDocs)*blockBytes:], i%blockDocs, (*[8][4]uint64)(buf[i:]))
				}
			}
		})
		cp.ids, cp.blocks = ids, blocks
	})
	return cp
}

// dropSignCopies forgets the copies; writers call it under mu with the
// filter cache's reset (the sketches or the kept sets change).
func (e *Engine) dropSignCopies() {
	e.signCopies, e.signCopyUsed = nil, 0
}

// estimateAll writes the sketch estimate of each of cp's candidates into
// est and returns the histogram of the values, as Engine.estimateAll does
// for candidates read from anywhere in the index (the same estimates).
func (cp *signCopy) estimateAll(ctx context.Context, qp *qplanes, est []uint16) []int32 {
	tab := sketchTables(qp)
	const step = 256 // blocks a round: 8,192 candidates, 16 KiB of estimates
	return histAll(len(cp.blocks)/blockBytes, qp.max, 64, func(lo, hi int, h []int32) {
		var buf [step * blockDocs]uint16
		for b := lo; b < hi; b += step {
			if ctx.Err() != nil {
				return
			}
			end := min(hi, b+step)
			scanBlocks(tab, cp.blocks[b*blockBytes:end*blockBytes], buf[:])
			out := est[b*blockDocs : min(len(est), end*blockDocs)]
			for i, v := range buf[:len(out)] {
				out[i] = v
				h[v]++
			}
		}
	})
}
