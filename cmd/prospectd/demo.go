package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/internal/demo"
)

func runDemo(ctx context.Context, args []string) error {
	fs := newFlagSet("demo")
	companies := fs.Int("companies", "PROSPECT_DEMO_COMPANIES", 10000, "number of demo companies to generate and load")
	seed := fs.Int("seed", "PROSPECT_DEMO_SEED", 1, "generator seed: the same seed gives the same corpus")
	contacts := fs.Int("contacts", "PROSPECT_DEMO_CONTACTS", 0, "also generate and load up to M contacts of those companies (about 5-6 per company on average)")
	out := fs.String("out", "PROSPECT_DEMO_OUT", "", "write the companies to this JSONL file instead of loading them (input for `prospectd ingest companies`)")
	contactsOut := fs.String("contacts-out", "PROSPECT_DEMO_CONTACTS_OUT", "", "with --out: write the contacts to this JSONL file (input for `prospectd ingest contacts`)")
	b := addBackendFlags(fs)
	ff := addFitFlags(fs)
	if _, err := fs.parse(args); err != nil {
		return err
	}
	fit, err := ff.options()
	if err != nil {
		return err
	}
	if *companies < 1 {
		return fmt.Errorf("--companies: must be at least 1, got %d", *companies)
	}
	if *contacts < 0 {
		return fmt.Errorf("--contacts: must be >= 0, got %d", *contacts)
	}
	if *out != "" {
		if err := writeDemo(*out, *companies, int64(*seed)); err != nil {
			return err
		}
		if *contactsOut != "" {
			return writeDemoContacts(*contactsOut, *companies, int64(*seed), *contacts)
		}
		return nil
	}
	loaderGC()
	eng, err := b.openEngine(ctx, embedded.Options{BulkLoad: true, LoadOnly: true})
	if err != nil {
		return err
	}
	defer eng.Close()
	st, took, err := loadDemo(ctx, eng, *companies, int64(*seed), fit)
	if err != nil {
		return err
	}
	fmt.Printf("demo corpus: generated %d, indexed %d, rejected %d in %s (%.0f companies/s)\n",
		st.Read, st.Indexed, st.Rejected, took.Round(1e6), float64(st.Indexed)/took.Seconds())
	if *contacts > 0 {
		cs, took, err := loadDemoContacts(ctx, eng, *companies, int64(*seed), *contacts)
		if err != nil {
			return err
		}
		fmt.Printf("demo contacts: generated %d, indexed %d, rejected %d in %s (%.0f contacts/s)\n",
			cs.Read, cs.Indexed, cs.Rejected, took.Round(1e6), float64(cs.Indexed)/took.Seconds())
		if cs.Read < *contacts {
			fmt.Printf("the %d companies employ %d demo contacts; raise --companies for more\n", *companies, cs.Read)
		}
	}
	return nil
}

// writeDemoContacts writes up to limit contacts of the demo companies as
// JSON lines.
func writeDemoContacts(path string, n int, seed int64, limit int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	src := &demoContacts{g: demo.New(demo.Options{Companies: n, Seed: seed}), limit: limit}
	start := time.Now()
	written := 0
	for {
		c, _, err := src.Next()
		if err != nil {
			break
		}
		if err := enc.Encode(c); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		written++
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	fmt.Printf("wrote %d contacts to %s in %s\n", written, path, time.Since(start).Round(time.Millisecond))
	return f.Close()
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
