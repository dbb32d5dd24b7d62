package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/record"
)

// progress draws a bar on a terminal and prints a line every few seconds
// otherwise (CI logs, redirected output).
type progress struct {
	bar   *progressbar.ProgressBar
	total int
	last  time.Time
	start time.Time
	label string
}

func newProgress(label string, total int) *progress {
	p := &progress{total: total, start: time.Now(), label: label}
	if isatty.IsTerminal(os.Stderr.Fd()) {
		p.bar = progressbar.NewOptions(max(total, -1),
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetDescription(label),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("rec"),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	return p
}

func (p *progress) update(s ingest.Stats) {
	if p.bar != nil {
		_ = p.bar.Set(s.Read)
		return
	}
	if time.Since(p.last) < 3*time.Second {
		return
	}
	p.last = time.Now()
	fmt.Fprintf(os.Stderr, "%s: read %d, indexed %d, rejected %d (%.0f rec/s)\n", p.label, s.Read, s.Indexed, s.Rejected,
		float64(s.Read)/time.Since(p.start).Seconds())
}

func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

// loadDemo generates n companies with the seed and loads them into eng
// (fit: the fit of a new index's embedder).
func loadDemo(ctx context.Context, eng interface {
	ingest.Target
	index.Refresher
}, n int, seed int64, fit embedding.Options) (ingest.Stats, time.Duration, error) {
	g := demo.New(demo.Options{Companies: n, Seed: seed})
	p := newProgress("demo corpus", n)
	l := &ingest.Loader{Engine: eng, Progress: p.update, Rejects: io.Discard, FitOptions: fit}
	start := time.Now()
	st, err := l.Load(ctx, g.Source())
	p.finish()
	if err != nil {
		return st, time.Since(start), fmt.Errorf("load demo corpus: %w", err)
	}
	if err := eng.Refresh(ctx); err != nil {
		return st, time.Since(start), err
	}
	return st, time.Since(start), nil
}

// indexIsEmpty reports whether eng holds no company.
func indexIsEmpty(ctx context.Context, eng index.CompanySearcher) (bool, error) {
	n, err := eng.CountCompanies(ctx, nil)
	if err != nil && !errors.Is(err, index.ErrNotFound) {
		return false, err
	}
	return n == 0, nil
}

// demoContacts reads the contacts of the generator's companies in order,
// at most limit of them (0: all).
type demoContacts struct {
	g       *demo.Generator
	limit   int
	company int
	buf     []record.Contact
	n       int
}

func (s *demoContacts) Next() (record.Contact, int, error) {
	for len(s.buf) == 0 {
		if s.company >= s.g.Len() || s.limit > 0 && s.n >= s.limit {
			return record.Contact{}, 0, io.EOF
		}
		s.buf = s.g.ContactsOf(s.company)
		s.company++
	}
	if s.limit > 0 && s.n >= s.limit {
		return record.Contact{}, 0, io.EOF
	}
	c := s.buf[0]
	s.buf = s.buf[1:]
	s.n++
	return c, s.n, nil
}

func (s *demoContacts) Close() error { return nil }

// loadDemoContacts loads up to limit (0: all) contacts of the demo
// companies into eng's contact index.
func loadDemoContacts(ctx context.Context, eng index.Engine, n int, seed int64, limit int) (ingest.Stats, time.Duration, error) {
	g := demo.New(demo.Options{Companies: n, Seed: seed})
	p := newProgress("demo contacts", limit)
	l := &ingest.ContactLoader{Contacts: eng, Companies: eng, Progress: p.update, Rejects: io.Discard}
	start := time.Now()
	st, err := l.Load(ctx, &demoContacts{g: g, limit: limit})
	p.finish()
	if err != nil {
		return st, time.Since(start), fmt.Errorf("load demo contacts: %w", err)
	}
	return st, time.Since(start), eng.Refresh(ctx)
}
