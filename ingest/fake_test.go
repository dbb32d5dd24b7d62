package ingest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// memEngine is an in-memory index.Engine for the loader's tests and
// benchmarks. With discard set it only counts what it is given, so a
// benchmark measures the loader and not the map.
type memEngine struct {
	mu       sync.Mutex
	discard  bool
	meta     *index.Meta
	docs     map[string]index.CompanyDoc
	writes   []string // domains in write order (not with discard)
	upserted int
	calls    int
	// refuse makes UpsertCompanies report these domains as failed docs.
	refuse map[string]string
	// failAfter makes the call after that many successful ones fail as a
	// whole (0: never).
	failAfter int
	// hook runs at the start of each UpsertCompanies call.
	hook              func(ctx context.Context, docs []index.CompanyDoc)
	active, maxActive int
}

var _ Target = (*memEngine)(nil)

func newMemEngine() *memEngine { return &memEngine{docs: map[string]index.CompanyDoc{}} }

var errEngineDown = fmt.Errorf("engine down")

func (e *memEngine) UpsertCompanies(ctx context.Context, docs []index.CompanyDoc) ([]index.DocError, error) {
	e.mu.Lock()
	e.active++
	e.maxActive = max(e.maxActive, e.active)
	hook := e.hook
	e.mu.Unlock()
	defer func() { e.mu.Lock(); e.active--; e.mu.Unlock() }()
	if hook != nil {
		hook(ctx, docs)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.meta == nil {
		return nil, fmt.Errorf("upsert: %w: no embedder metadata", index.ErrInvalid)
	}
	e.calls++
	if e.failAfter > 0 && e.calls > e.failAfter {
		return nil, errEngineDown
	}
	var failed []index.DocError
	for _, d := range docs {
		if len(d.Vector) != e.meta.Dimension {
			failed = append(failed, index.DocError{Domain: d.Company.Domain, Reason: "vector dimension mismatch"})
			continue
		}
		if reason, ok := e.refuse[d.Company.Domain]; ok {
			failed = append(failed, index.DocError{Domain: d.Company.Domain, Reason: reason})
			continue
		}
		e.upserted++
		if !e.discard {
			e.docs[d.Company.Domain] = d
			e.writes = append(e.writes, d.Company.Domain)
		}
	}
	return failed, nil
}

func (e *memEngine) DeleteCompanies(_ context.Context, domains []string) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, d := range domains {
		if _, ok := e.docs[d]; ok {
			delete(e.docs, d)
			n++
		}
	}
	return n, nil
}

func (e *memEngine) GetCompanies(_ context.Context, domains []string) ([]record.Company, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []record.Company
	for _, d := range domains {
		if doc, ok := e.docs[d]; ok {
			out = append(out, doc.Company)
		}
	}
	return out, nil
}

func (e *memEngine) CompanyVectors(_ context.Context, domains []string) (map[string][]float32, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := map[string][]float32{}
	for _, d := range domains {
		if doc, ok := e.docs[d]; ok {
			out[d] = doc.Vector
		}
	}
	return out, nil
}

// SearchCompanies ranks every company by cosine similarity (unfiltered
// only: the loader's tests need no filters).
func (e *memEngine) SearchCompanies(_ context.Context, s index.Search) (index.Result, error) {
	if s.Filter != nil {
		return index.Result{}, fmt.Errorf("memEngine: filters: %w", index.ErrUnsupported)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var hits []index.Hit
	for _, doc := range e.docs {
		var sim float64
		for i := range min(len(doc.Vector), len(s.Vector)) {
			sim += float64(doc.Vector[i]) * float64(s.Vector[i])
		}
		hits = append(hits, index.Hit{Company: doc.Company, Similarity: sim})
	}
	slices.SortFunc(hits, func(a, b index.Hit) int {
		if c := cmp.Compare(b.Similarity, a.Similarity); c != 0 {
			return c
		}
		return cmp.Compare(a.Company.Domain, b.Company.Domain)
	})
	total := len(hits)
	hits = hits[min(s.Offset, len(hits)):]
	if s.Limit > 0 && len(hits) > s.Limit {
		hits = hits[:s.Limit]
	}
	return index.Result{Hits: hits, Total: total}, nil
}

func (e *memEngine) CountCompanies(_ context.Context, f index.Filter) (int, error) {
	if f != nil {
		return 0, fmt.Errorf("memEngine: filters: %w", index.ErrUnsupported)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.docs), nil
}

func (e *memEngine) Meta(context.Context) (index.Meta, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.meta == nil {
		return index.Meta{}, fmt.Errorf("meta: %w", index.ErrNotFound)
	}
	return *e.meta, nil
}

func (e *memEngine) SetMeta(_ context.Context, m index.Meta) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.meta = &m
	return nil
}

func (e *memEngine) Refresh(context.Context) error { return nil }
func (e *memEngine) Health(context.Context) error  { return nil }
func (e *memEngine) Name() string                  { return "memory" }
func (e *memEngine) Close() error                  { return nil }
