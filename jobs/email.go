package jobs

import (
	"context"

	"github.com/openprospect/prospectd/email"
)

// RegisterEmail runs email lookup batches (email.Service.RunBatch) as
// tasks of kind email.TaskKind.
func RegisterEmail(r *Runner, svc *email.Service) {
	r.Register(email.TaskKind, func(ctx context.Context, run *Run) (any, error) {
		var in email.TaskInput
		if err := run.Decode(&in); err != nil {
			return nil, err
		}
		return svc.RunBatch(ctx, in, run.Progress)
	})
}
