package embedded

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// benchN is the corpus size of the engine benchmarks; PROSPECT_BENCH_N
// raises it for scale runs (docs/benchmarks.md).
func benchN() int {
	if n, err := strconv.Atoi(os.Getenv("PROSPECT_BENCH_N")); err == nil && n > 0 {
		return n
	}
	return 50_000
}

const benchDim = 256

func synthDocs(r *rand.Rand, from, n int) []index.CompanyDoc {
	docs := make([]index.CompanyDoc, n)
	countries := []string{"US", "GB", "DE", "FR", "IN", "CA", "AU", "BR", "JP", "NL"}
	text := strings.Repeat("industrial automation software for mid-size manufacturers ", 20)
	for i := range docs {
		v := make([]float32, benchDim)
		var s float32
		for j := range v {
			v[j] = float32(r.NormFloat64())
			s += v[j] * v[j]
		}
		for j := range v {
			v[j] /= float32(sqrt(float64(s)))
		}
		id := from + i
		docs[i] = index.CompanyDoc{Vector: v, Company: record.Company{
			Domain: fmt.Sprintf("company-%d.com", id), Name: fmt.Sprintf("Company %d", id), Score: r.IntN(800) + 1,
			Status:  record.Status{Status: "active", Confidence: 1},
			Address: record.Address{Country: countries[r.IntN(len(countries))]}, StartDate: "2010-05-05",
			IndustryGroups: map[string]float64{record.Industries[r.IntN(53)]: 0.9}, Employees: record.EmployeeBuckets[r.IntN(8)],
			Vendors: []string{"stripe.com", "hubspot.com", "cloudflare.com"}, Subdomains: []string{"www", "app"},
			Description: text[:300], SiteText: text, Phones: []string{"+15125550100"},
		}}
	}
	return docs
}

func sqrt(x float64) float64 {
	z := x
	for i := 0; i < 30; i++ {
		z = (z + x/z) / 2
	}
	return z
}

// BenchmarkUpsert measures bulk write throughput in batches of 1,000.
func BenchmarkUpsert(b *testing.B) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	batches := make([][]index.CompanyDoc, 20)
	for i := range batches {
		batches[i] = synthDocs(r, i*1000, 1000)
	}
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		b.StopTimer()
		e, err := Open(b.TempDir(), Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := e.SetMeta(ctx, index.Meta{EmbedderID: "bench", Dimension: benchDim}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		for _, batch := range batches {
			if _, err := e.UpsertCompanies(ctx, batch); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(batches)*1000)/time.Since(start).Seconds(), "docs/s")
		b.StopTimer()
		e.Close()
		b.StartTimer()
	}
}

// BenchmarkSearch measures filtered and unfiltered exact vector search and
// counts on a benchN()-company index.
func BenchmarkSearch(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	e, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { e.Close() }()
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "bench", Dimension: benchDim}); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	n := benchN()
	for from := 0; from < n; from += 5000 {
		if _, err := e.UpsertCompanies(ctx, synthDocs(r, from, min(5000, n-from))); err != nil {
			b.Fatal(err)
		}
	}
	q := synthDocs(r, n, 1)[0].Vector
	filter := index.And{index.Terms{Field: index.CountryField, Values: []string{"US"}}, index.Terms{Field: index.IndustryField, Values: []string{"SAAS"}}}
	for _, bc := range []struct {
		name string
		s    index.Search
	}{
		{"vector/unfiltered", index.Search{Vector: q, Limit: 100}},
		{"vector/country+industry", index.Search{Vector: q, Limit: 100, Filter: filter}},
		{"score/country", index.Search{Limit: 100, Filter: filter[0]}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := e.SearchCompanies(ctx, bc.s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("count/country+industry", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := e.CountCompanies(ctx, filter); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reopen", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := e.Close(); err != nil {
				b.Fatal(err)
			}
			if e, err = Open(dir, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkOpen measures a warm restart: rebuilding the in-memory index
// from benchN() persisted companies.
func BenchmarkOpen(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	e, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "bench", Dimension: benchDim}); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	n := benchN()
	for from := 0; from < n; from += 5000 {
		if _, err := e.UpsertCompanies(ctx, synthDocs(r, from, min(5000, n-from))); err != nil {
			b.Fatal(err)
		}
	}
	e.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if e.Len() != n {
			b.Fatalf("reopened with %d companies, want %d", e.Len(), n)
		}
		b.StopTimer()
		e.Close()
		b.StartTimer()
	}
}
