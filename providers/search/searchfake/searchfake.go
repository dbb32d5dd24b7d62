// Package searchfake is a loopback server speaking the request and answer
// shapes of Brave Search, Tavily and Serper, scripted by tests.
package searchfake

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Reply scripts one answer; Status other than 0/200 is an error answer.
type Reply struct {
	Status     int
	RetryAfter string
	Body       string // error body
	Results    int    // number of results (3 when 0 on success)
}

// Server is the fake; one server answers all three vendors.
type Server struct {
	*httptest.Server
	Key   string
	Delay time.Duration
	// Answer scripts a reply per call (1-based) and query; nil succeeds.
	Answer func(call int, query string) Reply

	calls   atomic.Int64
	mu      sync.Mutex
	queries []string
}

// Start starts a fake on 127.0.0.1.
func Start(key string) *Server {
	s := &Server{Key: key}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Calls is the number of search requests received with the right key.
func (s *Server) Calls() int64 { return s.calls.Load() }

// Queries are the queries received, in order.
func (s *Server) Queries() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.queries...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	var vendor, key, q string
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/res/v1/web/search":
		vendor, key, q = "brave", r.Header.Get("X-Subscription-Token"), r.URL.Query().Get("q")
	case r.Method == http.MethodPost && r.URL.Path == "/search" && r.Header.Get("X-API-KEY") != "":
		var body struct {
			Q string `json:"q"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		vendor, key, q = "serper", r.Header.Get("X-API-KEY"), body.Q
	case r.Method == http.MethodPost && r.URL.Path == "/search":
		var body struct {
			Query string `json:"query"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		vendor, key, q = "tavily", strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), body.Query
	default:
		http.NotFound(w, r)
		return
	}
	if key != s.Key {
		http.Error(w, `{"error":"invalid api key `+key+`"}`, http.StatusUnauthorized)
		return
	}
	n := int(s.calls.Add(1))
	s.mu.Lock()
	s.queries = append(s.queries, q)
	s.mu.Unlock()
	if s.Delay > 0 {
		time.Sleep(s.Delay)
	}
	rep := Reply{}
	if s.Answer != nil {
		rep = s.Answer(n, q)
	}
	if rep.RetryAfter != "" {
		w.Header().Set("Retry-After", rep.RetryAfter)
	}
	if rep.Status != 0 && rep.Status != 200 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.Status)
		w.Write([]byte(rep.Body))
		return
	}
	k := rep.Results
	if k == 0 {
		k = 3
	}
	var items []map[string]any
	for i := 0; i < k; i++ {
		u := "https://result" + string(rune('a'+i)) + ".example.com/"
		switch vendor {
		case "brave":
			items = append(items, map[string]any{"title": q + " result", "url": u, "description": "about " + q})
		case "tavily":
			items = append(items, map[string]any{"title": q + " result", "url": u, "content": "about " + q, "score": 0.9})
		case "serper":
			items = append(items, map[string]any{"title": q + " result", "link": u, "snippet": "about " + q, "position": i + 1})
		}
	}
	var out map[string]any
	switch vendor {
	case "brave":
		out = map[string]any{"type": "search", "query": map[string]any{"original": q}, "web": map[string]any{"type": "search", "results": items}}
	case "tavily":
		out = map[string]any{"query": q, "results": items, "response_time": 0.5}
	case "serper":
		out = map[string]any{"searchParameters": map[string]any{"q": q}, "organic": items}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}
