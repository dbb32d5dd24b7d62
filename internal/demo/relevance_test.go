package demo

import (
	"os"
	"sort"
	"strconv"
	"testing"

	"github.com/openprospect/prospectd/index/embedding"
)

// TestLookalikeRelevance fits the built-in embedder (TF-IDF + SVD) on the
// corpus and checks that a company's nearest neighbours by cosine share
// its industry (>= 80% of the top 20) and its niche (>= 50%), the bar the
// lookalike search is held to. DEMO_RELEVANCE_N sets the corpus size
// (default 4000; queries are spread over the corpus).
func TestLookalikeRelevance(t *testing.T) {
	n := 4000
	if v, err := strconv.Atoi(os.Getenv("DEMO_RELEVANCE_N")); err == nil && v > 100 {
		n = v
	}
	g := New(Options{Companies: n, Seed: 1})
	docs := make([]embedding.Doc, n)
	for i := range docs {
		docs[i] = embedding.DocOf(g.Company(i))
	}
	m, err := embedding.Fit(docs[:min(n, 20000)], embedding.Options{})
	if err != nil {
		t.Fatal(err)
	}
	vecs := make([][]float32, n)
	for i := range docs {
		vecs[i] = m.Embed(docs[i])
	}
	const queries, k = 200, 20
	var sameInd, sameNiche, total float64
	type nb struct {
		i int
		s float32
	}
	nbs := make([]nb, 0, n)
	for q := 0; q < queries; q++ {
		qi := q * (n / queries)
		nbs = nbs[:0]
		for j, v := range vecs {
			if j == qi {
				continue
			}
			var s float32
			for d := range v {
				s += vecs[qi][d] * v[d]
			}
			nbs = append(nbs, nb{j, s})
		}
		sort.Slice(nbs, func(a, b int) bool { return nbs[a].s > nbs[b].s })
		lq := g.Label(qi)
		for _, x := range nbs[:k] {
			l := g.Label(x.i)
			if l.Industry == lq.Industry {
				sameInd++
				if l.Niche == lq.Niche {
					sameNiche++
				}
			}
			total++
		}
	}
	t.Logf("%d companies, %d queries: top-%d lookalikes share the industry %.1f%%, the niche %.1f%%",
		n, queries, k, 100*sameInd/total, 100*sameNiche/total)
	if sameInd/total < 0.8 || sameNiche/total < 0.5 {
		t.Errorf("lookalikes share industry %.2f (want >= 0.8), niche %.2f (want >= 0.5)", sameInd/total, sameNiche/total)
	}
}
