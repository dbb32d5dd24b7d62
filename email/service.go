package email

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/store"
)

// TaskKind is the jobs runner's task kind for an email batch.
const TaskKind = "email_batch"

// Defaults of the Service's optional fields.
const (
	// DefaultMaxActive is the account cap on queued or running lookups
	// (the spec does not give the number): two full batches.
	DefaultMaxActive   = 1000
	DefaultResultTTL   = 14 * 24 * time.Hour
	DefaultCatchAllTTL = 7 * 24 * time.Hour
	DefaultRechecks    = 3
	DefaultParallel    = 8
	MaxBatch           = 500
)

// Submitter queues tasks (the jobs runner).
type Submitter interface {
	Submit(ctx context.Context, orgID, kind string, input any) (store.Task, error)
}

// Orgs reads organizations (for billing).
type Orgs interface {
	OrgByID(ctx context.Context, orgID string) (store.Org, error)
}

// TaskReader reads tasks, to notice a batch whose task ended without
// finishing its jobs.
type TaskReader interface {
	GetTask(ctx context.Context, orgID, id string) (store.Task, error)
}

// orphanAfter is how long a batch may wait for its task to be recorded
// before its jobs count as never queued (a crash between the two writes).
const orphanAfter = 5 * time.Minute

// Service submits, runs and reports email lookups.
type Service struct {
	Store  store.EmailStore
	Orgs   Orgs
	Finder *Finder
	Biller *account.Biller
	Tasks  Submitter
	// TaskStatus, when set, lets reads settle the jobs of a batch whose
	// task ended without them (given up after too many crashes): they
	// are failed with the reason, so every job ends.
	TaskStatus TaskReader
	Log        zerolog.Logger

	MaxActive   int           // account cap on queued-or-running lookups
	ResultTTL   time.Duration // how long a result is reused
	CatchAllTTL time.Duration // how long a domain stays known as catch-all
	// Rechecks bounds the rechecks of a greylisted lookup; it then
	// completes as greylisted.
	Rechecks int
	Parallel int // lookups of one batch in flight
	Now      func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// TaskInput is the persisted input of a batch task.
type TaskInput struct {
	BatchID string `json:"batch_id"`
	OrgID   string `json:"org_id"`
}

// Submission is a validated batch to submit.
type Submission struct {
	Kind          string   // of every request, unless Kinds gives one
	Kinds         []string // per request (find or verify)
	Requests      []Request
	Refs          []string
	SourceQueryID string
	Round         string
}

// Submit records the jobs (refused whole with store.ErrOverLimit when the
// account would exceed its cap) and queues the batch task.
func (s *Service) Submit(ctx context.Context, orgID string, sub Submission) (store.EmailBatch, []store.EmailJob, error) {
	jobs := make([]store.EmailJob, len(sub.Requests))
	for i, r := range sub.Requests {
		body, err := json.Marshal(r)
		if err != nil {
			return store.EmailBatch{}, nil, fmt.Errorf("submit email lookups: %w", err)
		}
		jobs[i] = store.EmailJob{Kind: sub.Kind, Request: body}
		if i < len(sub.Kinds) && sub.Kinds[i] != "" {
			jobs[i].Kind = sub.Kinds[i]
		}
		if i < len(sub.Refs) {
			jobs[i].Ref = sub.Refs[i]
		}
	}
	b, jobs, err := s.Store.CreateEmailBatch(ctx, store.EmailBatch{OrgID: orgID, SourceQueryID: sub.SourceQueryID, Round: sub.Round}, jobs,
		orInt(s.MaxActive, DefaultMaxActive))
	if err != nil {
		return b, nil, fmt.Errorf("submit email lookups: %w", err)
	}
	t, err := s.Tasks.Submit(ctx, orgID, TaskKind, TaskInput{BatchID: b.ID, OrgID: orgID})
	if err != nil {
		// Never leave jobs queued with nothing to run them.
		for _, j := range jobs {
			s.Store.UpdateEmailJob(context.WithoutCancel(ctx), j.ID, store.EmailFailed, nil, "could not be queued")
		}
		return b, nil, fmt.Errorf("submit email lookups: %w", err)
	}
	if err := s.Store.SetEmailBatchTask(ctx, b.ID, t.ID); err != nil {
		s.Log.Warn().Err(err).Str("batch", b.ID).Msg("record the task of an email batch")
	}
	b.TaskID = t.ID
	return b, jobs, nil
}

// JobView is an email job as the API shows it.
type JobView struct {
	JobID   string  `json:"job_id"`
	BatchID string  `json:"batch_id"`
	Status  string  `json:"status" enum:"queued,processing,completed,failed"`
	Kind    string  `json:"kind" enum:"find,verify"`
	Ref     string  `json:"ref,omitempty"`
	Result  *Result `json:"result"`
	Error   string  `json:"error,omitempty"`
}

// View shapes a stored job.
func View(j store.EmailJob) JobView {
	v := JobView{JobID: j.ID, BatchID: j.BatchID, Status: j.Status, Kind: j.Kind, Ref: j.Ref, Error: j.Error}
	if len(j.Result) > 0 {
		var r Result
		if json.Unmarshal(j.Result, &r) == nil {
			v.Result = &r
		}
	}
	return v
}

// BatchView is a batch's results.
type BatchView struct {
	BatchID   string    `json:"batch_id"`
	Total     int       `json:"total"`
	Completed int       `json:"completed"`
	Failed    int       `json:"failed"`
	Results   []JobView `json:"results"`
}

// Job returns an organization's job.
func (s *Service) Job(ctx context.Context, orgID, id string) (JobView, error) {
	j, err := s.Store.GetEmailJob(ctx, orgID, id)
	if err != nil {
		return JobView{}, err
	}
	if !j.Finished() {
		if b, err := s.Store.GetEmailBatch(ctx, orgID, j.BatchID); err == nil {
			j = s.settle(ctx, b, []store.EmailJob{j})[0]
		}
	}
	return View(j), nil
}

// Batch returns an organization's batch with its jobs.
func (s *Service) Batch(ctx context.Context, orgID, id string) (BatchView, error) {
	b, err := s.Store.GetEmailBatch(ctx, orgID, id)
	if err != nil {
		return BatchView{}, err
	}
	jobs, err := s.Store.ListEmailJobs(ctx, b.ID)
	if err != nil {
		return BatchView{}, err
	}
	jobs = s.settle(ctx, b, jobs)
	v := BatchView{BatchID: b.ID, Total: b.Total, Results: make([]JobView, len(jobs))}
	for i, j := range jobs {
		v.Results[i] = View(j)
		switch j.Status {
		case store.EmailCompleted:
			v.Completed++
		case store.EmailFailed:
			v.Failed++
		}
	}
	return v, nil
}

// settle fails the unfinished jobs of a batch whose task has ended (or
// was never recorded), so that every job ends.
func (s *Service) settle(ctx context.Context, b store.EmailBatch, jobs []store.EmailJob) []store.EmailJob {
	if s.TaskStatus == nil {
		return jobs
	}
	open := false
	for _, j := range jobs {
		open = open || !j.Finished()
	}
	if !open {
		return jobs
	}
	reason := ""
	if b.TaskID == "" {
		if s.now().Sub(b.CreatedAt) > orphanAfter {
			reason = "never queued: the server stopped while accepting the request"
		}
	} else if t, err := s.TaskStatus.GetTask(ctx, b.OrgID, b.TaskID); err == nil && t.Finished() {
		reason = "the batch task ended (" + t.Status
		if t.Error != "" {
			reason += ": " + t.Error
		}
		reason += ") before this lookup finished"
	}
	if reason == "" {
		return jobs
	}
	for i, j := range jobs {
		if j.Finished() {
			continue
		}
		if err := s.Store.UpdateEmailJob(ctx, j.ID, store.EmailFailed, j.Result, reason); err == nil {
			jobs[i].Status, jobs[i].Error = store.EmailFailed, reason
		} else if got, err := s.Store.GetEmailJob(ctx, b.OrgID, j.ID); err == nil {
			jobs[i] = got // finished meanwhile
		}
	}
	return jobs
}

// RunBatch is the task body of a batch: it runs every job not yet
// finished — a batch run again after a crash skips the jobs whose results
// were recorded, so no mailbox is asked twice for them — and returns the
// counts. It returns the context's error when stopped, leaving unfinished
// jobs to the next run.
func (s *Service) RunBatch(ctx context.Context, in TaskInput, progress func(pct int)) (any, error) {
	org, err := s.Orgs.OrgByID(ctx, in.OrgID)
	if err != nil {
		return nil, fmt.Errorf("email batch %s: %w", in.BatchID, err)
	}
	jobs, err := s.Store.ListEmailJobs(ctx, in.BatchID)
	if err != nil {
		return nil, fmt.Errorf("email batch %s: %w", in.BatchID, err)
	}
	var mu sync.Mutex
	done := 0
	for _, j := range jobs {
		if j.Finished() {
			done++
		}
	}
	sem := make(chan struct{}, orInt(s.Parallel, DefaultParallel))
	var wg sync.WaitGroup
	for _, j := range jobs {
		if j.Finished() {
			continue
		}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func(j store.EmailJob) {
			defer wg.Done()
			defer func() { <-sem }()
			if s.runJob(ctx, org, j) {
				mu.Lock()
				done++
				if progress != nil && len(jobs) > 0 {
					progress(done * 100 / len(jobs))
				}
				mu.Unlock()
			}
		}(j)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v, err := s.Batch(context.WithoutCancel(ctx), in.OrgID, in.BatchID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"batch_id": v.BatchID, "total": v.Total, "completed": v.Completed, "failed": v.Failed}, nil
}

// runJob runs one job to its end and records it; false when it was
// interrupted (the context ended) and stays unfinished.
func (s *Service) runJob(ctx context.Context, org store.Org, j store.EmailJob) bool {
	log := s.Log.With().Str("email_job", j.ID).Logger()
	fail := func(msg string) bool {
		if err := s.Store.UpdateEmailJob(context.WithoutCancel(ctx), j.ID, store.EmailFailed, nil, msg); err != nil {
			log.Error().Err(err).Msg("fail email job")
		}
		return true
	}
	var req Request
	if err := json.Unmarshal(j.Request, &req); err != nil {
		return fail("unreadable request: " + err.Error())
	}
	// A job interrupted while waiting for a greylisting recheck waits for
	// the rest of that delay, not a new one.
	var interim *Result
	if len(j.Result) > 0 {
		var r Result
		if json.Unmarshal(j.Result, &r) == nil && r.Status == StatusGreylisted {
			interim = &r
		}
	}
	if interim == nil {
		if err := s.Store.UpdateEmailJob(ctx, j.ID, store.EmailProcessing, nil, ""); err != nil {
			if ctx.Err() != nil {
				return false
			}
			log.Error().Err(err).Msg("start email job")
			return errors.Is(err, store.ErrConflict)
		}
	}
	start := s.now()
	attempts := 0
	var res Result
	for rechecks := 0; ; rechecks++ {
		if interim != nil && interim.RetryAt != nil {
			if !sleep(ctx, time.Until(*interim.RetryAt)) {
				return false
			}
		}
		res = s.lookup(ctx, j.Kind, req)
		if ctx.Err() != nil {
			return false
		}
		attempts += res.Attempts
		if res.Status != StatusGreylisted || rechecks >= orInt(s.Rechecks, DefaultRechecks) {
			break
		}
		// Visible while waiting: processing, with the greylisted result.
		res.Attempts = attempts
		body, _ := json.Marshal(res)
		if err := s.Store.UpdateEmailJob(ctx, j.ID, store.EmailProcessing, body, ""); err != nil && ctx.Err() == nil {
			log.Warn().Err(err).Msg("record greylisted email job")
		}
		r := res
		interim = &r
	}
	res.Attempts = attempts
	if !res.Cached {
		res.DurationMs = s.now().Sub(start).Milliseconds()
	}
	res.RetryAt = nil
	if res.Status == StatusFound && res.Result != nil {
		// Billed before the result is recorded: a crash in between runs the
		// lookup again, and the 90-day no-rebill rule makes that free.
		if _, err := s.Biller.Bill(ctx, org, "email_"+j.Kind, []store.Charge{{Kind: store.KindEmail, Key: res.Result.Email}}); err != nil {
			if errors.Is(err, account.ErrNoCredits) {
				res.Result = nil
				res.Withheld = "no_credits"
			} else {
				if ctx.Err() != nil {
					return false
				}
				log.Error().Err(err).Msg("bill email job")
				return fail("billing failed: " + err.Error())
			}
		}
	}
	body, err := json.Marshal(res)
	if err != nil {
		return fail("result: " + err.Error())
	}
	if err := s.Store.UpdateEmailJob(context.WithoutCancel(ctx), j.ID, store.EmailCompleted, body, ""); err != nil {
		log.Error().Err(err).Msg("complete email job")
	}
	return true
}

func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// cacheKey names a lookup's cached result: the address for verify; the
// domain, primary name forms and known pattern for find.
func cacheKey(kind string, r Request) string {
	if kind == KindVerify {
		return "verify:" + r.Email
	}
	n, _ := NormalizeName(r.FirstName, r.LastName)
	first, last := "", ""
	if len(n.Firsts) > 0 {
		first, last = n.Firsts[0], n.Lasts[0]
	}
	key := "find:" + r.Domain + ":" + first + ":" + last + ":" + r.KnownPattern
	if r.Escalate {
		key += ":escalate" // tries more candidates: a narrower lookup's answer is not its answer
	}
	return key
}

// definitive results are cached; the others say more about the moment
// than about the mailbox.
func definitive(status string) bool {
	switch status {
	case StatusFound, StatusNotFound, StatusAmbiguous, StatusUndeliverable, StatusCatchAll, StatusCatchAllPattern:
		return true
	}
	return false
}

// lookup answers from the result cache, then the catch-all cache, then
// the Finder, and keeps what it learnt.
func (s *Service) lookup(ctx context.Context, kind string, req Request) Result {
	now := s.now()
	key := cacheKey(kind, req)
	if e, err := s.Store.GetEmailCache(ctx, key); err == nil && now.Sub(e.CheckedAt) < orDur(s.ResultTTL, DefaultResultTTL) {
		var r Result
		if json.Unmarshal(e.Result, &r) == nil {
			age := int64(now.Sub(e.CheckedAt).Seconds())
			r.FirstName, r.LastName = req.FirstName, req.LastName
			r.Cached, r.AgeSeconds, r.Attempts, r.DurationMs = true, &age, 0, 0
			return r
		}
	}
	if d, err := s.Store.GetEmailDomain(ctx, req.Domain); err == nil && d.CatchAll && now.Sub(d.CheckedAt) < orDur(s.CatchAllTTL, DefaultCatchAllTTL) {
		r := CatchAllResult(req, kind, d.Provider, d.CheckedAt)
		age := int64(now.Sub(d.CheckedAt).Seconds())
		r.Cached, r.AgeSeconds = true, &age
		return r
	}
	var r Result
	if kind == KindVerify {
		r = s.Finder.Verify(ctx, req)
	} else {
		r = s.Finder.Find(ctx, req)
	}
	if ctx.Err() != nil {
		return r
	}
	bg := context.WithoutCancel(ctx)
	if definitive(r.Status) {
		if body, err := json.Marshal(r); err == nil {
			if err := s.Store.PutEmailCache(bg, store.EmailCacheEntry{Key: key, Result: body, CheckedAt: now}); err != nil {
				s.Log.Warn().Err(err).Msg("cache email result")
			}
			if r.Result != nil && r.Result.Email != "" && kind == KindFind {
				s.rememberAddress(bg, r.Result.Email, key)
			}
		}
		if r.Evidence != nil && r.Evidence.Method != MethodDNS {
			provider := ""
			if r.Provider != nil {
				provider = *r.Provider
			}
			if err := s.Store.PutEmailDomain(bg, store.EmailDomain{Domain: strings.ToLower(req.Domain), CatchAll: r.IsCatchAll, Provider: provider, CheckedAt: now}); err != nil {
				s.Log.Warn().Err(err).Msg("cache email domain")
			}
		}
	}
	return r
}
