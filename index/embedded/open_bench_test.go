package embedded

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index"
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
		// As `serve` opens it (the ANN file is read at open).
		e, err := Open(dir, Options{ANN: true})
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
		ann := 0.0
		if e.annReady() {
			ann = 1
		}
		b.ReportMetric(ann, "ann-whole")
		// Close writes what the next open reads (and renumbers the slots
		// into list order when they stray from it).
		start := time.Now()
		if err := e.Close(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "close-s")
		b.StartTimer()
	}
}

// BenchmarkReopenAfterWrites measures the open after a session that
// deleted companies and added them back (the same content, other slots):
// from the resident snapshot that session's Close wrote, then, for the
// cost of an open that cannot use it (before snapshots kept a session's
// slots, every such open), with the snapshot removed: the store decoded
// and the vector file rewritten in key order. It changes the index at
// PROSPECT_BENCH_INDEX (PROSPECT_BENCH_WRITES companies, default 1,000,
// deleted and written back) and leaves it with a key-order snapshot.
//
//	PROSPECT_BENCH_INDEX=/path/to/data/index go test -run '^$' -bench ReopenAfterWrites -benchtime 1x ./index/embedded/
func BenchmarkReopenAfterWrites(b *testing.B) {
	dir := os.Getenv("PROSPECT_BENCH_INDEX")
	if dir == "" {
		b.Skip("PROSPECT_BENCH_INDEX not set")
	}
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("PROSPECT_BENCH_WRITES")); err == nil && v > 0 {
		n = v
	}
	ctx := context.Background()
	open := func() (*Engine, time.Duration) {
		start := time.Now()
		e, err := Open(dir, Options{ANN: true})
		if err != nil {
			b.Fatal(err)
		}
		return e, time.Since(start)
	}
	for b.Loop() {
		b.StopTimer()
		e, _ := open()
		waitANN(b, e)
		e.mu.RLock()
		var domains []string
		for id := uint32(0); len(domains) < n && int(id) < e.domains.slots(); id += 997 {
			if d := e.domains.get(id); d != "" {
				domains = append(domains, d)
			}
		}
		e.mu.RUnlock()
		cos, err := e.GetCompanies(ctx, domains)
		if err != nil {
			b.Fatal(err)
		}
		vecs, err := e.CompanyVectors(ctx, domains)
		if err != nil {
			b.Fatal(err)
		}
		docs := make([]index.CompanyDoc, len(cos))
		for i, c := range cos {
			docs[i] = index.CompanyDoc{Company: c, Vector: vecs[c.Domain]}
		}
		if _, err := e.DeleteCompanies(ctx, domains); err != nil {
			b.Fatal(err)
		}
		if _, err := e.UpsertCompanies(ctx, docs); err != nil {
			b.Fatal(err)
		}
		waitANN(b, e)
		start := time.Now()
		if err := e.Close(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "close-s")
		b.ReportMetric(float64(len(docs)), "rewritten")

		flat := builds()
		e, took := open()
		b.ReportMetric(took.Seconds(), "open-s")
		b.ReportMetric(boolMetric(e.snapshotLoaded()), "from-snapshot")
		b.ReportMetric(boolMetric(builds() != flat), "vector-file-rewritten")
		b.ReportMetric(boolMetric(e.annReady()), "ann-ready-at-open")
		e.Close()

		os.Remove(filepath.Join(dir, snapFile))
		flat = builds()
		e, took = open()
		b.ReportMetric(took.Seconds(), "open-without-snapshot-s")
		b.ReportMetric(boolMetric(builds() != flat), "without-vector-file-rewritten")
		e.Close()
		b.StartTimer()
	}
}

func boolMetric(v bool) float64 {
	if v {
		return 1
	}
	return 0
}
