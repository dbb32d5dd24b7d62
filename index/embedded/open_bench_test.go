package embedded

import (
	"os"
	"testing"
)

// BenchmarkOpenIndex measures a warm open of an existing index and the
// process's resident memory after it (Linux), in total and per company.
// Its Close writes the snapshot the next open reads: run it twice, as
// separate processes (-count shares one heap), for both figures:
//
//	PROSPECT_BENCH_INDEX=/path/to/data/index go test -run '^$' -bench OpenIndex -benchtime 1x ./index/embedded/
func BenchmarkOpenIndex(b *testing.B) {
	dir := os.Getenv("PROSPECT_BENCH_INDEX")
	if dir == "" {
		b.Skip("PROSPECT_BENCH_INDEX not set")
	}
	for b.Loop() {
		e, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		n := e.Len()
		b.ReportMetric(float64(n), "companies")
		// 1: read from the snapshot written by the previous Close
		// (snapshot.go); 0: decoded from the store (which writes it).
		fromSnap := 0.0
		if e.snapshotLoaded() {
			fromSnap = 1
		}
		b.ReportMetric(fromSnap, "from-snapshot")
		if rss := vmRSS(); rss > 0 && n > 0 {
			b.ReportMetric(float64(rss)/1e6, "rss-MB")
			b.ReportMetric(float64(rss)/float64(n), "rss-B/company")
		}
		reportMemory(b)
		e.Close()
		b.StartTimer()
	}
}
