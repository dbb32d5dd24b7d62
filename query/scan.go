package query

import (
	"context"
	"fmt"
	"math"

	"github.com/openprospect/prospectd/index"
)

// Scans page through a request's whole ranking, past the 10,000 records a
// page may reach, for server-side exports. The request is planned once
// (prompt extraction, saved lists, example vectors, consensus), so every
// page ranks by the same query; an export resumed after a restart plans
// again from the same parameters and, on an unchanged index, continues
// the same ranking.

// ScanPage is called with each page of a scan and the offset of its first
// record; returning false stops the scan.
type ScanPage[T any] func(offset int, page []T) (more bool, err error)

// Scan runs d from offset from in pages of page matches (d.Offset and
// d.MaxRecords are ignored) until fn stops it or the ranking ends.
func (s *Companies) Scan(ctx context.Context, d Discover, from, page int, fn ScanPage[Match]) error {
	if page < 1 || from < 0 {
		return fmt.Errorf("discover scan: %w: page %d from %d", index.ErrInvalid, page, from)
	}
	pl, err := s.plan(ctx, &d)
	if err != nil {
		return err
	}
	// Without a vector the ranking is score descending, then domain: a
	// page after the first asks for the companies scoring at most the
	// last one seen, skipping those of that score already read (a keyset
	// cursor), so the engine ranks a short window instead of every
	// company up to the offset. It starts from the first page even when
	// resuming at from, and reads (without hydrating more than a page at
	// a time) up to there.
	keyset := pl.vector == nil
	lastScore, ties := -1, 0
	for off := 0; ; off += page {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !keyset && off < from {
			off = from
		}
		search := index.Search{Filter: pl.filter, Offset: off, Limit: page, MinSimilarity: -2}
		if pl.vector != nil {
			search.Vector = pl.vector
			search.MinSimilarity = pl.minSim
			search.WithVectors = pl.explain.needVectors()
		}
		if keyset && lastScore >= 0 {
			search.Filter = andAlso(pl.filter, index.Or{index.Range{Field: index.ScoreField, Max: index.IntPtr(lastScore)},
				index.Not{Filter: index.Exists{Field: index.ScoreField}}})
			search.Offset = ties
		}
		if keyset && off < from {
			// Resuming: only the cursor is needed up to from.
			search.Limit = min(page, from-off)
		}
		res, err := s.Engine.SearchCompanies(ctx, search)
		if err != nil {
			return fmt.Errorf("discover scan at %d: %w", off, err)
		}
		if keyset {
			for _, h := range res.Hits {
				if h.Company.Score == lastScore {
					ties++
				} else {
					lastScore, ties = h.Company.Score, 1
				}
			}
		}
		if keyset && off < from {
			if len(res.Hits) == 0 || search.Offset+search.Limit >= res.Total {
				return nil
			}
			off -= page - search.Limit // the next page starts right after these
			continue
		}
		ms := make([]Match, 0, len(res.Hits))
		for _, h := range res.Hits {
			m := Match{Company: h.Company}
			if pl.vector != nil {
				m.Similarity = Similarity(h.Similarity)
			}
			if pl.explain != nil {
				m.Reasons = pl.explain.reasons(h.Company, h.Vector)
			}
			ms = append(ms, m)
		}
		// The total, not a short page, ends the ranking: a page is short
		// too when a company was deleted between ranking and reading.
		last := search.Offset+page >= res.Total
		if len(ms) > 0 || last {
			more, err := fn(off, ms)
			if err != nil || !more {
				return err
			}
		}
		if last {
			return nil
		}
	}
}

// Scan runs contact discovery d from offset from in pages of page
// contacts, without the per-company and company caps (d's paging and caps
// are ignored): every matching contact once, in rank order, each page
// grouped by company as a page of discovery is.
func (s *ContactService) Scan(ctx context.Context, d ContactDiscover, from, page int, fn ScanPage[ContactMatch]) error {
	if page < 1 || from < 0 {
		return fmt.Errorf("contact scan: %w: page %d from %d", index.ErrInvalid, page, from)
	}
	pl, err := s.plan(ctx, &d)
	if err != nil {
		return err
	}
	for off := from; ; off += page {
		if err := ctx.Err(); err != nil {
			return err
		}
		res, err := s.Engine.SearchContacts(ctx, index.ContactSearch{Filter: pl.filter, Vector: pl.vector, MinSimilarity: -2,
			Offset: off, Limit: page})
		if err != nil {
			return fmt.Errorf("contact scan at %d: %w", off, err)
		}
		ms := make([]ContactMatch, 0, len(res.Hits))
		for _, h := range res.Hits {
			m := ContactMatch{Contact: h.Contact}
			if pl.vector != nil {
				sim := int(math.Round(Similarity(h.Similarity)))
				m.Similarity = &sim
			}
			ms = append(ms, m)
		}
		last := off+page >= res.Total
		if len(ms) > 0 || last {
			more, err := fn(off, ms)
			if err != nil || !more {
				return err
			}
		}
		if last {
			return nil
		}
	}
}
