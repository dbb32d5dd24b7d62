package search_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/netguard"
	"github.com/openprospect/prospectd/providers/search"
	"github.com/openprospect/prospectd/providers/search/searchfake"
)

const key = "tvly-secret-0123456789"

func newClient(t *testing.T, provider, base, k string) search.Client {
	t.Helper()
	c, err := search.New(search.Config{Provider: provider, APIKey: k, BaseURL: base,
		HTTP: netguard.NewClient(netguard.Options{AllowPrivate: true}), MaxBackoff: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestVendors(t *testing.T) {
	for _, p := range []string{search.Brave, search.Tavily, search.Serper} {
		t.Run(p, func(t *testing.T) {
			f := searchfake.Start(key)
			defer f.Close()
			res, err := newClient(t, p, f.URL, key).Search(context.Background(), "acme pricing", 3)
			if err != nil || len(res) != 3 || res[0].URL == "" || !strings.Contains(res[0].Snippet, "acme pricing") {
				t.Fatalf("Search = %+v, %v", res, err)
			}
			_, err = newClient(t, p, f.URL, "wrong-key-0123456789").Search(context.Background(), "x", 1)
			if !errors.Is(err, search.ErrAuth) || strings.Contains(err.Error(), "wrong-key") {
				t.Fatalf("wrong key: %v", err)
			}
		})
	}
}

func TestRetriesAndCredits(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply func(n int) searchfake.Reply
		calls int64
		err   error
	}{
		{"retry-after", func(n int) searchfake.Reply {
			if n == 1 {
				return searchfake.Reply{Status: 429, RetryAfter: "1"}
			}
			return searchfake.Reply{}
		}, 2, nil},
		{"5xx", func(n int) searchfake.Reply {
			if n <= 2 {
				return searchfake.Reply{Status: 502}
			}
			return searchfake.Reply{}
		}, 3, nil},
		{"brave-402", func(int) searchfake.Reply { return searchfake.Reply{Status: 402, Body: `{"error":"payment required"}`} }, 1, search.ErrOutOfCredits},
		{"tavily-432", func(int) searchfake.Reply {
			return searchfake.Reply{Status: 432, Body: `{"detail":"plan usage limit exceeded"}`}
		}, 1, search.ErrOutOfCredits},
		{"serper-400", func(int) searchfake.Reply {
			return searchfake.Reply{Status: 400, Body: `{"message":"Not enough credits"}`}
		}, 1, search.ErrOutOfCredits},
		{"always-429", func(int) searchfake.Reply { return searchfake.Reply{Status: 429, RetryAfter: "0"} }, 4, search.ErrRateLimited},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := searchfake.Start(key)
			defer f.Close()
			f.Answer = func(n int, _ string) searchfake.Reply { return tc.reply(n) }
			start := time.Now()
			_, err := newClient(t, search.Serper, f.URL, key).Search(context.Background(), "q", 3)
			if tc.err == nil && err != nil || tc.err != nil && !errors.Is(err, tc.err) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if f.Calls() != tc.calls {
				t.Fatalf("calls = %d, want %d", f.Calls(), tc.calls)
			}
			if tc.name == "retry-after" && time.Since(start) < 900*time.Millisecond {
				t.Fatal("Retry-After not honoured")
			}
		})
	}
}

func TestBreaker(t *testing.T) {
	f := searchfake.Start(key)
	defer f.Close()
	f.Answer = func(int, string) searchfake.Reply { return searchfake.Reply{Status: 402} }
	b := search.NewBreaker("t", newClient(t, search.Brave, f.URL, key), 3, time.Minute)
	if _, err := b.Search(context.Background(), "q", 1); !errors.Is(err, search.ErrOutOfCredits) {
		t.Fatal(err)
	}
	// Out of credits opens the breaker at once: no further calls.
	for i := 0; i < 3; i++ {
		if _, err := b.Search(context.Background(), "q", 1); !errors.Is(err, search.ErrCircuitOpen) {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if f.Calls() != 1 || !b.Open() {
		t.Fatalf("calls %d open %v", f.Calls(), b.Open())
	}
}

func TestModels(t *testing.T) {
	m := search.Models()
	if len(m) != 3 || m[search.Tavily][0].Name != "tavily/search" || m[search.Brave][0].CostPerQuery <= 0 {
		t.Fatalf("models = %v", m)
	}
	if _, err := search.New(search.Config{Provider: "bing", HTTP: netguard.NewClient(netguard.Options{})}); !errors.Is(err, search.ErrUnknown) {
		t.Fatal(err)
	}
}
