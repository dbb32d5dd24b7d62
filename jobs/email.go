package jobs

import (
	"context"
	"fmt"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/store"
)

// EmailWorkers is how many email batches run at once in a process. Email
// batches get a runner of their own: a batch holds its worker while
// greylisted lookups wait for their recheck (minutes), which must not
// starve the other task kinds.
const EmailWorkers = 4

// EmailState is the part of the state store email lookups use: the task
// queue and ledger of every runner, and the email jobs and caches.
type EmailState interface {
	State
	store.EmailStore
	email.OrgsAndTasks
}

// NewEmail returns the email lookup runner, with email.TaskKind wired to
// the batch body, and the email service that submits to it (the API's,
// the MCP tools' and the CLI's entry point). c.Workers is ignored: the
// runner has EmailWorkers.
func NewEmail(c Config, st EmailState, ec email.Config) (*Runner, *email.Service, error) {
	if c.Plans == nil {
		c.Plans = account.DefaultPlans()
	}
	r := &Runner{Store: st, Workers: EmailWorkers, Lease: c.Lease, Log: c.Log}
	biller := &account.Biller{Store: st, Plans: c.Plans, Now: c.Now}
	companies := &query.Companies{Engine: c.Engine}
	patterns := &query.ContactService{Engine: c.Engine, Companies: companies}
	svc, err := email.NewService(ec, st, st, biller, r, patterns, c.Log)
	if err != nil {
		return nil, nil, fmt.Errorf("email lookups: %w", err)
	}
	RegisterEmail(r, svc)
	return r, svc, nil
}

// RegisterEmail runs email lookup batches (email.Service.RunBatch) as
// tasks of kind email.TaskKind on r; tests wire a service with their own
// finder through it.
func RegisterEmail(r *Runner, svc *email.Service) {
	r.register(email.TaskKind, func(ctx context.Context, run *Run) (any, error) {
		var in email.TaskInput
		if err := run.Decode(&in); err != nil {
			return nil, err
		}
		return svc.RunBatch(ctx, in, run.Progress)
	})
}
