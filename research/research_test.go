package research_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/jobs"
	"github.com/openprospect/prospectd/providers/llm/llmfake"
	"github.com/openprospect/prospectd/providers/search/searchfake"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

const (
	llmKey    = "sk-test-LLMKEY-0123456789abcdef"
	searchKey = "search-SEARCHKEY-0123456789"
)

type env struct {
	st     *sqlite.Store
	org    store.Org
	svc    *integrations.Service
	p      *research.Pipeline
	llm    *llmfake.Server
	search *searchfake.Server
	llmID  string
	srchID string
}

func newEnv(t testing.TB, provider, model string, withSearch bool) *env {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	org, _ := st.CreateOrg(ctx, "acme", store.PlanStarter)
	box, _ := secrets.New(bytes.Repeat([]byte{9}, 32))
	svc := &integrations.Service{Store: st, Box: box, AllowPrivate: true, MaxRetries: 1}
	e := &env{st: st, org: org, svc: svc, llm: llmfake.Start(llmKey)}
	t.Cleanup(e.llm.Close)
	e.llm.Models = append(e.llm.Models, model)
	base := e.llm.URL + "/v1/"
	if provider == "anthropic" {
		base = e.llm.URL
	}
	k := llmKey
	in, err := svc.CreateLLM(ctx, org.ID, integrations.LLMFields{Name: "main", Provider: provider, Model: model, BaseURL: base, APIKey: &k})
	if err != nil {
		t.Fatal(err)
	}
	e.llmID = in.ID
	if withSearch {
		e.search = searchfake.Start(searchKey)
		t.Cleanup(e.search.Close)
		sk := searchKey
		s, err := svc.CreateSearch(ctx, org.ID, integrations.SearchFields{Name: "s", Provider: "tavily", SearchModel: "tavily/search", BaseURL: e.search.URL, APIKey: &sk})
		if err != nil {
			t.Fatal(err)
		}
		e.srchID = s.ID
	}
	e.p = &research.Pipeline{Integrations: svc, Records: st, Log: zerolog.Nop()}
	return e
}

// submit prepares and stores a task, as the API does.
func (e *env) submit(t testing.TB, req research.Request) store.Task {
	t.Helper()
	task, err := e.p.Prepare(context.Background(), e.org.ID, req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(task)
	st, err := e.st.CreateTask(context.Background(), e.org.ID, task.Kind, body)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func domains(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("company%04d.com", i)
	}
	return out
}

var domainInPrompt = regexp.MustCompile(`Company domain: (\S+)`)

func TestGenWithSearchProvider(t *testing.T) {
	e := newEnv(t, "openai", "gpt-4o-mini", true)
	var promptTokens, completionTokens atomic.Int64
	e.llm.Answer = func(n int, _, prompt string) llmfake.Reply {
		d := domainInPrompt.FindStringSubmatch(prompt)[1]
		pt, ct := int64(100+n), int64(7+n%3)
		promptTokens.Add(pt)
		completionTokens.Add(ct)
		if !strings.Contains(prompt, "Web search results:") || !strings.Contains(prompt, "Homepage text: Welcome to "+d) {
			return llmfake.Reply{Text: `{"answer":"missing context"}`, PromptTokens: pt, CompletionTokens: ct}
		}
		return llmfake.Reply{Text: `{"answer":"yes for ` + d + `"}`, PromptTokens: pt, CompletionTokens: ct}
	}
	var fetches atomic.Int64
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><head><script>var x=1</script><style>p{}</style></head><body><h1>Welcome to %s</h1><p>We sell to hospitals.</p></body></html>", r.URL.Query().Get("d"))
	}))
	defer site.Close()
	e.p.HomepageURL = func(d string) string { return site.URL + "/?d=" + d }

	ds := domains(6)
	task := e.submit(t, research.Request{Kind: research.KindGen, Query: "Does this company sell to hospitals?", WebSearch: true,
		SearchContextSize: "medium", ContextMode: research.ModeWebsite, Keys: append(ds, ds[0])})
	out, err := e.p.Run(context.Background(), task.ID, task.OrgID, task.Input, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 6 || len(out.RecordErrors) != 0 {
		t.Fatalf("results %v errors %v", out.Results, out.RecordErrors)
	}
	for _, d := range ds {
		if string(out.Results[d]) != `"yes for `+d+`"` {
			t.Fatalf("%s: %s", d, out.Results[d])
		}
	}
	cm := out.CostMetadata["openai/gpt-4o-mini"].(map[string]any)
	if cm["calls"] != 6 || cm["search_calls"] != 0 || cm["prompt_tokens"] != promptTokens.Load() || cm["completion_tokens"] != completionTokens.Load() {
		t.Fatalf("cost metadata %v, want tokens %d/%d", cm, promptTokens.Load(), completionTokens.Load())
	}
	sp := out.CostMetadata["search_provider"].(map[string]any)
	if sp["queries_executed"] != 18 || sp["queries_succeeded"] != 18 || sp["provider"] != "tavily" || sp["search_model"] != "tavily/search" {
		t.Fatalf("search provider %v", sp)
	}
	if out.EstimatedCost <= 0 || out.ResponseFormat.FieldLabels["answer"] == "" || len(out.Warnings) != 0 {
		t.Fatalf("outcome %+v", out)
	}
	// Structured outputs were asked of OpenAI.
	if !strings.Contains(lastBody(e.llm), `"json_schema"`) {
		t.Fatal("no structured output requested")
	}
	// Homepages are cached: a second task over the same domains fetches none.
	before := fetches.Load()
	task2 := e.submit(t, research.Request{Kind: research.KindGen, Query: "q", WebSearch: true, ContextMode: research.ModeWebsite, Keys: ds})
	if _, err := e.p.Run(context.Background(), task2.ID, task2.OrgID, task2.Input, nil); err != nil {
		t.Fatal(err)
	}
	if fetches.Load() != before || before != 6 {
		t.Fatalf("homepage fetches %d then %d", before, fetches.Load())
	}
}

func TestPrepareSearchResolution(t *testing.T) {
	ctx := context.Background()
	plain := newEnv(t, "openai", "gpt-3.5-turbo", false)
	_, err := plain.p.Prepare(ctx, plain.org.ID, research.Request{Kind: research.KindGen, Query: "q", WebSearch: true, Keys: []string{"a.com"}})
	if !errorsIs(err, research.ErrNoSearch) {
		t.Fatalf("no search available: %v", err)
	}
	if _, err := plain.p.Prepare(ctx, plain.org.ID, research.Request{Kind: research.KindGen, Query: "q", Keys: []string{"a.com"}}); err != nil {
		t.Fatalf("without web_search: %v", err)
	}
	// A model with built-in search needs no provider, and reports its
	// searches as search_calls.
	builtin := newEnv(t, "anthropic", "claude-sonnet-4-5", false)
	builtin.llm.Answer = func(int, string, string) llmfake.Reply {
		return llmfake.Reply{Text: `{"answer":"x"}`, PromptTokens: 50, CompletionTokens: 5, SearchCalls: 2}
	}
	task := builtin.submit(t, research.Request{Kind: research.KindGen, Query: "q", WebSearch: true, SearchContextSize: "high", ContextMode: research.ModeDomain, Keys: []string{"a.com", "b.com"}})
	out, err := builtin.p.Run(ctx, task.ID, task.OrgID, task.Input, nil)
	if err != nil {
		t.Fatal(err)
	}
	cm := out.CostMetadata["anthropic/claude-sonnet-4-5"].(map[string]any)
	if cm["search_calls"] != 4 || cm["prompt_tokens"] != int64(100) || out.CostMetadata["search_provider"] != nil {
		t.Fatalf("builtin cost metadata %v", out.CostMetadata)
	}
	if !strings.Contains(lastBody(builtin.llm), `"max_uses":5`) {
		t.Fatalf("web search tool not sent: %s", lastBody(builtin.llm))
	}
	_, err = plain.p.Prepare(ctx, plain.org.ID, research.Request{Kind: research.KindGen, Query: "q", IntegrationID: "00000000-0000-0000-0000-000000000000", Keys: []string{"a.com"}})
	if !errorsIs(err, research.ErrInvalid) || !strings.Contains(err.Error(), "integration_id") {
		t.Fatalf("unknown integration: %v", err)
	}
}

func TestICPAndMalformedAnswers(t *testing.T) {
	e := newEnv(t, "custom", "llama3", true)
	e.llm.Answer = func(_ int, _, prompt string) llmfake.Reply {
		d := domainInPrompt.FindStringSubmatch(prompt)[1]
		switch d {
		case "company0000.com":
			return llmfake.Reply{Text: "Sure! ```json\n{\"Fit\":\"Yes\",\"Confidence\":\"high\",\"Reasoning\":\"Sells to hospitals.\"}\n```"}
		case "company0001.com":
			return llmfake.Reply{Text: `{"Fit":"maybe","Confidence":"high","Reasoning":"x"}`}
		case "company0002.com":
			return llmfake.Reply{Text: `I cannot answer that.`}
		case "company0003.com":
			return llmfake.Reply{Raw: `{"id": "broken`}
		}
		return llmfake.Reply{Text: `{"Fit":"no","Confidence":"low","Reasoning":"Nothing suggests it."}`}
	}
	task := e.submit(t, research.Request{Kind: research.KindICP, Query: "Hospital software vendors", WebSearch: true, SearchContextSize: "high", ContextMode: research.ModeDomain, Keys: domains(5)})
	out, err := e.p.Run(context.Background(), task.ID, task.OrgID, task.Input, nil)
	if err != nil {
		t.Fatal(err)
	}
	var fit map[string]string
	json.Unmarshal(out.Results["company0000.com"], &fit)
	if fit["Fit"] != "yes" || fit["Confidence"] != "high" {
		t.Fatalf("tolerant parse: %s", out.Results["company0000.com"])
	}
	for _, d := range []string{"company0001.com", "company0002.com", "company0003.com"} {
		if !strings.Contains(out.RecordErrors[d], "answer") && !strings.Contains(out.RecordErrors[d], "model call failed") {
			t.Fatalf("%s: error %q", d, out.RecordErrors[d])
		}
		if string(out.Results[d]) != "null" {
			t.Fatalf("%s: %s", d, out.Results[d])
		}
	}
	// Two fixed queries per domain, whatever the depth asked.
	if got := out.CostMetadata["search_provider"].(map[string]any)["queries_executed"]; got != 10 {
		t.Fatalf("queries %v", got)
	}
}

func TestContactGeneration(t *testing.T) {
	e := newEnv(t, "openai", "gpt-4o-mini", true)
	e.llm.Answer = func(_ int, _, prompt string) llmfake.Reply {
		return llmfake.Reply{Text: `{"contacts":[
			{"name":"Ada Lovelace","title":"CTO","department":"Technology","seniority":"Executive","email":"ada@company0000.com","linkedin_url":"https://www.linkedin.com/in/ada","skills":["math"],"phone":[{"phone":"+14155550100","type":"work"}]},
			{"name":"Bob","title":null,"department":"Wizards","seniority":null,"email":"bob@gmail.com","linkedin_url":null,"skills":[],"phone":[]},
			{"name":"","title":"ghost","department":null,"seniority":null,"email":null,"linkedin_url":null,"skills":[],"phone":[]}],
			"email_pattern":"{first}@company0000.com","email_pattern_confidence":1.7,"email_pattern_guess":"jane@company0000.com"}`}
	}
	task := e.submit(t, research.Request{Kind: research.KindContacts, Query: "engineering leaders", ContextMode: research.ModeDomain, Keys: []string{"company0000.com"}})
	out, err := e.p.Run(context.Background(), task.ID, task.OrgID, task.Input, nil)
	if err != nil {
		t.Fatal(err)
	}
	var rows []research.ContactRow
	if err := json.Unmarshal(out.Results["company0000.com"], &rows); err != nil || len(rows) != 2 {
		t.Fatalf("rows %s %v", out.Results["company0000.com"], err)
	}
	a, b := rows[0], rows[1]
	if !a.Candidate || *a.Email != "ada@company0000.com" || *a.Seniority != "executive" || a.EmailPatternConfidence != 1 || *b.EmailPattern != "{first}@company0000.com" {
		t.Fatalf("row a %+v", a)
	}
	if b.Email != nil || b.Department != nil {
		t.Fatalf("row b keeps a non-domain email or a non-canonical department: %+v", b)
	}
	if out.CostMetadata["search_provider"].(map[string]any)["queries_executed"] != 3 {
		t.Fatalf("contact generation must search: %v", out.CostMetadata)
	}
}

func TestSearchWarnings(t *testing.T) {
	e := newEnv(t, "openai", "gpt-4o-mini", true)
	e.search.Answer = func(n int, q string) searchfake.Reply {
		return searchfake.Reply{Status: 432, Body: `{"detail":"usage limit exceeded"}`}
	}
	task := e.submit(t, research.Request{Kind: research.KindGen, Query: "q", WebSearch: true, ContextMode: research.ModeDomain, Keys: domains(12)})
	out, err := e.p.Run(context.Background(), task.ID, task.OrgID, task.Input, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 12 || len(out.RecordErrors) != 0 {
		t.Fatalf("rows must still complete: %v", out.RecordErrors)
	}
	joined := strings.Join(out.Warnings, "|")
	if !strings.Contains(joined, "out of credits") || !strings.Contains(joined, "circuit breaker open") || len(out.Warnings) != 2 {
		t.Fatalf("warnings %q", out.Warnings)
	}
	// The breaker opened at the first out-of-credit answer.
	if e.search.Calls() > int64(research.DefaultConcurrency)+1 {
		t.Fatalf("%d searches sent to a provider out of credits", e.search.Calls())
	}
	// The next task finds the breaker open: no query runs, and it says so.
	calls := e.search.Calls()
	task = e.submit(t, research.Request{Kind: research.KindGen, Query: "q", WebSearch: true, ContextMode: research.ModeDomain, Keys: domains(3)})
	out, err = e.p.Run(context.Background(), task.ID, task.OrgID, task.Input, nil)
	if err != nil {
		t.Fatal(err)
	}
	joined = strings.Join(out.Warnings, "|")
	if e.search.Calls() != calls || !strings.Contains(joined, "no search query ran") || !strings.Contains(joined, "circuit breaker open") ||
		out.CostMetadata["search_provider"].(map[string]any)["queries_executed"] != 0 {
		t.Fatalf("second task: warnings %q, %d new calls", out.Warnings, e.search.Calls()-calls)
	}
	// Most recent last: the run-level warning comes after the per-record ones.
	if !strings.Contains(out.Warnings[len(out.Warnings)-1], "no search query ran") {
		t.Fatalf("order %q", out.Warnings)
	}
}

// Token counts a provider does not report are absent, not zero.
func TestUnreportedTokens(t *testing.T) {
	e := newEnv(t, "anthropic", "claude-sonnet-4-5", false)
	e.llm.Answer = func(int, string, string) llmfake.Reply { return llmfake.Reply{Text: `{"answer":"x"}`, NoUsage: true} }
	task := e.submit(t, research.Request{Kind: research.KindGen, Query: "q", ContextMode: research.ModeDomain, Keys: domains(2)})
	out, err := e.p.Run(context.Background(), task.ID, task.OrgID, task.Input, nil)
	if err != nil {
		t.Fatal(err)
	}
	cm := out.CostMetadata["anthropic/claude-sonnet-4-5"].(map[string]any)
	if _, ok := cm["prompt_tokens"]; ok || cm["calls"] != 2 {
		t.Fatalf("cost metadata %v", cm)
	}
	if _, ok := cm["completion_tokens"]; ok {
		t.Fatalf("cost metadata %v", cm)
	}
}

func lastBody(f *llmfake.Server) string {
	b := f.Bodies()
	return b[len(b)-1]
}

func errorsIs(err, target error) bool {
	for err != nil {
		if err == target {
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// runner starts a task runner with the research kinds.
func runner(t testing.TB, e *env, lease time.Duration) *jobs.Runner {
	r := &jobs.Runner{Store: e.st, Workers: 2, Lease: lease, PollInterval: 100 * time.Millisecond, ProgressEvery: 100 * time.Millisecond, StopTimeout: 5 * time.Second, Log: zerolog.Nop()}
	jobs.RegisterResearch(r, e.p)
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return r
}

func waitFor(t testing.TB, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A runner stopped mid-task (as a killed server: its lease is left to
// expire) leaves finished records stored; the runner that takes the task
// over never sends them to the model again, and completes the task.
func TestResumeAfterCrash(t *testing.T) {
	e := newEnv(t, "openai", "gpt-4o-mini", false)
	e.p.Concurrency = 4
	e.llm.Delay = 30 * time.Millisecond
	task := e.submit(t, research.Request{Kind: research.KindGen, Query: "q", ContextMode: research.ModeDomain, Keys: domains(60)})
	a := runner(t, e, time.Second)
	waitFor(t, 10*time.Second, func() bool {
		recs, _ := e.st.ResearchRecords(context.Background(), task.ID)
		return len(recs) >= 15
	})
	a.Stop()
	finished, _ := e.st.ResearchRecords(context.Background(), task.ID)
	if len(finished) >= 60 {
		t.Fatal("task finished before the crash")
	}
	b := runner(t, e, time.Second)
	defer b.Stop()
	waitFor(t, 20*time.Second, func() bool {
		got, _ := e.st.GetTask(context.Background(), e.org.ID, task.ID)
		return got.Status == store.TaskCompleted
	})
	sent := map[string]int{}
	for _, p := range e.llm.Prompts() {
		if m := domainInPrompt.FindStringSubmatch(p); m != nil {
			sent[m[1]]++
		}
	}
	for d := range finished {
		if sent[d] != 1 {
			t.Fatalf("%s finished before the crash but was sent %d times", d, sent[d])
		}
	}
	got, _ := e.st.GetTask(context.Background(), e.org.ID, task.ID)
	var out research.Outcome
	json.Unmarshal(got.Result, &out)
	if len(out.Results) != 60 || len(out.RecordErrors) != 0 {
		t.Fatalf("final results %d, errors %v", len(out.Results), out.RecordErrors)
	}
	if out.CostMetadata["openai/gpt-4o-mini"].(map[string]any)["calls"] != float64(60) {
		t.Fatalf("calls %v", out.CostMetadata)
	}
}

// Cancelling a running task stops new model calls within 2 s.
func TestCancelStopsCalls(t *testing.T) {
	e := newEnv(t, "openai", "gpt-4o-mini", false)
	e.llm.Delay = 100 * time.Millisecond
	task := e.submit(t, research.Request{Kind: research.KindGen, Query: "q", ContextMode: research.ModeDomain, Keys: domains(1000)})
	r := runner(t, e, 5*time.Second)
	defer r.Stop()
	waitFor(t, 10*time.Second, func() bool { return e.llm.Calls() > 20 })
	if err := e.st.CancelTask(context.Background(), e.org.ID, task.ID); err != nil {
		t.Fatal(err)
	}
	cancelled := time.Now()
	time.Sleep(2 * time.Second)
	at2s := e.llm.Calls()
	time.Sleep(time.Second)
	if e.llm.Calls() != at2s {
		t.Fatalf("calls went on after cancel: %d at +2s, %d at +3s", at2s, e.llm.Calls())
	}
	waitFor(t, 5*time.Second, func() bool {
		got, _ := e.st.GetTask(context.Background(), e.org.ID, task.ID)
		return got.Status == store.TaskCancelled
	})
	t.Logf("stopped after %d calls; cancelled status within %v", at2s, time.Since(cancelled))
}

// A record that outlives the per-record timeout is marked; the others
// and the task complete.
func TestRecordTimeout(t *testing.T) {
	e := newEnv(t, "openai", "gpt-4o-mini", false)
	e.p.RecordTimeout = 300 * time.Millisecond
	e.llm.Answer = func(_ int, _, prompt string) llmfake.Reply {
		if strings.Contains(prompt, "company0001.com") {
			time.Sleep(2 * time.Second)
		}
		return llmfake.Reply{Text: `{"answer":"ok"}`}
	}
	task := e.submit(t, research.Request{Kind: research.KindGen, Query: "q", ContextMode: research.ModeDomain, Keys: domains(3)})
	start := time.Now()
	out, err := e.p.Run(context.Background(), task.ID, task.OrgID, task.Input, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.RecordErrors["company0001.com"] != "record timed out" || string(out.Results["company0000.com"]) != `"ok"` || len(out.Results) != 3 {
		t.Fatalf("outcome %+v", out)
	}
	if time.Since(start) > 1500*time.Millisecond {
		t.Fatalf("took %v", time.Since(start))
	}
}

// A provider answering "model not found" fails the records and flags the
// integration's model as deprecated.
func TestModelGoneMarksDeprecated(t *testing.T) {
	e := newEnv(t, "openai", "gpt-4o-mini", false)
	e.llm.Answer = func(int, string, string) llmfake.Reply { return llmfake.Reply{Status: 404} }
	task := e.submit(t, research.Request{Kind: research.KindGen, Query: "q", ContextMode: research.ModeDomain, Keys: domains(3)})
	out, err := e.p.Run(context.Background(), task.ID, task.OrgID, task.Input, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.RecordErrors) != 3 || !strings.Contains(out.RecordErrors["company0000.com"], "model call failed") {
		t.Fatalf("record errors %v", out.RecordErrors)
	}
	in, _ := e.st.GetIntegration(context.Background(), e.org.ID, store.IntegrationLLM, e.llmID)
	if !in.ModelDeprecated {
		t.Fatal("model not flagged deprecated")
	}
}
