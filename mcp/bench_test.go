package mcp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkToolOverhead compares a tool call with the same REST call
// (count_companies and GET /v1/count, both over loopback HTTP against the
// same server) and reports each one's p50.
//
//	go test ./mcp -run '^$' -bench ToolOverhead -benchtime 2000x
func BenchmarkToolOverhead(b *testing.B) {
	t := b
	unlimited = true
	defer func() { unlimited = false }()
	f := newFixture(t, nil)
	rest := strings.TrimSuffix(f.url, "/mcp") + "/count?country=US"
	cs := connect(t, f.url, f.keyA, nil)
	run := func(b *testing.B, call func() error) {
		lat := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			start := time.Now()
			if err := call(); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(start))
		}
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	}
	b.Run("rest", func(b *testing.B) {
		run(b, func() error {
			req, _ := http.NewRequest(http.MethodGet, rest, nil)
			req.Header.Set("X-API-Key", f.keyA)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				return fmt.Errorf("GET /v1/count: %d", res.StatusCode)
			}
			return nil
		})
	})
	b.Run("mcp", func(b *testing.B) {
		run(b, func() error {
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "count_companies", Arguments: map[string]any{"country": []any{"US"}}})
			if err == nil && res.IsError {
				err = fmt.Errorf("count_companies: %v", res.Content)
			}
			return err
		})
	})
}
