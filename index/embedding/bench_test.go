package embedding

import (
	"testing"
	"time"
)

// BenchmarkEmbed embeds 1 KB company documents with a production-size
// model (256 dimensions, 30,000 terms).
func BenchmarkEmbed(b *testing.B) {
	m, docs := fittedLarge(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m.Embed(docs[i%len(docs)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkEmbedText embeds a short ICP query.
func BenchmarkEmbedText(b *testing.B) {
	m, _ := fittedLarge(b)
	b.ReportAllocs()
	for b.Loop() {
		m.EmbedText("cybersecurity software for regional banks and credit unions")
	}
}

// BenchmarkFit fits on 20,000 synthetic 1 KB documents; run it with
// -benchtime 1x.
func BenchmarkFit(b *testing.B) {
	docs, _ := syntheticCorpus(20000, 50, 1000, 1)
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		m, err := Fit(docs, Options{})
		if err != nil {
			b.Fatal(err)
		}
		enc, _ := m.MarshalBinary()
		b.ReportMetric(time.Since(start).Seconds(), "s/fit")
		b.ReportMetric(float64(len(enc)), "model-bytes")
	}
}

// BenchmarkFitLabelled is BenchmarkFit with an industry label on every
// document and label directions on, so the fit learns them and the term
// gains; compare the two for their cost. -benchtime 1x.
func BenchmarkFitLabelled(b *testing.B) {
	docs, topics := syntheticCorpus(20000, 50, 1000, 1)
	for i := range docs {
		docs[i].Industries = []string{"industry " + string(rune('a'+topics[i]/26)) + string(rune('a'+topics[i]%26))}
	}
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		if _, err := Fit(docs, Options{LabelDims: DefaultLabelDims}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "s/fit")
	}
}
