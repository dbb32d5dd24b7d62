package refresh

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/store"
)

// KindRefresh is the task kind of a refresh run.
const KindRefresh = "refresh"

// Triggers of a run.
const (
	TriggerSchedule = "schedule"
	TriggerManual   = "manual"
)

// Input is a refresh task's input.
type Input struct {
	Source  string `json:"source"`
	Trigger string `json:"trigger"`
}

// RunCounts are what a run did.
type RunCounts struct {
	// Read counts the rows read, Changed the companies written (new or
	// different), Unchanged those skipped as equal to the index's,
	// Closed those marked closed for missing from a snapshot, Rejected the
	// rows refused, Dropped the invalid optional fields left out of kept
	// records.
	Read      int `json:"read"`
	Changed   int `json:"changed"`
	Unchanged int `json:"unchanged"`
	Closed    int `json:"closed"`
	Rejected  int `json:"rejected"`
	Dropped   int `json:"dropped"`
	// NotModified reports a source found unchanged (HTTP 304, the same
	// files): nothing was read.
	NotModified bool `json:"not_modified"`
	// Files names the parts read.
	Files []string `json:"files,omitempty"`
}

// Reject is one refused row or dropped field of a run.
type Reject struct {
	File   string `json:"file"`
	Row    int    `json:"row"`
	Domain string `json:"domain"`
	Reason string `json:"reason"`
}

// MaxRejects is how many rejects a run keeps for the API; the counts
// cover them all.
const MaxRejects = 1000

// ClosedConfidence is the confidence of a closed status set for a
// company missing from a snapshot: strong evidence, not a registry's
// dissolution record.
const ClosedConfidence = 0.8

// Engine is what a refresh writes and reads: a company load's target, the
// stored records to compare with, and the scan that finds companies
// missing from a snapshot.
type Engine interface {
	ingest.Target
	index.CompanyReader
	index.CompanyScanner
	index.Refresher
}

// State is the part of the state store a refresh uses.
type State interface {
	store.Refreshes
	store.Orgs
	CreateTask(ctx context.Context, orgID, kind string, input []byte) (store.Task, error)
	GetTask(ctx context.Context, orgID, id string) (store.Task, error)
}

// Service runs and reports refreshes.
type Service struct {
	Config Config
	Kinds  Kinds
	State  State
	Engine Engine
	Env    Env
	Log    zerolog.Logger
	// LeaseTTL is how long a source's lease lasts unrenewed (default one
	// minute); Wait how often a run waiting for a source's lease asks
	// again (default two seconds).
	LeaseTTL, Wait time.Duration
	// Workers and BatchSize are the loader's (0: its defaults).
	Workers, BatchSize int
}

// Errors callers branch on.
var (
	ErrUnknownSource = errors.New("no such refresh source")
	ErrLeaseLost     = errors.New("refresh lease lost")
)

// SystemOrg is the organization refresh tasks belong to: they are the
// service's own work, not a customer's.
const SystemOrg = "system:refresh"

func (s *Service) ttl() time.Duration {
	if s.LeaseTTL > 0 {
		return s.LeaseTTL
	}
	return time.Minute
}

func (s *Service) wait() time.Duration {
	if s.Wait > 0 {
		return s.Wait
	}
	return 2 * time.Second
}

// systemOrg returns the id of SystemOrg, creating it on first use.
func (s *Service) systemOrg(ctx context.Context) (string, error) {
	o, err := s.State.OrgByName(ctx, SystemOrg)
	if errors.Is(err, store.ErrNotFound) {
		o, err = s.State.CreateOrg(ctx, SystemOrg, store.PlanNone)
		if errors.Is(err, store.ErrConflict) { // another process made it
			o, err = s.State.OrgByName(ctx, SystemOrg)
		}
	}
	if err != nil {
		return "", fmt.Errorf("refresh organization: %w", err)
	}
	return o.ID, nil
}

// Submit queues a run of the named source and returns its run record.
func (s *Service) Submit(ctx context.Context, name, trigger string) (store.RefreshRun, error) {
	if _, ok := s.Config.Source(name); !ok {
		return store.RefreshRun{}, fmt.Errorf("%w: %q", ErrUnknownSource, name)
	}
	org, err := s.systemOrg(ctx)
	if err != nil {
		return store.RefreshRun{}, err
	}
	in, _ := json.Marshal(Input{Source: name, Trigger: trigger})
	t, err := s.State.CreateTask(ctx, org, KindRefresh, in)
	if err != nil {
		return store.RefreshRun{}, fmt.Errorf("submit refresh of %s: %w", name, err)
	}
	r := store.RefreshRun{TaskID: t.ID, Source: name, Trigger: trigger, Status: store.RefreshQueued, CreatedAt: t.CreatedAt}
	if err := s.State.PutRefreshRun(ctx, r); err != nil {
		return r, err
	}
	return r, nil
}

// run is the state of one run.
type run struct {
	s      *Service
	rec    store.RefreshRun
	counts RunCounts
	rejs   []Reject
	mu     sync.Mutex // guards rec, counts, rejs for the progress writer
}

func (r *run) save(ctx context.Context) error {
	r.mu.Lock()
	r.rec.Counts, _ = json.Marshal(r.counts)
	if len(r.rejs) > 0 {
		r.rec.Rejects, _ = json.Marshal(r.rejs)
	}
	rec := r.rec
	r.mu.Unlock()
	return r.s.State.PutRefreshRun(ctx, rec)
}

// Run is the refresh task body (a jobs.Func). It is safe to run again
// from the start: a run killed anywhere leaves records it wrote (equal to
// the source's, so skipped next time) and no cursor, and the next run
// reads the source again.
func (s *Service) Run(ctx context.Context, t store.Task, in Input, progress func(int)) (RunCounts, error) {
	sc, ok := s.Config.Source(in.Source)
	if !ok {
		return RunCounts{}, fmt.Errorf("%w: %q (not in this server's refresh configuration)", ErrUnknownSource, in.Source)
	}
	kind, ok := s.Kinds[sc.Kind]
	if !ok {
		return RunCounts{}, fmt.Errorf("source %s: unknown kind %q", sc.Name, sc.Kind)
	}
	rec, err := s.State.RefreshRunByTask(ctx, t.ID)
	if errors.Is(err, store.ErrNotFound) {
		rec = store.RefreshRun{TaskID: t.ID, Source: sc.Name, Trigger: in.Trigger, CreatedAt: t.CreatedAt}
	} else if err != nil {
		return RunCounts{}, err
	}
	now := time.Now()
	rec.Status, rec.Attempts, rec.StartedAt, rec.FinishedAt, rec.Error, rec.Progress = store.RefreshWaiting, t.Attempts, &now, nil, "", 0
	rec.Rejects = nil
	r := &run{s: s, rec: rec}
	if err := r.save(ctx); err != nil {
		return RunCounts{}, err
	}
	counts, err := r.do(ctx, sc, kind, t.ID, progress)
	fin := time.Now()
	r.mu.Lock()
	r.rec.FinishedAt = &fin
	if err != nil {
		r.rec.Status, r.rec.Error = store.RefreshFailed, err.Error()
	} else {
		r.rec.Status, r.rec.Progress = store.RefreshCompleted, 100
	}
	r.mu.Unlock()
	if ctx.Err() == nil || err == nil {
		// A run stopped by shutdown stays "running" until it runs again.
		saveCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if serr := r.save(saveCtx); serr != nil {
			s.Log.Error().Err(serr).Str("source", sc.Name).Msg("save refresh run")
		}
	}
	return counts, err
}

func (r *run) do(ctx context.Context, sc SourceConfig, kind Kind, owner string, progress func(int)) (RunCounts, error) {
	s := r.s
	log := s.Log.With().Str("source", sc.Name).Str("task", owner).Logger()
	// One run of a source at a time, across processes: the lease's owner
	// is the task, so a re-run of a task whose process died takes its
	// lease back at once.
	for waited := false; ; waited = true {
		holder, ok, err := s.State.AcquireRefreshLease(ctx, sc.Name, owner, s.ttl())
		if err != nil {
			return r.counts, err
		}
		if ok {
			break
		}
		if !waited {
			log.Info().Str("holder", holder).Msg("another run of this source holds its lease: waiting")
		}
		select {
		case <-ctx.Done():
			return r.counts, ctx.Err()
		case <-time.After(s.wait()):
		}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer func() {
		relCtx, c := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer c()
		if err := s.State.ReleaseRefreshLease(relCtx, sc.Name, owner); err != nil {
			log.Warn().Err(err).Msg("release refresh lease")
		}
	}()
	stop := r.keep(ctx, cancel, sc.Name, owner)
	defer stop()
	r.mu.Lock()
	r.rec.Status = store.RefreshRunning
	r.mu.Unlock()
	if err := r.save(ctx); err != nil {
		return r.counts, err
	}

	cursor, err := s.State.RefreshCursor(ctx, sc.Name)
	if err != nil {
		return r.counts, err
	}
	f, err := kind.Fetch(ctx, sc, s.Env, cursor)
	if err != nil {
		return r.counts, fmt.Errorf("fetch %s: %w", sc.Name, err)
	}
	if f.Unchanged {
		r.counts.NotModified = true
	} else if err := r.loadAll(ctx, sc, f, progress, log); err != nil {
		return r.counts, wrapLost(ctx, err)
	}
	r.mu.Lock()
	r.counts.Changed += f.Written
	r.mu.Unlock()
	if err := s.Engine.Refresh(ctx); err != nil {
		return r.counts, fmt.Errorf("make the refresh visible: %w", err)
	}
	if err := s.State.SetRefreshCursor(ctx, sc.Name, owner, f.Cursor); err != nil {
		return r.counts, wrapLost(ctx, err)
	}
	if f.Done != nil {
		f.Done()
	}
	log.Info().Interface("counts", r.counts).Msg("refresh completed")
	return r.counts, nil
}

// loadAll loads the fetched parts, again when a refit swapped the
// index's embedder during the load (the engine refuses vectors of the old
// model): the next load embeds with the new one, and the records the
// first pass already wrote compare as unchanged, so the counts of a run
// that met a refit undercount its changes.
func (r *run) loadAll(ctx context.Context, sc SourceConfig, f *Fetch, progress func(int), log zerolog.Logger) error {
	const attempts = 3
	for i := 1; ; i++ {
		err := r.load(ctx, sc, f, progress)
		if i == attempts || !(errors.Is(err, index.ErrEmbedderChanged) || errors.Is(err, ingest.ErrEmbedderMismatch)) {
			return err
		}
		log.Info().Err(err).Msg("the index's embedder changed during the load (a refit): loading again")
		r.mu.Lock()
		r.counts, r.rejs = RunCounts{}, nil
		r.mu.Unlock()
	}
}

func wrapLost(ctx context.Context, err error) error {
	if errors.Is(context.Cause(ctx), ErrLeaseLost) {
		return fmt.Errorf("%w: %v", ErrLeaseLost, err)
	}
	return err
}

// keep renews the source's lease and writes the run's progress until
// stopped; a lost lease cancels the run.
func (r *run) keep(ctx context.Context, cancel context.CancelCauseFunc, source, owner string) (stop func()) {
	s := r.s
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		tick := time.NewTicker(min(s.ttl()/3, time.Second))
		defer tick.Stop()
		last := time.Now()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if time.Since(last) >= s.ttl()/3 {
				err := s.State.RenewRefreshLease(ctx, source, owner, s.ttl())
				if errors.Is(err, store.ErrConflict) {
					cancel(ErrLeaseLost)
					return
				}
				if err == nil {
					last = time.Now()
				}
			}
			if err := r.save(ctx); err != nil && ctx.Err() == nil {
				s.Log.Warn().Err(err).Str("source", source).Msg("save refresh progress")
			}
		}
	}()
	return func() { close(done); <-exited }
}

// load reads every part through the loader and, for a snapshot, closes
// the companies that were not in it.
func (r *run) load(ctx context.Context, sc SourceConfig, f *Fetch, progress func(int)) error {
	s := r.s
	filter := &changeFilter{Engine: s.Engine, seen: map[string]struct{}{}}
	prevRead := r.previousRead(ctx, sc.Name)
	base := RunCounts{}
	for _, p := range f.Parts {
		src, err := p.Open()
		if err != nil {
			return fmt.Errorf("open %s: %w", p.Name, err)
		}
		var rejects bytes.Buffer
		l := ingest.Loader{Engine: s.Engine, Screen: filter.screen, Workers: s.Workers, BatchSize: s.BatchSize, Rejects: &capped{w: &rejects, left: 1 << 20},
			Progress: func(st ingest.Stats) {
				r.mu.Lock()
				r.counts.Read = base.Read + st.Read
				r.counts.Rejected = base.Rejected + st.Rejected
				r.counts.Dropped = base.Dropped + st.Dropped
				r.counts.Changed, r.counts.Unchanged = base.Changed+st.Indexed, base.Unchanged+st.Skipped
				pct := 50
				if prevRead > 0 {
					pct = min(89, 1+88*r.counts.Read/prevRead)
				}
				r.rec.Progress = pct
				r.mu.Unlock()
				progress(pct)
			}}
		st, err := l.Load(ctx, src)
		src.Close()
		r.mu.Lock()
		base.Read += st.Read
		base.Rejected += st.Rejected
		base.Dropped += st.Dropped
		base.Changed += st.Indexed
		base.Unchanged += st.Skipped
		r.counts.Read, r.counts.Rejected, r.counts.Dropped = base.Read, base.Rejected, base.Dropped
		r.counts.Changed, r.counts.Unchanged = base.Changed, base.Unchanged
		r.counts.Files = append(r.counts.Files, p.Name)
		r.rejs = appendRejects(r.rejs, p.Name, rejects.Bytes())
		r.mu.Unlock()
		if err != nil {
			return fmt.Errorf("load %s: %w", p.Name, err)
		}
	}
	if sc.Mode != Snapshot {
		return nil
	}
	progress(90)
	return r.closeMissing(ctx, sc, filter.seen)
}

// previousRead is the rows the last completed run read, to estimate this
// run's progress; 0 when unknown.
func (r *run) previousRead(ctx context.Context, source string) int {
	runs, err := r.s.State.RefreshRuns(ctx, source, 20)
	if err != nil {
		return 0
	}
	for _, x := range runs {
		var c RunCounts
		if x.Status == store.RefreshCompleted && json.Unmarshal(x.Counts, &c) == nil && c.Read > 0 {
			return c.Read
		}
	}
	return 0
}

// closeMissing marks closed the open companies a snapshot did not list.
func (r *run) closeMissing(ctx context.Context, sc SourceConfig, seen map[string]struct{}) error {
	s := r.s
	var missing []string
	open := 0
	err := s.Engine.ScanCompanies(ctx, func(k index.CompanyKey) error {
		if k.Closed {
			return nil
		}
		open++
		if _, ok := seen[k.Domain]; !ok {
			missing = append(missing, k.Domain)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("scan the index for companies missing from the snapshot: %w", err)
	}
	if len(missing) == 0 {
		return nil
	}
	if float64(len(missing)) > sc.MaxCloseFraction*float64(open) {
		return fmt.Errorf("the snapshot lacks %d of the index's %d open companies, more than max_close_fraction %.2f: refusing to close them "+
			"(a truncated export?); raise max_close_fraction for this source if this is right", len(missing), open, sc.MaxCloseFraction)
	}
	sort.Strings(missing)
	const batch = 500
	for i := 0; i < len(missing); i += batch {
		domains := missing[i:min(i+batch, len(missing))]
		cos, err := s.Engine.GetCompanies(ctx, domains)
		if err != nil {
			return fmt.Errorf("read companies to close: %w", err)
		}
		vecs, err := s.Engine.CompanyVectors(ctx, domains)
		if err != nil {
			return fmt.Errorf("read vectors of companies to close: %w", err)
		}
		docs := make([]index.CompanyDoc, 0, len(cos))
		for _, c := range cos {
			if c.Closed() {
				continue
			}
			c.Status = record.Status{Status: record.StatusClosed, Confidence: ClosedConfidence}
			docs = append(docs, index.CompanyDoc{Company: c, Vector: vecs[c.Domain]})
		}
		failed, err := s.Engine.UpsertCompanies(ctx, docs)
		if err != nil {
			return fmt.Errorf("close companies missing from the snapshot: %w", err)
		}
		r.mu.Lock()
		r.counts.Closed += len(docs) - len(failed)
		for _, f := range failed {
			r.rejs = appendReject(r.rejs, Reject{File: "(close)", Domain: f.Domain, Reason: f.Reason})
		}
		r.rec.Progress = 90 + 9*(i+len(domains))/len(missing)
		r.mu.Unlock()
	}
	return nil
}

func appendReject(rs []Reject, x Reject) []Reject {
	if len(rs) >= MaxRejects {
		return rs
	}
	return append(rs, x)
}

// appendRejects adds a loader's rejects CSV (row, domain, reason) of one
// file; a CSV cut by the cap ends at its last whole line.
func appendRejects(rs []Reject, file string, csvText []byte) []Reject {
	cr := csv.NewReader(bytes.NewReader(csvText))
	cr.FieldsPerRecord = 3
	if _, err := cr.Read(); err != nil { // header
		return rs
	}
	for len(rs) < MaxRejects {
		rec, err := cr.Read()
		if err != nil {
			break
		}
		var row int
		fmt.Sscan(rec[0], &row)
		rs = append(rs, Reject{File: file, Row: row, Domain: rec[1], Reason: rec[2]})
	}
	return rs
}

// capped keeps the first bytes written to it and discards the rest.
type capped struct {
	w    io.Writer
	left int
}

func (c *capped) Write(p []byte) (int, error) {
	if c.left > 0 {
		n := min(len(p), c.left)
		c.w.Write(p[:n])
		c.left -= n
	}
	return len(p), nil
}

// changeFilter screens a refresh's rows before they are embedded: it notes
// every domain the source lists, completes each row with what other
// sources observed, and lets through the companies that are new or differ
// from the index.
type changeFilter struct {
	Engine Engine
	mu     sync.Mutex
	seen   map[string]struct{}
}

func (f *changeFilter) screen(ctx context.Context, cs []*record.Company) ([]bool, error) {
	domains := make([]string, len(cs))
	for i, c := range cs {
		domains[i] = c.Domain
	}
	f.mu.Lock()
	for _, d := range domains {
		f.seen[d] = struct{}{}
	}
	f.mu.Unlock()
	old, err := f.Engine.GetCompanies(ctx, domains)
	if err != nil {
		return nil, fmt.Errorf("read stored companies: %w", err)
	}
	byDomain := make(map[string]*record.Company, len(old))
	for i := range old {
		byDomain[old[i].Domain] = &old[i]
	}
	write := make([]bool, len(cs))
	for i, c := range cs {
		o := byDomain[c.Domain]
		if o != nil {
			keepObserved(c, o)
		}
		write[i] = o == nil || !Same(*c, *o)
	}
	return write, nil
}

// keepObserved keeps what other sources observed about a company (its
// web check, redirects, site text, languages, growth history) when this
// source does not carry it, so a registry export does not erase what a
// crawl found.
func keepObserved(c, old *record.Company) {
	if c.HTTPStatus == nil {
		c.HTTPStatus = old.HTTPStatus
	}
	if len(c.RedirectSources) == 0 && c.RedirectCount == 0 {
		c.RedirectSources, c.RedirectCount = old.RedirectSources, old.RedirectCount
	}
	if c.SiteText == "" {
		c.SiteText = old.SiteText
	}
	if len(c.Languages) == 0 {
		c.Languages = old.Languages
	}
	if c.Growth == nil {
		c.Growth = old.Growth
	}
}

// Same reports whether two companies are equal as stored, an empty list
// or map equal to none.
func Same(a, b record.Company) bool {
	ja, err1 := json.Marshal(canonical(a))
	jb, err2 := json.Marshal(canonical(b))
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

func canonical(c record.Company) record.Company {
	nilIfEmpty := func(s []string) []string {
		if len(s) == 0 {
			return nil
		}
		return s
	}
	c.Phones, c.PublicEmails, c.SocialURLs = nilIfEmpty(c.Phones), nilIfEmpty(c.PublicEmails), nilIfEmpty(c.SocialURLs)
	c.BusinessModels, c.Languages, c.Vendors = nilIfEmpty(c.BusinessModels), nilIfEmpty(c.Languages), nilIfEmpty(c.Vendors)
	c.Subdomains, c.RedirectSources = nilIfEmpty(c.Subdomains), nilIfEmpty(c.RedirectSources)
	if len(c.Keywords) == 0 {
		c.Keywords = nil
	}
	if len(c.IndustryGroups) == 0 {
		c.IndustryGroups = nil
	}
	if c.EndDate != nil && *c.EndDate == "" {
		c.EndDate = nil
	}
	if c.RedirectDomain != nil && *c.RedirectDomain == "" {
		c.RedirectDomain = nil
	}
	if c.HTTPStatus != nil && *c.HTTPStatus == (record.HTTPStatus{}) {
		c.HTTPStatus = nil
	}
	return c
}
