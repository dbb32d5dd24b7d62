// Package llmfake is a loopback server speaking the wire formats of
// OpenAI chat completions, responses and models, and Anthropic messages
// and models,
// scripted by tests: answers, delays, rate limits with Retry-After,
// server errors and malformed bodies. The real SDKs talk to it.
package llmfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Reply scripts one answer; Status other than 0/200 answers with an error.
type Reply struct {
	Text                           string
	Status                         int
	RetryAfter                     string
	Raw                            string // a body sent as is (malformed JSON)
	PromptTokens, CompletionTokens int64
	NoUsage                        bool
	SearchCalls                    int64
}

// Server is the fake. Set its fields before the first request.
type Server struct {
	*httptest.Server
	Key    string   // the only key accepted
	Models []string // what the models endpoints list
	Delay  time.Duration
	// Answer scripts the reply to a prompt (the last user message); nil
	// answers {"answer":"ok"} with 10/5 tokens.
	Answer func(call int, system, prompt string) Reply

	calls   atomic.Int64
	mu      sync.Mutex
	prompts []string
	bodies  []string
}

// Start starts a fake on 127.0.0.1.
func Start(key string) *Server {
	s := &Server{Key: key, Models: []string{"gpt-4o-mini", "gpt-4o-search-preview", "claude-sonnet-4-5"}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Calls is the number of completion requests answered.
func (s *Server) Calls() int64 { return s.calls.Load() }

// Prompts are the user prompts received, in order.
func (s *Server) Prompts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.prompts...)
}

// Bodies are the raw completion request bodies received.
func (s *Server) Bodies() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodies...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	anthropic := r.Header.Get("anthropic-version") != ""
	key := r.Header.Get("x-api-key")
	if !anthropic {
		key = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	}
	if key != s.Key {
		if anthropic {
			writeJSON(w, 401, map[string]any{"type": "error", "error": map[string]any{"type": "authentication_error", "message": "invalid x-api-key"}})
		} else {
			writeJSON(w, 401, map[string]any{"error": map[string]any{"message": "Incorrect API key provided: " + key, "type": "invalid_request_error", "code": "invalid_api_key"}})
		}
		return
	}
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		var data []map[string]any
		for _, m := range s.Models {
			if anthropic {
				data = append(data, map[string]any{"id": m, "type": "model", "display_name": m, "created_at": "2025-01-01T00:00:00Z"})
			} else {
				data = append(data, map[string]any{"id": m, "object": "model", "created": 1700000000, "owned_by": "system"})
			}
		}
		if anthropic {
			writeJSON(w, 200, map[string]any{"data": data, "has_more": false, "first_id": nil, "last_id": nil})
		} else {
			writeJSON(w, 200, map[string]any{"object": "list", "data": data})
		}
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		s.complete(w, r, false)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/messages"):
		s.complete(w, r, true)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/responses"):
		s.respond(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (s *Server) complete(w http.ResponseWriter, r *http.Request, anthropic bool) {
	var body struct {
		Model    string          `json:"model"`
		System   json.RawMessage `json:"system"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	raw := new(strings.Builder)
	if err := json.NewDecoder(teeReader{r.Body, raw}).Decode(&body); err != nil {
		http.Error(w, "bad json", 400)
		return
	}
	var system, prompt string
	if anthropic {
		system = text(body.System)
	}
	for _, m := range body.Messages {
		switch m.Role {
		case "system":
			system = text(m.Content)
		case "user":
			prompt = text(m.Content)
		}
	}
	n := int(s.calls.Add(1))
	s.mu.Lock()
	s.prompts = append(s.prompts, prompt)
	s.bodies = append(s.bodies, raw.String())
	s.mu.Unlock()
	if s.Delay > 0 {
		select {
		case <-time.After(s.Delay):
		case <-r.Context().Done():
			return
		}
	}
	rep := Reply{Text: `{"answer":"ok"}`, PromptTokens: 10, CompletionTokens: 5}
	if s.Answer != nil {
		rep = s.Answer(n, system, prompt)
	}
	if rep.RetryAfter != "" {
		w.Header().Set("Retry-After", rep.RetryAfter)
	}
	if rep.Raw != "" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(max(rep.Status, 200))
		w.Write([]byte(rep.Raw))
		return
	}
	if rep.Status != 0 && rep.Status != 200 {
		if anthropic {
			writeJSON(w, rep.Status, map[string]any{"type": "error", "error": map[string]any{"type": "api_error", "message": fmt.Sprintf("scripted %d", rep.Status)}})
		} else {
			writeJSON(w, rep.Status, map[string]any{"error": map[string]any{"message": fmt.Sprintf("scripted %d", rep.Status), "type": "server_error"}})
		}
		return
	}
	if anthropic {
		out := map[string]any{"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant", "model": body.Model,
			"content": []map[string]any{{"type": "text", "text": rep.Text}}, "stop_reason": "end_turn", "stop_sequence": nil}
		if !rep.NoUsage {
			out["usage"] = map[string]any{"input_tokens": rep.PromptTokens, "output_tokens": rep.CompletionTokens,
				"server_tool_use": map[string]any{"web_search_requests": rep.SearchCalls}}
		}
		writeJSON(w, 200, out)
		return
	}
	out := map[string]any{"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion", "created": time.Now().Unix(), "model": body.Model,
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": rep.Text}}}}
	if !rep.NoUsage {
		out["usage"] = map[string]any{"prompt_tokens": rep.PromptTokens, "completion_tokens": rep.CompletionTokens, "total_tokens": rep.PromptTokens + rep.CompletionTokens}
	}
	writeJSON(w, 200, out)
}

// respond answers the OpenAI Responses API: instructions and a string
// input in, output items (web_search_call items, then the message) out.
func (s *Server) respond(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model        string          `json:"model"`
		Instructions string          `json:"instructions"`
		Input        json.RawMessage `json:"input"`
	}
	raw := new(strings.Builder)
	if err := json.NewDecoder(teeReader{r.Body, raw}).Decode(&body); err != nil {
		http.Error(w, "bad json", 400)
		return
	}
	prompt := text(body.Input)
	n := int(s.calls.Add(1))
	s.mu.Lock()
	s.prompts = append(s.prompts, prompt)
	s.bodies = append(s.bodies, raw.String())
	s.mu.Unlock()
	if s.Delay > 0 {
		select {
		case <-time.After(s.Delay):
		case <-r.Context().Done():
			return
		}
	}
	rep := Reply{Text: `{"answer":"ok"}`, PromptTokens: 10, CompletionTokens: 5}
	if s.Answer != nil {
		rep = s.Answer(n, body.Instructions, prompt)
	}
	if rep.RetryAfter != "" {
		w.Header().Set("Retry-After", rep.RetryAfter)
	}
	if rep.Status != 0 && rep.Status != 200 {
		writeJSON(w, rep.Status, map[string]any{"error": map[string]any{"message": fmt.Sprintf("scripted %d", rep.Status), "type": "server_error"}})
		return
	}
	var output []map[string]any
	for i := int64(0); i < rep.SearchCalls; i++ {
		output = append(output, map[string]any{"type": "web_search_call", "id": fmt.Sprintf("ws_%d_%d", n, i), "status": "completed"})
	}
	output = append(output, map[string]any{"type": "message", "id": fmt.Sprintf("msg_%d", n), "role": "assistant", "status": "completed",
		"content": []map[string]any{{"type": "output_text", "text": rep.Text, "annotations": []any{}}}})
	out := map[string]any{"id": fmt.Sprintf("resp_%d", n), "object": "response", "created_at": time.Now().Unix(), "status": "completed",
		"model": body.Model, "output": output, "parallel_tool_calls": true, "tool_choice": "auto", "tools": []any{}}
	if !rep.NoUsage {
		out["usage"] = map[string]any{"input_tokens": rep.PromptTokens, "output_tokens": rep.CompletionTokens, "total_tokens": rep.PromptTokens + rep.CompletionTokens,
			"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
	}
	writeJSON(w, 200, out)
}

// text flattens a message content: a string or an array of text blocks.
func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &blocks)
	var b strings.Builder
	for _, bl := range blocks {
		b.WriteString(bl.Text)
	}
	return b.String()
}

type teeReader struct {
	r interface{ Read([]byte) (int, error) }
	w *strings.Builder
}

func (t teeReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.w.Write(p[:n])
	return n, err
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
