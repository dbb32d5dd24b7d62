package evaluate

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/index/embedding"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestRankMetrics(t *testing.T) {
	l2 := func(r int) float64 { return 1 / math.Log2(float64(r)+2) }
	tests := []struct {
		name     string
		rel      []bool
		relevant int
		p, n, r  float64
	}{
		{"perfect, 2 relevant", []bool{true, true, false}, 2, 0.2, 1, 1},
		{"relevant at ranks 2 and 4", []bool{false, true, false, true}, 2, 0.2, (l2(1) + l2(3)) / (l2(0) + l2(1)), 1},
		{"one of three found", []bool{false, false, true}, 3, 0.1, l2(2) / (l2(0) + l2(1) + l2(2)), 1.0 / 3},
		{"found past 10 counts for recall only", append(make([]bool, 10), true), 1, 0, 0, 1},
		{"nothing relevant to find", []bool{false}, 0, 0, 0, 0},
	}
	for _, tc := range tests {
		m := RankMetrics(tc.rel, tc.relevant)
		if !near(m.PrecisionAt10, tc.p) || !near(m.NDCGAt10, tc.n) || !near(m.RecallAt100, tc.r) {
			t.Errorf("%s: got P %v nDCG %v R %v, want %v %v %v", tc.name, m.PrecisionAt10, m.NDCGAt10, m.RecallAt100, tc.p, tc.n, tc.r)
		}
	}
	// Past 100 nothing counts.
	long := make([]bool, 150)
	long[120] = true
	if m := RankMetrics(long, 1); m.RecallAt100 != 0 {
		t.Errorf("a hit at rank 121 counted for recall@100: %v", m.RecallAt100)
	}
}

// TestEvaluateHandMade: five companies on a line, similarity minus the
// distance; the metrics are worked out by hand.
func TestEvaluateHandMade(t *testing.T) {
	pos := []float64{0, 1, 2, 10, 11, 30}
	labels := []string{"a", "a", "b", "b", "b", "c"}
	sim := func(i, j int) float64 { return -math.Abs(pos[i] - pos[j]) }
	m, err := Evaluate(labels, sim)
	if err != nil {
		t.Fatal(err)
	}
	// Rankings (ties by index): a0: a1 b2 b10 b11 c; a1: a0 b2 b10 b11 c;
	// b2: a1 a0 b10 b11 c; b10: b11 b2 a1 a0 c; b11: b10 b2 a1 a0 c.
	l2 := func(r int) float64 { return 1 / math.Log2(float64(r)+2) }
	idcg1, idcg2 := l2(0), l2(0)+l2(1)
	wantP := (0.1 + 0.1 + 0.2 + 0.2 + 0.2) / 5
	wantN := (1 + 1 + (l2(2)+l2(3))/idcg2 + 1 + 1) / 5
	wantR := 1.0
	_ = idcg1
	if m.Queries != 5 || !near(m.PrecisionAt10, wantP) || !near(m.NDCGAt10, wantN) || !near(m.RecallAt100, wantR) {
		t.Errorf("Evaluate = %+v, want 5 queries, P %v nDCG %v R %v", m, wantP, wantN, wantR)
	}
	if _, err := Evaluate([]string{"a", "b"}, sim); !errors.Is(err, ErrNoQueries) {
		t.Errorf("no shared labels: %v, want ErrNoQueries", err)
	}
	// Pooling weighs by queries.
	pooled := Metrics{}.add(Metrics{Queries: 1, PrecisionAt10: 1}).add(Metrics{Queries: 3, PrecisionAt10: 0.2})
	if pooled.Queries != 4 || !near(pooled.PrecisionAt10, (1+0.6)/4) {
		t.Errorf("pooled %+v", pooled)
	}
}

func TestFirstSentence(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Acme Inc. makes anvils. It was founded in 1900.", "Acme Inc. makes anvils."},
		{"J. P. Morgan & Co. is a bank in the U.S. It is old.", "J. P. Morgan & Co. is a bank in the U.S. It is old."},
		{"Total S.A. is French. Big.", "Total S.A. is French."},
		{"Revenue was US$3.5 billion.After the reform it grew.", "Revenue was US$3.5 billion."},
		{"Founded 1998. 2,000 staff.", "Founded 1998."},
		{"No full stop at all", "No full stop at all"},
		{"Is it? Yes.", "Is it?"},
		{"  Trailing.  ", "Trailing."},
	}
	for _, tc := range tests {
		if got := FirstSentence(tc.in); got != tc.want {
			t.Errorf("FirstSentence(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSplitCompanies(t *testing.T) {
	var cs []Company
	for i := 0; i < 400; i++ {
		cs = append(cs, Company{Name: "Company " + strings.Repeat("x", i%7) + string(rune('A'+i%26)) + string(rune('a'+i/26)), Label: "l"})
	}
	s := SplitCompanies(cs)
	if len(s.Tuning)+len(s.HeldOut) != len(cs) || len(s.Folds[0])+len(s.Folds[1]) != len(s.Tuning) {
		t.Fatalf("parts %d+%d, folds %d+%d of %d", len(s.Tuning), len(s.HeldOut), len(s.Folds[0]), len(s.Folds[1]), len(cs))
	}
	if len(s.HeldOut) < 150 || len(s.HeldOut) > 250 || len(s.Folds[0]) < 60 || len(s.Folds[1]) < 60 {
		t.Errorf("unbalanced split: held-out %d, folds %d/%d", len(s.HeldOut), len(s.Folds[0]), len(s.Folds[1]))
	}
	// The split is a function of the company, not of the order.
	rev := make([]Company, len(cs))
	for i, c := range cs {
		rev[len(cs)-1-i] = c
	}
	held := map[string]bool{}
	for _, c := range s.HeldOut {
		held[c.Name] = true
	}
	for _, c := range SplitCompanies(rev).HeldOut {
		if !held[c.Name] {
			t.Fatalf("%q moved to held-out when the order changed", c.Name)
		}
	}
}

// TestBenchmarkNeverShowsRankedLabels: methods get the ranked companies
// without labels and a labelled set disjoint from them.
func TestBenchmarkNeverShowsRankedLabels(t *testing.T) {
	s := SplitCompanies(separableCompanies())
	spy := Method{Name: "spy", Sim: func(ranked []embedding.Doc, labelled []Company) (func(i, j int) float64, error) {
		names := map[string]bool{}
		for _, c := range labelled {
			names[c.Name] = true
		}
		for _, d := range ranked {
			if len(d.Industries) > 0 {
				return nil, errors.New("a ranked company carries labels")
			}
			if names[d.Name] {
				return nil, errors.New("a ranked company is in the labelled set")
			}
		}
		return func(i, j int) float64 { return 0 }, nil
	}}
	tables, err := Benchmark(s, Variants, []Method{spy, TFIDFMethod()})
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 2 || len(tables[0].Rows) != 2 {
		t.Fatalf("tables %+v", tables)
	}
	// TF-IDF sees "bank" and "farm": every neighbour shares the label.
	if r := tables[0].Rows[1]; r.HeldOut.PrecisionAt10 != 1 || r.Tuning.PrecisionAt10 != 1 {
		t.Errorf("tfidf on a separable corpus: %+v", r)
	}
	if !strings.Contains(tables[0].String(), "| tfidf cosine | 1.000 |") {
		t.Errorf("table:\n%s", tables[0])
	}
}

// TestTuningBenchmarkNeverSeesHeldOut: the tuning-only run hands methods
// tuning companies only, ranked or labelled, and prints no held-out column.
func TestTuningBenchmarkNeverSeesHeldOut(t *testing.T) {
	s := SplitCompanies(separableCompanies())
	held := heldOutNames(s)
	spy := Method{Name: "spy", Sim: func(ranked []embedding.Doc, labelled []Company) (func(i, j int) float64, error) {
		for _, d := range ranked {
			if held[d.Name] {
				return nil, errors.New("a held-out company is ranked")
			}
		}
		for _, c := range labelled {
			if held[c.Name] {
				return nil, errors.New("a held-out company is in the labelled set")
			}
		}
		return func(i, j int) float64 { return 0 }, nil
	}}
	tables, err := TuningBenchmark(s, Variants, []Method{spy, TFIDFMethod()})
	if err != nil {
		t.Fatal(err)
	}
	r := tables[0].Rows[1]
	if r.Tuning.PrecisionAt10 != 1 || r.HeldOut.Queries != 0 {
		t.Errorf("tfidf, tuning only: %+v", r)
	}
	if out := tables[0].String(); strings.Contains(out, "held-out P@10") || !strings.Contains(out, "| tfidf cosine | 1.000 | 1.000 | 1.000 |") {
		t.Errorf("table:\n%s", out)
	}
}

// separableCompanies are 200 companies whose description names their label.
func separableCompanies() []Company {
	var cs []Company
	for i := 0; i < 200; i++ {
		lbl := []string{"bank", "farm"}[i%2]
		cs = append(cs, Company{Name: string(rune('A'+i%26)) + string(rune('a'+i/26)), Description: lbl + " company number", Label: lbl})
	}
	return cs
}

// heldOutNames is the set of the split's held-out company names, which the
// spies of the tuning-only runs must never see.
func heldOutNames(s Split) map[string]bool {
	held := map[string]bool{}
	for _, c := range s.HeldOut {
		held[c.Name] = true
	}
	return held
}
