package embedded

import (
	"cmp"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
)

// ANN index for broad vector queries: an inverted file (IVF). A spherical
// k-means coarse quantizer of about sqrt(N) centroids splits the companies
// into lists (roaring bitmaps of slots); a query ranks the lists by the
// dot product their members likely reach (rankLists: the members' mean and
// spread toward the query) and gathers the best, intersected with the
// filter's candidates, until it holds enough candidates (about 20 lists'
// worth); those are scanned exactly, so similarities are the same as on
// the other plans.
// Gathering by count rather than by a fixed number of lists is what keeps
// recall under a filter: a filter that matches few companies near the query
// makes the walk go further out. docs/decisions.md "ANN index (issue 24)"
// says why an IVF rather than a graph.
//
// The index follows the writes: an upsert takes the slot out of its list
// and marks it dirty; a background builder (annLoop) assigns dirty slots to
// their nearest centroid in batches. Until it has caught up, a query adds
// the dirty candidates (the unindexed tail) to what it gathered, so a new
// company is never missed; while the tail is large (a first build, a build
// after a refit) the planner keeps the sketch screen. The centroids and the
// assignments are saved at Close (annfile.go) so a warm restart does not
// rebuild.
//
// The index is built and used only by engines opened with Options.ANN
// (`prospectd serve` does, unless --ann=false).

// annNone marks a slot with no list.
const annNone = 0xFFFF

// Tuning, variables so tests can push small indexes through the ANN plan.
var (
	// annMinDocs: below this many companies no index is built (the exact
	// scan and the screen are cheap enough).
	annMinDocs = 200_000
	// annMaxWalk: the planner takes the ANN plan only when the walk is
	// expected to cover at most this many average lists' worth of the
	// index (annWalk: the gathered count over the candidates' share of a
	// list), which scales with the index where a share of it did not: the
	// old floor of 2% sent 5% filters at 10M (20,000 to gather, 126
	// lists' worth) to a walk of 180-320 ms against 32-38 ms for the
	// screen (docs/benchmarks.md, "10M search phases"). At 1M it keeps
	// unfiltered queries and filters over 29% on the index (as before,
	// 16%), at 10M filters over 9%.
	annMaxWalk = 70.0
	// annAbortWalk: a walk that has visited this many times its expected
	// lists (and 16 more) without gathering enough stops, and the query
	// takes the screen: the filter is correlated with the query's
	// neighbourhood (an industry far from it), the walk would go through
	// most of the index, and the lists' order, the query's and not the
	// filter's, would not find its best candidates either.
	annAbortWalk = 4.0
	// annGatherLists, annGatherMin, annGatherPerK: the walk over the
	// lists stops once it holds the largest of annGatherLists average
	// lists' worth of the candidates (c*annGatherLists/nlist: a fixed
	// number of lists probed, the usual IVF setting, counted so that a
	// filter makes the walk go further), annGatherMin, and
	// annGatherPerK*k.
	annGatherLists = 20.0
	// annProbeLists: the lists up to which annGatherLists is the probe
	// count (annProbes).
	annProbeLists = 1000.0
	annGatherMin  = 20_000
	annGatherPerK = 200
	// annGatherRatio: the ANN plan is taken only for candidate sets at
	// least this many times what it gathers; nearer, the walk over the
	// lists and their intersections with the filter cost more than the
	// screen over the candidates (measured: 40,000 gathered of 60,000, 7.8
	// ms p50 against 3.1 ms for the screen).
	annGatherRatio = 8
	// annTailMax: the most dirty candidates a query scans beside the
	// gathered lists; more and the planner keeps the screen.
	annTailMax = 20_000
	// annRescoreFloor, when set, replaces annRescore's rule (benchmarks
	// compare floors).
	annRescoreFloor = 0
)

const (
	// annMaxLists caps the centroids (assignments are uint16).
	annMaxLists = 4096
	// annTrainPerList is the k-means sample per centroid; annIters its
	// iterations.
	annTrainPerList = 32
	annIters        = 8
	// annShortlist: a vector is assigned by the exact dot product with
	// the annShortlist centroids whose sign sketches agree with its most.
	annShortlist = 32
	// annBatch is the slots assigned per lock round of the builder.
	annBatch = 8192
)

// annTarget is how many candidates the ANN plan gathers for the top k of
// c from nlist lists.
func annTarget(c, k, nlist int) int {
	return max(int(annProbes(nlist)*float64(c)/float64(max(1, nlist))), annGatherMin, annGatherPerK*k)
}

// annProbes is how many average lists' worth the walk gathers:
// annGatherLists up to 1,000 lists (1M companies), growing with the square
// root of the lists beyond. A mixture query's neighbours spread over more
// lists when there are more: at 10M (3,163 lists) 20 lists' worth held
// 0.917 of a mixture's top 10, 30 0.956, 40 0.992 (docs/benchmarks.md "How
// many lists the ANN plan must gather at 10M"); this rule gathers 35.6.
func annProbes(nlist int) float64 {
	return annGatherLists * max(1, math.Sqrt(float64(nlist)/annProbeLists))
}

// annRescore is how many of its int8 best the ANN plan hands to the
// full-precision pass at least: rescoreK's floor (220) up to 1,000 lists,
// growing with the square root of the lists beyond as annProbes does (391
// at 10M). A broad query of a larger index meets denser near-ties of the
// int8 codes: at 10M, for stored companies, rescoring 220 returned 0.940
// of the exact top 10 (20 queries), 400 0.970, 600 0.980, 1,000 0.995
// (docs/benchmarks.md "The ANN plan's ranking at 10M"). The other plans
// rank filtered sets, where 220 measured 1.000.
func annRescore(nlist int) int {
	if annRescoreFloor > 0 {
		return annRescoreFloor
	}
	return int(float64(rescoreMin)*max(1, math.Sqrt(float64(nlist)/annProbeLists)) + 0.5)
}

// annWalk is how many lists the walk is expected to visit to gather
// annTarget of c candidates: a list holds c/nlist of them on average (for
// a filter not correlated with the query).
func annWalk(c, k, nlist int) float64 {
	return float64(annTarget(c, k, nlist)) * float64(nlist) / float64(max(1, c))
}

// annLists is the number of centroids for n companies.
func annLists(n int) int {
	l := 1
	for l*l < n {
		l++
	}
	return min(max(l, 16), annMaxLists)
}

// annIndex is the IVF. Everything is guarded by Engine.mu.
type annIndex struct {
	dim, nlist int
	metaKey    uint64    // the embedder it was built for (annMetaKey)
	cent       []float32 // nlist*dim, unit length
	csign      []uint64  // nlist*signWords(dim)
	// mean and vari describe each list's members (nlist*dim each: their
	// mean and per-dimension variance, from the training sample): a
	// query ranks the lists by the members' likely best dot product
	// (rankLists), not by the centroid's.
	mean, vari []float32
	// meanQ and variQ are mean and vari as int8 with a scale a list
	// (setStats), so that rankLists goes through the AVX2 kernel of the
	// exact scan: 3,163 lists at 10M cost 1.4-2 ms a query in float32.
	meanQ, variQ []int8
	meanS, variS []float32
	lists        []*roaring.Bitmap
	assign       []uint16 // by slot; annNone when in no list
	dirty        *roaring.Bitmap
	// While the builder computes a batch outside the write lock, writers
	// record the slots they touch in retouched, whose assignment the
	// batch must not apply.
	inflight  bool
	retouched *roaring.Bitmap
	trainedN  int // live companies when trained
}

func newANN(dim int, cent []float32, metaKey uint64, trainedN int) *annIndex {
	nlist := len(cent) / dim
	w := signWords(dim)
	a := &annIndex{dim: dim, nlist: nlist, metaKey: metaKey, cent: cent, csign: make([]uint64, nlist*w),
		lists: make([]*roaring.Bitmap, nlist), dirty: roaring.New(), retouched: roaring.New(), trainedN: trainedN}
	for l := range nlist {
		sketch(cent[l*dim:(l+1)*dim], a.csign[l*w:(l+1)*w])
		a.lists[l] = roaring.New()
	}
	return a
}

// touch takes a written slot out of its list and marks it for the builder.
func (a *annIndex) touch(id uint32) {
	a.unlist(id)
	a.dirty.Add(id)
}

// drop forgets a deleted slot.
func (a *annIndex) drop(id uint32) {
	a.unlist(id)
	a.dirty.Remove(id)
}

func (a *annIndex) unlist(id uint32) {
	for int(id) >= len(a.assign) {
		a.assign = append(a.assign, annNone)
	}
	if l := a.assign[id]; l != annNone {
		a.lists[l].Remove(id)
		a.assign[id] = annNone
	}
	if a.inflight {
		a.retouched.Add(id)
	}
}

// place puts a slot in list l.
func (a *annIndex) place(id uint32, l uint16) {
	for int(id) >= len(a.assign) {
		a.assign = append(a.assign, annNone)
	}
	a.assign[id] = l
	a.lists[l].Add(id)
	a.dirty.Remove(id)
}

// nearest returns the list whose centroid has the largest dot product with
// v among the annShortlist whose sign sketches agree with sign most.
// The worst kept entry is found again only when it is replaced (a few
// hundred times of the 3,163 centroids at 10M), not at every centroid: the
// assignment of 10M companies went from about 275 to the µs of the
// agreement counts alone (BenchmarkANNNearest).
func (a *annIndex) nearest(v []float32, sign []uint64, short []int32) uint16 {
	w := len(sign)
	short = short[:0]
	var agree [annShortlist]int
	worst := 0
	for l := range a.nlist {
		c := a.csign[l*w : (l+1)*w : (l+1)*w]
		d := 0
		if w == 4 {
			d = 256 - bits.OnesCount64(sign[0]^c[0]) - bits.OnesCount64(sign[1]^c[1]) -
				bits.OnesCount64(sign[2]^c[2]) - bits.OnesCount64(sign[3]^c[3])
		} else {
			for i, x := range sign {
				d += 64 - bits.OnesCount64(x^c[i])
			}
		}
		if len(short) < annShortlist {
			short = append(short, int32(l))
			agree[len(short)-1] = d
			if len(short) == annShortlist {
				worst = worstOf(agree[:])
			}
			continue
		}
		if d > agree[worst] {
			short[worst], agree[worst] = int32(l), d
			worst = worstOf(agree[:])
		}
	}
	best, bestS := uint16(0), float32(-2)
	for _, l := range short {
		if s := fullDot(v, a.cent[int(l)*a.dim:int(l+1)*a.dim]); s > bestS {
			best, bestS = uint16(l), s
		}
	}
	return best
}

// worstOf is the first index of the smallest agreement.
func worstOf(agree []int) int {
	worst := 0
	for i := 1; i < len(agree); i++ {
		if agree[i] < agree[worst] {
			worst = i
		}
	}
	return worst
}

// trainCentroids runs spherical k-means on the sample (n vectors of dim,
// flat) and returns nlist unit centroids, or nil once stopped reports true
// (checked between iterations).
func trainCentroids(sample []float32, dim, nlist int, seed uint64, stopped func() bool) []float32 {
	n := len(sample) / dim
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	cent := make([]float32, nlist*dim)
	for l, i := range r.Perm(n)[:nlist] {
		copy(cent[l*dim:], sample[i*dim:(i+1)*dim])
	}
	w := signWords(dim)
	signs := make([]uint64, n*w)
	for i := range n {
		sketch(sample[i*dim:(i+1)*dim], signs[i*w:(i+1)*w])
	}
	assign := make([]uint16, n)
	for it := 0; it < annIters; it++ {
		if stopped() {
			return nil
		}
		a := newANN(dim, cent, 0, 0)
		parallel(n, 1024, func(_, lo, hi int) {
			short := make([]int32, 0, annShortlist)
			for i := lo; i < hi; i++ {
				assign[i] = a.nearest(sample[i*dim:(i+1)*dim], signs[i*w:(i+1)*w], short)
			}
		})
		// Each worker sums the vectors of its own range of lists.
		parallel(nlist, 16, func(_, lo, hi int) {
			s := make([]float64, (hi-lo)*dim)
			c := make([]int, hi-lo)
			for i := range n {
				l := int(assign[i])
				if l < lo || l >= hi {
					continue
				}
				c[l-lo]++
				row := s[(l-lo)*dim:]
				for j, x := range sample[i*dim : (i+1)*dim] {
					row[j] += float64(x)
				}
			}
			next := make([]float32, (hi-lo)*dim)
			for l := lo; l < hi; l++ {
				v := next[(l-lo)*dim : (l-lo+1)*dim]
				if c[l-lo] == 0 {
					// An empty list restarts at a random sample vector.
					i := r2(seed, it, l) % n
					copy(v, sample[i*dim:(i+1)*dim])
					continue
				}
				row := s[(l-lo)*dim : (l-lo+1)*dim]
				for j := range v {
					v[j] = float32(row[j])
				}
				normalize(v)
			}
			copy(cent[lo*dim:hi*dim], next)
		})
	}
	return cent
}

// listStats assigns the sample (n vectors of dim, flat) to a's lists and
// returns each list's member mean and per-dimension variance (nlist*dim
// each; zero for a list no sample vector falls in).
func listStats(sample []float32, dim int, a *annIndex) (mean, vari []float32) {
	n := len(sample) / dim
	w := signWords(dim)
	assign := make([]uint16, n)
	parallel(n, 1024, func(_, lo, hi int) {
		short := make([]int32, 0, annShortlist)
		sign := make([]uint64, w)
		for i := lo; i < hi; i++ {
			v := sample[i*dim : (i+1)*dim]
			sketch(v, sign)
			assign[i] = a.nearest(v, sign, short)
		}
	})
	mean = make([]float32, a.nlist*dim)
	vari = make([]float32, a.nlist*dim)
	parallel(a.nlist, 16, func(_, lo, hi int) {
		s := make([]float64, (hi-lo)*dim)
		s2 := make([]float64, (hi-lo)*dim)
		c := make([]int, hi-lo)
		for i := range n {
			l := int(assign[i]) - lo
			if l < 0 || l >= hi-lo {
				continue
			}
			c[l]++
			for j, x := range sample[i*dim : (i+1)*dim] {
				s[l*dim+j] += float64(x)
				s2[l*dim+j] += float64(x) * float64(x)
			}
		}
		for l := range hi - lo {
			if c[l] == 0 {
				continue
			}
			for j := range dim {
				m := s[l*dim+j] / float64(c[l])
				mean[(lo+l)*dim+j] = float32(m)
				vari[(lo+l)*dim+j] = float32(max(0, s2[l*dim+j]/float64(c[l])-m*m))
			}
		}
	})
	return mean, vari
}

// r2 is a deterministic pseudo-random int from its arguments (parallel
// workers must not share a generator).
func r2(seed uint64, it, l int) int {
	x := seed ^ uint64(it)*0x9e3779b97f4a7c15 ^ uint64(l)*0xbf58476d1ce4e5b9
	x ^= x >> 31
	x *= 0x94d049bb133111eb
	x ^= x >> 29
	return int(x >> 1)
}

// normalize scales v to unit length (a zero vector stays zero).
func normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := 1 / math.Sqrt(s)
	for i := range v {
		v[i] = float32(float64(v[i]) * inv)
	}
}

// annState is the engine's ANN index and its builder.
type annState struct {
	idx  *annIndex // guarded by Engine.mu
	wake chan struct{}
	stop chan struct{}
	done sync.WaitGroup
	// plans counts the plans scanVectors took (planExact, planScreen,
	// planANN), for benchmarks.
	plans [3]atomic.Uint64
}

// annTouch and annDrop keep the index in step with a write; callers hold
// mu for writing (or own the engine, at open).
func (e *Engine) annTouch(id uint32) {
	if a := e.ann.idx; a != nil {
		a.touch(id)
	}
}

func (e *Engine) annDrop(id uint32) {
	if a := e.ann.idx; a != nil {
		a.drop(id)
	}
}

// annWake tells the builder there is work.
func (e *Engine) annWake() {
	if e.ann.wake == nil {
		return
	}
	select {
	case e.ann.wake <- struct{}{}:
	default:
	}
}

// annInvalidate drops the index (the vectors it was built from are gone:
// a refit swapped them). Callers hold mu for writing.
func (e *Engine) annInvalidate() {
	e.ann.idx = nil
}

// startANN starts the builder.
func (e *Engine) startANN() {
	e.ann.wake = make(chan struct{}, 1)
	e.ann.stop = make(chan struct{})
	e.ann.done.Add(1)
	go e.annLoop()
	e.annWake()
}

// stopANN stops the builder and waits for it.
func (e *Engine) stopANN() {
	if e.ann.stop == nil {
		return
	}
	close(e.ann.stop)
	e.ann.done.Wait()
	e.ann.stop = nil
}

func (e *Engine) annLoop() {
	defer e.ann.done.Done()
	for {
		select {
		case <-e.ann.stop:
			return
		case <-e.ann.wake:
		}
		e.annBuild()
	}
}

func (e *Engine) annStopped() bool {
	select {
	case <-e.ann.stop:
		return true
	default:
		return false
	}
}

// annBuild trains the index when there is none (or the index has grown
// well past what it was trained for), then assigns the dirty slots.
func (e *Engine) annBuild() {
	e.mu.RLock()
	n := int(e.live.GetCardinality())
	a, dim := e.ann.idx, e.dim
	e.mu.RUnlock()
	if a == nil || annLists(n) >= 2*a.nlist {
		if n < annMinDocs || dim == 0 {
			return
		}
		if a = e.annTrain(); a == nil {
			return
		}
	}
	for !e.annStopped() {
		e.mu.Lock()
		if e.ann.idx != a {
			e.mu.Unlock()
			return // invalidated (refit) or replaced: the next wake rebuilds
		}
		ids := make([]uint32, 0, annBatch)
		it := a.dirty.Iterator()
		for it.HasNext() && len(ids) < annBatch {
			ids = append(ids, it.Next())
		}
		a.inflight = len(ids) > 0
		a.retouched.Clear()
		e.mu.Unlock()
		if len(ids) == 0 {
			return
		}
		lists := make([]uint16, len(ids))
		e.mu.RLock()
		if e.ann.idx == a {
			parallel(len(ids), 512, func(_, lo, hi int) {
				short := make([]int32, 0, annShortlist)
				v := make([]float32, e.dim) // one buffer a worker: no garbage a company
				for i := lo; i < hi; i++ {
					dequantize(v, e.int8Of(ids[i]), e.scales[ids[i]])
					lists[i] = a.nearest(v, e.signOf(ids[i]), short)
				}
			})
		}
		e.mu.RUnlock()
		e.mu.Lock()
		if e.ann.idx == a {
			for i, id := range ids {
				if !a.retouched.Contains(id) && a.dirty.Contains(id) {
					a.place(id, lists[i])
				}
			}
			a.inflight = false
			a.retouched.Clear()
		}
		e.mu.Unlock()
	}
}

// annTrain samples the live vectors, runs k-means outside the locks and
// installs a new index with every live slot dirty. It returns nil when the
// vectors changed meanwhile (a refit) or the engine is closing.
func (e *Engine) annTrain() *annIndex {
	e.mu.RLock()
	n := int(e.live.GetCardinality())
	dim, key, chunks := e.dim, e.annMetaKey(), e.chunks
	nlist := annLists(n)
	want := min(n, nlist*annTrainPerList)
	ids := candIDs(e.live, n, nil)
	step := float64(n) / float64(want)
	sample := make([]float32, 0, want*dim)
	for i := 0; i < want; i++ {
		sample = append(sample, e.vectorOf(ids[int(float64(i)*step)])...)
	}
	e.mu.RUnlock()
	start := time.Now()
	cent := trainCentroids(sample, dim, nlist, uint64(n), e.annStopped)
	if cent == nil {
		return nil
	}
	a := newANN(dim, cent, key, n)
	a.setStats(listStats(sample, dim, a))
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dim != dim || !sameChunks(e.chunks, chunks) {
		return nil // a refit swapped the vectors while training
	}
	a.assign = make([]uint16, e.domains.slots())
	for i := range a.assign {
		a.assign[i] = annNone
	}
	a.dirty = e.live.Clone()
	e.ann.idx = a
	annTrainTime = time.Since(start)
	return a
}

// annTrainTime is the last k-means run's duration (benchmarks report it).
var annTrainTime time.Duration

// sameChunks reports whether two vector stores are the same one: a refit
// replaces the whole slice of chunks.
func sameChunks(a, b [][]int8) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	return &a[0] == &b[0]
}

// annReady reports whether the index has no dirty slot and no retraining
// ahead (tests and benchmarks wait for it): an index trained while a load
// was still growing is trained again once the companies need twice its
// lists (annBuild), and until the new one is filled queries take the
// screen.
func (e *Engine) annReady() bool {
	e.mu.RLock()
	defer e.mu.RUnlock()
	a := e.ann.idx
	return a != nil && a.dirty.IsEmpty() && annLists(int(e.live.GetCardinality())) < 2*a.nlist
}

// annGather lists the candidates the ANN plan ranks into sc.ids, in id
// order: the lists nearest q intersected with cand, walked until they hold
// target candidates, plus the unindexed tail. The lists and the tail are
// disjoint (a slot is in one list or dirty), so their members are appended
// list by list and the listing is sorted (sortIDs), not merged: a union of
// the lists (roaring.FastOr) and its listing took 1.6 ms of a 10M query
// for the 112,000 gathered, 3 times the sort (BenchmarkSortIDs). ok is
// false when the index cannot serve (none yet, or too long a tail).
// Callers hold mu for reading.
func (e *Engine) annGather(cand *roaring.Bitmap, q []float32, target int, ph *searchPhases, sc *scratch) bool {
	a := e.ann.idx
	c := int(cand.GetCardinality())
	if a == nil || a.dim != len(q) {
		return false
	}
	unfiltered := cand == e.live
	var tail *roaring.Bitmap
	if unfiltered {
		tail = a.dirty
	} else {
		tail = roaring.And(a.dirty, cand)
	}
	if tail.GetCardinality() > uint64(annTailMax) {
		return false
	}
	ph.mark(phasePlan)
	order := a.rankLists(q)
	ph.mark(phaseLists)
	defer ph.mark(phaseGather)
	type gathered struct {
		l  uint16
		bm *roaring.Bitmap
	}
	var picked []gathered
	got := int(tail.GetCardinality())
	maxVisit := int(annAbortWalk*float64(target)*float64(a.nlist)/float64(max(1, c))) + 16
	for i, l := range order {
		if got >= target {
			break
		}
		if i >= maxVisit {
			return false // a filter far from the query: the screen
		}
		p := a.lists[l]
		if !unfiltered {
			p = roaring.And(p, cand)
		}
		picked = append(picked, gathered{uint16(l), p})
		got += int(p.GetCardinality())
	}
	// A Close renumbers the slots into list order (renumber.go): lists
	// appended by index, then the tail (written since, at the end), are
	// then in id order already, and the sort is skipped.
	slices.SortFunc(picked, func(x, y gathered) int { return cmp.Compare(x.l, y.l) })
	ids := sc.ids[:0]
	for _, g := range picked {
		ids = appendIDs(ids, g.bm)
	}
	ids = appendIDs(ids, tail)
	if !slices.IsSorted(ids) {
		ids, sc.pool = sortIDs(ids, sc.pool)
	}
	sc.ids = ids
	return true
}

// sortIDs sorts distinct ids in place and returns them (buf is scratch,
// returned for the next call): a counting pass by vector chunk (id /
// chunkDocs), then each chunk's ids through a bitmap of its 65,536 slots
// (8 KB, in the first-level cache). The exact ranking of the ANN plan's
// gathered set reads the codes in id order faster than list by list
// (fewer TLB and DRAM page misses: 112,000 candidates of 10M took 20-30%
// less, BenchmarkExactRandom/order).
func sortIDs(ids, buf []uint32) ([]uint32, []uint32) {
	if len(ids) < 2 {
		return ids, buf
	}
	var hi uint32
	for _, id := range ids {
		hi = max(hi, id)
	}
	start := make([]int, int(hi/chunkDocs)+2)
	for _, id := range ids {
		start[id/chunkDocs+1]++
	}
	for c := 1; c < len(start); c++ {
		start[c] += start[c-1]
	}
	buf = grow(buf, len(ids))
	next := slices.Clone(start)
	for _, id := range ids {
		c := id / chunkDocs
		buf[next[c]] = id
		next[c]++
	}
	var words [chunkDocs / 64]uint64
	out := 0
	for c := 0; c+1 < len(start); c++ {
		part := buf[start[c]:start[c+1]]
		if len(part) == 0 {
			continue
		}
		for _, id := range part {
			words[id%chunkDocs/64] |= 1 << (id % 64)
		}
		base := uint32(c) * chunkDocs
		for w, x := range words {
			if x == 0 {
				continue
			}
			for x != 0 {
				ids[out] = base + uint32(w*64+bits.TrailingZeros64(x))
				out++
				x &= x - 1
			}
			words[w] = 0
		}
	}
	return ids[:out], buf
}

// appendIDs appends the members of b to ids in id order.
func appendIDs(ids []uint32, b *roaring.Bitmap) []uint32 {
	n := int(b.GetCardinality())
	if n == 0 {
		return ids
	}
	from := len(ids)
	ids = slices.Grow(ids, n)[:from+n]
	it := b.ManyIterator()
	got := from
	for got < len(ids) {
		m := it.NextMany(ids[got:])
		if m == 0 {
			break
		}
		got += m
	}
	return ids[:got]
}

// annZ weighs the spread of a list's members toward the query against
// their mean (rankLists).
var annZ float32 = 3

// rankLists orders the lists for q, most promising first. A member x of
// list l has q.x = q.mean_l + q.(x - mean_l); the second term has the
// variance sum_j q_j^2 vari_lj (the per-dimension variance, ignoring
// covariance), so a list scores q.mean_l + annZ standard deviations: the
// dot product its best members reach. Ranking by the centroid alone misses
// lists whose members spread toward a query that lies between clusters,
// which is where a mixture of several companies lies (docs/decisions.md
// "ANN recall for mixtures (issue 24)"). Equal scores keep list order.
func (a *annIndex) rankLists(q []float32) []int {
	dim := a.dim
	q2 := make([]float32, dim)
	for j, x := range q {
		q2[j] = x * x
	}
	score := make([]float32, a.nlist)
	// On both cores: 3,163 lists at 10M took 0.45 ms on one.
	parallel(a.nlist, 512, func(_, lo, hi int) {
		for l := lo; l < hi; l++ {
			var m, v float32
			switch {
			case a.meanQ != nil:
				m = dotInt8(q, a.meanQ[l*dim:(l+1)*dim]) * a.meanS[l]
				v = dotInt8(q2, a.variQ[l*dim:(l+1)*dim]) * a.variS[l]
			case a.mean != nil:
				m = fullDot(q, a.mean[l*dim:(l+1)*dim])
				v = fullDot(q2, a.vari[l*dim:(l+1)*dim])
			default:
				score[l] = fullDot(q, a.cent[l*dim:(l+1)*dim])
				continue
			}
			score[l] = m + annZ*float32(math.Sqrt(float64(max(v, 0))))
		}
	})
	// Sorted as integers: the score's bits made to order descending,
	// then the list number (a third of the time of sorting by a closure).
	keys := make([]uint64, a.nlist)
	for l, s := range score {
		keys[l] = uint64(descBits(s))<<32 | uint64(l)
	}
	slices.Sort(keys)
	order := make([]int, a.nlist)
	for i, k := range keys {
		order[i] = int(uint32(k))
	}
	return order
}

// descBits maps a float32 (not NaN) to a uint32 whose ascending order is
// the float's descending order (-0 and +0 alike).
func descBits(f float32) uint32 {
	if f == 0 {
		f = 0
	}
	b := math.Float32bits(f)
	if b&(1<<31) != 0 {
		return b // negative: larger magnitude sorts later
	}
	return ^b &^ (1 << 31)
}

// setStats installs the lists' member statistics and their int8 copies
// (rankLists). Quantizing moves a list's score by about 0.001 (one code
// step of a list's largest mean component, spread over the dimensions),
// against gaps of 0.01-0.1 between the lists a query walks.
func (a *annIndex) setStats(mean, vari []float32) {
	a.mean, a.vari = mean, vari
	a.meanQ, a.variQ, a.meanS, a.variS = nil, nil, nil, nil
	if len(mean) != a.nlist*a.dim || len(vari) != len(mean) {
		return
	}
	a.meanQ, a.variQ = make([]int8, len(mean)), make([]int8, len(vari))
	a.meanS, a.variS = make([]float32, a.nlist), make([]float32, a.nlist)
	for l := range a.nlist {
		r := l * a.dim
		a.meanS[l] = quantizeInto(a.meanQ[r:r+a.dim], mean[r:r+a.dim])
		a.variS[l] = quantizeInto(a.variQ[r:r+a.dim], vari[r:r+a.dim])
	}
}
