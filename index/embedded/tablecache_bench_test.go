package embedded

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/openprospect/prospectd/internal/cputime"
)

// BenchmarkHydratePages reads pages of 100 random companies' profiles, as
// a search hydrates its hits, from an index opened with Pebble's default
// table cache (1,000 open sstables) and with openFiles(). It reports the
// p50/p99 of a page, the table cache's hit rate and open tables, the CPU
// a page took, and the heap the open tables hold (in use after a GC,
// against right after the open). Pages are drawn afresh for each engine:
// run it twice, the second run with the pages in the page cache, to read
// the warm figures.
//
//	PROSPECT_BENCH_INDEX=/path/to/data/index go test -run '^$' -bench HydratePages -benchtime 200x ./index/embedded/
func BenchmarkHydratePages(b *testing.B) {
	dir := os.Getenv("PROSPECT_BENCH_INDEX")
	if dir == "" {
		b.Skip("PROSPECT_BENCH_INDEX not set")
	}
	for _, files := range []int{1000, openFiles()} {
		b.Run(fmt.Sprintf("open-files=%d", files), func(b *testing.B) {
			e, err := Open(dir, Options{OpenFiles: files})
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			e.mu.RLock()
			ids := e.live.ToArray()
			e.mu.RUnlock()
			rng := rand.New(rand.NewPCG(uint64(files), 9))
			heap0, rss0 := heapInUse(), vmRSS()
			m0 := e.db.Metrics().TableCache
			cpu0 := cputime.Process()
			var lat []time.Duration
			for b.Loop() {
				refs := make([]hitRef, 100)
				for i := range refs {
					refs[i].domain = e.domains.get(ids[rng.IntN(len(ids))])
				}
				start := time.Now()
				if _, err := e.hydrate(refs); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			cpu := cputime.Process() - cpu0
			m := e.db.Metrics().TableCache
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(lat)), "cpu-ms/page")
			if n := m.Hits + m.Misses - m0.Hits - m0.Misses; n > 0 {
				b.ReportMetric(float64(m.Hits-m0.Hits)/float64(n), "table-hit-rate")
			}
			b.ReportMetric(float64(m.Count), "open-tables")
			b.ReportMetric(float64(heapInUse()-heap0)/1e6, "heap-growth-MB")
			b.ReportMetric(float64(vmRSS()-rss0)/1e6, "rss-growth-MB")
		})
	}
}

// heapInUse is the heap in use after a collection.
func heapInUse() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse)
}
