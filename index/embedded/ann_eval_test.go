package embedded

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index"
)

// TestANNCoverage measures, without timing, how well list rankings find a
// query's exact top 10: for each ranking, the share of the exact top 10
// that lies in the lists walked before the gathered count reaches 5, 10,
// 20 and 40 average lists' worth of companies (at 1,000 lists, 0.5-4% of
// the index). Run on a demo index with
//
//	PROSPECT_ANN_EVAL=/path/to/index go test -run TestANNCoverage -v -timeout 2h ./index/embedded/
//
// (PROSPECT_ANN_EVAL=synthetic:N builds N clustered companies instead).
func TestANNCoverage(t *testing.T) {
	src := os.Getenv("PROSPECT_ANN_EVAL")
	if src == "" {
		t.Skip("PROSPECT_ANN_EVAL not set")
	}
	var e *Engine
	var err error
	if n, ok := cutPrefix(src, "synthetic:"); ok {
		nn, _ := strconv.Atoi(n)
		old := annMinDocs
		annMinDocs = nn / 4
		defer func() { annMinDocs = old }()
		e, err = buildClustered(t.TempDir(), nn, 256, 7)
	} else {
		e, err = Open(src, Options{ANN: true})
	}
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for deadline := time.Now().Add(time.Hour); !e.annReady(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("ANN index not built within an hour")
		}
	}
	ctx := context.Background()
	e.mu.RLock()
	defer e.mu.RUnlock()
	ids := e.live.ToArray()
	n := len(ids)
	nq := 40
	if s := os.Getenv("PROSPECT_ANN_EVAL_Q"); s != "" {
		nq, _ = strconv.Atoi(s)
	}
	e.mu.RUnlock()
	qs := map[string][][]float32{"stored": benchQueries(e, nq, false, 2), "mix": benchQueries(e, nq, true, 2)}
	e.mu.RLock()
	truth := map[string][][]uint32{}
	for kind, qq := range qs {
		for _, q := range qq {
			top, _ := e.exact(ctx, ids, q, -2, 10)
			var tt []uint32
			for _, s := range top {
				tt = append(tt, s.id)
			}
			truth[kind] = append(truth[kind], tt)
		}
	}
	a := e.ann.idx
	eval := func(name string, nlist int, assign [][]uint16, score func(q []float32, out []float64)) {
		sizes := make([]int, nlist)
		for _, as := range assign {
			for _, id := range ids {
				if l := as[id]; l != annNone {
					sizes[l]++
				}
			}
		}
		// Average lists' worth of companies gathered.
		fracs := []float64{5, 10, 20, 40}
		for _, kind := range []string{"stored", "mix"} {
			hit := make([]float64, len(fracs))
			var qt time.Duration
			for qi, q := range qs[kind] {
				s := make([]float64, nlist)
				start := time.Now()
				score(q, s)
				order := make([]int, nlist)
				for i := range order {
					order[i] = i
				}
				slices.SortFunc(order, func(x, y int) int { return cmp.Compare(s[y], s[x]) })
				qt += time.Since(start)
				reach := make([]int, nlist) // gathered count once list l is walked
				got := 0
				for _, l := range order {
					got += sizes[l]
					reach[l] = got
				}
				for _, id := range truth[kind][qi] {
					r := math.MaxInt
					for _, as := range assign {
						if l := as[id]; l != annNone {
							r = min(r, reach[l])
						}
					}
					for fi, f := range fracs {
						if float64(r) <= f*float64(n)/float64(nlist) {
							hit[fi]++
						}
					}
				}
			}
			line := fmt.Sprintf("%-28s %-6s", name, kind)
			for fi, f := range fracs {
				line += fmt.Sprintf("  @%2.0f lists %.3f", f, hit[fi]/float64(10*len(qs[kind])))
			}
			t.Logf("%s  rank %v/q", line, (qt / time.Duration(len(qs[kind]))).Round(time.Microsecond))
		}
	}
	runSchemes(t, e, ids, a.cent, a.nlist, a.assign, eval)
	if os.Getenv("PROSPECT_ANN_EVAL_FINE") != "" {
		for _, per := range []int{2, 4} {
			nlist := min(annMaxLists, per*annLists(n))
			start := time.Now()
			want := min(n, nlist*annTrainPerList)
			sample := make([]float32, 0, want*e.dim)
			step := float64(n) / float64(want)
			for i := 0; i < want; i++ {
				sample = append(sample, e.vectorOf(ids[int(float64(i)*step)])...)
			}
			cent := trainCentroids(sample, e.dim, nlist, 1, func() bool { return false })
			b := newANN(e.dim, cent, 0, n)
			assign := make([]uint16, e.domains.slots())
			parallel(len(ids), 512, func(_, lo, hi int) {
				short := make([]int32, 0, annShortlist)
				for _, id := range ids[lo:hi] {
					assign[id] = b.nearest(e.vectorOf(id), e.signOf(id), short)
				}
			})
			t.Logf("%d lists trained and assigned in %v", nlist, time.Since(start).Round(time.Millisecond))
			runSchemes(t, e, ids, cent, nlist, assign, eval)
		}
	}
}

func cutPrefix(s, p string) (string, bool) {
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):], true
	}
	return s, false
}

// runSchemes evaluates the list rankings for one set of centroids and
// assignments.
func runSchemes(t *testing.T, e *Engine, ids []uint32, cent []float32, nlist int, assign []uint16,
	eval func(string, int, [][]uint16, func([]float32, []float64))) {
	dim := e.dim
	// Per-list member statistics: mean (unnormalized) and per-dimension
	// variance.
	mean, vari := evalListStats(e, ids, assign, nlist, 1)
	step := max(1, len(ids)/(nlist*annTrainPerList))
	smean, svari := evalListStats(e, ids, assign, nlist, step)
	// Second-nearest list, for the two-list assignment.
	second := make([]uint16, len(assign))
	for i := range second {
		second[i] = annNone
	}
	b := newANN(dim, cent, 0, 0)
	parallel(len(ids), 512, func(_, lo, hi int) {
		short := make([]int32, 0, annShortlist)
		for _, id := range ids[lo:hi] {
			v := e.vectorOf(id)
			b.nearest(v, e.signOf(id), short)
			short = short[:annShortlist]
			best1, best2 := -1, -1
			var s1, s2 float32 = -3, -3
			for _, l := range short {
				s := fullDot(v, cent[int(l)*dim:int(l+1)*dim])
				if s > s1 {
					best2, s2 = best1, s1
					best1, s1 = int(l), s
				} else if s > s2 {
					best2, s2 = int(l), s
				}
			}
			if best2 >= 0 && int(assign[id]) != best2 {
				second[id] = uint16(best2)
			} else if best1 >= 0 && int(assign[id]) != best1 {
				second[id] = uint16(best1)
			}
		}
	})
	pfx := fmt.Sprintf("%d ", nlist)
	sizesOf := make([]int, nlist)
	for _, id := range ids {
		sizesOf[assign[id]]++
	}
	centScore := func(q []float32, out []float64) {
		for l := range nlist {
			out[l] = float64(fullDot(q, cent[l*dim:(l+1)*dim]))
		}
	}
	gaussOf := func(mean, vari []float64, z float64) func([]float32, []float64) {
		return func(q []float32, out []float64) {
			for l := range nlist {
				m, sd := meanSD(q, mean[l*dim:(l+1)*dim], vari[l*dim:(l+1)*dim])
				out[l] = m + z*sd
			}
		}
	}
	gauss := func(z float64) func([]float32, []float64) { return gaussOf(mean, vari, z) }
	eval(pfx+"gauss z=2 sampled", nlist, [][]uint16{assign}, gaussOf(smean, svari, 2))
	eval(pfx+"centroid", nlist, [][]uint16{assign}, centScore)
	for _, z := range []float64{1, 2, 3} {
		eval(pfx+fmt.Sprintf("gauss z=%.0f", z), nlist, [][]uint16{assign}, gauss(z))
	}
	probOf := func(mean, vari []float64, K float64) func([]float32, []float64) {
		return func(q []float32, out []float64) {
			m := make([]float64, nlist)
			sd := make([]float64, nlist)
			for l := range nlist {
				m[l], sd[l] = meanSD(q, mean[l*dim:(l+1)*dim], vari[l*dim:(l+1)*dim])
				sd[l] += 1e-9
			}
			lo, hi := -1.0, 1.0
			for range 40 {
				t := (lo + hi) / 2
				var e float64
				for l := range nlist {
					e += float64(sizesOf[l]) * 0.5 * math.Erfc((t-m[l])/sd[l]/math.Sqrt2)
				}
				if e > K {
					lo = t
				} else {
					hi = t
				}
			}
			for l := range nlist {
				out[l] = (m[l] - lo) / sd[l]
			}
		}
	}
	eval(pfx+"gauss P(>t10)", nlist, [][]uint16{assign}, probOf(mean, vari, 10))
	eval(pfx+"gauss P(>t100)", nlist, [][]uint16{assign}, probOf(mean, vari, 100))
	eval(pfx+"centroid, 2 lists", nlist, [][]uint16{assign, second}, centScore)
	eval(pfx+"gauss z=2, 2 lists", nlist, [][]uint16{assign, second}, gauss(2))
}

func evalListStats(e *Engine, ids []uint32, assign []uint16, nlist, step int) (mean, vari []float64) {
	dim := e.dim
	mean = make([]float64, nlist*dim)
	vari = make([]float64, nlist*dim)
	cnt := make([]int, nlist)
	parallel(nlist, 16, func(_, lo, hi int) {
		for i := 0; i < len(ids); i += step {
			id := ids[i]
			l := int(assign[id])
			if l < lo || l >= hi {
				continue
			}
			cnt[l]++
			for j, x := range e.vectorOf(id) {
				mean[l*dim+j] += float64(x)
				vari[l*dim+j] += float64(x) * float64(x)
			}
		}
	})
	for l := range nlist {
		if cnt[l] == 0 {
			continue
		}
		for j := range dim {
			m := mean[l*dim+j] / float64(cnt[l])
			mean[l*dim+j] = m
			vari[l*dim+j] = max(0, vari[l*dim+j]/float64(cnt[l])-m*m)
		}
	}
	return mean, vari
}

// BenchmarkANNRank is the A/B of the ranking stage alone (scanVectors over
// every company for the top 100, no hydration): the ANN plan and the sketch
// screen alternate on each query, so both see the same machine load. It
// reports p50/p99 of each and recall@10/@100 against an exact scan, for
// stored-company and mixture queries, at each gather size in
// PROSPECT_ANN_GATHER (average lists' worth, comma-separated; default the
// index's annProbes).
//
//	PROSPECT_BENCH_INDEX=/path/to/index go test -run '^$' -bench ANNRank -benchtime 200x ./index/embedded/
func BenchmarkANNRank(b *testing.B) {
	e := benchEngine(b)
	if e.ann.idx == nil {
		b.Skip("no ANN index")
	}
	ctx := context.Background()
	fracs := []float64{annProbes(e.ann.idx.nlist)}
	if s := os.Getenv("PROSPECT_ANN_GATHER"); s != "" {
		fracs = fracs[:0]
		for _, f := range strings.Split(s, ",") {
			x, err := strconv.ParseFloat(f, 64)
			if err != nil {
				b.Fatal(err)
			}
			fracs = append(fracs, x)
		}
	}
	oldLists, oldMin, oldPerK, oldProbe := annGatherLists, annGatherMin, annGatherPerK, annProbeLists
	defer func() {
		annGatherLists, annGatherMin, annGatherPerK, annProbeLists = oldLists, oldMin, oldPerK, oldProbe
	}()
	annProbeLists = math.Inf(1) // each case gathers exactly its lists' worth
	for _, kind := range []string{"stored", "mix"} {
		queries := benchQueries(e, 64, kind == "mix", 1)
		e.mu.RLock()
		ids := e.live.ToArray()
		truth := make([][]scored, len(queries))
		for i, q := range queries {
			truth[i], _ = e.exact(ctx, ids, q, -2, 100)
		}
		e.mu.RUnlock()
		for _, frac := range fracs {
			b.Run(fmt.Sprintf("%s/lists=%g", kind, frac), func(b *testing.B) {
				annGatherLists, annGatherMin, annGatherPerK = frac, 0, 0
				run := func(q []float32, off bool) ([]scored, time.Duration) {
					annOff.Store(off)
					defer annOff.Store(false)
					start := time.Now()
					e.mu.RLock()
					top, _ := e.scanVectors(ctx, e.live, q, -2, 100)
					e.mu.RUnlock()
					return top, time.Since(start)
				}
				var lat [2][]time.Duration
				var r10, r100 [2]float64
				var seen [2]int
				before := planCounts(e)
				for i := 0; i < b.N; i++ {
					qi := i % len(queries)
					for j := range 2 {
						off := (i+j)%2 == 1 // alternate which goes first
						p := 0
						if off {
							p = 1
						}
						top, d := run(queries[qi], off)
						lat[p] = append(lat[p], d)
						if i < len(queries) {
							a, c := overlap(top, truth[qi], 10), overlap(top, truth[qi], 100)
							r10[p] += a
							r100[p] += c
							seen[p]++
						}
					}
				}
				after := planCounts(e)
				b.ReportMetric(float64(after[planANN]-before[planANN])/float64(b.N), "ann-share")
				for p, name := range []string{"ann", "screen"} {
					slices.Sort(lat[p])
					b.ReportMetric(float64(lat[p][len(lat[p])/2].Microseconds())/1000, name+"-p50-ms")
					b.ReportMetric(float64(lat[p][len(lat[p])*99/100].Microseconds())/1000, name+"-p99-ms")
					b.ReportMetric(r10[p]/float64(seen[p]), name+"-recall@10")
					b.ReportMetric(r100[p]/float64(seen[p]), name+"-recall@100")
				}
			})
		}
	}
}

// overlap is the share of truth's first n found in got's first n.
func overlap(got, truth []scored, n int) float64 {
	want := map[uint32]bool{}
	for _, s := range truth[:min(n, len(truth))] {
		want[s.id] = true
	}
	hit := 0
	for _, s := range got[:min(n, len(got))] {
		if want[s.id] {
			hit++
		}
	}
	return float64(hit) / float64(max(1, len(want)))
}

// BenchmarkANNBreakdown times a broad search on each plan, the two
// alternating which goes first (the second finds the first's profiles in
// the caches): the ranking alone, the ranking with a similarity floor (it
// adds the Total estimate), and the whole SearchCompanies with hydration
// (engine time), unfiltered and with a filter of about 30%.
//
//	PROSPECT_BENCH_INDEX=/path/to/index go test -run '^$' -bench ANNBreakdown -benchtime 100x ./index/embedded/
func BenchmarkANNBreakdown(b *testing.B) {
	e := benchEngine(b)
	ctx := context.Background()
	for _, sel := range []struct {
		name string
		frac float64
	}{{"all", 1}, {"30pct", 0.3}} {
		f, n := pickFilter(e, sel.frac)
		for _, kind := range []string{"stored", "mix"} {
			queries := benchQueries(e, 64, kind == "mix", 1)
			rank := func(min float32) func(q []float32) {
				return func(q []float32) {
					e.mu.RLock()
					defer e.mu.RUnlock()
					cand, err := e.eval(f, e.live)
					if err != nil {
						b.Fatal(err)
					}
					e.scanVectors(ctx, cand, q, min, 100)
				}
			}
			stages := []struct {
				name string
				f    func(q []float32)
			}{
				{"rank", rank(-2)},
				{"rank-min0", rank(0)},
				{"search", func(q []float32) {
					if _, err := e.SearchCompanies(ctx, index.Search{Vector: q, Limit: 100, Filter: f}); err != nil {
						b.Fatal(err)
					}
				}},
			}
			for _, st := range stages {
				b.Run(sel.name+"/"+kind+"/"+st.name, func(b *testing.B) {
					var lat [2][]time.Duration
					before := planCounts(e)
					for i := 0; i < b.N; i++ {
						for j := range 2 {
							p := (i + j) % 2
							annOff.Store(p == 1)
							start := time.Now()
							st.f(queries[i%len(queries)])
							lat[p] = append(lat[p], time.Since(start))
							annOff.Store(false)
						}
					}
					after := planCounts(e)
					b.ReportMetric(float64(n), "candidates")
					b.ReportMetric(float64(after[planANN]-before[planANN])/float64(b.N), "ann-share")
					for p, name := range []string{"ann", "screen"} {
						slices.Sort(lat[p])
						b.ReportMetric(float64(lat[p][len(lat[p])/2].Microseconds())/1000, name+"-p50-ms")
						b.ReportMetric(float64(lat[p][len(lat[p])*99/100].Microseconds())/1000, name+"-p99-ms")
					}
				})
			}
		}
	}
}

// meanSD is the mean and standard deviation of q.x over a list's members
// described by their mean and per-dimension variance (covariance ignored).
func meanSD(q []float32, mean, vari []float64) (m, sd float64) {
	var v float64
	for j, x := range q {
		m += float64(x) * mean[j]
		v += float64(x) * float64(x) * vari[j]
	}
	return m, math.Sqrt(v)
}
