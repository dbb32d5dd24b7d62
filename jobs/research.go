package jobs

import (
	"context"

	"github.com/openprospect/prospectd/research"
)

// RegisterResearch runs the research task kinds (gen, personas, ICP
// validation, contact generation) with p.
func RegisterResearch(r *Runner, p *research.Pipeline) {
	for _, kind := range research.Kinds {
		r.register(kind, func(ctx context.Context, run *Run) (any, error) {
			return p.Run(ctx, run.Task.ID, run.Task.OrgID, run.Task.Input, run.Progress)
		})
	}
}
