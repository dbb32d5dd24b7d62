package embedded

import (
	"strconv"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/openprospect/prospectd/index"
)

// Broad requests repeat the same filters: discovery's defaults (active
// status, the footprint floor with unknown scores kept, no redirects, no
// lead-generation sites) hold for nearly every company, and at 10M
// companies evaluating them took ~25 ms of a broad lookalike's ~37 ms of
// CPU (roaring And/AndNot over bitmaps of 10M; docs/benchmarks.md "Ten
// million companies: the merged build"). evalAll keeps what such a group
// evaluates to over every live company with the range bitmaps, until the
// next write, so a request pays one intersection with it.

// cacheKey writes a canonical form of f to b and reports whether f may be
// kept: its answer over every live company depends only on the index.
// Phrases read documents (evaluated after the bitmaps, on fewer
// candidates) and ad hoc domain lists differ per request (example domains,
// exclusions), so neither is kept; a keyed domain list is (domainSet).
func cacheKey(b *strings.Builder, f index.Filter) bool {
	switch n := f.(type) {
	case index.Terms:
		if n.Field == index.DomainField && n.Key == "" {
			return false
		}
		b.WriteString("t(")
		b.WriteString(string(n.Field))
		if n.Key != "" {
			b.WriteString("|k")
			b.WriteString(strconv.Quote(n.Key))
		} else {
			for _, v := range n.Values {
				b.WriteByte('|')
				b.WriteString(strconv.Quote(v))
			}
		}
	case index.Range:
		b.WriteString("r(")
		b.WriteString(string(n.Field))
		for _, p := range []*int{n.Min, n.Max} {
			b.WriteByte('|')
			if p != nil {
				b.WriteString(strconv.Itoa(*p))
			}
		}
	case index.DateRange:
		b.WriteString("d(")
		b.WriteString(string(n.Field) + "|" + strconv.Quote(n.From) + "|" + strconv.Quote(n.To))
	case index.Exists:
		b.WriteString("e(")
		b.WriteString(string(n.Field))
	case index.And, index.Or:
		kids := []index.Filter(nil)
		if a, ok := n.(index.And); ok {
			b.WriteString("a(")
			kids = a
		} else {
			b.WriteString("o(")
			kids = n.(index.Or)
		}
		for _, c := range kids {
			if !cacheKey(b, c) {
				return false
			}
		}
	case index.Not:
		b.WriteString("n(")
		if !cacheKey(b, n.Filter) {
			return false
		}
	default:
		return false
	}
	b.WriteByte(')')
	return true
}

// evalAll evaluates an And over every live company: the children that can
// be kept are answered as one group from the cache (computed on a miss),
// the others over what the group leaves.
func (e *Engine) evalAll(n index.And) (*roaring.Bitmap, error) {
	var group, rest index.And
	var b strings.Builder
	b.WriteString("f:")
	for _, c := range n {
		mark := b.Len()
		if cacheKey(&b, c) {
			group = append(group, c)
			continue
		}
		// Drop the partial key of a child that cannot be kept.
		s := b.String()[:mark]
		b.Reset()
		b.WriteString(s)
		rest = append(rest, c)
	}
	if len(group) < 2 && !composite(group) {
		return e.evalAnd(n, e.live) // one plain term: nothing to save
	}
	key := b.String()
	cur, ok := e.cached(key)
	if !ok {
		bm, err := e.evalAnd(group, e.live)
		if err != nil {
			return nil, err
		}
		// A copy: the group's answer may alias a posting list, which the
		// next write changes in place after the cache is cleared but
		// while a search may still hold it.
		cur = bm.Clone()
		cur.RunOptimize()
		e.keep(key, cur)
	}
	if len(rest) == 0 {
		return cur, nil
	}
	return e.evalAnd(rest, cur)
}

// composite reports whether the only child of g is an And, Or or Not (worth
// keeping alone: it combines bitmaps).
func composite(g index.And) bool {
	if len(g) != 1 {
		return false
	}
	switch g[0].(type) {
	case index.And, index.Or, index.Not:
		return true
	}
	return false
}
