package research

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/store"
)

// Charges returns what a research task of kind in context mode bills per
// record key, or nil when it bills no credits: the spec charges records
// (companies, or contacts for personas) except in the `domain` and
// `name_only` modes, which incur model fees only, and contact generation
// bills no credits at all. The REST handlers and the MCP tools both ask
// here.
func Charges(kind, mode string) func(keys []string) []store.Charge {
	switch {
	case kind == KindContacts, mode == ModeDomain, mode == ModeNameOnly:
		return nil
	case kind == KindPersonas:
		return func(keys []string) []store.Charge {
			out := make([]store.Charge, len(keys))
			for i, k := range keys {
				out[i] = store.Charge{Kind: store.KindContact, Key: k}
			}
			return out
		}
	}
	return account.Companies
}

// PreviousByDomain keys earlier findings (previous_discogen_data of
// /gen/process) by root domain, as the records are keyed; a key that is
// not a domain is an error naming it.
func PreviousByDomain(prev map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	out := make(map[string]json.RawMessage, len(prev))
	for k, v := range prev {
		d, err := domain.Normalize(k)
		if err != nil {
			return nil, fmt.Errorf("key %q is not a domain", k)
		}
		out[d] = v
	}
	return out, nil
}

// Queue queues tasks (a *jobs.Runner in production).
type Queue interface {
	Submit(ctx context.Context, orgID, kind string, input any) (store.Task, error)
}

// Submitted is a queued research task and what it cost.
type Submitted struct {
	// Task is the task as queued; Input its prepared input, with Keys cut
	// to the records the credits cover and Warnings saying so.
	Task  store.Task
	Input Task
	// Billed are the credits debited, Used the credits used this period,
	// Left the credits left (all 0 when the task bills no records).
	Billed, Used, Left int
}

// Submit bills a prepared task's records with charge (nil: the task
// incurs model fees only, no credits), drops the records the credits do
// not cover (a warning says how many) and queues the task. It returns
// account.ErrNoCredits, with Used set, when the credits cover none of the
// records. The REST handlers and the MCP tools both submit through here.
func Submit(ctx context.Context, b *account.Biller, q Queue, org store.Org, endpoint string, task Task, charge func(keys []string) []store.Charge) (Submitted, error) {
	var out Submitted
	if charge != nil {
		r, err := account.BillRecords(ctx, b, org, endpoint, task.Keys, func(k string) []store.Charge { return charge([]string{k}) })
		out.Billed, out.Used, out.Left = r.Billed, r.Used, r.Left
		if err != nil {
			return out, err
		}
		if r.Withheld > 0 {
			task.Warnings = append(task.Warnings, fmt.Sprintf("%d records were left out: no credits left this period", r.Withheld))
		}
		task.Keys = r.Records
	}
	t, err := q.Submit(ctx, org.ID, task.Kind, task)
	if err != nil {
		return out, fmt.Errorf("submit %s: %w", endpoint, err)
	}
	out.Task, out.Input = t, task
	return out, nil
}
