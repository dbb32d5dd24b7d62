package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/record"
)

// benchN is the corpus size of BenchmarkLoad; PROSPECT_BENCH_N raises it
// for the scale run recorded in docs/benchmarks.md.
func benchN() int {
	if n, err := strconv.Atoi(os.Getenv("PROSPECT_BENCH_N")); err == nil && n > 0 {
		return n
	}
	return 50_000
}

// BenchmarkLoad measures the loader on a JSON lines file of synthetic
// companies, from reading the file to handing batches to an engine that
// only counts them: decoding, normalization (phones included), embedding,
// batching. "new-index" includes fitting the embedder on the first 20,000
// records; "fitted" loads into an index that already has one.
func BenchmarkLoad(b *testing.B) {
	n := benchN()
	path := filepath.Join(b.TempDir(), "companies.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	newSynthCorpus(1).writeJSONL(b, f, n)
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(path)
	load := func(b *testing.B, eng *memEngine) {
		src, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		defer src.Close()
		s, err := (&Loader{Engine: eng}).Load(context.Background(), src)
		if err != nil {
			b.Fatal(err)
		}
		if s.Indexed != n {
			b.Fatalf("indexed %d of %d (%+v)", s.Indexed, n, s)
		}
	}
	b.Run("new-index", func(b *testing.B) {
		b.SetBytes(st.Size())
		for b.Loop() {
			load(b, &memEngine{discard: true})
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
	})
	b.Run("fitted", func(b *testing.B) {
		eng := &memEngine{discard: true}
		load(b, eng) // fits and stores the embedder
		b.SetBytes(st.Size())
		b.ResetTimer()
		for b.Loop() {
			load(b, eng)
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
	})
}

func benchLines(b *testing.B) [][]byte {
	var buf bytes.Buffer
	newSynthCorpus(2).writeJSONL(b, &buf, 2000)
	return bytes.SplitAfter(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
}

// benchFileLines reads the JSON lines file PROSPECT_INGEST_BENCH_FILE
// names, so that decoding and normalization can be measured on real
// records too (the synthetic ones differ in shape and length); it skips
// when the variable is unset.
func benchFileLines(b *testing.B) [][]byte {
	path := os.Getenv("PROSPECT_INGEST_BENCH_FILE")
	if path == "" {
		b.Skip("PROSPECT_INGEST_BENCH_FILE is not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var lines [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			lines = append(lines, l)
		}
	}
	return lines
}

// BenchmarkDecodeJSON compares the JSON lines decoder with encoding/json
// decoding the same lines into record.Company.
func BenchmarkDecodeJSON(b *testing.B) {
	benchDecodeJSON(b, benchLines(b))
}

// BenchmarkDecodeJSONFile is BenchmarkDecodeJSON on the lines of
// PROSPECT_INGEST_BENCH_FILE.
func BenchmarkDecodeJSONFile(b *testing.B) {
	benchDecodeJSON(b, benchFileLines(b))
}

func benchDecodeJSON(b *testing.B, lines [][]byte) {
	b.Run("ingest", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			var c record.Company
			if err := decodeJSONCompany(lines[i%len(lines)], &c); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			var c record.Company
			if err := json.Unmarshal(lines[i%len(lines)], &c); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

func BenchmarkNormalize(b *testing.B) {
	benchNormalize(b, benchLines(b))
}

// BenchmarkNormalizeFile is BenchmarkNormalize on the lines of
// PROSPECT_INGEST_BENCH_FILE.
func BenchmarkNormalizeFile(b *testing.B) {
	benchNormalize(b, benchFileLines(b))
}

func benchNormalize(b *testing.B, lines [][]byte) {
	companies := make([]record.Company, len(lines))
	for i, l := range lines {
		if err := decodeJSONCompany(l, &companies[i]); err != nil {
			b.Fatal(err)
		}
	}
	n := newNormalizer()
	n.lenient = true // as the loader runs it
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c := companies[i%len(companies)]
		n.dropped = n.dropped[:0]
		if err := n.normalize(&c); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkEmbed is the embedder's share of a record, for comparison.
func BenchmarkEmbed(b *testing.B) {
	s := newSynthCorpus(3)
	docs := make([]embedding.Doc, 5000)
	for i := range docs {
		docs[i] = embedding.DocOf(s.company(i))
	}
	m, err := embedding.Fit(docs, embedding.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Embed(docs[i%len(docs)])
		i++
	}
}

func BenchmarkPhone(b *testing.B) {
	for _, tc := range []struct{ name, phone, country string }{
		{"e164-us", "+12015550123", "US"},
		{"e164-de", "+4930123456", "DE"},
		{"national-gb", "020 7946 0018", "GB"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			if normalizePhone(tc.phone, tc.country) == "" {
				b.Fatalf("%s is not valid", tc.phone)
			}
			for b.Loop() {
				normalizePhone(tc.phone, tc.country)
			}
		})
	}
}
