package query

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
)

// BenchmarkSegment segments 10,000 random domains of the index named by
// PROSPECT_BENCH_INDEX (skipped without it) and reports the silhouette.
func BenchmarkSegment(b *testing.B) {
	dir := os.Getenv("PROSPECT_BENCH_INDEX")
	if dir == "" {
		b.Skip("PROSPECT_BENCH_INDEX not set")
	}
	eng, err := embedded.Open(dir, embedded.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	total, _ := eng.CountCompanies(ctx, nil)
	rng := rand.New(rand.NewPCG(3, 3))
	var domains []string
	for len(domains) < 10_000 {
		res, err := eng.SearchCompanies(ctx, index.Search{Offset: rng.IntN(total - 100), Limit: 100})
		if err != nil {
			b.Fatal(err)
		}
		for _, h := range res.Hits {
			domains = append(domains, h.Company.Domain)
		}
	}
	svc := &Companies{Engine: eng}
	var seg Segmentation
	for b.Loop() {
		seg, err = svc.Segment(ctx, domains, 0, func(int) {})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(seg.Silhouette, "silhouette")
	b.ReportMetric(float64(seg.Segments), "segments")
}
