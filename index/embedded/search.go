package embedded

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/cockroachdb/pebble"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/textfold"
)

// CountCompanies implements index.Engine.
func (e *Engine) CountCompanies(ctx context.Context, f index.Filter) (int, error) {
	if err := index.Validate(f); err != nil {
		return 0, err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	bm, err := e.eval(f, e.live)
	if err != nil {
		return 0, err
	}
	return int(bm.GetCardinality()), nil
}

// SearchCompanies implements index.Engine.
func (e *Engine) SearchCompanies(ctx context.Context, s index.Search) (index.Result, error) {
	if err := index.Validate(s.Filter); err != nil {
		return index.Result{}, err
	}
	if s.Offset < 0 || s.Limit < 0 {
		return index.Result{}, fmt.Errorf("%w: negative offset or limit", index.ErrInvalid)
	}
	e.mu.RLock()
	if s.Vector != nil && len(s.Vector) != e.dim {
		e.mu.RUnlock()
		return index.Result{}, fmt.Errorf("search: %w: query has %d dimensions, index has %d", index.ErrVectorMismatch, len(s.Vector), e.dim)
	}
	ph := phasesOf(ctx)
	cand, kept, err := e.evalTop(s.Filter)
	if err != nil {
		e.mu.RUnlock()
		return index.Result{}, err
	}
	ph.mark(phaseEval)
	k := s.Offset + s.Limit
	var top []scored
	var total int
	if s.Vector != nil {
		top, total = e.scanKept(ctx, cand, kept, s.Vector, float32(s.MinSimilarity), k)
		if top, err = e.rescoreFull(ctx, top, s.Vector, float32(s.MinSimilarity), k); err != nil {
			e.mu.RUnlock()
			return index.Result{}, err
		}
		ph.mark(phaseFull)
	} else {
		top, total = e.byScore(cand, k)
	}
	refs := make([]hitRef, 0, max(0, len(top)-s.Offset))
	for i := s.Offset; i < len(top); i++ {
		r := hitRef{domain: strings.Clone(e.domains.get(top[i].id)), sim: float64(top[i].score)}
		if s.Vector == nil {
			r.sim = 0
		}
		if s.WithVectors {
			r.vec = append([]float32(nil), e.vectorOf(top[i].id)...)
		}
		refs = append(refs, r)
	}
	e.mu.RUnlock()
	if err := ctx.Err(); err != nil {
		return index.Result{}, err
	}
	hits, err := e.hydrate(refs)
	if err != nil {
		return index.Result{}, err
	}
	ph.mark(phaseHydrate)
	return index.Result{Total: total, Hits: hits}, nil
}

type hitRef struct {
	domain string
	sim    float64
	vec    []float32
}

// hydrateReads is how many profiles hydrate reads at once (a variable
// for the benchmarks' A/B). The reads wait on the disk more than they use
// a processor (at 10M companies the 24 GB store is mostly not in the page
// cache, and a read that misses it is a system call that frees its
// processor), so more of them than GOMAXPROCS run: docs/benchmarks.md,
// "10M search phases".
var hydrateReads = 16

// hydrate reads and decodes the profiles of refs, in parallel, keeping the
// order and skipping the ones deleted since the scan.
func (e *Engine) hydrate(refs []hitRef) ([]index.Hit, error) {
	hits := make([]index.Hit, len(refs))
	found := make([]bool, len(refs))
	errs := make([]error, len(refs))
	readEach(len(refs), 4, func(i int) bool {
		c, err := e.profile(refs[i].domain)
		if errors.Is(err, index.ErrNotFound) {
			return true // deleted between the scan and now
		}
		if err != nil {
			errs[i] = err
			return false
		}
		hits[i] = index.Hit{Company: c, Similarity: refs[i].sim, Vector: refs[i].vec}
		found[i] = true
		return true
	})
	out := hits[:0]
	for i := range hits {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if found[i] {
			out = append(out, hits[i])
		}
	}
	return out, nil
}

// readEach runs read(i) for every i in [0, n) in min(hydrateReads, n/per
// rounded up) goroutines: store reads that miss the page cache wait on the
// disk, so more of them than GOMAXPROCS overlap. A read returning false
// stops its goroutine.
func readEach(n, per int, read func(i int) bool) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(hydrateReads, (n+per-1)/per) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || !read(i) {
					return
				}
			}
		}()
	}
	wg.Wait()
}

// eval returns the live documents within cand that match f. A nil filter
// matches cand. The result may alias cand or a posting list: callers must
// not modify it.
func (e *Engine) eval(f index.Filter, cand *roaring.Bitmap) (*roaring.Bitmap, error) {
	switch n := f.(type) {
	case nil:
		return cand, nil
	case index.Terms:
		if n.Field == index.DomainField {
			if n.Key != "" {
				return roaring.And(e.domainSet(n), cand), nil
			}
			return roaring.And(e.domainIDs(n.Values), cand), nil
		}
		post := &e.post[keywordSlot[n.Field]]
		lists := make([]*roaring.Bitmap, 0, len(n.Values))
		for _, v := range n.Values {
			if bm := post.get(v, e.domains); bm != nil {
				lists = append(lists, bm)
			}
		}
		if len(lists) == 1 {
			return e.within(lists[0], cand), nil
		}
		return e.within(roaring.FastOr(lists...), cand), nil
	case index.Exists:
		if n.Field == index.ScoreField {
			// Scores run 1-800; 0 is unknown. Computed like a range, so no
			// flag is stored for it.
			return e.numeric("s-known", cand, func(id uint32) bool { return e.scores[id] > 0 }), nil
		}
		bm := e.exists[existsFlags[n.Field]]
		if bm == nil {
			return roaring.New(), nil
		}
		return e.within(bm, cand), nil
	case index.Range:
		lo, hi := -1<<31, 1<<31-1
		if n.Min != nil {
			lo = *n.Min
		}
		if n.Max != nil {
			hi = *n.Max
		}
		return e.numeric(fmt.Sprintf("s%d:%d", lo, hi), cand, func(id uint32) bool {
			s := int(e.scores[id])
			return s >= lo && s <= hi
		}), nil
	case index.DateRange:
		lo, hi, err := dayBounds(n)
		if err != nil {
			return nil, err
		}
		return e.numeric(fmt.Sprintf("d%d:%d", lo, hi), cand, func(id uint32) bool {
			s := e.starts[id]
			return s != noDate && s >= lo && s <= hi
		}), nil
	case index.Phrase:
		return e.phrase(n.Text, cand)
	case index.And:
		if cand == e.live {
			bm, _, err := e.evalAll(n) // filtercache.go
			return bm, err
		}
		return e.evalAnd(n, cand)
	case index.Or:
		return evalOr(n, cand, e.eval)
	case index.Not:
		return evalNot(n, cand, e.eval)
	}
	return nil, fmt.Errorf("%w: filter %T", index.ErrUnsupported, f)
}

// evalTop is eval over every live company, with the kept set the answer
// lies within when there is one (nil otherwise): an object that stays the
// same until the next write, which the screen may keep a copy of the
// sketches of (filtercache.go). An And's is its group from the filter
// cache, a single keyword's its posting list.
func (e *Engine) evalTop(f index.Filter) (cand, kept *roaring.Bitmap, err error) {
	switch n := f.(type) {
	case index.And:
		return e.evalAll(n)
	case index.Terms:
		if singleKeyword(n) {
			cand, err = e.eval(f, e.live)
			return cand, cand, err
		}
	}
	cand, err = e.eval(f, e.live)
	return cand, nil, err
}

// singleKeyword reports whether f is one value of a keyword field, whose
// answer over every live company is its posting list itself (within).
func singleKeyword(f index.Filter) bool {
	t, ok := f.(index.Terms)
	return ok && t.Field != index.DomainField && len(t.Values) == 1
}

// evalAnd evaluates the children of n in turn, each over what the ones
// before it left: cheap bitmap filters first so phrase checks and scans see
// fewer candidates.
func (e *Engine) evalAnd(n index.And, cand *roaring.Bitmap) (*roaring.Bitmap, error) {
	cur := cand
	for pass := 0; pass < 2; pass++ {
		for _, c := range n {
			if costly(c) != (pass == 1) {
				continue
			}
			next, err := e.eval(c, cur)
			if err != nil {
				return nil, err
			}
			cur = next
		}
	}
	return cur, nil
}

// within is bm's documents within cand. Posting lists and flag bitmaps
// hold live documents only (unindex takes a document out of them when it
// is deleted or rewritten), so within every live document (a filter's
// first term) they are their own answer, without an intersection that
// costs milliseconds at 10M companies (docs/benchmarks.md, "10M search
// phases"). The result may alias bm.
func (e *Engine) within(bm, cand *roaring.Bitmap) *roaring.Bitmap {
	if cand == e.live {
		return bm
	}
	return roaring.And(bm, cand)
}

// domainIDs is the bitmap of the indexed companies among domains.
func (e *Engine) domainIDs(domains []string) *roaring.Bitmap {
	ids := make([]uint32, 0, len(domains))
	for _, v := range domains {
		if id, ok := e.domains.lookup(v); ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	out := roaring.New()
	out.AddMany(ids)
	return out
}

// domainSet is domainIDs of a keyed list, computed once per key and kept
// with the range bitmaps until the next write: a 250,000-domain exclusion
// list then costs an intersection per request, not 250,000 lookups.
func (e *Engine) domainSet(n index.Terms) *roaring.Bitmap {
	key := "domains:" + n.Key
	if bm, ok := e.cached(key); ok {
		return bm
	}
	bm := e.domainIDs(n.Values)
	bm.RunOptimize()
	e.keep(key, bm)
	return bm
}

// cached is the bitmap kept under key since the last write.
func (e *Engine) cached(key string) (*roaring.Bitmap, bool) {
	e.rangeMu.Lock()
	defer e.rangeMu.Unlock()
	bm, ok := e.rangeCache[key]
	return bm, ok
}

// keep keeps bm under key until the next write clears the cache; a full
// cache (64 entries) is emptied first.
func (e *Engine) keep(key string, bm *roaring.Bitmap) {
	e.rangeMu.Lock()
	defer e.rangeMu.Unlock()
	if e.rangeCache == nil || len(e.rangeCache) >= 64 {
		e.rangeCache = map[string]*roaring.Bitmap{}
	}
	e.rangeCache[key] = bm
}

// numericCacheMin is the candidate count above which a range filter is
// answered from a cached bitmap over the whole index rather than by
// checking each candidate: the default discovery filters (score 50-800)
// would otherwise cost a pass over every company on every query.
var numericCacheMin uint64 = 50_000

// numeric evaluates a score or date range over cand. Large candidate sets
// intersect a bitmap of the range over all live documents, computed once
// per range and kept until the next write.
func (e *Engine) numeric(key string, cand *roaring.Bitmap, match func(id uint32) bool) *roaring.Bitmap {
	if cand.GetCardinality() < numericCacheMin {
		return filterIDs(cand, match)
	}
	full, ok := e.cached(key)
	if !ok {
		full = filterIDs(e.live, match)
		full.RunOptimize()
		e.keep(key, full)
	}
	return roaring.And(full, cand)
}

// filterIDs returns the ids of cand that match, built in batches.
func filterIDs(cand *roaring.Bitmap, match func(id uint32) bool) *roaring.Bitmap {
	out := roaring.New()
	buf := make([]uint32, 0, 4096)
	it := cand.ManyIterator()
	ids := make([]uint32, 4096)
	for n := it.NextMany(ids); n > 0; n = it.NextMany(ids) {
		buf = buf[:0]
		for _, id := range ids[:n] {
			if match(id) {
				buf = append(buf, id)
			}
		}
		out.AddMany(buf)
	}
	return out
}

// costly reports whether evaluating f reads documents rather than bitmaps.
func costly(f index.Filter) bool {
	switch n := f.(type) {
	case index.Phrase:
		return true
	case index.And:
		for _, c := range n {
			if costly(c) {
				return true
			}
		}
	case index.Or:
		for _, c := range n {
			if costly(c) {
				return true
			}
		}
	case index.Not:
		return costly(n.Filter)
	}
	return false
}

// phrase checks the description and site text of each candidate. It reads
// the stored profiles, so And evaluates it last, on the fewest candidates.
func (e *Engine) phrase(text string, cand *roaring.Bitmap) (*roaring.Bitmap, error) {
	p := textfold.Words(text)
	out := roaring.New()
	if p == "" {
		return out, nil
	}
	var doc struct {
		Description string `json:"description"`
		SiteText    string `json:"site_text"`
	}
	it := cand.Iterator()
	for it.HasNext() {
		id := it.Next()
		v, closer, err := e.db.Get([]byte(prefixProfile + e.domains.get(id)))
		if errors.Is(err, pebble.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("phrase filter: %w", err)
		}
		doc.Description, doc.SiteText = "", ""
		err = json.Unmarshal(v, &doc)
		closer.Close()
		if err != nil {
			return nil, fmt.Errorf("phrase filter: decode %s: %w", e.domains.get(id), err)
		}
		if textfold.ContainsPhrase(textfold.Words(doc.Description), p) || textfold.ContainsPhrase(textfold.Words(doc.SiteText), p) {
			out.Add(id)
		}
	}
	return out, nil
}

// evalOr and evalNot are the combinators both indexes (companies and
// contacts) share; eval evaluates a child.
func evalOr(n index.Or, cand *roaring.Bitmap, eval func(index.Filter, *roaring.Bitmap) (*roaring.Bitmap, error)) (*roaring.Bitmap, error) {
	parts := make([]*roaring.Bitmap, 0, len(n))
	for _, c := range n {
		bm, err := eval(c, cand)
		if err != nil {
			return nil, err
		}
		parts = append(parts, bm)
	}
	return roaring.FastOr(parts...), nil
}

func evalNot(n index.Not, cand *roaring.Bitmap, eval func(index.Filter, *roaring.Bitmap) (*roaring.Bitmap, error)) (*roaring.Bitmap, error) {
	bm, err := eval(n.Filter, cand)
	if err != nil {
		return nil, err
	}
	return roaring.AndNot(cand, bm), nil
}

// dayBounds converts a DateRange to inclusive day numbers; an empty bound
// is open (dates unknown, noDate, never match).
func dayBounds(n index.DateRange) (lo, hi int32, err error) {
	lo, hi = int32(noDate+1), int32(1<<31-1)
	if n.From != "" {
		d, ok := parseDay(n.From)
		if !ok {
			return 0, 0, fmt.Errorf("%w: date %q", index.ErrInvalid, n.From)
		}
		lo = d
	}
	if n.To != "" {
		d, ok := parseDay(n.To)
		if !ok {
			return 0, 0, fmt.Errorf("%w: date %q", index.ErrInvalid, n.To)
		}
		hi = d
	}
	return lo, hi, nil
}
