package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/netguard"
	"github.com/openprospect/prospectd/providers/llm"
	"github.com/openprospect/prospectd/providers/llm/llmfake"
)

const key = "sk-test-0123456789abcdef"

func client(t *testing.T, f *llmfake.Server, provider, k string) llm.Client {
	t.Helper()
	base := f.URL + "/v1/"
	if provider == llm.Anthropic {
		base = f.URL
	}
	c, err := llm.New(llm.Config{Provider: provider, APIKey: k, Model: "gpt-4o-mini", BaseURL: base,
		HTTP: netguard.NewClient(netguard.Options{AllowPrivate: true}), MaxRetries: 2})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestComplete(t *testing.T) {
	for _, provider := range []string{llm.OpenAI, llm.Anthropic, llm.Custom} {
		t.Run(provider, func(t *testing.T) {
			f := llmfake.Start(key)
			defer f.Close()
			f.Answer = func(n int, system, prompt string) llmfake.Reply {
				return llmfake.Reply{Text: `{"answer":"` + prompt + `"}`, PromptTokens: 123, CompletionTokens: 45, SearchCalls: 2}
			}
			c := client(t, f, provider, key)
			resp, err := c.Complete(context.Background(), llm.Request{System: "be brief", Prompt: "hello",
				Schema: map[string]any{"type": "object", "properties": map[string]any{"answer": map[string]any{"type": "string"}}}, WebSearch: true, SearchContextSize: "medium"})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != `{"answer":"hello"}` || resp.PromptTokens != 123 || resp.CompletionTokens != 45 || !resp.TokensReported {
				t.Fatalf("resp = %+v", resp)
			}
			body := f.Bodies()[0]
			switch provider {
			case llm.OpenAI:
				if !strings.Contains(body, `"json_schema"`) || !strings.Contains(body, `"search_context_size":"medium"`) {
					t.Fatalf("request lacks structured output or web search: %s", body)
				}
			case llm.Anthropic:
				if !strings.Contains(body, `"web_search_20250305"`) || !strings.Contains(body, `"max_uses":3`) || resp.SearchCalls != 2 {
					t.Fatalf("request lacks the web search tool: %s (%+v)", body, resp)
				}
			case llm.Custom:
				if strings.Contains(body, `"json_schema"`) || !strings.Contains(body, "JSON schema") {
					t.Fatalf("custom request should ask for the schema in the prompt: %s", body)
				}
			}
			ms, err := c.Models(context.Background())
			if err != nil || len(ms) != 3 {
				t.Fatalf("models = %v, %v", ms, err)
			}
		})
	}
}

// OpenAI searches through chat completions with the search-preview
// models and through the Responses API's tool with the others.
func TestOpenAIWebSearchRoutes(t *testing.T) {
	f := llmfake.Start(key)
	defer f.Close()
	f.Answer = func(int, string, string) llmfake.Reply {
		return llmfake.Reply{Text: `{"answer":"x"}`, PromptTokens: 70, CompletionTokens: 9, SearchCalls: 2}
	}
	for _, tc := range []struct {
		model, want string
		searches    int
	}{
		{"gpt-4o-search-preview", `"web_search_options":{"search_context_size":"high"}`, 1},
		{"gpt-4.1", `"type":"web_search_preview"`, 2},
	} {
		c, _ := llm.New(llm.Config{Provider: llm.OpenAI, APIKey: key, Model: tc.model, BaseURL: f.URL + "/v1/",
			HTTP: netguard.NewClient(netguard.Options{AllowPrivate: true})})
		resp, err := c.Complete(context.Background(), llm.Request{System: "s", Prompt: "p", WebSearch: true, SearchContextSize: "high",
			Schema: map[string]any{"type": "object"}})
		if err != nil || resp.Text != `{"answer":"x"}` || resp.PromptTokens != 70 || resp.CompletionTokens != 9 || resp.SearchCalls != tc.searches {
			t.Fatalf("%s: %+v %v", tc.model, resp, err)
		}
		b := f.Bodies()
		if body := b[len(b)-1]; !strings.Contains(body, tc.want) || !strings.Contains(body, "json_schema") {
			t.Fatalf("%s: body %s", tc.model, body)
		}
	}
}

func TestErrorsAndRetries(t *testing.T) {
	for _, provider := range []string{llm.OpenAI, llm.Anthropic} {
		t.Run(provider, func(t *testing.T) {
			f := llmfake.Start(key)
			defer f.Close()
			f.Answer = func(n int, _, _ string) llmfake.Reply {
				if n == 1 {
					return llmfake.Reply{Status: 429, RetryAfter: "1"}
				}
				if n == 2 {
					return llmfake.Reply{Status: 503}
				}
				return llmfake.Reply{Text: "fine", NoUsage: true}
			}
			start := time.Now()
			resp, err := client(t, f, provider, key).Complete(context.Background(), llm.Request{Prompt: "x"})
			if err != nil || resp.Text != "fine" || resp.TokensReported {
				t.Fatalf("after retries: %+v %v", resp, err)
			}
			if f.Calls() != 3 || time.Since(start) < 900*time.Millisecond {
				t.Fatalf("calls %d after %v: Retry-After not honoured", f.Calls(), time.Since(start))
			}

			// A wrong key: ErrAuth, and the message never holds the key
			// even though the fake echoes it as OpenAI does.
			wrong := "sk-wrong-key-ABCDEFGHIJKLMNOP"
			_, err = client(t, f, provider, wrong).Complete(context.Background(), llm.Request{Prompt: "x"})
			if !errors.Is(err, llm.ErrAuth) || strings.Contains(err.Error(), "ABCDEF") || strings.Contains(err.Error(), wrong) {
				t.Fatalf("auth error = %v", err)
			}
		})
	}
}

func TestTestConnection(t *testing.T) {
	f := llmfake.Start(key)
	defer f.Close()
	c := client(t, f, llm.OpenAI, key)
	if dep, err := llm.Test(context.Background(), c, "gpt-4o-mini"); err != nil || dep {
		t.Fatalf("Test = %v, %v", dep, err)
	}
	if dep, err := llm.Test(context.Background(), c, "gpt-3"); err != nil || !dep {
		t.Fatalf("retired model: %v, %v", dep, err)
	}
	// Without the operator flag the loopback fake is refused by the guard.
	guarded, _ := llm.New(llm.Config{Provider: llm.OpenAI, APIKey: key, Model: "m", BaseURL: f.URL + "/v1/",
		HTTP: netguard.NewClient(netguard.Options{}), MaxRetries: -1})
	if _, err := guarded.Complete(context.Background(), llm.Request{Prompt: "x"}); err == nil || !errors.Is(err, netguard.ErrForbidden) {
		t.Fatalf("guarded call to loopback: %v", err)
	}
}

func TestSupportsWebSearch(t *testing.T) {
	for _, tc := range []struct {
		p, m string
		want bool
	}{
		{llm.OpenAI, "gpt-4o-search-preview", true}, {llm.OpenAI, "gpt-4o-mini", true}, {llm.OpenAI, "gpt-3.5-turbo", false},
		{llm.OpenAI, "gpt-4.1-nano", false}, {llm.OpenAI, "gpt-5-mini", true},
		{llm.Anthropic, "claude-sonnet-4-5", true}, {llm.Anthropic, "claude-3-haiku-20240307", false},
		{llm.Custom, "llama3", false},
	} {
		if got := llm.SupportsWebSearch(tc.p, tc.m); got != tc.want {
			t.Errorf("SupportsWebSearch(%s, %s) = %v", tc.p, tc.m, got)
		}
	}
}

func TestParseObject(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{`{"a":1}`, true}, {"```json\n{\"a\":1}\n```", true}, {`Sure! {"a":1} hope it helps`, true},
		{`no json here`, false}, {`{"a":`, false}, {`[1,2]`, false},
	} {
		_, err := llm.ParseObject(tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("ParseObject(%q) = %v", tc.in, err)
		}
	}
}

func FuzzParseObject(f *testing.F) {
	f.Add(`{"a":1}`)
	f.Add("```\n{}\n```")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := llm.ParseObject(s)
		if err == nil && m == nil {
			t.Fatal("nil map without error")
		}
	})
}
