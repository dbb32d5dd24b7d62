package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
)

func TestRefusalLogWindow(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	q := &refusalLog{now: func() time.Time { return now }}
	logged := 0
	for range 1000 {
		if ok, _, _ := q.admit("key:a", "GET", "/v1/usage", 429); ok {
			logged++
		}
	}
	q.admit("key:b", "GET", "/v1/discover", 429)
	q.admit("key:b", "GET", "/v1/discover", 429)
	if logged != 1 {
		t.Fatalf("%d lines for 1000 refusals within a window, want 1", logged)
	}
	now = now.Add(refusalWindow)
	ok, unlogged, due := q.admit("key:a", "GET", "/v1/usage", 429)
	if !ok || unlogged != 999 {
		t.Fatalf("next window: log %v with %d unlogged, want true with 999", ok, unlogged)
	}
	if len(due) != 1 || due[0].client != "key:b" || due[0].r.count != 1 || due[0].r.path != "/v1/discover" {
		t.Fatalf("summaries due: %+v, want key:b's 1 unlogged refusal", due)
	}
	if _, ok := q.clients["key:b"]; ok {
		t.Fatal("an expired client is still tracked")
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// TestRateLimitedBurstLogsBounded: 1,000 requests of a client held at its
// rate limit write a bounded number of log lines, naming the key's id.
func TestRateLimitedBurstLogsBounded(t *testing.T) {
	var out lockedBuffer
	f := newFixtureWith(t, func(d *Deps) {
		d.Log = zerolog.New(&out)
		d.Limits = &account.Limits{KeyPerSecond: 0.001, KeyBurst: 1, OrgPerSecond: 0.001, OrgBurst: 1}
	})
	refused := 0
	for range 1001 {
		req := httptest.NewRequest(http.MethodGet, "/v1/usage", nil)
		req.Header.Set("X-API-Key", f.key)
		res, err := f.srv.App().Test(req, -1)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode == http.StatusTooManyRequests {
			refused++
		}
	}
	// And 1,000 requests with a wrong key from one address.
	for range 1000 {
		req := httptest.NewRequest(http.MethodGet, "/v1/usage", nil)
		req.Header.Set("X-API-Key", "pk_live_nope")
		f.srv.App().Test(req, -1)
	}
	if refused != 1000 {
		t.Fatalf("%d of 1001 requests refused, want 1000", refused)
	}
	lines := strings.Split(strings.TrimSpace(out.b.String()), "\n")
	var rate, auth int
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		switch m["status"] {
		case float64(429):
			rate++
			if c, _ := m["client"].(string); !strings.HasPrefix(c, "key:") {
				t.Errorf("a 429 line names client %q, want the key's id", c)
			}
		case float64(401):
			auth++
		}
	}
	if rate > 2 || auth > 2 || len(lines) > 10 {
		t.Fatalf("%d lines (%d for 1000 429s, %d for 1000 401s), want a few:\n%s", len(lines), rate, auth, strings.Join(lines[:min(len(lines), 5)], "\n"))
	}
	t.Logf("%d log lines for 2001 requests", len(lines))
}
