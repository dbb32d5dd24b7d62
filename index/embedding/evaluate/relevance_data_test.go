package evaluate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	tables, err := Benchmark(SplitCompanies(companies), Variants, Methods())
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		t.Log("\n" + tb.String())
		tfidf := tb.Rows[0]
		for _, r := range tb.Rows[1:] {
			if r.Method != LabelMethod && !strings.HasPrefix(r.Method, "hybrid") {
				continue
			}
			if r.HeldOut.PrecisionAt10 <= tfidf.HeldOut.PrecisionAt10 {
				t.Errorf("%s, %s: held-out precision@10 %.3f not above TF-IDF's %.3f", tb.Variant, r.Method, r.HeldOut.PrecisionAt10, tfidf.HeldOut.PrecisionAt10)
			}
		}
	}
}
