package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/openprospect/prospectd/ingest/demo"
)

func runDemo(ctx context.Context, args []string) error {
	fs := newFlagSet("demo")
	companies := fs.Int("companies", "PROSPECT_DEMO_COMPANIES", 10000, "number of demo companies to generate and load")
	seed := fs.Int("seed", "PROSPECT_DEMO_SEED", 1, "generator seed: the same seed gives the same corpus")
	out := fs.String("out", "PROSPECT_DEMO_OUT", "", "write the corpus to this JSONL file instead of loading it (input for `prospectd ingest`)")
	b := addBackendFlags(fs)
	if _, err := fs.parse(args); err != nil {
		return err
	}
	if *companies < 1 {
		return fmt.Errorf("--companies: must be at least 1, got %d", *companies)
	}
	if *out != "" {
		return writeDemo(*out, *companies, int64(*seed))
	}
	eng, err := b.openEngine(ctx, true)
	if err != nil {
		return err
	}
	defer eng.Close()
	st, took, err := loadDemo(ctx, eng, *companies, int64(*seed))
	if err != nil {
		return err
	}
	fmt.Printf("demo corpus: generated %d, indexed %d, rejected %d in %s (%.0f companies/s)\n",
		st.Read, st.Indexed, st.Rejected, took.Round(1e6), float64(st.Indexed)/took.Seconds())
	return nil
}

// writeDemo writes the demo corpus as JSON lines.
func writeDemo(path string, n int, seed int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	g := demo.New(demo.Options{Companies: n, Seed: seed})
	start := time.Now()
	for i := 0; i < n; i++ {
		if err := enc.Encode(g.Company(i)); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	fmt.Printf("wrote %d companies to %s in %s\n", n, path, time.Since(start).Round(time.Millisecond))
	return f.Close()
}
