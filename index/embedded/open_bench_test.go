package embedded

import (
	"os"
	"testing"
)

// BenchmarkOpenIndex measures a warm open of an existing index:
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
		b.ReportMetric(float64(e.Len()), "companies")
		b.StopTimer()
		e.Close()
		b.StartTimer()
	}
}
