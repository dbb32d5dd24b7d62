package embedding_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/index/embedding/evaluate"
)

// TestBeatsBaselinesOnSyntheticCorpus: on a labelled synthetic corpus of
// short descriptions the embedder ranks same-topic neighbours better than
// sparse TF-IDF cosine and far better than feature hashing.
func TestBeatsBaselinesOnSyntheticCorpus(t *testing.T) {
	docs, topics := embedding.SyntheticCorpus(1000, 30, 200, 3)
	companies := make([]evaluate.Company, len(docs))
	for i, d := range docs {
		companies[i] = evaluate.Company{Name: d.Name, Description: d.Description, Label: fmt.Sprint(topics[i])}
	}
	r, err := evaluate.Run(companies, embedding.Options{Dim: 64}, 10)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r)
	// Measured: TF-IDF 0.82, embedder 0.93, hashing 0.13.
	if r.Embedder < r.TFIDF+0.05 {
		t.Errorf("embedder precision@10 %.3f not above TF-IDF %.3f", r.Embedder, r.TFIDF)
	}
	if r.Embedder < r.Hashing+0.3 {
		t.Errorf("embedder precision@10 %.3f not clearly above feature hashing %.3f", r.Embedder, r.Hashing)
	}
}

// TestWikipediaPrecision measures precision@10 of neighbours sharing an
// industry label on the shared Wikipedia companies (opt-in):
//
//	PROSPECT_SHARED_DATA=/work/shared/data go test -run TestWikipediaPrecision -v ./index/embedding/
func TestWikipediaPrecision(t *testing.T) {
	dir := os.Getenv("PROSPECT_SHARED_DATA")
	if dir == "" {
		t.Skip("set PROSPECT_SHARED_DATA to the directory holding wikipedia-companies.jsonl to run")
	}
	f, err := os.Open(filepath.Join(dir, "wikipedia-companies.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	companies, err := evaluate.ReadJSONL(f)
	if err != nil {
		t.Fatal(err)
	}
	r, err := evaluate.Run(companies, embedding.Options{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r)
	if r.Embedder < r.TFIDF {
		t.Errorf("embedder precision@10 %.3f below the TF-IDF baseline %.3f", r.Embedder, r.TFIDF)
	}
}
