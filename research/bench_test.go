package research_test

import (
	"context"
	"testing"
	"time"

	"github.com/openprospect/prospectd/research"
)

// BenchmarkResearch1000 researches 1,000 domains against a fake LLM that
// answers in 100 ms, with the default concurrency; the bar is <= 15 s.
// Run with: go test ./research/ -run '^$' -bench Research1000 -benchtime 1x
func BenchmarkResearch1000(b *testing.B) {
	e := newEnv(b, "openai", "gpt-4o-mini", false)
	e.llm.Delay = 100 * time.Millisecond
	for i := 0; i < b.N; i++ {
		task := e.submit(b, research.Request{Kind: research.KindGen, Query: "Does this company sell to hospitals?", ContextMode: research.ModeDomain, Keys: domains(1000)})
		start := time.Now()
		out, err := e.p.Run(context.Background(), task.ID, task.OrgID, task.Input, nil)
		if err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		if len(out.Results) != 1000 || len(out.RecordErrors) != 0 {
			b.Fatalf("%d results, %d errors", len(out.Results), len(out.RecordErrors))
		}
		b.ReportMetric(took.Seconds(), "s/1000-domains")
		if took > 15*time.Second {
			b.Fatalf("1,000 domains took %v, bar is 15 s", took)
		}
	}
}
