package mcp_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openprospect/prospectd/api"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/providers/llm/llmfake"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/secrets"
)

const llmKey = "sk-proj-MCPTEST-0123456789abcdef"

// researchFixture has an LLM integration of org A on a fake OpenAI and
// homepages served on loopback.
func researchFixture(t *testing.T) (fixture, *llmfake.Server) {
	t.Helper()
	fake := llmfake.Start(llmKey)
	t.Cleanup(fake.Close)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "<html><body><p>Homepage of %s</p></body></html>", r.URL.Query().Get("d"))
	}))
	t.Cleanup(site.Close)
	box, err := secrets.New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	var svc *integrations.Service
	f := newFixtureWith(t, func(d *api.Deps) {
		cfg := research.Config{Secrets: box, AllowPrivate: true, MaxRetries: 1,
			HomepageURL: func(domain string) string { return site.URL + "/?d=" + domain }}
		d.Integrations, d.Research = research.New(cfg, d.Store.(research.State), d.Engine.(index.Engine), d.Log)
		svc = d.Integrations
	}, nil)
	ctx := context.Background()
	org, err := f.st.OrgByName(ctx, "org-a")
	if err != nil {
		t.Fatal(err)
	}
	key := llmKey
	if _, err := svc.CreateLLM(ctx, org.ID, integrations.LLMFields{Name: "main", Provider: "openai", Model: "gpt-4o-mini",
		BaseURL: fake.URL + "/v1/", APIKey: &key}); err != nil {
		t.Fatalf("LLM integration: %v", err)
	}
	return f, fake
}

func waitResearch(t *testing.T, cs *sdk.ClientSession, id string) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; {
		out, isErr := callTool(t, cs, "get_research_status", map[string]any{"task_id": id})
		if isErr {
			t.Fatalf("get_research_status: %v", out)
		}
		switch out["status"] {
		case "completed", "failed", "cancelled":
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("research task %s still %v", id, out["status"])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestResearchTools(t *testing.T) {
	f, fake := researchFixture(t)
	fake.Answer = func(_ int, _, prompt string) llmfake.Reply {
		if strings.Contains(prompt, "Fit") || strings.Contains(prompt, "ICP") {
			return llmfake.Reply{Text: `{"Fit":"partial","Confidence":"medium","Reasoning":"Some overlap."}`}
		}
		return llmfake.Reply{Text: `{"answer":"hospitals: yes"}`, PromptTokens: 11, CompletionTokens: 3}
	}
	cs := connect(t, f.url, f.keyA, nil)
	csB := connect(t, f.url, f.keyB, nil)

	models, isErr := callTool(t, cs, "list_models", nil)
	if isErr || len(models["models"].(map[string]any)["openai"].([]any)) == 0 {
		t.Fatalf("list_models: %v", models)
	}
	if m, _ := callTool(t, csB, "list_models", nil); len(m["models"].(map[string]any)) != 0 {
		t.Errorf("org B sees A's integrations: %v", m)
	}

	// ICP validation bills the companies and the provider calls: both in
	// the estimate.
	args := map[string]any{"icp_text": "Sells to hospitals", "domains": []any{"acme.com", "https://www.wachdienst.de/"}}
	est, _ := callTool(t, cs, "validate_icp", args)
	e, _ := est["estimate"].(map[string]any)
	if est["status"] != "confirmation_required" || e["credits"] != float64(2) || e["provider_calls"] != float64(2) {
		t.Fatalf("validate_icp estimate: %v", est)
	}
	acc := confirmed(t, cs, "validate_icp", args)
	if acc["total_domains"] != float64(2) || acc["credits_billed"] != float64(2) {
		t.Fatalf("validate_icp: %v", acc)
	}
	taskID := acc["task_id"].(string)
	st := waitResearch(t, cs, taskID)
	if st["status"] != "completed" || len(st["results"].(map[string]any)) != 2 {
		t.Fatalf("validate_icp status: %v", st)
	}

	// context_mode domain spends no credits but still the customer's
	// model fees: confirmed first all the same.
	gen := map[string]any{"query": "Does this company sell to hospitals?", "domains": []any{"acme.com"}, "context_mode": "domain"}
	est, _ = callTool(t, cs, "research_domains", gen)
	if e, _ := est["estimate"].(map[string]any); est["status"] != "confirmation_required" || e["credits"] != float64(0) || e["provider_calls"] != float64(1) {
		t.Fatalf("research_domains estimate: %v", est)
	}
	acc = confirmed(t, cs, "research_domains", gen)
	if st := waitResearch(t, cs, acc["task_id"].(string)); st["status"] != "completed" {
		t.Fatalf("research_domains: %v", st)
	}

	// Contact generation bills no credits, only the customer's provider.
	acc = confirmed(t, cs, "generate_contacts", map[string]any{"icp_text": "CTOs of robot makers", "domains": []any{"acme.com"}})
	if acc["credits_billed"] != float64(0) {
		t.Errorf("generate_contacts billed credits: %v", acc)
	}
	if st := waitResearch(t, cs, acc["task_id"].(string)); st["status"] != "completed" {
		t.Fatalf("generate_contacts: %v", st)
	}

	// Another organization cannot read or cancel A's task.
	for _, tool := range []string{"get_research_status", "cancel_research_task"} {
		if out, isErr := callTool(t, csB, tool, map[string]any{"task_id": taskID}); !isErr || out["status"] != float64(404) {
			t.Errorf("org B %s on A's task: %v", tool, out)
		}
	}
	if out, isErr := callTool(t, cs, "cancel_research_task", map[string]any{"task_id": taskID}); !isErr || out["status"] != float64(409) {
		t.Errorf("cancel a completed task: %v", out)
	}

	bad := []struct {
		name, tool string
		caller     *sdk.ClientSession
		args       map[string]any
		status     float64
		want       string
	}{
		{"no integration in org B", "validate_icp", csB, args, 400, "integration_id"},
		{"bad context mode", "research_domains", cs, map[string]any{"query": "q", "domains": []any{"acme.com"}, "context_mode": "everything"}, 422, "context_mode"},
		{"negative persona id", "research_contacts", cs, map[string]any{"query": "q", "persona_ids": []any{-1}}, 422, "persona_ids[0]"},
		{"not a domain", "validate_icp", cs, map[string]any{"icp_text": "x", "domains": []any{"not a domain"}}, 422, "domains"},
	}
	for _, tc := range bad {
		out, isErr := callTool(t, tc.caller, tc.tool, tc.args)
		if !isErr || out["status"] != tc.status || !strings.Contains(fmt.Sprint(out["detail"]), tc.want) {
			t.Errorf("%s: %v, want %v naming %s", tc.name, out, tc.status, tc.want)
		}
	}
}
