package embedded

import (
	"container/heap"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/cockroachdb/pebble"

	"github.com/openprospect/prospectd/index"
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
	cand, err := e.eval(s.Filter, e.live)
	if err != nil {
		e.mu.RUnlock()
		return index.Result{}, err
	}
	k := s.Offset + s.Limit
	var top []scored
	var total int
	if s.Vector != nil {
		top, total = e.scanVectors(ctx, cand, s.Vector, float32(s.MinSimilarity), k)
	} else {
		top, total = e.byScore(cand, k)
	}
	type hitRef struct {
		domain string
		sim    float64
		vec    []float32
	}
	var refs []hitRef
	for i := s.Offset; i < len(top); i++ {
		r := hitRef{domain: e.domains[top[i].id], sim: float64(top[i].score)}
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

	res := index.Result{Total: total, Hits: make([]index.Hit, 0, len(refs))}
	for _, r := range refs {
		c, err := e.profile(r.domain)
		if errors.Is(err, index.ErrNotFound) {
			continue // deleted between the scan and now
		}
		if err != nil {
			return index.Result{}, err
		}
		res.Hits = append(res.Hits, index.Hit{Company: c, Similarity: r.sim, Vector: r.vec})
	}
	return res, nil
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
			out := roaring.New()
			for _, v := range n.Values {
				if id, ok := e.ids[v]; ok {
					out.Add(id)
				}
			}
			return roaring.And(out, cand), nil
		}
		post := e.post[keywordSlot[n.Field]]
		lists := make([]*roaring.Bitmap, 0, len(n.Values))
		for _, v := range n.Values {
			if bm := post[v]; bm != nil {
				lists = append(lists, bm)
			}
		}
		return roaring.And(roaring.FastOr(lists...), cand), nil
	case index.Exists:
		bm := e.exists[existsFlags[n.Field]]
		if bm == nil {
			return roaring.New(), nil
		}
		return roaring.And(bm, cand), nil
	case index.Range:
		lo, hi := -1<<31, 1<<31-1
		if n.Min != nil {
			lo = *n.Min
		}
		if n.Max != nil {
			hi = *n.Max
		}
		out := roaring.New()
		it := cand.Iterator()
		for it.HasNext() {
			id := it.Next()
			if s := int(e.scores[id]); s >= lo && s <= hi {
				out.Add(id)
			}
		}
		return out, nil
	case index.DateRange:
		lo, hi := int32(noDate+1), int32(1<<31-1)
		if n.From != "" {
			d, ok := parseDay(n.From)
			if !ok {
				return nil, fmt.Errorf("%w: date %q", index.ErrInvalid, n.From)
			}
			lo = d
		}
		if n.To != "" {
			d, ok := parseDay(n.To)
			if !ok {
				return nil, fmt.Errorf("%w: date %q", index.ErrInvalid, n.To)
			}
			hi = d
		}
		out := roaring.New()
		it := cand.Iterator()
		for it.HasNext() {
			id := it.Next()
			if s := e.starts[id]; s != noDate && s >= lo && s <= hi {
				out.Add(id)
			}
		}
		return out, nil
	case index.Phrase:
		return e.phrase(n.Text, cand)
	case index.And:
		cur := cand
		// Cheap bitmap filters first so phrase checks and scans see fewer
		// candidates.
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
	case index.Or:
		parts := make([]*roaring.Bitmap, 0, len(n))
		for _, c := range n {
			bm, err := e.eval(c, cand)
			if err != nil {
				return nil, err
			}
			parts = append(parts, bm)
		}
		return roaring.FastOr(parts...), nil
	case index.Not:
		bm, err := e.eval(n.Filter, cand)
		if err != nil {
			return nil, err
		}
		return roaring.AndNot(cand, bm), nil
	}
	return nil, fmt.Errorf("%w: filter %T", index.ErrUnsupported, f)
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
	p := foldWords(text)
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
		v, closer, err := e.db.Get([]byte(prefixProfile + e.domains[id]))
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
			return nil, fmt.Errorf("phrase filter: decode %s: %w", e.domains[id], err)
		}
		if containsPhrase(foldWords(doc.Description), p) || containsPhrase(foldWords(doc.SiteText), p) {
			out.Add(id)
		}
	}
	return out, nil
}

type scored struct {
	id    uint32
	score float32
	key   string // tie-breaker: domain
}

// less orders results: higher score first, then domain ascending.
func less(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.key < b.key
}

// topK keeps the best k entries; the root is the worst kept.
type topK struct {
	k     int
	items []scored
}

func (h *topK) Len() int           { return len(h.items) }
func (h *topK) Less(i, j int) bool { return less(h.items[j], h.items[i]) }
func (h *topK) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *topK) Push(x any)         { h.items = append(h.items, x.(scored)) }
func (h *topK) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

func (h *topK) offer(s scored) {
	if h.k <= 0 {
		return
	}
	if len(h.items) < h.k {
		heap.Push(h, s)
		return
	}
	if less(s, h.items[0]) {
		h.items[0] = s
		heap.Fix(h, 0)
	}
}

func (h *topK) sorted() []scored {
	out := append([]scored(nil), h.items...)
	sortScored(out)
	return out
}

func sortScored(s []scored) {
	// Insertion into a heap-ordered slice is already partly sorted; a plain
	// sort keeps this obviously right.
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && less(s[j], s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// byScore ranks candidates by digital-footprint score.
func (e *Engine) byScore(cand *roaring.Bitmap, k int) ([]scored, int) {
	h := &topK{k: k}
	it := cand.Iterator()
	for it.HasNext() {
		id := it.Next()
		s := scored{id: id, score: float32(e.scores[id])}
		if len(h.items) == h.k && h.k > 0 && s.score < h.items[0].score {
			continue
		}
		s.key = e.domains[id]
		h.offer(s)
	}
	return h.sorted(), int(cand.GetCardinality())
}

// scanVectors is an exact cosine scan (vectors are unit length, so cosine is
// the dot product) over the candidates, split across the CPUs.
func (e *Engine) scanVectors(ctx context.Context, cand *roaring.Bitmap, q []float32, min float32, k int) ([]scored, int) {
	ids := cand.ToArray()
	workers := runtime.GOMAXPROCS(0)
	if len(ids) < 4096 {
		workers = 1
	}
	heaps := make([]*topK, workers)
	counts := make([]int, workers)
	var wg sync.WaitGroup
	per := (len(ids) + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := w*per, min2((w+1)*per, len(ids))
		heaps[w] = &topK{k: k}
		wg.Add(1)
		go func(w int, part []uint32) {
			defer wg.Done()
			h := heaps[w]
			for i, id := range part {
				if i&4095 == 0 && ctx.Err() != nil {
					return
				}
				s := dot(q, e.vectorOf(id))
				if s < min {
					continue
				}
				counts[w]++
				if len(h.items) == h.k && h.k > 0 && s < h.items[0].score {
					continue
				}
				h.offer(scored{id: id, score: s, key: e.domains[id]})
			}
		}(w, ids[lo:max2(lo, hi)])
	}
	wg.Wait()
	merged := &topK{k: k}
	total := 0
	for w := range heaps {
		total += counts[w]
		for _, s := range heaps[w].items {
			merged.offer(s)
		}
	}
	return merged.sorted(), total
}

func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

func min2(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func max2(a, b int) int {
	if a > b {
		return a
	}
	return b
}
