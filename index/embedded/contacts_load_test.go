package embedded

import (
	"os"
	"runtime"
	"testing"
	"time"
)

// BenchmarkLoadContacts measures the warm load of an existing index's
// contacts (what serve does in the background after ready_in) and the
// heap the loaded contact index keeps per contact:
//
//	PROSPECT_BENCH_INDEX=/path/to/data/index go test -run '^$' -bench LoadContacts -benchtime 1x ./index/embedded/
func BenchmarkLoadContacts(b *testing.B) {
	dir := os.Getenv("PROSPECT_BENCH_INDEX")
	if dir == "" {
		b.Skip("PROSPECT_BENCH_INDEX not set")
	}
	for b.Loop() {
		b.StopTimer()
		e, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		start := time.Now()
		x, err := e.contactIdx()
		if err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		n := len(x.persona)
		b.ReportMetric(float64(n), "contacts")
		b.ReportMetric(took.Seconds(), "load-s")
		if n > 0 {
			b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(n), "heap-B/contact")
		}
		runtime.KeepAlive(x)
		e.Close()
		b.StartTimer()
	}
}
