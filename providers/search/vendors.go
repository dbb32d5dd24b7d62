package search

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

type brave struct{ caller }

// Search implements Client: GET {base}/res/v1/web/search?q=&count=.
func (b *brave) Search(ctx context.Context, q string, n int) ([]Result, error) {
	body, err := b.do(ctx, func() (*http.Request, error) {
		u := b.base + "/res/v1/web/search?" + url.Values{"q": {q}, "count": {strconv.Itoa(clamp(n, 1, 20))}}.Encode()
		req, err := http.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/json")
		req.Header.Set("X-Subscription-Token", b.cfg.APIKey)
		return req, nil
	})
	if err != nil {
		return nil, err
	}
	var out struct {
		Web struct {
			Results []struct {
				Title       string `json:"title"`
				URL         string `json:"url"`
				Description string `json:"description"`
			} `json:"results"`
		} `json:"web"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("brave search: answer: %w", err)
	}
	res := make([]Result, 0, len(out.Web.Results))
	for _, r := range out.Web.Results {
		res = append(res, Result{Title: r.Title, URL: r.URL, Snippet: r.Description})
	}
	return res, nil
}

type tavily struct{ caller }

// Search implements Client: POST {base}/search {query, max_results,
// search_depth basic} with a bearer key.
func (t *tavily) Search(ctx context.Context, q string, n int) ([]Result, error) {
	payload, _ := json.Marshal(map[string]any{"query": q, "max_results": clamp(n, 1, 20), "search_depth": "basic"})
	body, err := t.do(ctx, func() (*http.Request, error) {
		req, err := http.NewRequest(http.MethodPost, t.base+"/search", bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+t.cfg.APIKey)
		return req, nil
	})
	if err != nil {
		return nil, err
	}
	var out struct {
		Results []struct {
			Title   string `json:"title"`
			URL     string `json:"url"`
			Content string `json:"content"`
		} `json:"results"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("tavily search: answer: %w", err)
	}
	res := make([]Result, 0, len(out.Results))
	for _, r := range out.Results {
		res = append(res, Result{Title: r.Title, URL: r.URL, Snippet: r.Content})
	}
	return res, nil
}

type serper struct{ caller }

// Search implements Client: POST {base}/search {q, num} with X-API-KEY.
func (s *serper) Search(ctx context.Context, q string, n int) ([]Result, error) {
	payload, _ := json.Marshal(map[string]any{"q": q, "num": clamp(n, 1, 20)})
	body, err := s.do(ctx, func() (*http.Request, error) {
		req, err := http.NewRequest(http.MethodPost, s.base+"/search", bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-API-KEY", s.cfg.APIKey)
		return req, nil
	})
	if err != nil {
		return nil, err
	}
	var out struct {
		Organic []struct {
			Title   string `json:"title"`
			Link    string `json:"link"`
			Snippet string `json:"snippet"`
		} `json:"organic"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("serper search: answer: %w", err)
	}
	res := make([]Result, 0, len(out.Organic))
	for _, r := range out.Organic {
		res = append(res, Result{Title: r.Title, URL: r.Link, Snippet: r.Snippet})
	}
	return res, nil
}

func clamp(n, lo, hi int) int { return min(hi, max(lo, n)) }
