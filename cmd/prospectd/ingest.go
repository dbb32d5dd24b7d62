package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/ingest"
)

func runIngest(ctx context.Context, args []string) error {
	fs := newFlagSet("ingest")
	rejects := fs.String("rejects", "PROSPECT_REJECTS", "", "where to write rejected rows as CSV (default FILE.rejects.csv)")
	noRefit := fs.Bool("no-refit", "PROSPECT_NO_REFIT", false, "do not refit the embedder after the load even when the index has grown enough (see prospectd refit --check)")
	b := addBackendFlags(fs)
	pf := addEmbedderFlags(fs)
	ff := addFitFlags(fs)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	fit, err := ff.options()
	if err != nil {
		return err
	}
	provider, err := pf.embedder(ctx, newLogger(*b.logFormat))
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("usage: prospectd ingest companies|contacts FILE")
	}
	kind, path := pos[0], pos[1]
	loaderGC()
	switch kind {
	case "companies":
	case "contacts":
		return ingestContacts(ctx, b, path, *rejects, provider)
	default:
		return fmt.Errorf("unknown record kind %q: want companies or contacts", kind)
	}
	src, err := ingest.Open(path)
	if err != nil {
		return err
	}
	defer src.Close()
	eng, err := b.openEngine(ctx, embedded.Options{BulkLoad: true, LoadOnly: true})
	if err != nil {
		return err
	}
	defer eng.Close()

	if *rejects == "" {
		*rejects = path + ".rejects.csv"
	}
	rf, err := os.Create(*rejects)
	if err != nil {
		return fmt.Errorf("create rejects file: %w", err)
	}
	defer rf.Close()

	p := newProgress("ingest "+path, -1)
	l := &ingest.Loader{Engine: eng, Rejects: rf, Progress: p.update, Embedder: provider, FitOptions: fit}
	start := time.Now()
	st, err := l.Load(ctx, src)
	p.finish()
	took := time.Since(start)
	fmt.Printf("read %d, indexed %d, rejected %d, invalid fields dropped %d in %s (%.0f records/s)\n", st.Read, st.Indexed, st.Rejected, st.Dropped, took.Round(time.Millisecond), float64(st.Read)/took.Seconds())
	if st.Rejected > 0 || st.Dropped > 0 {
		fmt.Printf("rejected rows and dropped fields with their reasons: %s\n", *rejects)
	} else {
		rf.Close()
		os.Remove(*rejects)
	}
	if errors.Is(err, ingest.ErrEmbedderMismatch) && provider != nil {
		return fmt.Errorf("%w; switch the index to the provider first with `prospectd refit` and the same --embeddings-* flags", err)
	}
	if err != nil {
		return fmt.Errorf("load stopped after %d records (those are stored; re-running is safe): %w", st.Indexed, err)
	}
	if err := eng.Refresh(ctx); err != nil {
		return err
	}
	if *noRefit || provider != nil {
		return nil
	}
	// The rule reads the index as the load left it; the refit needs an
	// engine opened for serving.
	if err := eng.Close(); err != nil {
		return err
	}
	return refitAfterIngest(ctx, b, newLogger(*b.logFormat), fit)
}

// ingestContacts loads a contacts file; employers are looked up in the
// company index, so companies are loaded first.
func ingestContacts(ctx context.Context, b backendFlags, path, rejects string, provider embedding.Embedder) error {
	src, err := ingest.OpenContacts(path)
	if err != nil {
		return err
	}
	defer src.Close()
	eng, err := b.openEngine(ctx, embedded.Options{BulkLoad: true})
	if err != nil {
		return err
	}
	defer eng.Close()
	if rejects == "" {
		rejects = path + ".rejects.csv"
	}
	rf, err := os.Create(rejects)
	if err != nil {
		return fmt.Errorf("create rejects file: %w", err)
	}
	defer rf.Close()
	p := newProgress("ingest "+path, -1)
	l := &ingest.ContactLoader{Contacts: eng, Companies: eng, Rejects: rf, Progress: p.update, Embedder: provider}
	start := time.Now()
	st, err := l.Load(ctx, src)
	p.finish()
	took := time.Since(start)
	fmt.Printf("read %d, indexed %d, rejected %d in %s (%.0f records/s)\n", st.Read, st.Indexed, st.Rejected, took.Round(time.Millisecond), float64(st.Read)/took.Seconds())
	if st.Rejected > 0 {
		fmt.Printf("rejected rows with their reasons: %s\n", rejects)
	} else {
		rf.Close()
		os.Remove(rejects)
	}
	if err != nil {
		return fmt.Errorf("load stopped after %d contacts (those are stored; re-running is safe): %w", st.Indexed, err)
	}
	return eng.Refresh(ctx)
}

// loaderGC sets the garbage collector of a loading command: its live heap
// is small (a load-only engine keeps no index in memory) while it
// allocates gigabytes, so the default goal collected every few hundred
// megabytes. At 400% the collector took ~1.1 instead of ~4.5 CPU-s of a
// 1M load for 0.75 GB more peak memory; 300% peaks at 1.4 GB.
func loaderGC() { debug.SetGCPercent(300) }
