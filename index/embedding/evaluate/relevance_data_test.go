package evaluate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/openprospect/prospectd/index/embedding"
)

// TestRelevanceBenchmark runs the issue 22 relevance benchmark on the
// shared Wikipedia companies (opt-in) and prints its tables:
//
//	PROSPECT_SHARED_DATA=/work/shared/data go test -run TestRelevanceBenchmark -v ./index/embedding/evaluate/
func TestRelevanceBenchmark(t *testing.T) {
	dir := os.Getenv("PROSPECT_SHARED_DATA")
	if dir == "" {
		t.Skip("set PROSPECT_SHARED_DATA to the directory holding wikipedia-companies.jsonl to run")
	}
	f, err := os.Open(filepath.Join(dir, "wikipedia-companies.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	companies, err := ReadJSONL(f)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := Benchmark(SplitCompanies(companies), Variants, []Method{
		TFIDFMethod(), SVDMethod(256),
		EmbedderMethod("embedder, text only", embedding.Options{}, false),
		EmbedderMethod("embedder, labelled set in the fit", embedding.Options{}, true),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		t.Log("\n" + tb.String())
	}
}
