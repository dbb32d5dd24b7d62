package namematch_test

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/namematch/namematchtest"
)

// BenchmarkBulkMatch10k matches 10,000 perturbed names (15% of companies
// not in the index) against the embedded index named by
// PROSPECT_BENCH_INDEX (<data-dir>/index after `prospectd demo --companies
// 1000000 --seed 1`), and reports the name index build, the match time,
// top-1 accuracy at confidence >= 80 and precision/recall by
// min_match_confidence. Skipped without PROSPECT_BENCH_INDEX.
func BenchmarkBulkMatch10k(b *testing.B) {
	dir := os.Getenv("PROSPECT_BENCH_INDEX")
	if dir == "" {
		b.Skip("PROSPECT_BENCH_INDEX is not set")
	}
	ctx := context.Background()
	eng, err := embedded.Open(dir, embedded.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close()
	n, err := eng.CountCompanies(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	svc := &namematch.Service{Engine: eng}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	if _, err := svc.Index(ctx); err != nil {
		b.Fatal(err)
	}
	build := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := float64(after.HeapAlloc) - float64(before.HeapAlloc)
	g := demo.New(demo.Options{Companies: n + n/5, Seed: 1})
	qs := namematchtest.Queries(g, n, 10_000, 0.15, 7)
	in := make([]namematch.Query, len(qs))
	for i := range qs {
		in[i] = qs[i].Query
	}
	// The generated companies must be the indexed ones.
	got, err := eng.GetCompanies(ctx, []string{g.Company(0).Domain, g.Company(n - 1).Domain})
	if err != nil || len(got) != 2 || got[0].Name != g.Company(0).Name {
		b.Fatalf("the index is not the seed-1 demo corpus of %d companies: %v", n, err)
	}
	var res []namematch.Result
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res, err = svc.Match(ctx, in, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "s/10k")
	}
	b.StopTimer()
	b.ReportMetric(build.Seconds(), "s-build")
	b.ReportMetric(heap/(1<<20), "MiB-index")
	inIndex := 0
	for _, q := range qs {
		if q.Want != "" {
			inIndex++
		}
	}
	b.Logf("%d companies indexed; name index built in %s; %d queries, %d of companies in the index", n, build.Round(time.Millisecond), len(qs), inIndex)
	for _, th := range []int{50, 60, 70, 80, 90, 100} {
		ret, right := 0, 0
		for i, r := range res {
			if r.Err == nil && r.Domain != "" && r.Confidence >= th {
				ret++
				if r.Domain == qs[i].Want {
					right++
				}
			}
		}
		p, rc := float64(right)/float64(max(ret, 1)), float64(right)/float64(max(inIndex, 1))
		b.Logf("min_match_confidence %3d: returned %5d, precision %.3f, recall %.3f", th, ret, p, rc)
		if th == 80 {
			b.ReportMetric(p, "acc@80")
		}
	}
}

// BenchmarkBuildFrom builds the name index over the first
// PROSPECT_BENCH_NAMES companies of the seed-1 demo corpus (100,000 when
// unset) and reports the build time, the index's live heap per company
// (the keys are dropped before it is read, so the index's own copies of
// domains count) and the bytes allocated by the build.
func BenchmarkBuildFrom(b *testing.B) {
	n := benchNames(b)
	g := demo.New(demo.Options{Companies: n, Seed: 1})
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		keys := namematchtest.Corpus(g, n)
		b.StartTimer()
		var mid runtime.MemStats
		runtime.ReadMemStats(&mid)
		start := time.Now()
		x := namematch.BuildFrom(keys)
		build := time.Since(start)
		b.StopTimer()
		var end runtime.MemStats
		runtime.ReadMemStats(&end)
		keys = nil
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(build.Seconds(), "s-build")
		b.ReportMetric((float64(after.HeapAlloc)-float64(before.HeapAlloc))/float64(n), "B/company")
		b.ReportMetric(float64(end.TotalAlloc-mid.TotalAlloc)/float64(n), "alloc-B/company")
		runtime.KeepAlive(x)
		runtime.KeepAlive(keys)
	}
}

// BenchmarkMatchFrom matches 2,000 perturbed names against a name index
// built over the first PROSPECT_BENCH_NAMES companies of the seed-1 demo
// corpus (100,000 when unset), without an engine: the match cost of the
// index layout alone.
func BenchmarkMatchFrom(b *testing.B) {
	n := benchNames(b)
	g := demo.New(demo.Options{Companies: n + n/5, Seed: 1})
	x := namematch.BuildFrom(namematchtest.Corpus(g, n))
	qs := namematchtest.Queries(g, n, 2_000, 0.15, 7)
	m := x.NewMatcher()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, q := range qs {
			m.Match(q.Query)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(qs)), "µs/name")
}

// benchNames is PROSPECT_BENCH_NAMES, the corpus size of the engine-free
// name index benchmarks; 100,000 when unset.
func benchNames(b *testing.B) int {
	s := os.Getenv("PROSPECT_BENCH_NAMES")
	if s == "" {
		return 100_000
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		b.Fatalf("PROSPECT_BENCH_NAMES=%q: want a positive company count", s)
	}
	return n
}
