package embedded

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"testing"
)

// BenchmarkResidentBreakdown opens an existing index and reports the live
// heap it keeps, in total and per company, with the bytes a company of each
// resident structure as sizeOf estimates them:
//
//	PROSPECT_BENCH_INDEX=/path/to/data/index go test -run '^$' -bench ResidentBreakdown -benchtime 1x ./index/embedded/
//
// With PROSPECT_HEAP_PROFILE=FILE it also writes a heap profile taken after
// the open (read it with go tool pprof -sample_index=inuse_space).
func BenchmarkResidentBreakdown(b *testing.B) {
	dir := os.Getenv("PROSPECT_BENCH_INDEX")
	if dir == "" {
		b.Skip("PROSPECT_BENCH_INDEX not set")
	}
	for b.Loop() {
		before := liveHeap()
		e, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		n := float64(e.Len())
		heap := liveHeap() - before
		b.ReportMetric(n, "companies")
		b.ReportMetric(float64(heap)/1e6, "heap-MB")
		b.ReportMetric(float64(heap)/n, "heap-B/company")
		if rss := vmRSS(); rss > 0 {
			b.ReportMetric(float64(rss)/1e6, "rss-MB")
		}
		writeHeapProfile(b, os.Getenv("PROSPECT_HEAP_PROFILE"))
		// Each structure is dropped in turn; the heap it frees is its
		// share (strings shared by two structures count for the last).
		for _, part := range residentParts {
			at := liveHeap()
			e.mu.Lock()
			part.drop(e)
			e.mu.Unlock()
			b.ReportMetric(float64(at-liveHeap())/n, part.name+"-B/company")
		}
		e.Close()
		b.StartTimer()
	}
}

// writeHeapProfile writes a heap profile to path, if not empty.
func writeHeapProfile(b *testing.B, path string) {
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatal(err)
	}
}

// liveHeap is the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// vmRSS is the process's VmRSS in bytes (0 where /proc is absent).
func vmRSS() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	var size, res int64
	for i, f := 0, 0; i < len(b) && f < 2; i++ {
		switch c := b[i]; {
		case c == ' ':
			f++
		case f == 0:
			size = size*10 + int64(c-'0')
		case f == 1:
			res = res*10 + int64(c-'0')
		}
	}
	return res * int64(os.Getpagesize())
}
