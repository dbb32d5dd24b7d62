package evaluate

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestPrecision(t *testing.T) {
	// Points on a line; similarity is minus the distance.
	pos := []float64{0, 1, 2, 10, 11, 30}
	labels := []string{"a", "a", "b", "b", "b", "c"}
	sim := func(i, j int) float64 { return -math.Abs(pos[i] - pos[j]) }
	// k=1: a0→a1 hit, a1→a0 hit (tie with b2 broken by index), b2→a1 miss,
	// b10→b11 hit, b11→b10 hit; c has no partner and is not a query.
	p, n, err := Precision(labels, 1, sim)
	if err != nil || n != 5 || math.Abs(p-4.0/5) > 1e-12 {
		t.Errorf("Precision(k=1) = %v over %d queries, %v; want 0.8 over 5", p, n, err)
	}
	// k=2: a0 {a1,b2}=1/2, a1 {a0,b2}=1/2, b2 {a1,a0}=0, b10 {b11,b2}=1, b11 {b10,b2}=1.
	if p, _, _ := Precision(labels, 2, sim); math.Abs(p-3.0/5) > 1e-12 {
		t.Errorf("Precision(k=2) = %v, want 0.6", p)
	}
	if _, _, err := Precision([]string{"a", "b"}, 10, sim); !errors.Is(err, ErrNoQueries) {
		t.Errorf("no shared labels: %v, want ErrNoQueries", err)
	}
}

func TestTFIDF(t *testing.T) {
	docs := [][]string{{"bank", "loan", "bank"}, {"bank", "loan"}, {"farm", "tractor"}}
	v := TFIDF(docs, true)
	for i, x := range v {
		if n := x.Dot(x); math.Abs(n-1) > 1e-12 {
			t.Errorf("doc %d: norm² %v", i, n)
		}
	}
	if v[0].Dot(v[1]) <= 0.9 || v[0].Dot(v[2]) != 0 {
		t.Errorf("cosines %v and %v: want near 1 and 0", v[0].Dot(v[1]), v[0].Dot(v[2]))
	}
	// Raw tf weighs the repeated "bank" more than sublinear tf does.
	raw := TFIDF(docs, false)
	if raw[0].Dot(raw[1]) >= v[0].Dot(v[1]) {
		t.Error("raw tf did not move the repeated-term document further away")
	}
}

func TestHashing(t *testing.T) {
	h := Hashing([][]string{{"bank", "loan"}, {"bank", "loan"}, nil}, 16)
	if len(h[0]) != 16 || math.Abs(Cosine(h[0], h[0])-1) > 1e-6 || Cosine(h[0], h[1]) < 0.999 {
		t.Errorf("hashing vectors are not unit or not equal for equal input: %v", h[0])
	}
	if Cosine(h[2], h[2]) != 0 {
		t.Error("an empty document should hash to zero")
	}
}

func TestPlainTerms(t *testing.T) {
	got := PlainTerms("Bank of America, N.A.")
	want := []string{"bank", "of", "america", "bank of", "of america"}
	if !slices.Equal(got, want) {
		t.Errorf("PlainTerms = %q, want %q", got, want)
	}
}

func TestReadJSONL(t *testing.T) {
	in := `{"name":"A","description":"Bank.","industry_label":"banking"}

{"name":"B","description":"Farm.","industry_label":""}
{"name":"C","description":"Loans.","industry_label":" banking "}
`
	got, err := ReadJSONL(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "A" || got[1].Label != "banking" {
		t.Errorf("ReadJSONL = %+v", got)
	}
	if d := got[0].Doc(); d.Name != "A" || d.Description != "Bank." || d.Industries != nil {
		t.Errorf("Doc() = %+v: the label must not reach the embedder", d)
	}
	_, err = ReadJSONL(strings.NewReader("{\"name\":\"A\"}\n{broken\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("broken line: error %v, want one naming line 2", err)
	}
}
