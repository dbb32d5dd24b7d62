package prospecting_test

import (
	"context"
	"flag"
	"hash/fnv"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/providers/llm/llmfake"
	"github.com/openprospect/prospectd/providers/search/searchfake"
)

var benchRun = flag.Bool("prospecting-bench", false, "run the 200-company leads run benchmark (docs/benchmarks.md)")

const (
	fakeLLMKey    = "sk-test-PROSPECT-0123456789abcdef"
	fakeSearchKey = "search-PROSPECT-0123456789"
)

var domainInPrompt = regexp.MustCompile(`Company domain: (\S+)`)

// withProviders gives the organization one LLM integration (a fake
// OpenAI rating four companies in five as fit) and one search integration
// (a fake Tavily), both answering after delay.
func withProviders(t testing.TB, e *env, delay time.Duration) (*llmfake.Server, *searchfake.Server) {
	t.Helper()
	ctx := context.Background()
	fake := llmfake.Start(fakeLLMKey)
	t.Cleanup(fake.Close)
	fake.Delay = delay
	fake.Answer = func(_ int, _, prompt string) llmfake.Reply {
		fit := "yes"
		if m := domainInPrompt.FindStringSubmatch(prompt); m != nil {
			h := fnv.New32a()
			h.Write([]byte(m[1]))
			if h.Sum32()%5 == 0 {
				fit = "no"
			}
		}
		return llmfake.Reply{Text: `{"Fit":"` + fit + `","Confidence":"high","Reasoning":"rated by the fake"}`, PromptTokens: 1000, CompletionTokens: 100}
	}
	k := fakeLLMKey
	if _, err := e.integ.CreateLLM(ctx, e.actor.Org.ID, integrations.LLMFields{Name: "fake", Provider: "openai", Model: "gpt-4o-mini",
		BaseURL: fake.URL + "/v1/", APIKey: &k}); err != nil {
		t.Fatal(err)
	}
	sf := searchfake.Start(fakeSearchKey)
	t.Cleanup(sf.Close)
	sf.Delay = delay
	sk := fakeSearchKey
	if _, err := e.integ.CreateSearch(ctx, e.actor.Org.ID, integrations.SearchFields{Name: "s", Provider: "tavily", SearchModel: "tavily/search",
		BaseURL: sf.URL, APIKey: &sk}); err != nil {
		t.Fatal(err)
	}
	return fake, sf
}

func TestProviderEnginesCostsAndLimit(t *testing.T) {
	e := newEnv(t, envOpts{})
	fake, sf := withProviders(t, e, 0)
	r := e.startApproved(t, "llm-1", prospecting.Request{Brief: billingBrief, TargetCompanies: ptr(10), ContactsPerCompany: ptr(6)})
	p := r.Data.Plan
	if sel := p.CompanyCheckEngine.Selected; sel == nil || *sel == prospecting.EngineNativeICP || *p.ContactEngine.Selected != prospecting.EngineNative ||
		*p.SearchProvider.Selected == prospecting.SearchNone || p.Estimate.AICostUSD <= 0 || p.Estimate.BilledCalls == 0 {
		t.Fatalf("plan engines and estimate: %+v", p)
	}
	r = e.waitStatus(t, r.ID, 60*time.Second, prospecting.StatusCompleted)
	c := r.Data.Progress.Count()
	if r.Data.StopReason != prospecting.StopTargetReached || fake.Calls() == 0 || sf.Calls() == 0 {
		t.Fatalf("stop %s, counts %+v, %d model calls, %d searches", r.Data.StopReason, c, fake.Calls(), sf.Calls())
	}
	if r.Data.Costs.AI() <= 0 || r.Data.Costs.Search() <= 0 {
		t.Fatalf("provider costs not split: %+v", r.Data.Costs)
	}
	t.Logf("provider costs: AI $%.6f, search $%.6f; %d model calls, %d searches", r.Data.Costs.AI(), r.Data.Costs.Search(), fake.Calls(), sf.Calls())

	// A provider spending limit stops the run once reached, keeping what
	// was found; a later run of the same org reuses nothing billed.
	r2 := e.startApproved(t, "llm-2", prospecting.Request{Brief: billingBrief, TargetCompanies: ptr(10), MaxProviderSpendUSD: ptr(0.001)})
	r2 = e.waitStatus(t, r2.ID, 60*time.Second, prospecting.StatusCompleted)
	if r2.Data.StopReason != prospecting.StopProviderLimit || r2.Data.Progress.Count().Fit == 0 {
		t.Fatalf("provider limit: stop %s, counts %+v, costs %+v", r2.Data.StopReason, r2.Data.Progress.Count(), r2.Data.Costs)
	}

	// A provider that refuses the key fails the checks; nothing falls
	// back to the built-in engine or another key.
	fake.Key = "sk-rotated-elsewhere"
	r3 := e.startApproved(t, "llm-3", prospecting.Request{Brief: billingBrief, TargetCompanies: ptr(5), Deliverable: ptr("accounts")})
	r3 = e.waitStatus(t, r3.ID, 60*time.Second, prospecting.StatusCompleted, prospecting.StatusFailed)
	for _, c := range r3.Data.Progress.Candidates {
		if c.Fit || c.Checked && !strings.Contains(c.Reason, "check failed") {
			t.Fatalf("candidate %+v after the provider refused the key", c)
		}
	}
}

// TestBenchmarkLeadsRun200 is the bar: a 200-company leads run on
// the demo corpus with the fakes answering in 50 ms completes within two
// minutes. Run with -prospecting-bench (see docs/benchmarks.md).
func TestBenchmarkLeadsRun200(t *testing.T) {
	if !*benchRun {
		t.Skip("benchmark: run with -prospecting-bench")
	}
	e := newEnv(t, envOpts{})
	withProviders(t, e, 50*time.Millisecond)
	start := time.Now()
	r := e.startApproved(t, "bench", prospecting.Request{Brief: "Find 200 B2B companies and 2 managers at each"})
	r = e.waitStatus(t, r.ID, 5*time.Minute, prospecting.StatusCompleted)
	took := time.Since(start)
	c := r.Data.Progress.Count()
	t.Logf("200-company leads run: %s; stop %s; %+v; provider AI $%.4f search $%.4f", took.Round(time.Millisecond), r.Data.StopReason, c,
		r.Data.Costs.AI(), r.Data.Costs.Search())
	if r.Data.StopReason != prospecting.StopTargetReached || took > 2*time.Minute {
		t.Fatalf("stop %s after %s", r.Data.StopReason, took)
	}
	if path := os.Getenv("PROSPECT_BENCH_OUT"); path != "" {
		os.WriteFile(path, []byte(took.String()+"\n"), 0o644)
	}
}
