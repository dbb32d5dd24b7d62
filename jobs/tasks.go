package jobs

import (
	"context"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/export"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/refit"
	"github.com/openprospect/prospectd/ingest/crawl"
	"github.com/openprospect/prospectd/ingest/refresh"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

// Func is a task body as its capability's package writes it, without
// importing jobs: it gets the task (its organization, id and attempt),
// the task's input decoded from JSON and a progress reporter (0-100, never
// blocks), and returns the result kept as the task's JSON result. Its
// context is cancelled when the task is being cancelled, when the worker
// lost its lease or when the runner stops; it must be safe to run again
// from the start (see the package comment).
type Func[In, Out any] func(ctx context.Context, t store.Task, in In, progress func(pct int)) (Out, error)

// handle registers fn as the body of kind.
func handle[In, Out any](r *Runner, kind string, fn Func[In, Out]) {
	r.register(kind, func(ctx context.Context, run *Run) (any, error) {
		var in In
		if err := run.Decode(&in); err != nil {
			return nil, err
		}
		return fn(ctx, run.Task, in, run.Progress)
	})
}

// State is the part of the state store the runner and the task bodies
// use: the task queue, the organizations that tasks bill, and the ledger.
type State interface {
	Queue
	store.Orgs
	store.Ledger
}

// Config is what the runner and the task bodies run against; cmd/ fills it
// from its flags, tests from their fixtures.
type Config struct {
	State  State
	Engine index.Reader
	// Names is the company name index, shared with whoever warms it at
	// start-up; New makes one when nil.
	Names *namematch.Service
	// Plans defaults to account.DefaultPlans; Now to time.Now.
	Plans account.Plans
	Now   func() time.Time
	Log   zerolog.Logger
	// Research runs the research task kinds (gen, personas, ICP
	// validation, contact generation); they are not wired when nil.
	Research *research.Pipeline
	// Exports keeps export files; exports are not wired when nil.
	// ExportPageSize is the records an export reads, bills and writes
	// between checkpoints (export.DefaultPageSize when 0).
	// ExportCheckpointEvery spaces an export's checkpoints
	// (export.DefaultCheckpointEvery when 0; negative: after every page).
	Exports               *export.Files
	ExportPageSize        int
	ExportCheckpointEvery time.Duration
	// Saved resolves saved-query ids in export tasks; every id is unknown
	// when nil.
	Saved *saved.Service
	// Refresh runs the scheduled refresh task kind; not wired when nil.
	Refresh *refresh.Service
	// Crawl runs the crawl task kind (the website crawler against the
	// index); not wired when nil.
	Crawl *crawl.Task
	// CRM runs the CRM suppression snapshots; not wired when nil.
	CRM *crm.Service
	// Refit runs the refit task kind (index/refit); not wired when nil.
	Refit *refit.Service
	// Prospecting runs managed prospecting runs; not wired when nil.
	// New sets its Tasks to the runner it returns (runs queue their own
	// steps).
	Prospecting *prospecting.Service
	// Workers, Lease: see Runner.
	Workers int
	Lease   time.Duration
}

// New returns a runner with every task kind wired to its body. A new kind
// is a Func in its capability's package and one line below.
func New(c Config) *Runner {
	if c.Plans == nil {
		c.Plans = account.DefaultPlans()
	}
	if c.Names == nil {
		c.Names = &namematch.Service{Engine: c.Engine, Now: c.Now}
	}
	r := &Runner{Store: c.State, Workers: c.Workers, Lease: c.Lease, Log: c.Log}
	biller := &account.Biller{Store: c.State, Plans: c.Plans, Now: c.Now}
	companies := &query.Companies{Engine: c.Engine}
	contacts := &query.ContactService{Engine: c.Engine, Companies: companies}

	handle(r, query.KindSegment, (&query.SegmentTask{Companies: companies, Orgs: c.State, Biller: biller}).Run)
	handle(r, namematch.KindBulkMatch, (&namematch.BulkMatchTask{Names: c.Names, Profiles: c.Engine, Orgs: c.State, Biller: biller, Log: c.Log}).Run)
	handle(r, query.KindContactMatch, (&query.ContactMatchTask{Contacts: contacts, Orgs: c.State, Biller: biller}).Run)
	if c.Research != nil {
		RegisterResearch(r, c.Research)
	}
	if c.Exports != nil {
		every := c.ExportCheckpointEvery
		if every == 0 {
			every = export.DefaultCheckpointEvery
		}
		handle(r, export.Kind, (&export.Task{Files: c.Exports, SavedFor: export.Searches(c.Engine, c.Saved), Orgs: c.State, Biller: biller,
			PageSize: c.ExportPageSize, CheckpointEvery: every, Log: c.Log}).Run)
	}
	if c.Refresh != nil {
		handle(r, refresh.KindRefresh, c.Refresh.Run)
	}
	if c.Crawl != nil {
		handle(r, crawl.Kind, c.Crawl.Run)
	}
	if c.CRM != nil {
		handle(r, crm.KindSnapshot, (&crm.Snapshotter{Service: c.CRM, Contacts: c.Engine}).Run)
	}
	if c.Refit != nil {
		handle(r, refit.Kind, c.Refit.Task)
	}
	if c.Prospecting != nil {
		handle(r, prospecting.TaskKind, c.Prospecting.Run)
		c.Prospecting.Tasks = r
	}
	return r
}
