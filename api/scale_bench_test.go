package api

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/openprospect/prospectd/query"
)

// BenchmarkBroadLookalikeRatioHTTP measures, in one run, a broad lookalike
// (5 example domains, no filter but the defaults, which match most of the
// index) and a GET /v1/bizdata read of one domain, over loopback one
// request at a time, and reports the ratio of their p50s: issue 24's bar
// is ≤ 4 at 10M companies (scripts/scale-run.sh). lookalike-direct then runs
// the same lookalikes through the query layer, without HTTP, billing and
// encoding (the profiles it reads are in the page cache by then).
func BenchmarkBroadLookalikeRatioHTTP(b *testing.B) {
	s := benchSetup(b)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}, Timeout: time.Minute}
	var broad, reads []string
	for _, q := range benchQueries(b, s, "lookalike", 64) {
		v, err := url.ParseQuery(q)
		if err != nil {
			b.Fatal(err)
		}
		v.Del("country")
		v.Del("category")
		broad = append(broad, v.Encode())
		reads = append(reads, url.Values{"domain": {v["domain"][0]}}.Encode())
	}
	p50s := map[string]float64{}
	for _, c := range []struct {
		name, path string
		qs         []string
	}{{"bizdata", "/bizdata", reads}, {"lookalike", "/discover", broad}} {
		b.Run(c.name, func(b *testing.B) {
			var lat []time.Duration
			for i := 0; b.Loop(); i++ {
				took, err := s.get(client, c.path, c.qs[i%len(c.qs)])
				if err != nil {
					b.Fatal(err)
				}
				lat = append(lat, took)
			}
			p50, p99 := percentiles(lat)
			p50s[c.name] = float64(p50.Microseconds()) / 1000
			b.ReportMetric(p50s[c.name], "p50-ms")
			b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
			if c.name == "lookalike" && p50s["bizdata"] > 0 {
				b.ReportMetric(p50s["lookalike"]/p50s["bizdata"], "x-bizdata-p50")
			}
		})
	}
	// The same lookalikes without HTTP, billing and encoding: the query
	// layer's plan, the engine's search and the page's hydration.
	b.Run("lookalike-direct", func(b *testing.B) {
		ctx := context.Background()
		var ds []query.Discover
		for _, q := range broad {
			v, _ := url.ParseQuery(q)
			d, err := query.ParseDiscover(v)
			if err != nil {
				b.Fatal(err)
			}
			ds = append(ds, d)
		}
		var lat []time.Duration
		for i := 0; b.Loop(); i++ {
			start := time.Now()
			if _, err := s.srv.companies.Discover(ctx, ds[i%len(ds)]); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(start))
		}
		p50, p99 := percentiles(lat)
		b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
	})
}
