package evaluate

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/index/embedding"
)

// TestAnalyzeHandMade: two folds of hand-made companies; the method ranks
// by a position written in the name, so every top-10 is known.
func TestAnalyzeHandMade(t *testing.T) {
	// Fold 0 ranks these; fold 1 is the labelled set (and the reverse).
	// Positions: the retail pair together, "retails" (the same LabelKey,
	// another exact label) next to them, the banks far away; "mass
	// retail" shares the word "retail".
	fold0 := []Company{
		{Name: "p0", Label: "retail"},
		{Name: "p1", Label: "retail"},
		{Name: "p2", Label: "retails"},
		{Name: "p3", Label: "mass retail"},
		{Name: "p50", Label: "banking"},
		{Name: "p51", Label: "banking"},
		{Name: "p90", Label: "steel"},
	}
	fold1 := []Company{
		{Name: "p0", Label: "retail"},
		{Name: "p1", Label: "retail"},
		{Name: "p50", Label: "steel"},
		{Name: "p51", Label: "steel"},
	}
	pos := func(d embedding.Doc) float64 {
		var x float64
		for _, r := range strings.TrimPrefix(d.Name, "p") {
			x = x*10 + float64(r-'0')
		}
		return x
	}
	byPos := Method{Name: "position", Sim: func(ranked []embedding.Doc, _ []Company) (func(i, j int) float64, error) {
		return func(i, j int) float64 { return -abs(pos(ranked[i]) - pos(ranked[j])) }, nil
	}}
	s := Split{Tuning: append(append([]Company{}, fold0...), fold1...), Folds: [2][]Company{fold0, fold1}}
	got, err := Analyze(s, Variants[:1], byPos)
	if err != nil {
		t.Fatal(err)
	}
	a := got[0]
	// Fold 0 queries: p0, p1 (retail), p50, p51 (banking); fold 1: p0, p1
	// (retail), p50, p51 (steel). 8 queries, one relevant each: ceiling 0.1.
	// Labelled fold holds retail for both retail queries of fold 0, not
	// banking; fold 1's labelled fold (fold 0) holds retail and steel.
	if a.Queries != 8 || a.QueriesLabelled != 6 {
		t.Errorf("queries %d / %d, want 8 / 6", a.Queries, a.QueriesLabelled)
	}
	if !near(a.Ceiling, 0.1) || !near(a.CeilingLabelled, 0.6/8) {
		t.Errorf("ceilings %v / %v", a.Ceiling, a.CeilingLabelled)
	}
	if !near(a.CeilingKey, 0.1) {
		t.Errorf("key ceiling %v, want 0.1", a.CeilingKey)
	}
	// Fold 0, retail queries (p0, p1): the other retail (exact), retails
	// (same LabelKey), mass retail (shared word), banking ×2 and steel
	// (other). Banking queries: the other bank, then 5 others. Fold 1:
	// one exact and two others per query. 10 slots per query, 80 in all.
	if !near(a.PrecisionAt10, 8/80.0) || !near(a.Exact, 8/80.0) || !near(a.SameKey, 2/80.0) ||
		!near(a.SharedWord, 2/80.0) || !near(a.Other, (2*3+2*5+4*2)/80.0) {
		t.Errorf("breakdown %+v", a)
	}
	if out := a.String(); !strings.Contains(out, "8 queries (6 with their label in the labelled fold)") {
		t.Errorf("string %q", out)
	}
	if embedding.LabelKey("retails") != embedding.LabelKey("retail") || embedding.LabelKey("retailing") == embedding.LabelKey("retail") {
		t.Fatal("the plural stemmer's keys changed: rewrite this test")
	}

	// The key ceiling when the group is larger than 10: 2 "retail" and 10
	// "retails" are one group of 12; a retail query expects 1 × 10/11
	// hits, a retails query 9 × 10/11.
	big := []Company{{Name: "p0", Label: "retail"}, {Name: "p1", Label: "retail"}}
	for i := range 10 {
		big = append(big, Company{Name: "p" + strconv.Itoa(2+i), Label: "retails"})
	}
	other := []Company{{Name: "p0", Label: "x"}, {Name: "p1", Label: "x"}}
	got, err = Analyze(Split{Folds: [2][]Company{big, other}}, Variants[:1], byPos)
	if err != nil {
		t.Fatal(err)
	}
	if want := (2.0/11 + 90.0/11 + 0.2) / 14; !near(got[0].CeilingKey, want) {
		t.Errorf("key ceiling, group of 12: %v, want %v", got[0].CeilingKey, want)
	}
	none := Split{Folds: [2][]Company{{{Name: "p1", Label: "a"}}, {{Name: "p2", Label: "b"}}}}
	if _, err := Analyze(none, Variants[:1], byPos); !errors.Is(err, ErrNoQueries) {
		t.Errorf("no queries: %v, want ErrNoQueries", err)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestAnalyzeNeverSeesHeldOut: the analysis reads the tuning folds only,
// and the method never gets a ranked company's labels.
func TestAnalyzeNeverSeesHeldOut(t *testing.T) {
	s := SplitCompanies(separableCompanies())
	held := heldOutNames(s)
	spy := Method{Name: "spy", Sim: func(ranked []embedding.Doc, labelled []Company) (func(i, j int) float64, error) {
		for _, d := range ranked {
			if held[d.Name] || len(d.Industries) > 0 {
				return nil, errors.New("a held-out or labelled company is ranked")
			}
		}
		for _, c := range labelled {
			if held[c.Name] {
				return nil, errors.New("a held-out company is in the labelled set")
			}
		}
		return func(i, j int) float64 { return 0 }, nil
	}}
	got, err := Analyze(s, Variants, spy)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(Variants) || got[0].Queries != len(s.Tuning) {
		t.Errorf("analysis %+v, want %d queries per variant", got, len(s.Tuning))
	}
}
