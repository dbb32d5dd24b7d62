// Command calibrate rebuilds calibration_table.go: it generates a demo
// corpus (seed A), indexes its names, matches labelled perturbed queries
// (namematchtest), fits the confidence table to the measured precision,
// and reports precision and recall of the fitted table on held-out
// queries from another corpus (seed B).
//
//	go generate ./namematch
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"runtime"
	"sync"

	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/namematch/namematchtest"
)

func main() {
	out := flag.String("out", "calibration_table.go", "file to write")
	corpus := flag.Int("corpus", 200_000, "companies indexed")
	queries := flag.Int("queries", 30_000, "labelled queries")
	seedA := flag.Int64("seed", 2, "corpus and query seed of the training set")
	seedB := flag.Int64("holdout-seed", 3, "corpus and query seed of the held-out set")
	flag.Parse()

	train := run(*corpus, *queries, *seedA)
	c, brier := namematch.Fit(train, 0.2)
	log.Printf("fitted beta %g, %d knots, Brier %.4f on %d training samples", c.Beta, len(c.Knots), brier, len(train))
	held := run(*corpus, *queries/2, *seedB)
	report(c, held)

	var b bytes.Buffer
	comment := fmt.Sprintf("// Fitted on %d queries against %d demo companies (seed %d); see docs/decisions.md.\n", *queries, *corpus, *seedA)
	if err := c.WriteGo(&b, comment); err != nil {
		log.Fatal(err)
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// run matches labelled queries against a fresh corpus of seed and returns
// the samples (queries with no candidate at all are left out).
func run(n, q int, seed int64) []namematch.Sample {
	g := demo.New(demo.Options{Companies: n + n/5, Seed: seed})
	x := namematch.BuildFrom(namematchtest.Corpus(g, n))
	qs := namematchtest.Queries(g, n, q, 0.15, uint64(seed))
	samples := make([]namematch.Sample, len(qs))
	ok := make([]bool, len(qs))
	var wg sync.WaitGroup
	w := runtime.GOMAXPROCS(0)
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			m := x.NewMatcher()
			for i := k; i < len(qs); i += w {
				top, second, found := m.Explain(qs[i].Query)
				if found {
					samples[i] = namematch.Sample{Top: top.Score, Second: second, Right: top.Domain == qs[i].Want}
					ok[i] = true
				}
			}
		}(k)
	}
	wg.Wait()
	var res []namematch.Sample
	for i, s := range samples {
		if ok[i] {
			res = append(res, s)
		}
	}
	return res
}

func report(c namematch.Calibration, held []namematch.Sample) {
	right := 0
	for _, s := range held {
		if s.Right {
			right++
		}
	}
	log.Printf("held-out: %d samples, %d with the right company on top", len(held), right)
	for _, th := range []int{50, 60, 70, 80, 90, 100} {
		n, r := 0, 0
		for _, s := range held {
			if c.Confidence(c.Input(s.Top, s.Second)) >= th {
				n++
				if s.Right {
					r++
				}
			}
		}
		log.Printf("min_match_confidence %3d: returned %5d, precision %.3f, recall %.3f", th, n, float64(r)/float64(max(n, 1)), float64(r)/float64(max(right, 1)))
	}
}
