package namematch

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openprospect/prospectd/index"
)

// DefaultMaxAge is how long a name index of an engine written by other
// processes (Elasticsearch) serves before it is rebuilt even when the number
// of companies did not change (an upsert may rename one).
const DefaultMaxAge = 10 * time.Minute

// Companies is the part of an engine name matching reads: every company's
// name and evidence, and the company count that tells an index is stale.
type Companies interface {
	index.CompanyScanner
	index.CompanySearcher
}

// Service keeps the name index of an engine: built on first use (or by
// Index at start-up), rebuilt after the engine's companies changed — known
// exactly from index.Generational, else guessed from the company count and
// MaxAge. Builds are single-flight; a bulk match waits for the build.
type Service struct {
	Engine Companies
	MaxAge time.Duration    // DefaultMaxAge when 0
	Now    func() time.Time // time.Now when nil

	mu    sync.Mutex
	idx   *Index
	gen   uint64
	count int
	built time.Time
}

// Index returns a current name index.
func (s *Service) Index(ctx context.Context) (*Index, error) {
	now, maxAge := time.Now, s.MaxAge
	if s.Now != nil {
		now = s.Now
	}
	if maxAge == 0 {
		maxAge = DefaultMaxAge
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if g, ok := s.Engine.(index.Generational); ok {
		gen := g.Generation() // before the scan: a write during it forces the next rebuild
		if s.idx != nil && gen == s.gen {
			return s.idx, nil
		}
		idx, err := s.build(ctx)
		if err != nil {
			return nil, err
		}
		s.idx, s.gen = idx, gen
		return idx, nil
	}
	n, err := s.Engine.CountCompanies(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("name match: count companies: %w", err)
	}
	if s.idx != nil && n == s.count && now().Sub(s.built) < maxAge {
		return s.idx, nil
	}
	idx, err := s.build(ctx)
	if err != nil {
		return nil, err
	}
	s.idx, s.count, s.built = idx, n, now()
	return idx, nil
}

// build builds a name index and hands the build's garbage back to the
// operating system: the scan's keys, the normalization's strings, the
// arrays' growth and the index being replaced are several times the
// index's size, and the collector would otherwise let the heap grow to
// twice the live heap (GOGC=100) before reusing them: at 10M companies
// that was 10.7 GB resident for a 4 GB engine. The forced collection
// costs one mark of the live heap per build.
func (s *Service) build(ctx context.Context) (*Index, error) {
	s.idx = nil // the old index is garbage too once replaced
	idx, err := Build(ctx, s.Engine)
	if err != nil {
		return nil, err
	}
	debug.FreeOSMemory()
	return idx, nil
}

// Match matches every query (in parallel, one worker per CPU) and reports
// progress as the share of queries done, 0-100. Rows that cannot be
// searched carry Err; err is for the whole call (no index, cancelled).
func (s *Service) Match(ctx context.Context, qs []Query, progress func(pct int)) ([]Result, error) {
	idx, err := s.Index(ctx)
	if err != nil {
		return nil, err
	}
	return idx.MatchAll(ctx, qs, progress)
}

// MatchAll matches every query against x in parallel.
func (x *Index) MatchAll(ctx context.Context, qs []Query, progress func(pct int)) ([]Result, error) {
	out := make([]Result, len(qs))
	var next, done atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	last := -1
	for w := 0; w < min(runtime.GOMAXPROCS(0), max(len(qs), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := x.NewMatcher()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(qs) || ctx.Err() != nil {
					return
				}
				out[i] = m.Match(qs[i])
				d := int(done.Add(1))
				if progress != nil && d%256 == 0 {
					mu.Lock()
					if p := d * 100 / len(qs); p > last {
						last = p
						progress(p)
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
