// Package llm calls the customer's own language model: OpenAI through the
// official openai-go SDK, Anthropic through anthropic-sdk-go, and any
// OpenAI-compatible server (vLLM, Ollama, LM Studio, a gateway) as
// "custom" through openai-go pointed at its base URL. The SDKs retry 429
// and 5xx answers with backoff that honours Retry-After; every request
// goes through the caller's http.Client (the SSRF guard of netguard).
//
// Errors never carry the API key: provider messages are cut to their
// text and the key is redacted from them.
package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Providers.
const (
	OpenAI    = "openai"
	Anthropic = "anthropic"
	Custom    = "custom"
)

// Sentinel errors callers branch on.
var (
	ErrAuth          = errors.New("the provider refused the API key")
	ErrModelNotFound = errors.New("the provider does not know the model")
	ErrRateLimited   = errors.New("the provider kept rate-limiting the request")
	ErrUnknown       = errors.New("unknown provider")
)

// Config selects a provider, model and key.
type Config struct {
	Provider, APIKey, Model string
	// BaseURL overrides the vendor's endpoint (required for custom).
	BaseURL string
	// HTTP is the client every request goes through.
	HTTP *http.Client
	// MaxRetries of 429/5xx answers (the SDKs' backoff); 3 when 0,
	// none when negative.
	MaxRetries int
	// RequestTimeout bounds one attempt; 0 leaves it to the context.
	RequestTimeout time.Duration
}

// Request is one prompt.
type Request struct {
	System, Prompt string
	// Schema is the JSON schema of the answer; the provider enforces it
	// where it supports structured outputs (OpenAI), the prompt asks for
	// it elsewhere. Nil asks for free text.
	Schema     map[string]any
	SchemaName string
	// WebSearch turns on the model's built-in web search, with
	// SearchContextSize (low, medium, high) as the depth.
	WebSearch         bool
	SearchContextSize string
	MaxTokens         int
}

// Response is the model's answer and what it reported spending.
type Response struct {
	Text string
	// Token counts as the provider reported them; TokensReported is false
	// when it reported none.
	PromptTokens, CompletionTokens int64
	TokensReported                 bool
	// SearchCalls counts built-in web searches the model ran.
	SearchCalls int
}

// Model is one model a key can use.
type Model struct {
	Name              string `json:"name"`
	SupportsWebSearch bool   `json:"supports_web_search"`
}

// Client talks to one provider with one key and model.
type Client interface {
	Complete(ctx context.Context, req Request) (Response, error)
	Models(ctx context.Context) ([]Model, error)
}

// New returns the client of cfg.Provider.
func New(cfg Config) (Client, error) {
	if cfg.HTTP == nil {
		return nil, errors.New("llm: no HTTP client")
	}
	switch cfg.Provider {
	case OpenAI, Custom:
		if cfg.Provider == Custom && cfg.BaseURL == "" {
			return nil, errors.New("llm: base_url is required for provider custom")
		}
		return newOpenAI(cfg), nil
	case Anthropic:
		return newAnthropic(cfg), nil
	}
	return nil, fmt.Errorf("llm: provider %q: %w", cfg.Provider, ErrUnknown)
}

func (c Config) retries() int {
	switch {
	case c.MaxRetries < 0:
		return 0
	case c.MaxRetries == 0:
		return 3
	}
	return c.MaxRetries
}

// SupportsWebSearch reports whether a model has built-in web search:
// OpenAI's search models on chat completions and the models the Responses
// API's web search tool works with, and the Claude models the web search
// tool works with. Custom servers are assumed not to.
func SupportsWebSearch(provider, model string) bool {
	m := strings.ToLower(model)
	switch provider {
	case OpenAI:
		return searchPreview(m) || responsesSearch(m)
	case Anthropic:
		if !strings.HasPrefix(m, "claude-") {
			return false
		}
		for _, old := range []string{"claude-2", "claude-instant", "claude-3-haiku", "claude-3-opus", "claude-3-sonnet", "claude-3-5-sonnet-20240620"} {
			if strings.HasPrefix(m, old) {
				return false
			}
		}
		return true
	}
	return false
}

// searchPreview: an OpenAI chat model that searches on every answer.
func searchPreview(m string) bool {
	return strings.Contains(m, "search-preview") || strings.Contains(m, "-search-api")
}

// responsesSearch: an OpenAI model the Responses API's web search tool
// accepts.
func responsesSearch(m string) bool {
	if strings.HasPrefix(m, "gpt-4.1-nano") || strings.Contains(m, "realtime") || strings.Contains(m, "audio") {
		return false
	}
	for _, p := range []string{"gpt-4o", "gpt-4.1", "gpt-5", "o3", "o4-mini"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

// Test checks a key and model with one tiny completion and lists the
// models to tell whether the model is still offered. deprecated is false
// when the provider cannot list models.
func Test(ctx context.Context, c Client, model string) (deprecated bool, err error) {
	if _, err := c.Complete(ctx, Request{Prompt: "Reply with the word OK.", MaxTokens: 5}); err != nil {
		return false, err
	}
	ms, err := c.Models(ctx)
	if err != nil || len(ms) == 0 {
		return false, nil
	}
	for _, m := range ms {
		if m.Name == model {
			return false, nil
		}
	}
	return true, nil
}

// Error is a provider's refusal, safe to show: the key is redacted.
type Error struct {
	Provider string
	Status   int
	Message  string
	kind     error
}

func (e *Error) Error() string {
	if e.Status > 0 {
		return fmt.Sprintf("%s: status %d: %s", e.Provider, e.Status, e.Message)
	}
	return e.Provider + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.kind }

// Retryable reports whether the failure was a rate limit or a server
// error (worth trying again later).
func (e *Error) Retryable() bool { return e.Status == http.StatusTooManyRequests || e.Status >= 500 }

func apiError(provider string, status int, msg, key string) error {
	e := &Error{Provider: provider, Status: status, Message: Redact(msg, key)}
	if len(e.Message) > 300 {
		e.Message = e.Message[:300] + "…"
	}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.kind = ErrAuth
		e.Message = "authentication failed: check the API key"
	case status == http.StatusNotFound:
		e.kind = ErrModelNotFound
	case status == http.StatusTooManyRequests:
		e.kind = ErrRateLimited
	}
	return e
}

// transportError turns a non-API failure (connection refused, SSRF guard,
// timeout) into an error without the key.
func transportError(provider string, err error, key string) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: %w", provider, err)
	}
	return &Error{Provider: provider, Message: Redact(err.Error(), key), kind: errors.Unwrap(err)}
}

// Redact removes key (and any long prefix or suffix of it a provider
// echoes, as OpenAI does with "sk-abc...xyz") from s.
func Redact(s, key string) string {
	if key == "" {
		return s
	}
	s = strings.ReplaceAll(s, key, "*****")
	if len(key) >= 12 {
		s = strings.ReplaceAll(s, key[:8], "*****")
		s = strings.ReplaceAll(s, key[len(key)-6:], "*****")
	}
	return s
}
