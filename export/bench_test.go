package export

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

// BenchmarkExport100k exports 100,000 demo companies in each format from
// a 110,000-company index, billing every record (a fresh organization per
// run), and reports records/s, the peak Go heap while exporting and its
// growth over the heap before the export (the index's own memory).
//
//	go test ./export -run '^$' -bench Export100k -benchtime 1x -timeout 30m
func BenchmarkExport100k(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	eng, err := embedded.Open(filepath.Join(dir, "index"), embedded.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close()
	g := demo.New(demo.Options{Companies: 110_000, Seed: 1})
	if _, err := (&ingest.Loader{Engine: eng}).Load(ctx, g.Source()); err != nil {
		b.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "state.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	const n = 100_000
	params := url.Values{"min_digital_footprint": {"0"}, "exclude_leadgen": {"false"}, "redirect": {"true"}}
	for _, format := range Formats {
		b.Run(format, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				org, err := st.CreateOrg(ctx, fmt.Sprintf("bench-%s-%d-%d", format, i, time.Now().UnixNano()), store.PlanTeam)
				if err != nil {
					b.Fatal(err)
				}
				plans := account.DefaultPlans()
				plans[store.PlanTeam] = account.PlanConfig{PricePer1K: 12, Credits: 1_000_000, RateMultiplier: 1}
				task := &Task{Files: &Files{Dir: filepath.Join(dir, "exports")}, SavedFor: Searches(eng, nil), Orgs: st,
					Biller: &account.Biller{Store: st, Plans: plans}, CheckpointEvery: DefaultCheckpointEvery, Log: zerolog.Nop()}
				q := url.Values{"format": {format}, "max_records": {fmt.Sprint(n)}}
				for k, v := range params {
					q[k] = v
				}
				r, err := Parse(SourceDiscover, q)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				var base runtime.MemStats
				runtime.ReadMemStats(&base)
				var peak atomic.Uint64
				stop := make(chan struct{})
				go func() {
					var ms runtime.MemStats
					for {
						runtime.ReadMemStats(&ms)
						if ms.HeapInuse > peak.Load() {
							peak.Store(ms.HeapInuse)
						}
						select {
						case <-stop:
							return
						case <-time.After(50 * time.Millisecond):
						}
					}
				}()
				start := time.Now()
				res, err := task.Run(ctx, store.Task{ID: fmt.Sprintf("b%s%d", format, i), OrgID: org.ID}, r.Input, func(int) {})
				took := time.Since(start)
				close(stop)
				if err != nil {
					b.Fatal(err)
				}
				if res.Records != n || res.CreditsBilled != n {
					b.Fatalf("result %+v", res)
				}
				b.ReportMetric(float64(n)/took.Seconds(), "records/s")
				b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
				runtime.GC()
				var after runtime.MemStats
				runtime.ReadMemStats(&after)
				b.ReportMetric((float64(after.HeapInuse)-float64(base.HeapInuse))/(1<<20), "heap-retained-MB")
				b.ReportMetric(float64(res.Bytes)/(1<<20), "file-MB")
				os.Remove(filepath.Join(dir, "exports", fmt.Sprintf("b%s%d.%s", format, i, format)))
			}
		})
	}
}
