package embedding

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"sync"
	"testing"

	"github.com/openprospect/prospectd/internal/cputime"
	"github.com/openprospect/prospectd/record"
)

// demoFileEnv names a JSON-lines file of company records (such as the demo
// data set) for the benchmark and digest below; without it they skip.
const demoFileEnv = "PROSPECT_EMBED_BENCH_FILE"

var (
	demoOnce    sync.Once
	demoModel   *Model
	demoEnglish *Model // fitted with StemEnglish
	demoDocs    []Doc
	demoErr     error
)

// fittedDemo returns a model fitted on the companies of the demo file, and
// their documents. Real records, unlike the synthetic corpus, have the
// vocabulary, casing, punctuation and bigram statistics Embed meets at
// ingest.
func fittedDemo(tb testing.TB) (*Model, []Doc) {
	tb.Helper()
	path := os.Getenv(demoFileEnv)
	if path == "" {
		tb.Skip(demoFileEnv + " is not set")
	}
	demoOnce.Do(func() {
		f, err := os.Open(path)
		if err != nil {
			demoErr = err
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var c record.Company
			if demoErr = json.Unmarshal(sc.Bytes(), &c); demoErr != nil {
				return
			}
			demoDocs = append(demoDocs, DocOf(c))
		}
		if demoErr = sc.Err(); demoErr != nil {
			return
		}
		if demoModel, demoErr = Fit(demoDocs, Options{}); demoErr != nil {
			return
		}
		demoEnglish, demoErr = Fit(demoDocs, Options{Stemming: StemEnglish})
	})
	if demoErr != nil {
		tb.Fatal(demoErr)
	}
	return demoModel, demoDocs
}

// BenchmarkEmbedDemo embeds real company records with a model fitted on
// them; BenchmarkEmbedDemoEnglish with one fitted with StemEnglish.
func BenchmarkEmbedDemo(b *testing.B) {
	m, docs := fittedDemo(b)
	benchmarkEmbedDocs(b, m, docs)
}

func BenchmarkEmbedDemoEnglish(b *testing.B) {
	_, docs := fittedDemo(b)
	benchmarkEmbedDocs(b, demoEnglish, docs)
}

func benchmarkEmbedDocs(b *testing.B, m *Model, docs []Doc) {
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Process()
	for i := 0; b.Loop(); i++ {
		m.Embed(docs[i%len(docs)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
	b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/op")
}

// TestDemoDigest logs a digest of the vectors of the demo file's companies
// and, when PROSPECT_EMBED_DEMO_SHA is set, checks it: run it before and
// after a change to Embed to prove the vectors kept their bits.
func TestDemoDigest(t *testing.T) {
	m, docs := fittedDemo(t)
	h := sha256.New()
	var buf [4]byte
	for _, d := range docs {
		for _, x := range m.Embed(d) {
			h.Write(binary.LittleEndian.AppendUint32(buf[:0], math.Float32bits(x)))
		}
	}
	got := hex.EncodeToString(h.Sum(nil))
	t.Logf("demo vectors digest %s (%d documents)", got, len(docs))
	if want := os.Getenv("PROSPECT_EMBED_DEMO_SHA"); want != "" && got != want {
		t.Errorf("demo vectors digest %s, want %s", got, want)
	}
}
