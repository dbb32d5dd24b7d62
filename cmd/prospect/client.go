package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// Exit codes (documented in docs/decisions.md, "Command-line client").
const (
	exitOK        = 0
	exitError     = 1 // anything else: not found, conflict, an unreadable answer
	exitUsage     = 2 // bad flags or arguments, or the server refused the input (400, 413, 422)
	exitAuth      = 3 // no key, or the server refused it (401, 403)
	exitPayment   = 4 // 402: the period's credits are spent
	exitRateLimit = 5 // 429 still after the retries
	exitServer    = 6 // 5xx or the server unreachable
	exitPartial   = 7 // a waited task failed or was cancelled, failed jobs in an email batch, or rows withheld
)

// exitError carries the process exit code of a failure.
type codeError struct {
	code int
	err  error
}

func (e *codeError) Error() string { return e.err.Error() }
func (e *codeError) Unwrap() error { return e.err }

func withCode(code int, err error) error { return &codeError{code: code, err: err} }

// exitCode maps an error to the process exit code.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ce *codeError
	if errors.As(err, &ce) {
		return ce.code
	}
	return exitError
}

// statusCode maps an HTTP error status to an exit code.
func statusCode(status int) int {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return exitAuth
	case status == http.StatusPaymentRequired:
		return exitPayment
	case status == http.StatusTooManyRequests:
		return exitRateLimit
	case status == http.StatusBadRequest || status == http.StatusRequestEntityTooLarge || status == http.StatusUnprocessableEntity:
		return exitUsage
	case status >= 500:
		return exitServer
	}
	return exitError
}

// config is what `prospect login` stores: a key, or the browser login.
type config struct {
	APIKey  string      `json:"api_key,omitempty"`
	BaseURL string      `json:"base_url,omitempty"`
	OAuth   *oauthLogin `json:"oauth,omitempty"`
}

func configPath(getenv func(string) string) (string, error) {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		d, err := os.UserConfigDir()
		if err != nil {
			return "", fmt.Errorf("find config directory: %w", err)
		}
		dir = d
	}
	return filepath.Join(dir, "prospect", "config.json"), nil
}

func loadConfig(path string) (config, error) {
	var c config
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("read config: %w", err)
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("read config %s: %w", path, err)
	}
	return c, nil
}

func saveConfig(path string, c config) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create config directory: %w", err)
	}
	b, _ := json.MarshalIndent(c, "", "  ")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("write config: %w", err)
	}
	// WriteFile keeps an existing file's mode; force 0600 in case it was wider.
	if err := os.Chmod(tmp, 0o600); err != nil {
		return fmt.Errorf("write config: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write config: %w", err)
	}
	return nil
}

// client calls the REST API.
type client struct {
	base string // REST root including /v1
	key  string
	// tokens is the browser login (instead of key).
	tokens  oauth2.TokenSource
	http    *http.Client
	retries int
	stderr  io.Writer
	sleep   func(context.Context, time.Duration) error
}

// response is a decoded answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

// problem is the RFC 9457 error body.
type problem struct {
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retryAfter reads Retry-After (seconds or an HTTP date); fallback when absent.
func retryAfter(h http.Header, fallback time.Duration) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return fallback
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
		return 0
	}
	return fallback
}

// do sends a request, retrying on 429 after Retry-After; the body is
// replayed from memory on each attempt. A non-2xx answer is an error with
// its exit code and the problem's detail.
func (c *client) do(ctx context.Context, method, path string, query map[string][]string, contentType string, body []byte) (*response, error) {
	if c.key == "" && c.tokens == nil {
		return nil, withCode(exitAuth, errors.New("no API key: set PROSPECT_API_KEY, pass --api-key, or run `prospect login`"))
	}
	u := strings.TrimRight(c.base, "/") + strings.TrimPrefix(path, "/v1")
	if len(query) > 0 {
		u += "?" + encodeQuery(query)
	}
	backoff := time.Second
	for attempt := 0; ; attempt++ {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, method, u, rd)
		if err != nil {
			return nil, withCode(exitUsage, fmt.Errorf("build request: %w", err))
		}
		if c.tokens != nil {
			tok, err := c.tokens.Token()
			if err != nil {
				return nil, withCode(exitAuth, err)
			}
			req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		} else {
			req.Header.Set("X-API-Key", c.key)
		}
		req.Header.Set("Accept", "application/json")
		req.Header.Set("User-Agent", "prospect-cli")
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		res, err := c.http.Do(req)
		if err != nil {
			return nil, withCode(exitServer, fmt.Errorf("%s %s: %w", method, path, err))
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return nil, withCode(exitServer, fmt.Errorf("%s %s: read answer: %w", method, path, err))
		}
		if res.StatusCode == http.StatusTooManyRequests && attempt < c.retries {
			wait := retryAfter(res.Header, backoff)
			backoff *= 2
			fmt.Fprintf(c.stderr, "rate limited; retrying in %s (%d/%d)\n", wait, attempt+1, c.retries)
			if err := c.sleep(ctx, wait); err != nil {
				return nil, withCode(exitRateLimit, err)
			}
			continue
		}
		r := &response{status: res.StatusCode, header: res.Header, body: b}
		if res.StatusCode >= 300 {
			return r, withCode(statusCode(res.StatusCode), fmt.Errorf("%s %s: %s", method, path, problemText(res.StatusCode, b)))
		}
		return r, nil
	}
}

// credentialText describes the credential in use without showing it.
func (c *client) credentialText() string {
	if c.tokens != nil {
		return "browser login"
	}
	return "key " + maskKey(c.key)
}

func problemText(status int, b []byte) string {
	var p problem
	if json.Unmarshal(b, &p) == nil && (p.Detail != "" || p.Title != "") {
		if p.Detail == "" {
			return fmt.Sprintf("%d %s", status, p.Title)
		}
		return fmt.Sprintf("%d %s: %s", status, p.Title, p.Detail)
	}
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return fmt.Sprintf("%d %s %s", status, http.StatusText(status), s)
}
