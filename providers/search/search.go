// Package search calls the customer's own web search API. Three vendors
// are supported, each with its documented request shape: Brave Search
// (GET /res/v1/web/search, X-Subscription-Token), Tavily (POST /search,
// bearer key) and Serper (POST /search, X-API-KEY). Requests go through
// the caller's http.Client (the SSRF guard), 429 and 5xx answers are
// retried with exponential backoff that honours Retry-After, and a
// Breaker per integration stops calling a provider that keeps failing.
package search

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Providers.
const (
	Brave  = "brave"
	Tavily = "tavily"
	Serper = "serper"
)

// Sentinel errors callers branch on.
var (
	ErrAuth         = errors.New("the search provider refused the API key")
	ErrOutOfCredits = errors.New("the search provider account is out of credits")
	ErrRateLimited  = errors.New("the search provider kept rate-limiting")
	ErrUnknown      = errors.New("unknown search provider")
)

// ModelInfo is one search model a provider offers.
type ModelInfo struct {
	Name         string  `json:"name"`
	CostPerQuery float64 `json:"cost_per_query"`
}

// catalogue is every provider's model and its list price per query (USD),
// used as cost_per_query unless the integration says otherwise.
var catalogue = map[string]ModelInfo{
	Brave:  {Name: Brave + "/search", CostPerQuery: 0.005},
	Tavily: {Name: Tavily + "/search", CostPerQuery: 0.008},
	Serper: {Name: Serper + "/search", CostPerQuery: 0.001},
}

// Models lists the supported search models per provider.
func Models() map[string][]ModelInfo {
	out := map[string][]ModelInfo{}
	for p, m := range catalogue {
		out[p] = []ModelInfo{m}
	}
	return out
}

// Model returns a provider's model; ok is false for an unknown provider.
func Model(provider string) (ModelInfo, bool) {
	m, ok := catalogue[provider]
	return m, ok
}

// Result is one web result.
type Result struct {
	Title, URL, Snippet string
}

// Config selects a provider and key.
type Config struct {
	Provider, APIKey string
	BaseURL          string // the vendor's endpoint when empty
	HTTP             *http.Client
	// MaxRetries of 429/5xx answers; 3 when 0, none when negative.
	MaxRetries int
	// MaxBackoff caps one wait between retries (Retry-After included);
	// 30 s when 0.
	MaxBackoff time.Duration
}

// Client runs searches.
type Client interface {
	Search(ctx context.Context, query string, n int) ([]Result, error)
}

// New returns the client of cfg.Provider.
func New(cfg Config) (Client, error) {
	if cfg.HTTP == nil {
		return nil, errors.New("search: no HTTP client")
	}
	base := strings.TrimSuffix(cfg.BaseURL, "/")
	switch cfg.Provider {
	case Brave:
		if base == "" {
			base = "https://api.search.brave.com"
		}
		return &brave{caller{cfg, base}}, nil
	case Tavily:
		if base == "" {
			base = "https://api.tavily.com"
		}
		return &tavily{caller{cfg, base}}, nil
	case Serper:
		if base == "" {
			base = "https://google.serper.dev"
		}
		return &serper{caller{cfg, base}}, nil
	}
	return nil, fmt.Errorf("search: provider %q: %w", cfg.Provider, ErrUnknown)
}

// Error is a provider's refusal, safe to show (no key).
type Error struct {
	Provider string
	Status   int
	Message  string
	kind     error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s search: status %d: %s", e.Provider, e.Status, e.Message)
}

func (e *Error) Unwrap() error { return e.kind }

type caller struct {
	cfg  Config
	base string
}

// do sends the request built by mk, retrying 429 and 5xx with backoff.
func (c caller) do(ctx context.Context, mk func() (*http.Request, error)) ([]byte, error) {
	retries := c.cfg.MaxRetries
	switch {
	case retries == 0:
		retries = 3
	case retries < 0:
		retries = 0
	}
	maxWait := c.cfg.MaxBackoff
	if maxWait == 0 {
		maxWait = 30 * time.Second
	}
	for attempt := 0; ; attempt++ {
		req, err := mk()
		if err != nil {
			return nil, fmt.Errorf("%s search: build request: %w", c.cfg.Provider, err)
		}
		resp, err := c.cfg.HTTP.Do(req.WithContext(ctx))
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("%s search: %w", c.cfg.Provider, ctx.Err())
			}
			return nil, fmt.Errorf("%s search: %s", c.cfg.Provider, redact(err.Error(), c.cfg.APIKey))
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("%s search: read answer: %w", c.cfg.Provider, err)
		}
		if resp.StatusCode < 300 {
			return body, nil
		}
		retryable := resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
		if !retryable || attempt >= retries {
			return nil, c.fail(resp.StatusCode, body)
		}
		wait := backoff(attempt, resp.Header.Get("Retry-After"), maxWait)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%s search: %w", c.cfg.Provider, ctx.Err())
		case <-time.After(wait):
		}
	}
}

// backoff is the wait before retry attempt+1: Retry-After when given
// (seconds or an HTTP date), else 0.5 s doubling with jitter; capped.
func backoff(attempt int, retryAfter string, maxWait time.Duration) time.Duration {
	if retryAfter != "" {
		if s, err := strconv.Atoi(strings.TrimSpace(retryAfter)); err == nil && s >= 0 {
			return min(time.Duration(s)*time.Second, maxWait)
		}
		if t, err := http.ParseTime(retryAfter); err == nil {
			return min(max(0, time.Until(t)), maxWait)
		}
	}
	d := 500 * time.Millisecond << attempt
	d += time.Duration(rand.Int64N(int64(d/4) + 1))
	return min(d, maxWait)
}

func (c caller) fail(status int, body []byte) error {
	msg := strings.TrimSpace(string(body))
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	e := &Error{Provider: c.cfg.Provider, Status: status, Message: redact(msg, c.cfg.APIKey)}
	low := strings.ToLower(msg)
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.kind, e.Message = ErrAuth, "authentication failed: check the API key"
	// Out of credits: Brave answers 402, Tavily 432/433, Serper 400
	// "Not enough credits".
	case status == http.StatusPaymentRequired || status == 432 || status == 433 ||
		strings.Contains(low, "credits") || strings.Contains(low, "usage limit") || strings.Contains(low, "quota"):
		e.kind = ErrOutOfCredits
	case status == http.StatusTooManyRequests:
		e.kind = ErrRateLimited
	}
	return e
}

func redact(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "*****")
}
