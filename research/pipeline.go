package research

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/providers/llm"
	"github.com/openprospect/prospectd/providers/search"
	"github.com/openprospect/prospectd/store"
)

// Defaults of the Pipeline's optional fields.
const (
	DefaultConcurrency       = 16
	DefaultSearchConcurrency = 8
	DefaultRecordTimeout     = 2 * time.Minute
)

// Pipeline runs research tasks. One Pipeline serves a process: its
// concurrency limits and circuit breakers are per integration, across
// every task using it.
type Pipeline struct {
	Integrations *integrations.Service
	Records      store.ResearchRecordStore
	// Engine supplies company profiles; Contacts persona records (nil
	// when the engine has no contact index).
	Engine   index.Engine
	Contacts index.ContactEngine
	Log      zerolog.Logger
	// Concurrency bounds model calls in flight per LLM integration;
	// SearchConcurrency searches per search integration.
	Concurrency, SearchConcurrency int
	// RecordTimeout bounds one record (searches, homepage and model call).
	RecordTimeout time.Duration
	// HomepageURL is where a domain's homepage is fetched from
	// (https://DOMAIN/ when nil).
	HomepageURL func(domain string) string
	// BreakerFailures and BreakerCooldown tune the per-search-integration
	// circuit breaker (search.NewBreaker defaults when 0).
	BreakerFailures uint32
	BreakerCooldown time.Duration

	mu       sync.Mutex
	sems     map[string]chan struct{}
	breakers map[string]*search.Breaker
	pages    *pageCache
}

func (p *Pipeline) sem(kind, id string, n int) chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sems == nil {
		p.sems = map[string]chan struct{}{}
	}
	k := kind + "/" + id
	s, ok := p.sems[k]
	if !ok {
		s = make(chan struct{}, n)
		p.sems[k] = s
	}
	return s
}

func (p *Pipeline) breaker(in store.Integration, c search.Client) *search.Breaker {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.breakers == nil {
		p.breakers = map[string]*search.Breaker{}
	}
	// Keyed by id and update time: a re-keyed integration starts closed.
	k := in.ID + "@" + in.UpdatedAt.String()
	b, ok := p.breakers[k]
	if !ok {
		b = search.NewBreaker(in.Provider+"/"+in.ID, c, p.BreakerFailures, p.BreakerCooldown)
		p.breakers[k] = b
	}
	return b
}

func orInt(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// recordResult is what is stored per record as it finishes.
type recordResult struct {
	Value    json.RawMessage `json:"value,omitempty"`
	Error    string          `json:"error,omitempty"`
	Usage    usage           `json:"usage"`
	Warnings []warning       `json:"warnings,omitempty"`
}

type usage struct {
	Calls            int   `json:"calls"`
	SearchCalls      int   `json:"search_calls"`
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TokensReported   bool  `json:"tokens_reported"`
	Queries          int   `json:"queries"`
	QueriesOK        int   `json:"queries_ok"`
}

type warning struct {
	At  int64  `json:"at"` // unix nanoseconds, for "most recent"
	Msg string `json:"msg"`
}

// run is one task's execution state.
type run struct {
	p       *Pipeline
	task    Task
	orgID   string
	taskID  string
	model   llm.Client
	llmIn   store.Integration
	search  *search.Breaker
	searchI store.Integration
	llmSem  chan struct{}
	srchSem chan struct{}
	// profiles are the records' contexts, built before dispatch.
	profiles map[string]recordContext
	// deprecated flags the integration once when its model is gone.
	deprecated sync.Once
}

// Run executes a research task: records already stored are skipped; the
// rest are processed with bounded concurrency and stored as they finish.
// progress receives 0-100. It returns the task's final Outcome.
func (p *Pipeline) Run(ctx context.Context, taskID, orgID string, input []byte, progress func(int)) (*Outcome, error) {
	var t Task
	if err := json.Unmarshal(input, &t); err != nil {
		return nil, fmt.Errorf("research task %s: decode input: %w", taskID, err)
	}
	done, err := p.Records.ResearchRecords(ctx, taskID)
	if err != nil {
		return nil, fmt.Errorf("research task %s: %w", taskID, err)
	}
	r := &run{p: p, task: t, orgID: orgID, taskID: taskID}
	timeout := p.RecordTimeout
	if timeout == 0 {
		timeout = DefaultRecordTimeout
	}
	r.model, r.llmIn, err = p.Integrations.LLM(ctx, orgID, t.IntegrationID, timeout)
	if err != nil {
		return nil, fmt.Errorf("research task %s: llm integration: %w", taskID, err)
	}
	r.llmSem = p.sem("llm", r.llmIn.ID, orInt(p.Concurrency, DefaultConcurrency))
	if t.SearchProviderID != "" {
		c, in, err := p.Integrations.Search(ctx, orgID, t.SearchProviderID)
		if err != nil {
			return nil, fmt.Errorf("research task %s: search integration: %w", taskID, err)
		}
		r.searchI, r.search = in, p.breaker(in, c)
		r.srchSem = p.sem("search", in.ID, orInt(p.SearchConcurrency, DefaultSearchConcurrency))
	}
	var todo []string
	for _, k := range t.Keys {
		if _, ok := done[k]; !ok {
			todo = append(todo, k)
		}
	}
	if len(todo) > 0 {
		if r.profiles, err = p.contexts(ctx, t, todo); err != nil {
			return nil, fmt.Errorf("research task %s: %w", taskID, err)
		}
	}
	total := len(t.Keys)
	finished := len(t.Keys) - len(todo)
	var mu sync.Mutex
	report := func() {
		mu.Lock()
		finished++
		n := finished
		mu.Unlock()
		if progress != nil && total > 0 {
			progress(n * 99 / total)
		}
	}
	// Dispatch: a worker per concurrency slot pulls keys; a cancelled
	// context stops dispatch at once and cancels the calls in flight.
	keys := make(chan string)
	var wg sync.WaitGroup
	var storeErr error
	var storeOnce sync.Once
	workers := min(len(todo), orInt(p.Concurrency, DefaultConcurrency))
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range keys {
				res := r.record(ctx, k, timeout)
				if ctx.Err() != nil {
					return // cancelled: the record is redone if the task resumes
				}
				body, _ := json.Marshal(res)
				if err := p.Records.PutResearchRecord(context.WithoutCancel(ctx), taskID, k, body); err != nil {
					storeOnce.Do(func() { storeErr = err })
					return
				}
				report()
			}
		}()
	}
dispatch:
	for _, k := range todo {
		select {
		case keys <- k:
		case <-ctx.Done():
			break dispatch
		}
	}
	close(keys)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if storeErr != nil {
		return nil, fmt.Errorf("research task %s: store record: %w", taskID, storeErr)
	}
	all, err := p.Records.ResearchRecords(ctx, taskID)
	if err != nil {
		return nil, fmt.Errorf("research task %s: %w", taskID, err)
	}
	out := Summarize(t, r.llmIn, r.searchI, all)
	return &out, nil
}

// record researches one record; it never returns an error: failures are
// the record's.
func (r *run) record(ctx context.Context, key string, timeout time.Duration) recordResult {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var res recordResult
	rc := r.profiles[key]
	if rc.FetchHomepage {
		rc.Homepage = r.p.homepage(ctx, rc.Domain)
	}
	var evidence []search.Result
	if r.search != nil && r.task.WebSearch {
		for _, q := range r.queries(key, rc) {
			if ctx.Err() != nil {
				break
			}
			select {
			case r.srchSem <- struct{}{}:
			case <-ctx.Done():
				continue
			}
			res.Usage.Queries++
			found, err := r.search.Search(ctx, q, 5)
			<-r.srchSem
			switch {
			case err == nil:
				res.Usage.QueriesOK++
				evidence = append(evidence, found...)
			case errors.Is(err, search.ErrCircuitOpen):
				res.Usage.Queries-- // not sent
				res.Warnings = append(res.Warnings, warning{time.Now().UnixNano(), fmt.Sprintf("search provider %s: circuit breaker open after repeated failures; affected rows are grounded only in profile and website text", r.searchI.Provider)})
			case errors.Is(err, search.ErrOutOfCredits):
				res.Warnings = append(res.Warnings, warning{time.Now().UnixNano(), fmt.Sprintf("search provider %s is out of credits; affected rows are grounded only in profile and website text", r.searchI.Provider)})
			case ctx.Err() == nil:
				r.p.Log.Warn().Str("task", r.taskID).Str("provider", r.searchI.Provider).Err(err).Msg("search failed")
			}
		}
	}
	req := r.request(key, rc, evidence)
	select {
	case r.llmSem <- struct{}{}:
	case <-ctx.Done():
		res.Error = "timed out waiting for the model"
		return res
	}
	resp, err := r.model.Complete(ctx, req)
	<-r.llmSem
	res.Usage.Calls = 1
	if errors.Is(err, llm.ErrModelNotFound) {
		r.deprecated.Do(func() {
			if err := r.p.Integrations.MarkDeprecated(context.WithoutCancel(ctx), r.orgID, r.llmIn.ID); err != nil {
				r.p.Log.Warn().Err(err).Str("integration", r.llmIn.ID).Msg("mark model deprecated")
			}
		})
	}
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, context.DeadlineExceeded) {
			res.Error = "record timed out"
		} else {
			res.Error = "model call failed: " + err.Error()
		}
		return res
	}
	res.Usage.PromptTokens, res.Usage.CompletionTokens, res.Usage.TokensReported = resp.PromptTokens, resp.CompletionTokens, resp.TokensReported
	if r.task.BuiltinSearch {
		res.Usage.SearchCalls = resp.SearchCalls
	}
	v, err := r.parse(key, rc, resp.Text)
	if err != nil {
		res.Error = "malformed answer: " + err.Error()
		return res
	}
	res.Value = v
	return res
}

// Outcome is what a research task reports: the status body's fields.
type Outcome struct {
	Results        map[string]json.RawMessage `json:"results"`
	RecordErrors   map[string]string          `json:"record_errors,omitempty"`
	EstimatedCost  float64                    `json:"estimated_cost"`
	ResponseFormat ResponseFormat             `json:"response_format"`
	Warnings       []string                   `json:"warnings"`
	CostMetadata   map[string]any             `json:"cost_metadata"`
}

// maxWarnings is how many of the most recent warnings are kept.
const maxWarnings = 10

// Summarize aggregates stored record results into an Outcome (interim
// while a task runs, final at its end).
func Summarize(t Task, llmIn, searchIn store.Integration, records map[string][]byte) Outcome {
	out := Outcome{Results: map[string]json.RawMessage{}, ResponseFormat: t.responseFormat(), Warnings: []string{}, CostMetadata: map[string]any{}}
	var tot usage
	var warns []warning
	for i, w := range t.Warnings {
		warns = append(warns, warning{At: int64(i), Msg: w})
	}
	for k, raw := range records {
		var rr recordResult
		if err := json.Unmarshal(raw, &rr); err != nil {
			continue
		}
		if rr.Error != "" {
			if out.RecordErrors == nil {
				out.RecordErrors = map[string]string{}
			}
			out.RecordErrors[k] = rr.Error
			out.Results[k] = json.RawMessage("null")
		} else {
			out.Results[k] = rr.Value
		}
		tot.Calls += rr.Usage.Calls
		tot.SearchCalls += rr.Usage.SearchCalls
		tot.PromptTokens += rr.Usage.PromptTokens
		tot.CompletionTokens += rr.Usage.CompletionTokens
		tot.TokensReported = tot.TokensReported || rr.Usage.TokensReported
		tot.Queries += rr.Usage.Queries
		tot.QueriesOK += rr.Usage.QueriesOK
		warns = append(warns, rr.Warnings...)
	}
	model := map[string]any{"calls": tot.Calls, "search_calls": tot.SearchCalls}
	llmCost := modelCost(llmIn.Provider, llmIn.Model, tot.PromptTokens, tot.CompletionTokens) + builtinSearchCost(llmIn.Provider, tot.SearchCalls)
	if tot.TokensReported {
		model["prompt_tokens"] = tot.PromptTokens
		model["completion_tokens"] = tot.CompletionTokens
	}
	model["est_cost_usd"] = round6(llmCost)
	out.CostMetadata[llmIn.Provider+"/"+llmIn.Model] = model
	out.EstimatedCost = llmCost
	if searchIn.ID != "" {
		sc := float64(tot.Queries) * searchIn.CostPerQuery
		out.CostMetadata["search_provider"] = map[string]any{"provider": searchIn.Provider, "search_model": searchIn.Model,
			"queries_executed": tot.Queries, "queries_succeeded": tot.QueriesOK, "est_cost_usd": round6(sc)}
		out.EstimatedCost += sc
		if t.WebSearch && tot.Queries == 0 && len(records) == len(t.Keys) && len(t.Keys) > 0 {
			warns = append(warns, warning{At: 1 << 62, Msg: fmt.Sprintf("web_search was requested with search provider %s configured, but no search query ran", searchIn.Provider)})
		}
	}
	out.EstimatedCost = round6(out.EstimatedCost)
	out.Warnings = recentUnique(warns, maxWarnings)
	return out
}

// recentUnique deduplicates warnings keeping each one's most recent
// occurrence, and returns the newest max, oldest first.
func recentUnique(ws []warning, max int) []string {
	latest := map[string]int64{}
	for _, w := range ws {
		if at, ok := latest[w.Msg]; !ok || w.At > at {
			latest[w.Msg] = w.At
		}
	}
	type kv struct {
		msg string
		at  int64
	}
	var list []kv
	for m, at := range latest {
		list = append(list, kv{m, at})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].at != list[j].at {
			return list[i].at < list[j].at
		}
		return list[i].msg < list[j].msg
	})
	if len(list) > max {
		list = list[len(list)-max:]
	}
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = e.msg
	}
	return out
}

func round6(f float64) float64 { return float64(int64(f*1e6+0.5)) / 1e6 }

// trimText cuts s to n runes at a word boundary.
func trimText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return cut + "…"
}
