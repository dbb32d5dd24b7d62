package api

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/providers/llm/llmfake"
	"github.com/openprospect/prospectd/providers/search/searchfake"
	"github.com/openprospect/prospectd/research"
)

// researchSetup is an API with running task workers, an LLM integration
// on a fake OpenAI and a search integration on a fake Serper.
func researchSetup(t *testing.T, model string) (*researchFixture, *llmfake.Server, *searchfake.Server) {
	t.Helper()
	fake := llmfake.Start(testLLMKey)
	t.Cleanup(fake.Close)
	fake.Models = append(fake.Models, model)
	sf := searchfake.Start(testSearchKey)
	t.Cleanup(sf.Close)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><body><p>Homepage of %s</p></body></html>", r.URL.Query().Get("d"))
	}))
	t.Cleanup(site.Close)
	f := newResearchFixture(t, true, func(c *research.Config) {
		c.HomepageURL = func(domain string) string { return site.URL + "/?d=" + domain }
	})
	body := llmCreateBody(fake, "openai", testLLMKey)
	body["model_name"] = model
	if code, b := f.send(t, "POST", "/v1/llm-providers/config", f.key, body); code != 200 {
		t.Fatalf("llm integration: %d %v", code, b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := f.srv.StartJobs(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); f.srv.StopJobs() })
	return f, fake, sf
}

func addSearch(t *testing.T, f *researchFixture, sf *searchfake.Server) {
	t.Helper()
	code, b := f.send(t, "POST", "/v1/search-providers", f.key, map[string]any{
		"integration_name": "serper", "provider": "serper", "search_model": "serper/search", "api_key": testSearchKey, "base_url": sf.URL})
	if code != 201 {
		t.Fatalf("search integration: %d %v", code, b)
	}
}

func (f *researchFixture) waitDone(t *testing.T, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		code, body := f.send(t, "GET", "/v1/gen/status/"+id, f.key, nil)
		if code != 200 {
			t.Fatalf("status: %d %v", code, body)
		}
		switch body["status"] {
		case "completed", "failed", "cancelled":
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("task still %v", body["status"])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestGenProcess(t *testing.T) {
	f, fake, sf := researchSetup(t, "gpt-4o-mini")
	addSearch(t, f, sf)
	fake.Answer = func(n int, _, prompt string) llmfake.Reply {
		if strings.Contains(prompt, "domain: acme.com") && (!strings.Contains(prompt, "Homepage of acme.com") || !strings.Contains(prompt, `Earlier findings: {"answer":"earlier: maybe"}`)) {
			return llmfake.Reply{Text: `{"answer":"no homepage"}`, PromptTokens: 11, CompletionTokens: 3}
		}
		return llmfake.Reply{Text: `{"answer":"hospitals: yes"}`, PromptTokens: 11, CompletionTokens: 3}
	}
	code, body := f.send(t, "POST", "/v1/gen/process", f.key, map[string]any{
		"query": "Does it sell to hospitals?", "domains": []string{"acme.com", "https://www.brightbank.co.uk/x", "unknown-co.com"},
		"web_search": true, "search_context_size": "medium", "previous_discogen_data": map[string]any{"WWW.Acme.com": map[string]any{"answer": "earlier: maybe"}}})
	if code != 200 || body["status"] != "in_progress" || body["total_domains"] != float64(3) || body["column_name"].([]any)[0] != "answer" {
		t.Fatalf("submit: %d %v", code, body)
	}
	st := f.waitDone(t, body["task_id"].(string))
	if st["status"] != "completed" || st["progress"] != float64(100) {
		t.Fatalf("status %v", st)
	}
	res := st["results"].(map[string]any)
	if len(res) != 3 || res["acme.com"] != "hospitals: yes" || res["brightbank.co.uk"] != "hospitals: yes" {
		t.Fatalf("results %v", res)
	}
	if len(st["interim_results"].(map[string]any)) != 3 {
		t.Fatalf("interim_results %v", st["interim_results"])
	}
	cm := st["cost_metadata"].(map[string]any)
	m := cm["openai/gpt-4o-mini"].(map[string]any)
	if m["calls"] != float64(3) || m["prompt_tokens"] != float64(33) || m["completion_tokens"] != float64(9) || m["search_calls"] != float64(0) {
		t.Fatalf("model cost metadata %v", m)
	}
	sp := cm["search_provider"].(map[string]any)
	if sp["provider"] != "serper" || sp["queries_executed"] != float64(9) || sp["queries_succeeded"] != float64(9) {
		t.Fatalf("search provider %v", sp)
	}
	rf := st["response_format"].(map[string]any)
	if rf["response_type"] != "text" || rf["field_labels"].(map[string]any)["answer"] == nil || st["estimated_cost"].(float64) <= 0 {
		t.Fatalf("response_format/estimated_cost %v %v", rf, st["estimated_cost"])
	}
	if w, ok := st["warnings"].([]any); !ok || len(w) != 0 {
		t.Fatalf("warnings %v", st["warnings"])
	}
	// Profiles (website mode) were billed as company records; a second
	// run over the same domains is free (90-day window).
	org, _ := f.st.OrgByName(context.Background(), "acme")
	start, end := account.Period(time.Now())
	u, _ := f.st.Usage(context.Background(), org.ID, start, end)
	if u.Credits != 3 {
		t.Fatalf("credits used %d, want 3", u.Credits)
	}
	code, body = f.send(t, "POST", "/v1/gen/process", f.key, map[string]any{"query": "q", "domains": []string{"acme.com"}, "context_mode": "domain"})
	if code != 200 {
		t.Fatalf("domain mode: %d %v", code, body)
	}
	f.waitDone(t, body["task_id"].(string))
	if u, _ := f.st.Usage(context.Background(), org.ID, start, end); u.Credits != 3 {
		t.Fatalf("domain mode billed credits: %d", u.Credits)
	}

	code, body = f.send(t, "GET", "/v1/gen/models", f.key, nil)
	models := body["models"].(map[string]any)["openai"].([]any)
	if code != 200 || len(models) < 2 {
		t.Fatalf("models %d %v", code, body)
	}
	f.assertNoKeys(t, testLLMKey, testSearchKey)
}

func TestGenValidation(t *testing.T) {
	f, _, _ := researchSetup(t, "gpt-3.5-turbo")
	for _, tc := range []struct {
		name string
		body map[string]any
		want int
		has  string
	}{
		{"web_search without any search", map[string]any{"query": "q", "domains": []string{"acme.com"}, "web_search": true}, 400, "web_search"},
		{"no domains", map[string]any{"query": "q", "domains": []string{}}, 422, "domains"},
		{"bad domain", map[string]any{"query": "q", "domains": []string{"not a domain"}}, 422, "domains[0]"},
		{"blank query", map[string]any{"query": "", "domains": []string{"acme.com"}}, 422, "query"},
		{"bad depth", map[string]any{"query": "q", "domains": []string{"acme.com"}, "search_context_size": "huge"}, 422, "search_context_size"},
		{"bad mode", map[string]any{"query": "q", "domains": []string{"acme.com"}, "context_mode": "full"}, 422, "context_mode"},
		{"integration not uuid", map[string]any{"query": "q", "domains": []string{"acme.com"}, "integration_id": "x"}, 422, "integration_id"},
		{"unknown integration", map[string]any{"query": "q", "domains": []string{"acme.com"}, "integration_id": "00000000-0000-4000-8000-000000000000"}, 400, "integration_id"},
		{"unknown field", map[string]any{"query": "q", "domains": []string{"acme.com"}, "bogus": 1}, 422, "bogus"},
		{"bad previous key", map[string]any{"query": "q", "domains": []string{"acme.com"}, "previous_discogen_data": map[string]any{"not a domain": 1}}, 422, "previous_discogen_data"},
		{"too many domains", map[string]any{"query": "q", "domains": make([]string, 10001)}, 422, "domains"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := f.send(t, "POST", "/v1/gen/process", f.key, tc.body)
			if code != tc.want || !strings.Contains(fmt.Sprint(body["detail"]), tc.has) {
				t.Fatalf("%d %v", code, body)
			}
		})
	}
	if code, _ := f.send(t, "GET", "/v1/gen/status/nope", f.key, nil); code != 404 {
		t.Fatalf("unknown task: %d", code)
	}
	if code, _ := f.send(t, "DELETE", "/v1/gen/cancel/nope", f.key, nil); code != 404 {
		t.Fatalf("cancel unknown task: %d", code)
	}
	// An organization with no LLM integration is told to create one.
	other := f.keyFor(t, "other", "starter")
	code, body := f.send(t, "POST", "/v1/validate/icp", other, map[string]any{"icp_text": "x", "domains": []string{"acme.com"}})
	if code != 400 || !strings.Contains(body["detail"].(string), "llm-providers") {
		t.Fatalf("no integration: %d %v", code, body)
	}
}

func TestICPAndContactGenerationRoutes(t *testing.T) {
	f, fake, sf := researchSetup(t, "gpt-3.5-turbo")
	fake.Answer = func(_ int, _, prompt string) llmfake.Reply {
		if strings.Contains(prompt, "ideal customer profile") {
			return llmfake.Reply{Text: `{"Fit":"partial","Confidence":"medium","Reasoning":"Some overlap."}`}
		}
		return llmfake.Reply{Text: `{"contacts":[{"name":"Ada","title":"CTO","department":"Technology","seniority":"executive","email":null,"linkedin_url":null,"skills":[],"phone":[]}],"email_pattern":"{first}@acme.com","email_pattern_confidence":0.6,"email_pattern_guess":"jane@acme.com"}`}
	}
	// Contact generation always searches: without a search integration
	// or a search model it is refused.
	code, body := f.send(t, "POST", "/v1/contacts/discover/generate", f.key, map[string]any{"icp_text": "CTOs", "domains": []string{"acme.com"}})
	if code != 400 {
		t.Fatalf("generate without search: %d %v", code, body)
	}
	addSearch(t, f, sf)
	code, body = f.send(t, "POST", "/v1/validate/icp", f.key, map[string]any{"icp_text": "Fintech", "domains": []string{"acme.com", "brightbank.co.uk"}, "web_search": true})
	if code != 200 || fmt.Sprint(body["column_name"]) != "[Fit Confidence Reasoning]" {
		t.Fatalf("icp submit: %d %v", code, body)
	}
	st := f.waitDone(t, body["task_id"].(string))
	fit := st["results"].(map[string]any)["acme.com"].(map[string]any)
	if fit["Fit"] != "partial" || fit["Confidence"] != "medium" || fit["Reasoning"] != "Some overlap." {
		t.Fatalf("icp %v", st)
	}
	if st["cost_metadata"].(map[string]any)["search_provider"].(map[string]any)["queries_executed"] != float64(4) {
		t.Fatalf("icp searches %v", st["cost_metadata"])
	}
	code, body = f.send(t, "POST", "/v1/contacts/discover/generate", f.key, map[string]any{"icp_text": "CTOs", "domains": []string{"acme.com"}, "context_mode": "domain"})
	if code != 200 || len(body["column_name"].([]any)) != 11 {
		t.Fatalf("generate: %d %v", code, body)
	}
	st = f.waitDone(t, body["task_id"].(string))
	rows := st["results"].(map[string]any)["acme.com"].([]any)
	row := rows[0].(map[string]any)
	if row["name"] != "Ada" || row["candidate"] != true || row["email_pattern"] != "{first}@acme.com" || row["department"] != "Technology" {
		t.Fatalf("rows %v", rows)
	}
	f.assertNoKeys(t, testLLMKey, testSearchKey)
}

func TestGenCancel(t *testing.T) {
	f, fake, _ := researchSetup(t, "gpt-4o-mini")
	fake.Delay = 100 * time.Millisecond
	domains := make([]string, 300)
	for i := range domains {
		domains[i] = fmt.Sprintf("company%03d.com", i)
	}
	code, body := f.send(t, "POST", "/v1/gen/process", f.key, map[string]any{"query": "q", "domains": domains, "context_mode": "domain"})
	if code != 200 {
		t.Fatalf("submit: %d %v", code, body)
	}
	id := body["task_id"].(string)
	deadline := time.Now().Add(10 * time.Second)
	for fake.Calls() < 10 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	code, body = f.send(t, "DELETE", "/v1/gen/cancel/"+id, f.key, nil)
	if code != 200 || body["success"] != true || body["status"] != "cancelling" || body["task_id"] != id {
		t.Fatalf("cancel: %d %v", code, body)
	}
	time.Sleep(2 * time.Second)
	n := fake.Calls()
	time.Sleep(time.Second)
	if fake.Calls() != n {
		t.Fatalf("calls after cancel: %d then %d", n, fake.Calls())
	}
	st := f.waitDone(t, id)
	if st["status"] != "cancelled" || len(st["interim_results"].(map[string]any)) == 0 {
		t.Fatalf("after cancel: %v %d interim", st["status"], len(st["interim_results"].(map[string]any)))
	}
	if code, _ := f.send(t, "DELETE", "/v1/gen/cancel/"+id, f.key, nil); code != 200 {
		t.Fatalf("cancel again: %d", code)
	}
}

func TestGenProcessPersonas(t *testing.T) {
	f, fake, _ := researchSetup(t, "gpt-4o-mini")
	ce := f.srv.deps.Engine.(index.ContactEngine)
	if _, err := ce.UpsertContacts(context.Background(), enginetest.ContactFixtures()); err != nil {
		t.Fatal(err)
	}
	fake.Answer = func(_ int, _, prompt string) llmfake.Reply {
		switch {
		case strings.Contains(prompt, "Person: Ana García") && strings.Contains(prompt, "Employer profile") && strings.Contains(prompt, "Homepage of acme.com"):
			return llmfake.Reply{Text: `{"answer":"runs security at Acme"}`}
		case strings.Contains(prompt, "Person: Priya Shah") && strings.Contains(prompt, "Homepage of brightbank.co.uk"):
			return llmfake.Reply{Text: `{"answer":"CFO of Bright Bank"}`}
		}
		return llmfake.Reply{Text: `{"answer":"missing context"}`}
	}
	code, body := f.send(t, "POST", "/v1/gen/process-personas", f.key, map[string]any{"query": "What do they own?", "persona_ids": []int64{1, 20}, "context_mode": "full"})
	if code != 200 || body["total_domains"] != float64(2) {
		t.Fatalf("submit: %d %v", code, body)
	}
	st := f.waitDone(t, body["task_id"].(string))
	res := st["results"].(map[string]any)
	if res["1"] != "runs security at Acme" || res["20"] != "CFO of Bright Bank" {
		t.Fatalf("results %v", st)
	}
	org, _ := f.st.OrgByName(context.Background(), "acme")
	start, end := account.Period(time.Now())
	if u, _ := f.st.Usage(context.Background(), org.ID, start, end); u.Records["contact"] != 2 {
		t.Fatalf("contacts billed %v", u.Records)
	}
	for _, bad := range []map[string]any{
		{"query": "q", "persona_ids": []int64{}},
		{"query": "q", "persona_ids": []int64{0}},
		{"query": "q", "persona_ids": []any{"x"}},
		{"query": "q", "persona_ids": []int64{1}, "context_mode": "website"},
	} {
		if code, body := f.send(t, "POST", "/v1/gen/process-personas", f.key, bad); code != 422 {
			t.Fatalf("%v: %d %v", bad, code, body)
		}
	}
}
