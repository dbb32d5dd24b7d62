package embedded

import (
	"context"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2"
)

// Query planner for vector search.
//
// Small candidate sets are scanned exactly: the int8 dot product (dotID,
// quant.go) of every candidate. Large ones go through three passes, each over fewer documents:
//
//  1. screen (only above screenOnce candidates): agreement of the sign
//     sketches on the half of the dimensions where the query is largest
//     (unweighted; a few ns a document) keeps the best screenFrac of the
//     candidates;
//  2. refine: the sign sketches again, each agreeing dimension weighted by
//     the query component's magnitude quantized to refinePlanes bits, keeps
//     a pool of poolSize(C, k);
//  3. rescore: the int8 dot product of the pool gives the order, the same
//     for a document whichever plan ran; only membership in the top k is
//     approximate. SearchCompanies then rescores the best of them at full
//     precision (rescore.go).
//
// The pool sizes were measured on a 1M-company demo index (bench_test.go):
// recall@100 >= 0.99 for stored-company queries and ~0.98 for mixtures of
// several companies, whose neighbourhoods are much flatter.
// exactMax is the largest candidate count scanned exactly, and poolMin the
// smallest rescored pool (variables so tests can push small indexes
// through the approximate plan at the production ratios). exactMax was
// 60,000; at 10M a 0.5% filter (51,000 candidates) then read every
// candidate's 256 bytes of codes at random, 12.6-15.9 ms p50 on a loaded
// machine, where one sketch pass and a pool of 4,400 took 5.0-10.6 ms with
// recall@100 0.9995-1.000; on a quiet one 3.1-5.8 against 4.3-5.0 ms
// (docs/benchmarks.md "Filtered lookalikes at 10M"). At 10,000 (0.1% at
// 10M) and at 1M's 5% (50,000) the two were even.
var exactMax, poolMin = 20_000, 4000

// screenOnce is the largest candidate set the screen ranks in one sketch
// pass (the refine pass over every candidate, no unweighted pass first).
// The passes read one sketch of each document they score, at random
// across the index: for a filter's candidates at 10M, most of a query's
// time. Two passes read 1.06 sketches a candidate (the first keeps at
// least a twentieth) where one reads one, and the weighted estimate is
// the better of the two screens. Above screenOnce (broad queries while
// the ANN index is not built) the two passes stay as they were measured:
// one pass would keep an estimate (2 bytes) of every candidate and go over
// all of them for each round of the pool; not measured.
var screenOnce = 1 << 20

const (
	// screenFrac: the screen keeps 1/screenFrac of the candidates (and at
	// least screenPool times the pool).
	screenFrac = 20
	screenPool = 3
	// refinePlanes is the bits of query weight in the refine pass.
	refinePlanes = 3
	// poolFrac, poolMin, poolPerK size the rescored pool: the largest of
	// C/poolFrac, poolMin and poolPerK*k.
	poolFrac = 50
	poolPerK = 20
	// totalSample is how many candidates are scored exactly to estimate
	// Total when MinSimilarity cuts and the pool was full.
	totalSample = 2048
)

type scored struct {
	id    uint32
	score float32
}

// topK keeps the best k entries as a heap whose root is the worst kept.
// Equal scores are ordered by domain, looked up only for ties.
type topK struct {
	k       int
	items   []scored
	domains *domainTable
}

// better orders results: higher score first, then domain ascending.
func (h *topK) better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return h.domains.get(a.id) < h.domains.get(b.id)
}

func (h *topK) offer(s scored) {
	if h.k <= 0 {
		return
	}
	if len(h.items) < h.k {
		h.items = append(h.items, s)
		// sift up
		i := len(h.items) - 1
		for i > 0 {
			p := (i - 1) / 2
			if !h.better(h.items[p], h.items[i]) {
				break
			}
			h.items[p], h.items[i] = h.items[i], h.items[p]
			i = p
		}
		return
	}
	if s.score < h.items[0].score || !h.better(s, h.items[0]) {
		return
	}
	h.items[0] = s
	// sift down: the root is the worst, children are better
	n := len(h.items)
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		w := l
		if r := l + 1; r < n && h.better(h.items[l], h.items[r]) {
			w = r
		}
		if !h.better(h.items[i], h.items[w]) {
			break
		}
		h.items[i], h.items[w] = h.items[w], h.items[i]
		i = w
	}
}

// sorted returns the kept entries best first.
func (h *topK) sorted() []scored {
	out := slices.Clone(h.items)
	slices.SortFunc(out, func(a, b scored) int {
		switch {
		case h.better(a, b):
			return -1
		case h.better(b, a):
			return 1
		}
		return 0
	})
	return out
}

// byScore ranks candidates by digital-footprint score.
func (e *Engine) byScore(cand *roaring.Bitmap, k int) ([]scored, int) {
	h := &topK{k: k, domains: e.domains}
	it := cand.Iterator()
	for it.HasNext() {
		id := it.Next()
		h.offer(scored{id: id, score: float32(e.scores[id])})
	}
	return h.sorted(), int(cand.GetCardinality())
}

// scratch holds the per-query buffers, reused across queries.
type scratch struct {
	ids  []uint32
	est  []uint16
	surv []uint32
	pool []uint32
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// candIDs lists cand into buf.
func candIDs(cand *roaring.Bitmap, n int, buf []uint32) []uint32 {
	buf = grow(buf, n)
	it := cand.ManyIterator()
	got := 0
	for got < n {
		m := it.NextMany(buf[got:])
		if m == 0 {
			break
		}
		got += m
	}
	return buf[:got]
}

// parallel runs f over [0, n) split into one contiguous part per worker.
func parallel(n, minPer int, f func(w, lo, hi int)) int {
	workers := runtime.GOMAXPROCS(0)
	if workers > n/minPer {
		workers = max(1, n/minPer)
	}
	if workers == 1 {
		f(0, 0, n)
		return 1
	}
	var wg sync.WaitGroup
	per := (n + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := w*per, min(n, (w+1)*per)
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(w, lo, hi)
		}()
	}
	wg.Wait()
	return workers
}

func poolSize(c, k int) int {
	return max(c/poolFrac, poolMin, poolPerK*k)
}

// The plans of a vector search, by the candidate set's share of the index
// (its estimated selectivity): small sets are scanned exactly, broad ones go
// through the ANN index (ann.go), and the ones between (or any while the
// ANN index is being built) through the sketch screen.
const (
	planExact = iota
	planScreen
	planANN
)

// annOff makes the planner ignore the ANN index (benchmarks measure the
// screen beside it under the same machine load).
var annOff atomic.Bool

// planForce, when set to a plan + 1, makes the planner take that plan for
// every candidate set the screen can rank (more than twice its pool;
// benchmarks compare the plans on the same queries); the ANN plan still
// falls back to the screen without an index.
var planForce atomic.Int32

// plan chooses how to rank c candidates for the top k. The ANN
// plan scans about annTarget candidates exactly where the screen passes
// over all c: at 1M it took an unfiltered lookalike from 11-14 ms to 6 ms
// of engine time and a 30% filter from 13-15 to 11-12.5 ms, with recall@10
// 1.000 (docs/benchmarks.md "ANN recall for mixtures (issue 24)"). It is
// taken while the walk over the lists is short (annWalk <= annMaxWalk: the
// threshold scales with the index, 29% of 1M, 9% of 10M); longer walks, as
// a 5% filter's at 10M, cost more than the screen and lose recall when the
// filter lies away from the query (docs/benchmarks.md "10M search
// phases").
func (e *Engine) plan(c, k int) int {
	if 2*poolSize(c, k) >= c || k == 0 {
		return planExact
	}
	if f := int(planForce.Load()); f > 0 {
		return f - 1
	}
	if c <= exactMax {
		return planExact
	}
	if a := e.ann.idx; a != nil && !annOff.Load() && annWalk(c, k, a.nlist) <= annMaxWalk && c >= annGatherRatio*annTarget(c, k, a.nlist) {
		return planANN
	}
	return planScreen
}

// scanVectors ranks the candidates by cosine similarity (vectors are unit
// length, so the dot product) and returns the best rescoreK(k) with similarity >= min
// and the number of candidates at or above min (estimated on the
// approximate plans).
func (e *Engine) scanVectors(ctx context.Context, cand *roaring.Bitmap, q []float32, min float32, k int) ([]scored, int) {
	return e.scanKept(ctx, cand, nil, q, min, k)
}

// scanKept is scanVectors for candidates within kept, a set that stays the
// same object until the next write (evalTop; nil for none): the screen
// then reads the sketches from kept's copy (keptCopy).
func (e *Engine) scanKept(ctx context.Context, cand, kept *roaring.Bitmap, q []float32, min float32, k int) ([]scored, int) {
	c := int(cand.GetCardinality())
	if c == 0 {
		return nil, 0
	}
	if k == 0 && min <= -1 {
		return nil, c
	}
	// The plan and the ANN's gathering follow the page's k; the plan then
	// ranks the rescoreK(k) best by the int8 similarity for the caller's
	// full-precision pass (rescore.go).
	ph := phasesOf(ctx)
	plan := e.plan(c, k)
	pageK := k
	k = rescoreK(k)
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	if plan == planANN {
		if e.annGather(cand, q, annTarget(c, pageK, e.ann.idx.nlist), ph, sc) {
			e.ann.plans[planANN].Add(1)
			if ph != nil {
				ph.plan = planANN
			}
			return e.rankANN(ctx, sc, cand, c, q, min, max(k, annRescore(e.ann.idx.nlist)))
		}
		plan = planScreen
	}
	e.ann.plans[plan].Add(1)
	if ph != nil {
		ph.plan = plan
	}
	if plan == planExact {
		sc.ids = candIDs(cand, c, sc.ids)
		ph.mark(phasePlan)
		top, n := e.exact(ctx, sc.ids, q, min, k)
		ph.mark(phaseRank)
		return top, n
	}
	if cp, drop := e.keptCopy(cand, kept, c); cp != nil {
		ph.mark(phasePlan)
		return e.screenRank(ctx, sc, screenSet{ids: cp.ids, c: c, drop: drop, copy: cp}, q, min, k)
	}
	sc.ids = candIDs(cand, c, sc.ids)
	ph.mark(phasePlan)
	return e.screenRank(ctx, sc, screenSet{ids: sc.ids, c: c}, q, min, k)
}

// screenSet is what the screen ranks: ids in id order, of which c are
// candidates; the others (drop, sorted) lie in a kept set's copy of
// sketches (copy, whose ids ids is) but not in the query's candidates.
type screenSet struct {
	ids  []uint32
	c    int
	drop []uint32
	copy *signCopy
}

// keptCopy returns the copy of kept's sketches to screen cand (c
// candidates, within kept) from, and the ids of kept outside cand; nil
// when there is no kept set, when it holds more than an eighth more than
// cand (a filter's further terms cut it: the pass over the copy would
// score too many others), when it is too large for one sketch pass
// (screenOnce) or for signCopyMax.
func (e *Engine) keptCopy(cand, kept *roaring.Bitmap, c int) (*signCopy, []uint32) {
	if kept == nil {
		return nil, nil
	}
	n := int(kept.GetCardinality())
	if n > screenOnce || n-c > c/8 {
		return nil, nil
	}
	var drop []uint32
	if n > c {
		drop = roaring.AndNot(kept, cand).ToArray()
		if n-len(drop) != c {
			return nil, nil // cand is not within kept
		}
	}
	cp := e.signCopyOf(kept, n)
	if cp == nil {
		return nil, nil
	}
	return cp, drop
}

// rankANN ranks the candidates the ANN index gathered (sc.ids, within the
// c of cand) like any candidate set; the count at or above min is
// estimated over all of cand.
func (e *Engine) rankANN(ctx context.Context, sc *scratch, cand *roaring.Bitmap, c int, q []float32, min float32, k int) ([]scored, int) {
	// The gathered set is scanned exactly: it is the query's
	// neighbourhood, where the sketch passes' small pool loses the top
	// (on the 1M demo index the lists gathered held all of a mixture
	// query's top 10 but the screen over them returned 0.845 of it), and
	// the planner keeps it to about annTarget (an eighth of the candidates
	// or less; docs/decisions.md "ANN recall for mixtures (issue 24)").
	// A sketch pre-pass keeping a share of it for the exact ranking lost
	// mixtures' recall at 10M (docs/decisions.md "The ANN plan's ranking
	// at 10M (issue 24, annscan)").
	top, n := e.exact(ctx, sc.ids, q, min, k)
	ph := phasesOf(ctx)
	ph.mark(phaseRank)
	if min <= -1 || ctx.Err() != nil {
		return top, c
	}
	defer ph.mark(phaseCount)
	// Companies above min lie outside the gathered set too (even when the
	// threshold cuts inside it: measured 607 counted of 829), so the count
	// is at least the share above min in a sample of the candidates spread
	// evenly over their id range (ids are not ordered by similarity);
	// an iterator skips to each point, where picking by rank (Select)
	// scans bitmap containers word by word.
	lo, span := uint64(cand.Minimum()), uint64(cand.Maximum()-cand.Minimum())+1
	it := cand.Iterator()
	sample := make([]uint32, 0, totalSample)
	for i := uint64(0); i < totalSample; i++ {
		it.AdvanceIfNeeded(uint32(lo + span*i/totalSample))
		if !it.HasNext() {
			break
		}
		sample = append(sample, it.Next())
	}
	// Counted by exact (k 0: no ranking), which reads ahead.
	_, hits := e.exact(ctx, sample, q, min, 0)
	return top, max(n, int(float64(hits)/float64(max(1, len(sample)))*float64(c)+0.5))
}

// screenRank ranks the candidates of set (more than exactMax) through the
// sketch passes and exact rescoring.
func (e *Engine) screenRank(ctx context.Context, sc *scratch, set screenSet, q []float32, min float32, k int) ([]scored, int) {
	ids, c := set.ids, set.c
	pool := poolSize(c, k)

	// 1. screen with the unweighted sketch agreement on the query's
	// larger half of the dimensions, for the largest candidate sets only:
	// below screenOnce the refine pass goes over every candidate.
	surv := ids
	if set.copy == nil && c > screenOnce {
		keep := max(c/screenFrac, screenPool*pool)
		sc.surv = e.screen(ctx, sc, newQTop(q, len(q)/2), ids, keep, sc.surv)
		if ctx.Err() != nil {
			return nil, 0
		}
		surv = sc.surv
	}
	// 2. refine the survivors with magnitude-weighted agreement, and
	// 3. rescore the best of them exactly, widening the pool while the
	// bottom of it still supplies results.
	qw := newQPlanes(q, refinePlanes)
	sc.est = grow(sc.est, len(surv))
	est := sc.est
	var hist []int32
	if set.copy != nil {
		hist = set.copy.estimateAll(ctx, qw, est)
	} else {
		hist = e.estimateAll(ctx, qw, surv, est)
	}
	if ctx.Err() != nil {
		return nil, 0
	}
	// The copy's ids that are not candidates get an estimate above every
	// cut (gone), outside the histogram.
	gone := uint16(qw.max + 1)
	for _, id := range set.drop {
		if i, ok := slices.BinarySearch(surv, id); ok {
			hist[est[i]]--
			est[i] = gone
		}
	}
	top := &topK{k: k, domains: e.domains, items: make([]scored, 0, k)}
	n := 0    // pool members at or above min
	size := 0 // pool members so far
	hi := qw.max + 1
	for size < len(surv)-len(set.drop) {
		// The cut t takes about pool more survivors: est in [t, hi).
		t, got := hi, 0
		for t > 0 && got < pool {
			t--
			got += int(hist[t])
		}
		sc.pool = sc.pool[:0]
		for i, x := range est {
			if int(x) >= t && int(x) < hi {
				sc.pool = append(sc.pool, surv[i])
			}
		}
		part, m := e.exact(ctx, sc.pool, q, min, k)
		for _, s := range part {
			top.offer(s)
		}
		n += m
		size += len(sc.pool)
		if ctx.Err() != nil {
			return nil, 0
		}
		// Results from the last quarter of the pool mean the ranking is
		// flat around the cut: widen. Only the top k is checked.
		tail, cnt := t, 0
		for tail < hi && cnt < len(sc.pool)/4 {
			cnt += int(hist[tail])
			tail++
		}
		late := 0
		for _, s := range top.items {
			i, _ := slices.BinarySearch(surv, s.id)
			if int(est[i]) < tail {
				late++
			}
		}
		if late*50 <= k {
			break
		}
		hi, pool = t, 2*size
	}
	ph := phasesOf(ctx)
	ph.mark(phaseRank)
	if min <= -1 {
		return top.sorted(), c
	}
	defer ph.mark(phaseCount)
	if n < size {
		// The threshold cut inside the pool: what lies above it is there.
		return top.sorted(), n
	}
	// Estimate the share above min from an even sample of the candidates.
	step := max(1, len(ids)/totalSample)
	sample := make([]uint32, 0, len(ids)/step+1)
	for i := 0; i < len(ids); i += step {
		if len(set.drop) > 0 && est[i] == gone { // surv is ids
			continue
		}
		sample = append(sample, ids[i])
	}
	_, hits := e.exact(ctx, sample, q, min, 0)
	return top.sorted(), max(n, int(float64(hits)/float64(len(sample))*float64(c)+0.5))
}

// screen returns the ids whose sketch agreement on the dimensions
// qp.planes[0] selects is among about the best keep, in id order. For
// 4-word sketches the cut comes from a sample of the agreements, so the
// count is approximate.
//
// Which dimensions: the screen used to count agreement on the leading 128
// (of 256), where the LSA components put most of the variance. Label
// directions (embedding.Options.LabelDims) are the trailing components and
// carry two thirds of a vector's energy, so that screen never saw them and
// lost mixture recall at 1M (0.905 / 0.923 @10 / @100); counting the query's
// largest half instead, wherever they are, measured 1.00 / 0.998 or better on
// the same indexes (docs/benchmarks.md, "Label directions at 1M: the screen").
func (e *Engine) screen(ctx context.Context, sc *scratch, qp *qplanes, ids []uint32, keep int, dst []uint32) []uint32 {
	const sample = 4096
	step := max(1, len(ids)/sample)
	if qp.words != 4 {
		sc.est = grow(sc.est, len(ids))
		est := sc.est[:len(ids)]
		h := e.estimateAll(ctx, qp, ids, est)
		t, got := len(h), 0
		for t > 0 && got < keep {
			t--
			got += int(h[t])
		}
		dst = dst[:0]
		for i, x := range est {
			if int(x) >= t {
				dst = append(dst, ids[i])
			}
		}
		return dst
	}
	h := make([]int, qp.max+1)
	seen := 0
	for i := 0; i < len(ids); i += step {
		id := ids[i]
		h[qp.estimate(e.signs[id/chunkDocs][int(id%chunkDocs)*4:])]++
		seen++
	}
	want := float64(keep) / float64(len(ids)) * float64(seen)
	t, got := len(h), 0
	for t > 0 && float64(got) < want {
		t--
		got += h[t]
	}
	// Each worker writes every id it reads into its own range of dst and
	// advances past it only when it passes, without a branch (one taken
	// for a candidate in 20, at random, is mispredicted, and each
	// misprediction drops the reads issued after it); no per-worker
	// slices to allocate and append to either.
	dst = grow(dst, len(ids))
	counts := make([]int, runtime.GOMAXPROCS(0))
	bounds := make([]int, len(counts))
	used := parallel(len(ids), 16384, func(w, lo, hi int) {
		bounds[w] = lo
		s0, s1, s2, s3 := qp.sign[0], qp.sign[1], qp.sign[2], qp.sign[3]
		m := qp.planes[0]
		m0, m1, m2, m3 := m[0], m[1], m[2], m[3]
		part := ids[lo:hi]
		out := dst[lo:hi]
		j := 0
		for len(part) > 0 {
			if ctx.Err() != nil {
				return
			}
			// One chunk of sketches at a time.
			ch := part[0] / chunkDocs
			end := len(part)
			if last := part[len(part)-1]; last/chunkDocs != ch {
				end, _ = slices.BinarySearch(part, (ch+1)*chunkDocs)
			}
			c := e.signs[ch]
			for _, id := range part[:end] {
				x := (*[4]uint64)(c[int(id%chunkDocs)*4:])
				v := bits.OnesCount64(^(x[0]^s0)&m0) + bits.OnesCount64(^(x[1]^s1)&m1) +
					bits.OnesCount64(^(x[2]^s2)&m2) + bits.OnesCount64(^(x[3]^s3)&m3)
				out[j] = id
				j += int(uint(t-1-v) >> (bits.UintSize - 1)) // v >= t
			}
			part = part[end:]
		}
		counts[w] = j
	})
	n := 0
	for w := range used {
		n += copy(dst[n:], dst[bounds[w]:bounds[w]+counts[w]])
	}
	return dst[:n]
}

// newQTop prepares the unweighted agreement count on the n dimensions
// where the query's magnitude is largest (ties to the lower dimension).
func newQTop(q []float32, n int) *qplanes {
	qp := newQHamming(q)
	dims := make([]int, len(q))
	for i := range dims {
		dims[i] = i
	}
	slices.SortFunc(dims, func(a, b int) int {
		if x, y := abs32(q[a]), abs32(q[b]); x != y {
			if x > y {
				return -1
			}
			return 1
		}
		return a - b
	})
	clear(qp.planes[0])
	for _, i := range dims[:n] {
		qp.planes[0][i/64] |= 1 << uint(i%64)
	}
	qp.max = n
	return qp
}

// estimateAll writes the sketch estimate of each of ids into est, in
// parallel, and returns the histogram of the values.
func (e *Engine) estimateAll(ctx context.Context, qp *qplanes, ids []uint32, est []uint16) []int32 {
	return histAll(len(ids), qp.max, 16384, func(lo, hi int, h []int32) {
		e.estimate(ctx, qp, ids[lo:hi], est[lo:hi], h)
	})
}

// histAll runs part over [0, n) in parallel (at least minPer a worker),
// each worker counting values 0..max into its own histogram, and returns
// their sum.
func histAll(n, max, minPer int, part func(lo, hi int, h []int32)) []int32 {
	hists := make([][]int32, runtime.GOMAXPROCS(0))
	used := parallel(n, minPer, func(w, lo, hi int) {
		h := make([]int32, max+1)
		part(lo, hi, h)
		hists[w] = h
	})
	for _, h := range hists[1:used] {
		for v, c := range h {
			hists[0][v] += c
		}
	}
	return hists[0]
}

// estimate writes the sketch estimate of each of ids into est and counts
// the values in hist.
func (e *Engine) estimate(ctx context.Context, qp *qplanes, ids []uint32, est []uint16, hist []int32) {
	words := qp.words
	est = est[:len(ids)]
	for start := 0; start < len(ids); start += 1 << 16 {
		if ctx.Err() != nil {
			return
		}
		end := min(len(ids), start+1<<16)
		switch {
		case words == 4 && len(qp.planes) == 1:
			s0, s1, s2, s3 := qp.sign[0], qp.sign[1], qp.sign[2], qp.sign[3]
			p0, p1, p2, p3 := qp.planes[0][0], qp.planes[0][1], qp.planes[0][2], qp.planes[0][3]
			for i, id := range ids[start:end] {
				c := e.signs[id/chunkDocs]
				x := (*[4]uint64)(c[int(id%chunkDocs)*4:])
				v := bits.OnesCount64(^(x[0]^s0)&p0) + bits.OnesCount64(^(x[1]^s1)&p1) +
					bits.OnesCount64(^(x[2]^s2)&p2) + bits.OnesCount64(^(x[3]^s3)&p3)
				est[start+i] = uint16(v)
				hist[v]++
			}
		case words == 4 && len(qp.planes) == 3 && sketchGather:
			e.estimate3(qp, ids[start:end], est[start:end], hist)
		case words == 4 && len(qp.planes) == 3:
			p := qp.unpack3()
			for i, id := range ids[start:end] {
				v := p.score((*[4]uint64)(e.signs[id/chunkDocs][int(id%chunkDocs)*4:]))
				est[start+i] = uint16(v)
				hist[v]++
			}
		default:
			for i, id := range ids[start:end] {
				c := e.signs[id/chunkDocs]
				off := int(id%chunkDocs) * words
				v := qp.estimate(c[off : off+words])
				est[start+i] = uint16(v)
				hist[v]++
			}
		}
	}
}

// sketchGather makes the refine pass copy each block of sketchBlock
// candidates' sketches into a buffer before scoring them (estimate3); a
// variable for BenchmarkScreenRandom's A/B.
var sketchGather = true

// sketchBlock is the candidates estimate3 copies at a time (8 KiB of
// sketches: within the first-level cache).
const sketchBlock = 256

// estimate3 is estimate for 4-word sketches and three planes, in two
// loops a block: the first only copies the candidates' sketches, each a
// read that misses the caches (they lie at random across the index), the
// second scores the copies. The copying loop is a few instructions a
// candidate, so the processor's window holds many more of those reads
// at once than when each is followed by the scoring's forty: over 210,000
// candidates spread over 4M sketches 21.5 against 43-47 ms, over 42,000
// 0.68 against 1.0-1.1 ms (BenchmarkScreenRandom, load average 11).
func (e *Engine) estimate3(qp *qplanes, ids []uint32, est []uint16, hist []int32) {
	p := qp.unpack3()
	var buf [sketchBlock][4]uint64
	est = est[:len(ids)]
	for start := 0; start < len(ids); start += sketchBlock {
		part := ids[start:min(len(ids), start+sketchBlock)]
		for i, id := range part {
			buf[i] = *(*[4]uint64)(e.signs[id/chunkDocs][int(id%chunkDocs)*4:])
		}
		out := est[start : start+len(part)]
		for i := range part {
			v := p.score(&buf[i])
			out[i] = uint16(v)
			hist[v]++
		}
	}
}

// readAhead is how many candidates ahead exact reads the first byte of
// each cache line of a candidate's codes (a variable for
// BenchmarkExactRandom). Candidates spread over the whole
// index (a filter's, the ANN plan's gathered lists) miss the caches on
// every one; the early reads let the processor wait for several at once
// instead of one after the other: 63,000 candidates spread over 1 GB of
// codes took 12.3-13.1 ms without, 7.2-8.8 ms with, a dense run the same
// (BenchmarkExactRandom, 2 workers, load average 4).
var readAhead = 4

// touchCodes reads one byte of each cache line of a document's codes and,
// with touchScale, its scale (see readAhead); the sum only keeps the reads
// from being dropped. The scales are 40 MB at 10M, beyond the caches, so
// a candidate's scale is a fifth cache miss of its own.
func (e *Engine) touchCodes(id uint32) int8 {
	c := e.int8Of(id)
	var t int8
	for off := 0; off < len(c); off += 64 {
		t += c[off]
	}
	if touchScale {
		t += int8(math.Float32bits(e.scales[id]))
	}
	return t
}

// touchScale makes touchCodes read the scale ahead too (a variable for
// BenchmarkExactRandom's A/B).
var touchScale = true

// exact scans ids with the int8 dot product (dotID): the best k at or above min
// and how many are at or above min.
func (e *Engine) exact(ctx context.Context, ids []uint32, q []float32, min float32, k int) ([]scored, int) {
	workers := runtime.GOMAXPROCS(0)
	heaps := make([]*topK, workers)
	counts := make([]int, workers)
	sinks := make([]int8, workers)
	// Split from 2,048 candidates: the ANN plan's count sample (2,048
	// companies read at random) took 0.5-0.6 ms on one core.
	used := parallel(len(ids), 1024, func(w, lo, hi int) {
		h := &topK{k: k, domains: e.domains, items: make([]scored, 0, k)}
		heaps[w] = h
		n := 0
		part := ids[lo:hi]
		var sink int8
		for i, id := range part {
			if i&4095 == 0 && ctx.Err() != nil {
				return
			}
			// Only for a candidate away from this one: within a run of
			// slots (an ANN list after a renumbering, renumber.go) the
			// processor's prefetcher already streams the codes, and the
			// early reads cost a third of the ranking (2.8 against 4.3-5.8
			// ms p50 for 112,000 candidates at 10M).
			if readAhead > 0 && i+readAhead < len(part) && part[i+readAhead]-id > 2*uint32(readAhead) {
				sink += e.touchCodes(part[i+readAhead])
			}
			s := e.dotID(q, id)
			if s < min {
				continue
			}
			n++
			if h.k == 0 || len(h.items) == h.k && s < h.items[0].score {
				continue
			}
			h.offer(scored{id: id, score: s})
		}
		counts[w], sinks[w] = n, sink
	})
	merged := &topK{k: k, domains: e.domains}
	total := 0
	for w := 0; w < used; w++ {
		total += counts[w]
		for _, s := range heaps[w].items {
			merged.offer(s)
		}
	}
	return merged.sorted(), total
}
