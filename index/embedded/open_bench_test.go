package embedded

import (
	"os"
	"testing"
)

// BenchmarkOpenIndex measures a warm open of an existing index and the
// process's resident memory after it (Linux), in total and per company:
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
		if rss := vmRSS(); rss > 0 && n > 0 {
			b.ReportMetric(float64(rss)/1e6, "rss-MB")
			b.ReportMetric(float64(rss)/float64(n), "rss-B/company")
		}
		reportMemory(b)
		e.Close()
		b.StartTimer()
	}
}
