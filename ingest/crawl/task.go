package crawl

import (
	"context"
	"errors"
	"fmt"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/store"
)

// Kind is the task kind of a crawl.
const Kind = "crawl"

// MaxTaskDomains caps the domains a crawl task names; larger crawls take
// the whole index (All).
const MaxTaskDomains = 100000

// ErrBadInput: a crawl task's input names neither domains nor the index.
var ErrBadInput = errors.New("crawl: bad task input")

// TaskInput is a crawl task's input: the domains to crawl, or every
// indexed company.
type TaskInput struct {
	Domains []string `json:"domains,omitempty"`
	All     bool     `json:"all,omitempty"`
}

// Index is what a crawl task reads its targets from and writes to.
type Index interface {
	Writer
	index.CompanyScanner
}

// Task is the body of crawl tasks (wired by jobs/): Run with the
// operator's options against the index.
type Task struct {
	Options Options
	Index   Index
}

// Run crawls the task's targets and returns the counts as the task's
// result. Running it again crawls again: each record keeps the latest.
func (t *Task) Run(ctx context.Context, _ store.Task, in TaskInput, progress func(pct int)) (Stats, error) {
	switch {
	case in.All == (len(in.Domains) > 0):
		return Stats{}, fmt.Errorf("%w: give domains or all, not both or neither", ErrBadInput)
	case len(in.Domains) > MaxTaskDomains:
		return Stats{}, fmt.Errorf("%w: %d domains, at most %d (crawl the whole index with all)", ErrBadInput, len(in.Domains), MaxTaskDomains)
	}
	targets := in.Domains
	if in.All {
		var err error
		if targets, err = IndexedDomains(ctx, t.Index); err != nil {
			return Stats{}, err
		}
	}
	o := t.Options
	user := o.Progress
	o.Progress = func(s Stats) {
		if s.Targets > 0 {
			progress(min(99, 100*(s.Crawled+s.NotIndexed)/s.Targets))
		}
		if user != nil {
			user(s)
		}
	}
	st, err := Run(ctx, o, targets, t.Index)
	if err == nil {
		progress(100)
	}
	return st, err
}

// IndexedDomains lists the domains of every indexed company.
func IndexedDomains(ctx context.Context, s index.CompanyScanner) ([]string, error) {
	var out []string
	err := s.ScanCompanies(ctx, func(k index.CompanyKey) error {
		out = append(out, k.Domain)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("crawl: list indexed domains: %w", err)
	}
	return out, nil
}
