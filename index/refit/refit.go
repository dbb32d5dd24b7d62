// Package refit replaces the embedder of a grown index: it decides when
// the corpus has grown enough to gain from a fitted model (Due), fits one
// on a sample of the indexed companies, and has the engine re-embed every
// company and contact beside the served vectors and switch to them in one
// step (index.Refitter). It holds the `refit` task body, run by jobs/,
// the `prospectd refit` command and the automatic trigger after a load.
package refit

import (
	"context"
	"encoding"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/store"
)

// Kind is the task kind of a refit.
const Kind = "refit"

// Rule constants.
const (
	// MinFit is the size from which an index built with the hashing
	// embedder gets a fitted one: the loader's own threshold for a first
	// load (ingest.DefaultMinFit).
	MinFit = 1000
	// Growth is how many times larger than at its fit an index must be
	// for a refit, while the fit sample was not yet full.
	Growth = 2
	// FitSample is the number of companies a fit learns from
	// (ingest.DefaultFitSample).
	FitSample = 20000
)

// ErrNotDue: the index does not need a refit (Input.Force overrides).
var ErrNotDue = errors.New("refit not due")

// Due reports whether an index of n companies whose embedder is described
// by m should be refitted, and why (or why not):
//   - built with the hashing embedder (a first load under MinFit) and now
//     holding at least MinFit companies;
//   - fitted on fewer than FitSample companies and now holding at least
//     Growth times as many as it was fitted on (the sample a new fit
//     learns from at least doubles).
//
// A model fitted on a full sample, or one of unknown fit size (an index
// from before the count was kept), or an external provider's, is refitted
// only on the operator's request.
func Due(m index.Meta, n int) (bool, string) {
	switch {
	case strings.HasPrefix(m.EmbedderID, "hashing-"):
		if n >= MinFit {
			return true, fmt.Sprintf("built with the hashing embedder, now %d companies (≥ %d)", n, MinFit)
		}
		return false, fmt.Sprintf("hashing embedder, %d companies (< %d)", n, MinFit)
	case strings.HasPrefix(m.EmbedderID, "tfidf-svd-"):
		if m.FitRecords == 0 {
			return false, "fitted model of unknown sample size"
		}
		if m.FitRecords >= FitSample {
			return false, fmt.Sprintf("fitted on a full sample of %d companies", m.FitRecords)
		}
		if n >= Growth*m.FitRecords {
			return true, fmt.Sprintf("fitted on %d companies, now %d (≥ ×%d)", m.FitRecords, n, Growth)
		}
		return false, fmt.Sprintf("fitted on %d companies, now %d (< ×%d)", m.FitRecords, n, Growth)
	}
	return false, "embedder " + m.EmbedderID + " is refitted on request only"
}

// Engine is what a refit uses of an index.
type Engine interface {
	index.Refitter
	index.MetaReader
	index.CompanyReader
	index.CompanyScanner
	CountCompanies(ctx context.Context, f index.Filter) (int, error)
}

// Input is a refit task's input.
type Input struct {
	// Force refits even when Due says no.
	Force bool `json:"force,omitempty"`
}

// Output is a refit task's result.
type Output struct {
	Refitted  bool   `json:"refitted"`
	Reason    string `json:"reason"`
	From      string `json:"from,omitempty"`
	To        string `json:"to,omitempty"`
	Companies int    `json:"companies"`
	Contacts  int    `json:"contacts"`
	// Concurrent counts the writes embedded with the new model while the
	// refit ran.
	Concurrent int     `json:"concurrent"`
	Seconds    float64 `json:"seconds"`
}

// Service refits an index.
type Service struct {
	Engine Engine
	Log    zerolog.Logger
	// Embedder, when set, is the embedder the index must have (an
	// external provider): a refit is due whenever the index has another.
	// nil fits the built-in model on the index's companies by the rule.
	Embedder embedding.Embedder
	// FitOptions configure the built-in model's fit (label directions:
	// embedding.Options.LabelDims); the zero value fits with embedding's
	// defaults.
	FitOptions embedding.Options
	// Submit queues a task (a *jobs.Runner's Submit); AfterLoad uses it.
	Submit func(ctx context.Context, orgID, kind string, input any) (store.Task, error)
	// OrgID is the organization the automatic refit tasks are filed under.
	OrgID string

	// queued: an automatic refit was submitted and has not finished, so
	// loads finishing meanwhile do not queue another.
	queued atomic.Bool
	// unfit is the company count at which a fit last found too few shared
	// terms: no automatic refit is queued again before the index doubles.
	unfit atomic.Int64
	mu    sync.Mutex // one refit at a time in this process
}

// Run refits the index when due (or forced) and returns what it did. A
// refit that is not due returns Output{Refitted: false} and no error.
func (s *Service) Run(ctx context.Context, in Input, progress func(pct int)) (Output, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := time.Now()
	meta, err := s.Engine.Meta(ctx)
	if err != nil {
		return Output{}, fmt.Errorf("refit: read index metadata: %w", err)
	}
	n, err := s.Engine.CountCompanies(ctx, nil)
	if err != nil {
		return Output{}, fmt.Errorf("refit: count companies: %w", err)
	}
	due, why := s.due(meta, n)
	out := Output{Reason: why, From: meta.EmbedderID}
	if !due && !in.Force {
		return out, nil
	}
	emb := s.Embedder
	if emb == nil {
		var fit int
		emb, fit, err = s.fit(ctx)
		if errors.Is(err, embedding.ErrTooFewDocs) {
			s.unfit.Store(int64(n))
			out.Reason = "the companies share too few terms to fit on; keeping " + meta.EmbedderID
			return out, nil
		}
		if err != nil {
			return out, err
		}
		meta.FitRecords = fit
	} else {
		meta.FitRecords = n
	}
	if emb.ID() == meta.EmbedderID {
		out.Reason = "the new model is the one in use"
		return out, nil
	}
	next := index.Meta{EmbedderID: emb.ID(), Dimension: emb.Dim(), FitRecords: meta.FitRecords}
	if bm, ok := emb.(encoding.BinaryMarshaler); ok {
		if next.Model, err = bm.MarshalBinary(); err != nil {
			return out, fmt.Errorf("refit: serialize the embedder: %w", err)
		}
	}
	s.Log.Info().Str("from", meta.EmbedderID).Str("to", emb.ID()).Int("companies", n).Str("why", why).Msg("refit started")
	res, err := s.Engine.Refit(ctx, index.Refit{
		Meta:      next,
		Companies: CompanyVectors(emb),
		Contacts:  ContactVectors(emb),
		Progress: func(done, total int) {
			if progress != nil && total > 0 {
				progress(min(99, done*100/total))
			}
		},
	})
	if err != nil {
		return out, fmt.Errorf("refit to %s: %w", emb.ID(), err)
	}
	out.Refitted, out.To = true, res.To
	out.Companies, out.Contacts, out.Concurrent = res.Companies, res.Contacts, res.Concurrent
	out.Seconds = time.Since(start).Seconds()
	s.Log.Info().Str("from", res.From).Str("to", res.To).Int("companies", res.Companies).Int("contacts", res.Contacts).
		Int("concurrent_writes", res.Concurrent).Float64("seconds", out.Seconds).Msg("refit swapped")
	return out, nil
}

// Task is the body of the refit task kind.
func (s *Service) Task(ctx context.Context, _ store.Task, in Input, progress func(pct int)) (Output, error) {
	defer s.queued.Store(false)
	return s.Run(ctx, in, progress)
}

// AfterLoad queues a refit task when the index has grown enough (Due);
// loads and refreshes call it when they end. It does nothing while an
// automatic refit is queued or running.
func (s *Service) AfterLoad(ctx context.Context) (bool, error) {
	if s.Submit == nil {
		return false, nil
	}
	meta, err := s.Engine.Meta(ctx)
	if errors.Is(err, index.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("refit check: %w", err)
	}
	n, err := s.Engine.CountCompanies(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("refit check: %w", err)
	}
	if u := s.unfit.Load(); u > 0 && s.Embedder == nil && int64(n) < Growth*u {
		return false, nil
	}
	if due, _ := s.due(meta, n); !due || !s.queued.CompareAndSwap(false, true) {
		return false, nil
	}
	if _, err := s.Submit(ctx, s.OrgID, Kind, Input{}); err != nil {
		s.queued.Store(false)
		return false, fmt.Errorf("queue refit: %w", err)
	}
	return true, nil
}

// due is Due, or, with an embedder configured, whether the index has
// another one.
func (s *Service) due(meta index.Meta, n int) (bool, string) {
	if s.Embedder == nil {
		return Due(meta, n)
	}
	if s.Embedder.ID() == meta.EmbedderID {
		return false, "the index has the configured embedder " + meta.EmbedderID
	}
	return true, "switch from " + meta.EmbedderID + " to the configured embedder " + s.Embedder.ID()
}

// errSampleFull ends the sample scan.
var errSampleFull = errors.New("sample full")

// fit learns a model from the first FitSample companies the index scans.
func (s *Service) fit(ctx context.Context) (embedding.Embedder, int, error) {
	var domains []string
	err := s.Engine.ScanCompanies(ctx, func(k index.CompanyKey) error {
		domains = append(domains, k.Domain)
		if len(domains) >= FitSample {
			return errSampleFull
		}
		return nil
	})
	if err != nil && !errors.Is(err, errSampleFull) {
		return nil, 0, fmt.Errorf("refit: scan companies: %w", err)
	}
	docs := make([]embedding.Doc, 0, len(domains))
	for lo := 0; lo < len(domains); lo += 1000 {
		cs, err := s.Engine.GetCompanies(ctx, domains[lo:min(lo+1000, len(domains))])
		if err != nil {
			return nil, 0, fmt.Errorf("refit: read the fit sample: %w", err)
		}
		for _, c := range cs {
			docs = append(docs, embedding.DocOf(c))
		}
	}
	if len(docs) < MinFit {
		return nil, 0, fmt.Errorf("%w: %d companies", embedding.ErrTooFewDocs, len(docs))
	}
	m, err := embedding.Fit(docs, s.FitOptions)
	if err != nil {
		return nil, 0, fmt.Errorf("refit: fit on %d companies: %w", len(docs), err)
	}
	return m, len(docs), nil
}

// CompanyVectors embeds companies with emb, a batch at a time (through
// the embedder's batch call when it has one: a remote provider).
func CompanyVectors(emb embedding.Embedder) func(context.Context, []record.Company) ([][]float32, error) {
	return func(ctx context.Context, cs []record.Company) ([][]float32, error) {
		docs := make([]embedding.Doc, len(cs))
		for i := range cs {
			docs[i] = embedding.DocOf(cs[i])
		}
		return embedding.EmbedDocs(ctx, emb, docs)
	}
}

// ContactVectors embeds contacts with emb.
func ContactVectors(emb embedding.Embedder) func(context.Context, []record.Contact) ([][]float32, error) {
	return func(ctx context.Context, cs []record.Contact) ([][]float32, error) {
		docs := make([]embedding.Doc, len(cs))
		for i := range cs {
			docs[i] = embedding.ContactDocOf(cs[i])
		}
		return embedding.EmbedDocs(ctx, emb, docs)
	}
}
