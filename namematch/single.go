package namematch

import (
	"context"
	"errors"
)

// MatchOne matches a single query (GET /v1/match) against a current name
// index: the same matcher and calibration as Match, without Match's worker
// goroutines. err is for the call (no index, cancelled); a query that
// cannot be searched carries Result.Err as in Match.
func (s *Service) MatchOne(ctx context.Context, q Query) (Result, error) {
	idx, err := s.Index(ctx)
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return idx.MatchOne(q), nil
}

// MatchOne matches q with a pooled matcher: a matcher's scratch space is
// five bytes per company (5 MB at 1M), too much to allocate and clear per
// request.
func (x *Index) MatchOne(q Query) Result {
	m, _ := x.matchers.Get().(*Matcher)
	if m == nil {
		m = x.NewMatcher()
	}
	r := m.Match(q)
	// A recovered panic may have left the scratch half cleared: drop it.
	if r.Err == nil || errors.Is(r.Err, ErrNoName) {
		x.matchers.Put(m)
	}
	return r
}
