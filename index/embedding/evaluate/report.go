package evaluate

import (
	"fmt"
	"time"

	"github.com/openprospect/prospectd/index/embedding"
)

// Report is precision@K of every method on one evaluation set.
type Report struct {
	Companies, Queries, K int
	// TFIDF is sparse TF-IDF cosine over the embedder's own terms (word
	// 1-2 grams, sublinear tf); TFIDFPlain the textbook variant (\w\w+
	// tokens and their bigrams, raw tf, no stop words).
	TFIDF, TFIDFPlain float64
	// Hashing is plain feature hashing of the embedder's terms into 256
	// dimensions.
	Hashing float64
	// Embedder is the fitted embedder, fitted on the evaluation set itself
	// (name and description only).
	Embedder   float64
	ModelID    string
	ModelBytes int
	FitTime    time.Duration
}

// BestBaseline is the strongest of the sparse and hashing baselines.
func (r Report) BestBaseline() float64 { return max(r.TFIDF, r.TFIDFPlain, r.Hashing) }

// Run fits the embedder on the companies and measures every method.
func Run(companies []Company, opt embedding.Options, k int) (Report, error) {
	labels := make([]string, len(companies))
	docs := make([]embedding.Doc, len(companies))
	ours := make([][]string, len(companies))
	plain := make([][]string, len(companies))
	for i, c := range companies {
		labels[i], docs[i] = c.Label, c.Doc()
		ours[i], plain[i] = Fields(EmbedderTerms, c), Fields(PlainTerms, c)
	}
	r := Report{Companies: len(companies), K: k}
	var err error
	sparse := TFIDF(ours, true)
	if r.TFIDF, r.Queries, err = Precision(labels, k, func(i, j int) float64 { return sparse[i].Dot(sparse[j]) }); err != nil {
		return r, err
	}
	sparsePlain := TFIDF(plain, false)
	r.TFIDFPlain, _, _ = Precision(labels, k, func(i, j int) float64 { return sparsePlain[i].Dot(sparsePlain[j]) })
	hashed := Hashing(ours, 256)
	r.Hashing, _, _ = Precision(labels, k, func(i, j int) float64 { return Cosine(hashed[i], hashed[j]) })

	start := time.Now()
	m, err := embedding.Fit(docs, opt)
	if err != nil {
		return r, fmt.Errorf("fitting the embedder: %w", err)
	}
	r.FitTime = time.Since(start)
	b, err := m.MarshalBinary()
	if err != nil {
		return r, fmt.Errorf("serializing the model: %w", err)
	}
	r.ModelID, r.ModelBytes = m.ID(), len(b)
	vecs := make([][]float32, len(docs))
	for i, d := range docs {
		vecs[i] = m.Embed(d)
	}
	r.Embedder, _, _ = Precision(labels, k, func(i, j int) float64 { return Cosine(vecs[i], vecs[j]) })
	return r, nil
}

func (r Report) String() string {
	return fmt.Sprintf("%d companies, %d queries; precision@%d by label:\n"+
		"  tfidf-cosine (embedder terms, 1-2 grams, sublinear tf)  %.3f\n"+
		"  tfidf-cosine (plain \\w\\w+ 1-2 grams, raw tf)            %.3f\n"+
		"  feature hashing, 256 dims                                %.3f\n"+
		"  %-56s %.3f\n"+
		"model %d bytes, fit in %v",
		r.Companies, r.Queries, r.K, r.TFIDF, r.TFIDFPlain, r.Hashing, r.ModelID, r.Embedder, r.ModelBytes, r.FitTime.Round(time.Millisecond))
}
