package evaluate

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sync"
)

// Metrics are the lookalike measures of one ranking of a corpus, each the
// mean over the queries: the companies with at least one other company of
// their label in the corpus. Every other company of the corpus is a
// candidate; a candidate is relevant when it shares the query's label.
type Metrics struct {
	Queries int
	// PrecisionAt10 is the fraction of the 10 best candidates that are
	// relevant.
	PrecisionAt10 float64
	// NDCGAt10 is the discounted cumulative gain of the 10 best candidates
	// (gain 1 for a relevant one, discount log2(rank+1)) over the best
	// possible for the query's number of relevant candidates.
	NDCGAt10 float64
	// RecallAt100 is the fraction of the query's relevant candidates found
	// among the 100 best.
	RecallAt100 float64
}

// add pools m into the running totals of t (sums weighted by queries), so
// the metrics of several corpora combine as if their queries were one set.
func (t Metrics) add(m Metrics) Metrics {
	n := t.Queries + m.Queries
	if n == 0 {
		return t
	}
	w := func(a, b float64) float64 {
		return (a*float64(t.Queries) + b*float64(m.Queries)) / float64(n)
	}
	return Metrics{Queries: n,
		PrecisionAt10: w(t.PrecisionAt10, m.PrecisionAt10),
		NDCGAt10:      w(t.NDCGAt10, m.NDCGAt10),
		RecallAt100:   w(t.RecallAt100, m.RecallAt100)}
}

// Evaluate ranks, for each query, every other company by sim (higher is
// closer; ties broken by index so the result is deterministic) and
// measures the ranking. It returns ErrNoQueries when no company shares its
// label with another.
func Evaluate(labels []string, sim func(i, j int) float64) (Metrics, error) {
	count := map[string]int{}
	for _, l := range labels {
		count[l]++
	}
	var queries []int
	for i, l := range labels {
		if count[l] > 1 {
			queries = append(queries, i)
		}
	}
	if len(queries) == 0 {
		return Metrics{}, ErrNoQueries
	}
	per := make([]Metrics, len(queries))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			nbs := make([]neighbour, 0, len(labels))
			rel := make([]bool, 0, 100)
			for q := range next {
				i := queries[q]
				nbs = rank(nbs, i, len(labels), sim)
				rel = rel[:0]
				for _, nb := range nbs[:min(100, len(nbs))] {
					rel = append(rel, labels[nb.j] == labels[i])
				}
				per[q] = RankMetrics(rel, count[labels[i]]-1)
			}
		}()
	}
	for q := range queries {
		next <- q
	}
	close(next)
	wg.Wait()
	var sum Metrics
	for _, m := range per {
		sum.PrecisionAt10 += m.PrecisionAt10
		sum.NDCGAt10 += m.NDCGAt10
		sum.RecallAt100 += m.RecallAt100
	}
	n := float64(len(queries))
	return Metrics{Queries: len(queries), PrecisionAt10: sum.PrecisionAt10 / n,
		NDCGAt10: sum.NDCGAt10 / n, RecallAt100: sum.RecallAt100 / n}, nil
}

// RankMetrics measures one query's ranking: rel[r] says whether the
// candidate at rank r (0 first) is relevant, relevant is how many relevant
// candidates the corpus holds. Precision@10 divides by 10 even when fewer
// candidates exist, as the usual definition does.
func RankMetrics(rel []bool, relevant int) Metrics {
	m := Metrics{Queries: 1}
	if relevant <= 0 {
		return m
	}
	var hits10, hits100 int
	var dcg, ideal float64
	for r, ok := range rel {
		if r >= 100 {
			break
		}
		if !ok {
			continue
		}
		hits100++
		if r < 10 {
			hits10++
			dcg += 1 / math.Log2(float64(r)+2)
		}
	}
	for r := 0; r < min(10, relevant); r++ {
		ideal += 1 / math.Log2(float64(r)+2)
	}
	m.PrecisionAt10 = float64(hits10) / 10
	m.NDCGAt10 = dcg / ideal
	m.RecallAt100 = float64(hits100) / float64(relevant)
	return m
}

// neighbour is one ranked company: its index and similarity to the query.
type neighbour struct {
	j int
	s float64
}

// rank fills buf with every company but i, most similar first (ties by
// index, so rankings are deterministic), and returns it.
func rank(buf []neighbour, i, n int, sim func(i, j int) float64) []neighbour {
	buf = buf[:0]
	for j := range n {
		if j != i {
			buf = append(buf, neighbour{j, sim(i, j)})
		}
	}
	slices.SortFunc(buf, func(a, b neighbour) int {
		if c := cmp.Compare(b.s, a.s); c != 0 {
			return c
		}
		return cmp.Compare(a.j, b.j)
	})
	return buf
}
