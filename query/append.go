package query

import (
	"context"
	"fmt"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/openprospect/prospectd/query/datasets"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
)

// getBatch bounds one engine read of an append.
const getBatch = 1000

// Append resolves the input rows' domains against the index and shapes the
// append table. Cells that are empty or not domains give rows with a null
// domain and no data; they are kept so the output lines up with the file.
func (s *Companies) Append(ctx context.Context, in datasets.Input, sets []datasets.Name) (datasets.Table, error) {
	lines := make([]datasets.Line, len(in.Rows))
	var unique []string
	seen := map[string]bool{}
	for i, row := range in.Rows {
		if in.DomainColumn >= len(row) {
			continue
		}
		d, err := domain.Normalize(row[in.DomainColumn])
		if err != nil {
			continue
		}
		lines[i].Domain = d
		if !seen[d] {
			seen[d] = true
			unique = append(unique, d)
		}
	}
	// Profile reads decode JSON: spread the batches over the cores.
	batches := make([][]record.Company, (len(unique)+getBatch-1)/getBatch)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for b := range batches {
		batch := unique[b*getBatch : min((b+1)*getBatch, len(unique))]
		g.Go(func() error {
			cs, err := s.Engine.GetCompanies(gctx, batch)
			if err != nil {
				return fmt.Errorf("append: get %d companies: %w", len(batch), err)
			}
			batches[b] = cs
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return datasets.Table{}, err
	}
	found := make(map[string]*record.Company, len(unique))
	for _, cs := range batches {
		for k := range cs {
			found[cs[k].Domain] = &cs[k]
		}
	}
	for i := range lines {
		lines[i].Company = found[lines[i].Domain]
	}
	return datasets.Build(in, lines, sets), nil
}
