package embedded

import (
	"context"
	"time"
)

// Per-phase timing of a company search, for benchmarks: a search whose
// context carries a *searchPhases (withPhases) adds the time of each phase
// it runs to it; without one the marks cost a context lookup. The phases
// are the engine's own path, not a copy of it (BenchmarkSearchPhases).
const (
	phaseEval    = iota // the filter's candidate bitmap
	phasePlan           // choosing the plan, listing the candidates
	phaseLists          // ANN: ranking the lists for the query
	phaseGather         // ANN: walking the lists, intersecting the filter
	phaseRank           // the int8 ranking (exact scan, screen, or the gathered set)
	phaseCount          // the Total estimate under a similarity floor
	phaseFull           // the full-precision pass over the best rescoreK(k)
	phaseHydrate        // reading and decoding the hits' profiles
	numPhases
)

var phaseNames = [numPhases]string{"eval", "plan", "lists", "gather", "rank", "count", "full", "hydrate"}

type searchPhases struct {
	d    [numPhases]time.Duration
	last time.Time
	plan int // the plan scanVectors took
}

type phasesKey struct{}

// withPhases returns a context whose searches record their phases in p.
func withPhases(ctx context.Context, p *searchPhases) context.Context {
	p.last = time.Now()
	return context.WithValue(ctx, phasesKey{}, p)
}

func phasesOf(ctx context.Context) *searchPhases {
	p, _ := ctx.Value(phasesKey{}).(*searchPhases)
	return p
}

// mark ends phase ph now: the time since the previous mark is its.
func (p *searchPhases) mark(ph int) {
	if p == nil {
		return
	}
	now := time.Now()
	p.d[ph] += now.Sub(p.last)
	p.last = now
}
