package query

import (
	"context"
	"testing"

	"github.com/openprospect/prospectd/internal/demo"
)

// Relevance measures lookalike quality against the demo generator's ground
// truth: for sample companies, the share of their top-k lookalikes (filter
// defaults applied) written from the same industry and the same sub-niche.
func Relevance(ctx context.Context, svc *Companies, gen *demo.Generator, samples, k int) (industry, niche float64, err error) {
	label := map[string]demo.Label{}
	doms := gen.Domains(gen.Len())
	for i, d := range doms {
		label[d] = gen.Label(i)
	}
	step := max(1, len(doms)/samples)
	n := 0
	for i := 0; i < len(doms) && n < samples; i += step {
		d := Discover{Domains: []string{doms[i]}, MaxRecords: k, MinScore: 0, MaxScore: MaxScore, Consensus: 1, Variance: defaultVariance, Redirect: true}
		res, err := svc.Discover(ctx, d)
		if err != nil {
			return 0, 0, err
		}
		if len(res.Matches) == 0 {
			continue
		}
		want := gen.Label(i)
		var ind, nic int
		for _, m := range res.Matches {
			got := label[m.Company.Domain]
			if got.Industry == want.Industry {
				ind++
				if got.Niche == want.Niche {
					nic++
				}
			}
		}
		industry += float64(ind) / float64(len(res.Matches))
		niche += float64(nic) / float64(len(res.Matches))
		n++
	}
	return industry / float64(n), niche / float64(n), nil
}

func TestLookalikeRelevance(t *testing.T) {
	svc, _ := corpus(t)
	ind, nic, err := Relevance(context.Background(), svc, fixture.gen, 100, 20)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("top-20 lookalikes over %d companies: %.1f%% same industry, %.1f%% same sub-niche", corpusSize, 100*ind, 100*nic)
	if ind < 0.80 || nic < 0.50 {
		t.Errorf("relevance below the bar: industry %.3f (>= 0.80), niche %.3f (>= 0.50)", ind, nic)
	}
}
