package embedded

import (
	"context"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/openprospect/prospectd/index"
)

// The sketch plan of grouped contact search.
//
// A broad contact filter (a seniority, a department and a country match
// hundreds of thousands of contacts at 5M) made the exact plan score every
// candidate's int8 vector: four cache lines a candidate spread over the
// whole index, ~205 ns each, 44 ms at the p95 request. A grouped search
// only needs to know which MaxCompanies employers have the best contacts;
// once those are known, their own candidates (a few hundred) are scored
// exactly and grouped as the exact plan groups them. So for candidate sets
// larger than contactExactMax:
//
//  1. estimate every candidate from its sign sketch (32 bytes, half a cache
//     line), each agreeing dimension weighted by the query component's
//     magnitude (refinePlanes bits, the company screen's refine step), and
//     read its employer id in the same pass (the totals need it anyway);
//  2. score exactly the pool of the best estimates, and choose the
//     employers by their best pooled contact; widen the pool while chosen
//     employers' best contacts come from its bottom quarter (the ranking is
//     flat around the cut);
//  3. score exactly every candidate of the chosen employers, rank and group
//     them: the order of the employers and of their contacts is the exact
//     plan's; only which employers are chosen is approximate.
//
// Total and Companies are exact: the plan runs only when MinSimilarity
// keeps every candidate. The recall of the grouped contacts against the
// exact plan is measured by BenchmarkContactSearchPhases (recall-grouped).

// contactExactMax is the largest candidate count the grouped search scores
// exactly; contactPoolPerContact × MaxCompanies × PerCompany (at least
// contactPoolMin) is the first pool of the sketch plan. Variables so tests
// can push small indexes through the sketch plan.
var contactExactMax, contactPoolMin, contactPoolPerContact = 20_000, 2000, 5

// The sketches' layout. The sketch pass reads one sketch a candidate, and
// a broad filter's candidates lie all over the id space (ids follow the
// persona ids): in id order each read is a miss to main memory, ~40 ns of
// CPU a candidate even in blocks, 25 ms of CPU in the p95 request at 15M
// contacts (629,000 candidates). Persona searches nearly always name a
// department and a seniority, so the sketches live in slots ordered by
// (department, seniority, id): such a filter's candidates are then a few
// dense runs of slots, read in order, where the processor's prefetchers
// fetch ahead. A filter that names neither reads them as before. Contacts
// written after the load get the next slots, and a replaced contact keeps
// its slot (its department may change): the layout is the load's until
// the next load.

// noSign is the slot of a contact that has none yet.
const noSign = ^uint32(0)

// signGroup is contact en's sketch group: its department (numbered in
// depts in the order the load meets them; the 256th and later share the
// last number) and its seniority rank.
func signGroup(depts map[string]uint8, en *cEntry) uint16 {
	dept := ""
	if v := en.kw[departmentKw]; len(v) > 0 {
		dept = v[0]
	}
	n, ok := depts[dept]
	if !ok {
		n = uint8(min(len(depts), 255))
		if len(depts) < 256 {
			depts[strings.Clone(dept)] = n
		}
	}
	return uint16(n)<<3 | uint16(en.rank&7)
}

// departmentKw is the department's index in contactKeyword (cEntry.kw).
var departmentKw = slices.Index(contactKeyword, index.DepartmentField)

// layoutSigns gives contacts [0, len(groups)) their sketch slots, by
// group and then by id (a counting sort), and sketches their codes into
// the slots (a fresh array on huge pages, on every core).
func (x *contactIndex) layoutSigns(groups []uint16) {
	start := make([]uint32, 1<<11)
	for _, g := range groups {
		start[g]++
	}
	sum := uint32(0)
	for g, n := range start {
		start[g], sum = sum, sum+n
	}
	for id, g := range groups {
		x.signAt[id] = start[g]
		start[g]++
	}
	x.signN = uint32(len(groups))
	if x.dim > 0 {
		x.signs = sketchSlots(x.vecs, x.dim, x.signAt, x.signN)
	}
}

// sketchSlots returns the sketches of the int8 codes vecs (dim each,
// chunkDocs a chunk) in the slots at gives (n slots; contacts with
// noSign have none), carved from one allocation on huge pages
// (allocSigns).
func sketchSlots(vecs [][]int8, dim int, at []uint32, n uint32) [][]uint64 {
	w := signWords(dim)
	out := allocSigns((int(n)+chunkDocs-1)/chunkDocs, w)
	parallel(len(at), 1<<16, func(_, lo, hi int) {
		for id := lo; id < hi; id++ {
			s := int(at[id])
			if at[id] == noSign || id/chunkDocs >= len(vecs) {
				continue
			}
			off := (id % chunkDocs) * dim
			sketch(vecs[id/chunkDocs][off:off+dim], out[s/chunkDocs][(s%chunkDocs)*w:(s%chunkDocs+1)*w])
		}
	})
	return out
}

// setSign sketches contact id's codes vec into its slot, giving it the
// next slot when it has none.
func (x *contactIndex) setSign(id uint32, vec []int8) {
	if x.signAt[id] == noSign {
		x.signAt[id] = x.signN
		x.signN++
	}
	for len(x.signs) <= int(x.signAt[id])/chunkDocs {
		x.signs = append(x.signs, x.signChunk())
	}
	sig := x.signOf(id)
	clear(sig) // a reused id's old sketch
	if len(vec) == x.dim {
		sketch(vec, sig)
	}
}

// signChunk returns the next chunk of sketches for setSign, allocating
// signBlock of them at once when none is left (allocSigns: one
// allocation holds whole huge pages, where a single 2 MiB chunk holds
// none unless it happens to be aligned).
func (x *contactIndex) signChunk() []uint64 { return nextSignChunk(&x.signSpare, signWords(x.dim)) }

// signOf returns contact id's sign sketch.
func (x *contactIndex) signOf(id uint32) []uint64 {
	w := signWords(x.dim)
	s := int(x.signAt[id])
	off := (s % chunkDocs) * w
	return x.signs[s/chunkDocs][off : off+w]
}

// sketchPlan reports whether s's ranking over c candidates goes through
// the sketch plan.
func (x *contactIndex) sketchPlan(s index.ContactSearch, c int) bool {
	return s.Vector != nil && len(x.signs) > 0 && s.MinSimilarity <= -1 && s.Offset == 0 &&
		s.MaxCompanies > 0 && s.PerCompany > 0 && c > contactExactMax
}

// sketchPick ranks cand through the sketch plan and returns the picked
// contacts, the candidate count and the count of their employers. ok is
// false when the plan cannot choose (fewer employers than MaxCompanies):
// the caller then scores exactly.
func (x *contactIndex) sketchPick(ctx context.Context, cand *roaring.Bitmap, s index.ContactSearch) (picked []cScored, total, companies int, ok bool) {
	sc := contactScratch.Get().(*sketchScratch)
	defer contactScratch.Put(sc)
	sc.ids = candIDs(cand, int(cand.GetCardinality()), sc.ids)
	ids := sc.ids
	c := len(ids)
	qp := newQPlanes(s.Vector, refinePlanes)
	sc.est, sc.doms = grow(sc.est, c), grow(sc.doms, c)
	est, doms := sc.est, sc.doms
	words := (len(x.domNames) + 63) / 64
	sc.seen = grow(sc.seen, runtime.GOMAXPROCS(0))
	for w := range sc.seen {
		sc.seen[w] = grow(sc.seen[w], words)
	}
	sc.chosen = grow(sc.chosen, words)
	hist, companies := x.estimateAll(ctx, qp, ids, est, doms, sc.seen)
	if companies <= s.MaxCompanies || ctx.Err() != nil {
		// Every employer is in the result: nothing to choose.
		return nil, c, companies, false
	}
	pool := max(contactPoolMin, contactPoolPerContact*s.MaxCompanies*s.PerCompany)
	cmp := x.compare(true)
	var scored []cScored // the pool so far, exactly scored
	members := sc.members[:0]
	defer func() { sc.members = members }()
	chosen := sc.chosen
	hi := qp.max + 1
	for {
		// The cut t takes about pool more candidates: est in [t, hi).
		t, got := hi, 0
		for t > 0 && got < pool {
			t--
			got += int(hist[t])
		}
		members = members[:0]
		for i, v := range est {
			if int(v) >= t && int(v) < hi {
				members = append(members, ids[i])
			}
		}
		scored = append(scored, x.scoreIDs(ctx, members, s.Vector, -2)...)
		if ctx.Err() != nil {
			return nil, c, companies, false
		}
		// Choose the employers by their best pooled contact.
		ranked := slices.Clone(scored)
		slices.SortFunc(ranked, cmp)
		clear(chosen)
		n := 0
		var best []uint32 // each chosen employer's best pooled contact
		for _, r := range ranked {
			d := x.domID[r.id]
			if chosen[d/64]&(1<<(d%64)) == 0 {
				chosen[d/64] |= 1 << (d % 64)
				best = append(best, r.id)
				if n++; n == s.MaxCompanies {
					break
				}
			}
		}
		if t == 0 {
			break // every candidate is pooled: the choice is exact
		}
		// The bottom quarter of the pool so far: estimates in [t, tail).
		size := len(scored)
		tail, cnt := t, 0
		for tail < qp.max+1 && cnt < size/4 {
			cnt += int(hist[tail])
			tail++
		}
		late := 0
		for _, id := range best {
			i, _ := slices.BinarySearch(ids, id)
			if int(est[i]) < tail {
				late++
			}
		}
		if n == s.MaxCompanies && late*50 <= s.MaxCompanies {
			break
		}
		hi, pool = t, 2*size
	}
	// Every candidate of the chosen employers, exactly.
	members = members[:0]
	for i, d := range doms {
		if chosen[d/64]&(1<<(d%64)) != 0 {
			members = append(members, ids[i])
		}
	}
	theirs := x.scoreIDs(ctx, members, s.Vector, -2)
	slices.SortFunc(theirs, cmp)
	return x.group(theirs, s), c, companies, true
}

// sketchScratch holds a sketch plan's per-candidate arrays between
// searches (a broad filter's are megabytes: fewer garbage collections).
type sketchScratch struct {
	ids, doms, members []uint32
	est                []uint16
	seen               [][]uint64 // a bitset of employers a worker
	chosen             []uint64
}

var contactScratch = sync.Pool{New: func() any { return new(sketchScratch) }}

// estimateAll writes the sketch estimate and the employer id of each of
// ids into est and doms, in parallel, and returns the histogram of the
// estimates. With seen (one bitset of len(x.domNames) bits a worker:
// GOMAXPROCS of them) it also returns the count of distinct employers,
// each worker marking its share's in its own bitset (a serial pass over
// the employer ids of a broad filter's candidates was ~2 ms at 600,000).
func (x *contactIndex) estimateAll(ctx context.Context, qp *qplanes, ids []uint32, est []uint16, doms []uint32, seen [][]uint64) (hist []int32, companies int) {
	workers := runtime.GOMAXPROCS(0)
	hists := make([][]int32, workers)
	used := parallel(len(ids), 16384, func(w, lo, hi int) {
		h := make([]int32, qp.max+1)
		x.estimate(ctx, qp, ids[lo:hi], est[lo:hi], doms[lo:hi], h)
		hists[w] = h
		if seen != nil {
			s := seen[w]
			clear(s)
			for _, d := range doms[lo:hi] {
				s[d/64] |= 1 << (d % 64)
			}
		}
	})
	for _, h := range hists[1:used] {
		for v, n := range h {
			hists[0][v] += n
		}
	}
	if seen != nil {
		for _, s := range seen[1:used] {
			for i, v := range s {
				seen[0][i] |= v
			}
		}
		for _, v := range seen[0] {
			companies += bits.OnesCount64(v)
		}
	}
	return hists[0], companies
}

// estimate is estimateAll's work on one share of the ids. For 4-word
// sketches and three planes it works in blocks of sketchBlock candidates,
// as the company screen's estimate3 does: a first loop only copies each
// candidate's sketch and employer id (two reads that miss the caches: a
// filter's candidates lie at random over the whole index), a second
// scores the copies. The copying loop is a few instructions a candidate,
// so the processor's window holds many more of those reads at once than
// when each is followed by the scoring's forty (docs/benchmarks.md,
// "Grouped contact search at 10M / 15M").
func (x *contactIndex) estimate(ctx context.Context, qp *qplanes, ids []uint32, est []uint16, doms []uint32, hist []int32) {
	words := qp.words
	if words == 4 && len(qp.planes) == 3 {
		p := qp.unpack3()
		var buf [sketchBlock][4]uint64
		for start := 0; start < len(ids); start += sketchBlock {
			if start%(1<<14) == 0 && ctx.Err() != nil {
				return
			}
			part := ids[start:min(len(ids), start+sketchBlock)]
			d := doms[start : start+len(part)]
			for i, id := range part {
				s := x.signAt[id]
				buf[i] = *(*[4]uint64)(x.signs[s/chunkDocs][int(s%chunkDocs)*4:])
				d[i] = x.domID[id]
			}
			out := est[start : start+len(part)]
			for i := range part {
				v := p.score(&buf[i])
				out[i] = uint16(v)
				hist[v]++
			}
		}
		return
	}
	for start := 0; start < len(ids); start += 1 << 14 {
		if ctx.Err() != nil {
			return
		}
		end := min(len(ids), start+1<<14)
		for i, id := range ids[start:end] {
			v := qp.estimate(x.signOf(id))
			doms[start+i] = x.domID[id]
			est[start+i] = uint16(v)
			hist[v]++
		}
	}
}

// scoreIDs scores ids exactly (int8 similarity), keeping those at or above
// minSim, on every core for large sets.
func (x *contactIndex) scoreIDs(ctx context.Context, ids []uint32, q []float32, minSim float32) []cScored {
	workers := runtime.GOMAXPROCS(0)
	if len(ids) < 8192 {
		workers = 1
	}
	parts := make([][]cScored, workers)
	var wg sync.WaitGroup
	per := (len(ids) + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := min(w*per, len(ids)), min((w+1)*per, len(ids))
		wg.Add(1)
		go func(w int, part []uint32) {
			defer wg.Done()
			local := make([]cScored, 0, len(part))
			var touched int8
			for i, id := range part {
				if i&4095 == 0 && ctx.Err() != nil {
					return
				}
				if i+scoreAhead < len(part) {
					touched += x.touch(part[i+scoreAhead])
				}
				// The kernel the company index uses (quant.go).
				if s := dotInt8(q, x.vecOf(id)) * x.scale[id]; s >= minSim {
					local = append(local, cScored{id: id, score: s})
				}
			}
			parts[w] = local
			touchSink.Add(int32(touched))
		}(w, ids[lo:hi])
	}
	wg.Wait()
	if workers == 1 {
		return parts[0]
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]cScored, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
