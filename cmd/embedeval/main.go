// Command embedeval measures the built-in embedder on a labelled company
// set: precision@k of neighbours sharing a label, against a sparse TF-IDF
// cosine baseline and plain feature hashing.
//
//	go run ./cmd/embedeval -data ../shared/data/wikipedia-companies.jsonl
//
// With -relevance it runs the relevance benchmark instead (a tuning and a
// held-out part, precision@10, nDCG@10 and recall@100 against TF-IDF and
// TF-IDF + SVD, whole descriptions and first sentences) and prints its
// tables in Markdown:
//
//	go run ./cmd/embedeval -data ../shared/data/wikipedia-companies.jsonl -relevance
//
// With -tuning-only as well it measures the tuning part alone: what a
// search over settings may look at (the held-out part is measured once,
// for the setting chosen). With -analyze it prints, for the tuning part
// only, the ceilings the exact-label judgement leaves and the label-direction
// embedder's top-10 error breakdown (evaluate.Analyze).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/index/embedding/evaluate"
)

func main() {
	data := flag.String("data", "", "labelled companies, JSON lines with name, description, industry_label")
	dim := flag.Int("dim", embedding.DefaultDim, "embedding dimension")
	k := flag.Int("k", 10, "neighbours per query")
	iters := flag.Int("power-iterations", 0, "randomized SVD power iterations (0: default)")
	seed := flag.Int64("seed", 0, "SVD sketch seed")
	relevance := flag.Bool("relevance", false, "run the relevance benchmark (tuning and held-out parts) instead")
	tuningOnly := flag.Bool("tuning-only", false, "with -relevance: measure the tuning part only")
	analyze := flag.Bool("analyze", false, "print the relevance ceilings and error breakdown (tuning part only) instead")
	flag.Parse()
	if *data == "" {
		fmt.Fprintln(os.Stderr, "embedeval: -data is required")
		flag.Usage()
		os.Exit(2)
	}
	if *analyze {
		if err := runAnalyze(*data); err != nil {
			fmt.Fprintln(os.Stderr, "embedeval:", err)
			os.Exit(1)
		}
		return
	}
	if *relevance {
		if err := runRelevance(*data, *tuningOnly); err != nil {
			fmt.Fprintln(os.Stderr, "embedeval:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*data, embedding.Options{Dim: *dim, PowerIterations: *iters, Seed: *seed}, *k); err != nil {
		fmt.Fprintln(os.Stderr, "embedeval:", err)
		os.Exit(1)
	}
}

func run(path string, opt embedding.Options, k int) error {
	companies, err := readCompanies(path)
	if err != nil {
		return err
	}
	r, err := evaluate.Run(companies, opt, k)
	if err != nil {
		return err
	}
	fmt.Println(r)
	if r.Embedder < r.TFIDF {
		return fmt.Errorf("embedder precision %.3f is below the TF-IDF baseline %.3f", r.Embedder, r.TFIDF)
	}
	return nil
}

func runRelevance(path string, tuningOnly bool) error {
	companies, err := readCompanies(path)
	if err != nil {
		return err
	}
	bench := evaluate.Benchmark
	if tuningOnly {
		bench = evaluate.TuningBenchmark
	}
	tables, err := bench(evaluate.SplitCompanies(companies), evaluate.Variants, evaluate.Methods())
	if err != nil {
		return err
	}
	for _, t := range tables {
		fmt.Println(t)
	}
	return nil
}

func runAnalyze(path string) error {
	companies, err := readCompanies(path)
	if err != nil {
		return err
	}
	s := evaluate.SplitCompanies(companies)
	for _, m := range evaluate.AnalyzedMethods() {
		as, err := evaluate.Analyze(s, evaluate.Variants, m)
		if err != nil {
			return err
		}
		for _, a := range as {
			fmt.Println(a)
		}
	}
	return nil
}

// readCompanies reads the labelled companies of a JSON lines file.
func readCompanies(path string) ([]evaluate.Company, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	companies, err := evaluate.ReadJSONL(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return companies, nil
}
