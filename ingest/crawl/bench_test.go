package crawl

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openprospect/prospectd/record"
)

// BenchmarkCrawlFarm crawls a loopback site farm of benchSites host names
// (one server, every name resolved to 127.0.0.1), politeness delays off,
// writing every record through the embedded engine. Every 50th site sends
// an endless body, so memory must stay bounded by the caps. It reports
// sites/s and the peak heap in use.
//
//	go test -run '^$' -bench BenchmarkCrawlFarm -benchtime 3x ./ingest/crawl/
func BenchmarkCrawlFarm(b *testing.B) {
	const benchSites = 2000
	f := newFarm(b)
	words := strings.Fields("industrial pumps valves engineering service maintenance customers quality delivery europe america")
	var companies []record.Company
	var targets []string
	for i := range benchSites {
		d := fmt.Sprintf("site%04d.com", i)
		companies = append(companies, company(d))
		targets = append(targets, d)
		var body strings.Builder
		body.WriteString("<html><head><title>" + d + "</title></head><body>")
		for j := range 300 {
			body.WriteString("<p>" + words[(i+j)%len(words)] + " " + words[(i*7+j)%len(words)] + " and more words</p>")
		}
		page := body.String()
		endless := i%50 == 0
		f.site(d, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, page)
			for endless {
				if _, err := io.WriteString(w, page); err != nil {
					return
				}
			}
		}))
	}
	eng, _ := newIndex(b, companies...)
	o := f.options()
	o.Concurrency = 32
	var peak atomic.Uint64
	stop := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
		}
	}()
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		st, err := Run(context.Background(), o, targets, eng)
		if err != nil || st.Crawled != benchSites || st.Truncated != benchSites/50 {
			b.Fatalf("stats %+v, %v", st, err)
		}
	}
	b.StopTimer()
	close(stop)
	b.ReportMetric(float64(benchSites*b.N)/time.Since(start).Seconds(), "sites/s")
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
}
