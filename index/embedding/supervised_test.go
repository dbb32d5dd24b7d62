package embedding

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"
)

func TestLabelKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Pharmaceuticals", "pharmaceutical"},
		{"pharmaceutical", "pharmaceutical"},
		{"Oil and Gas", "oil gas"},
		{"IT services", "it service"},
		{"  ", ""},
		{"Category 5", "category"},
		{"5G", "5g"},
		{"Société Générale", "societe generale"},
	}
	for _, tc := range tests {
		if got := LabelKey(tc.in); got != tc.want {
			t.Errorf("LabelKey(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// labelledHalf is the synthetic topic corpus with the topic as the
// industry label of every other document: an index where half the
// companies carry labels.
func labelledHalf(n int) (docs []Doc, topics []int) {
	docs, topics = syntheticCorpus(n, 30, 200, 5)
	for i := range docs {
		docs[i].Keywords = nil
		if i%2 == 0 {
			docs[i].Industries = []string{fmt.Sprintf("industry%c%c", 'a'+topics[i]/26, 'a'+topics[i]%26)}
		}
	}
	return docs, topics
}

// precisionOfUnlabelled is precision@10 of same-topic neighbours among the
// unlabelled (odd) documents, embedded as they are.
func precisionOfUnlabelled(m *Model, docs []Doc, topics []int) float64 {
	var vecs [][]float32
	var lbl []int
	for i := 1; i < len(docs); i += 2 {
		vecs = append(vecs, m.Embed(docs[i]))
		lbl = append(lbl, topics[i])
	}
	var hits int
	for i := range vecs {
		type nb struct {
			j int
			s float64
		}
		var nbs []nb
		for j := range vecs {
			if j != i {
				nbs = append(nbs, nb{j, dot(vecs[i], vecs[j])})
			}
		}
		slices.SortFunc(nbs, func(a, b nb) int { return cmp.Compare(b.s, a.s) })
		for _, x := range nbs[:10] {
			if lbl[x.j] == lbl[i] {
				hits++
			}
		}
	}
	return float64(hits) / float64(10*len(vecs))
}

// TestLabelDirectionsHelpUnlabelled: labels on half the fit sample make
// the other half's neighbours share their topic more often, and a sample
// without labels fits exactly as it did before label directions existed.
func TestLabelDirectionsHelpUnlabelled(t *testing.T) {
	docs, topics := labelledHalf(1200)
	without, err := Fit(docs, Options{Dim: 64, LabelDims: -1})
	if err != nil {
		t.Fatal(err)
	}
	with, err := Fit(docs, Options{Dim: 64, LabelDims: 24})
	if err != nil {
		t.Fatal(err)
	}
	pw, pl := precisionOfUnlabelled(without, docs, topics), precisionOfUnlabelled(with, docs, topics)
	t.Logf("precision@10 of unlabelled documents: %.3f unsupervised, %.3f with label directions", pw, pl)
	if pl < pw+0.02 {
		t.Errorf("label directions: precision@10 %.3f, not above the unsupervised %.3f", pl, pw)
	}

	plain := slices.Clone(docs)
	for i := range plain {
		plain[i].Industries = nil
	}
	a, err := Fit(plain, Options{Dim: 64, LabelDims: 24})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Fit(plain, Options{Dim: 64, LabelDims: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encoded(t, a), encoded(t, b)) {
		t.Error("a sample without labels fits differently with label directions on")
	}
}

func TestLabelDirectionsDeterministic(t *testing.T) {
	docs, _ := labelledHalf(600)
	m, err := Fit(docs, Options{Dim: 48, LabelDims: 18})
	if err != nil {
		t.Fatal(err)
	}
	prev := runtime.GOMAXPROCS(1)
	single, err := Fit(docs, Options{Dim: 48, LabelDims: 18})
	runtime.GOMAXPROCS(prev)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encoded(t, m), encoded(t, single)) {
		t.Fatal("a supervised fit on one CPU differs from one on several")
	}
	unsup, err := Fit(docs, Options{Dim: 48, LabelDims: -1})
	if err != nil {
		t.Fatal(err)
	}
	if unsup.ID() == m.ID() {
		t.Error("label directions did not change the model")
	}
	// The label directions occupy the last 18 components of the rank.
	if m.rank != 48 || m.Dim() != 48 {
		t.Errorf("rank %d dim %d, want 48 and 48", m.rank, m.Dim())
	}
}

func TestTermGains(t *testing.T) {
	var docs []Doc
	for i := 0; i < 20; i++ {
		bank, farm := "bank loans deposits company", "farm tractors harvest company"
		docs = append(docs,
			Doc{Description: bank, Industries: []string{"Banking"}},
			Doc{Description: farm, Industries: []string{"Farming"}},
			Doc{Description: "company bank farm"}) // unlabelled: no effect
	}
	docs = append(docs, Doc{Description: "obscure widgets", Industries: []string{"Widgets"}}) // a label of one document is no class
	vocab := []uint64{termHash([]byte("bank")), termHash([]byte("company")), termHash([]byte("tractor")), termHash([]byte("widget")), termHash([]byte("nowhere"))}
	g := termGains(docs, Options{Weights: DefaultWeights}, vocab)
	tests := []struct {
		term string
		i    int
		lo   float64
		hi   float64
	}{
		{"bank: one label only", 0, 0.5, 1},
		{"company: every label alike", 1, gainFloor, gainFloor},
		{"tractor: one label only", 2, 0.5, 1},
	}
	for _, tc := range tests {
		if g[tc.i] < tc.lo || g[tc.i] > tc.hi || math.IsNaN(g[tc.i]) {
			t.Errorf("%s: gain %v, want %v-%v", tc.term, g[tc.i], tc.lo, tc.hi)
		}
	}
	// Terms no labelled class holds get the mean gain of the others.
	mean := (g[0] + g[1] + g[2]) / 3
	for _, i := range []int{3, 4} {
		if math.Abs(g[i]-mean) > 1e-12 {
			t.Errorf("term %d: gain %v, want the mean %v", i, g[i], mean)
		}
	}
}

func TestLabelOptionsInvalid(t *testing.T) {
	docs, _ := fixtureCorpus(30)
	for name, opt := range map[string]Options{
		"label dims = dim":     {Dim: 32, LabelDims: 32},
		"negative weight":      {LabelDims: 8, LabelWeight: -1},
		"NaN weight":           {LabelDims: 8, LabelWeight: math.NaN()},
		"huge label weight":    {LabelDims: 8, LabelWeight: 1e9},
		"label dims above dim": {Dim: 16, LabelDims: 64},
	} {
		if _, err := Fit(docs, opt); !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("%s: Fit error = %v, want ErrInvalidOptions", name, err)
		}
	}
}

// TestRidgeLSAReachesUnseenTerms: with the labelled documents' LSA vectors
// in the kernel, a term no labelled document holds gets label coordinates
// through its LSA row; with the TF-IDF rows alone it gets none.
func TestRidgeLSAReachesUnseenTerms(t *testing.T) {
	// Terms 0-1 belong to label A, 2-3 to label B, term 4 is in no
	// labelled document but shares its LSA direction with terms 0-1.
	rows := [][]sparseEntry{
		{{0, 0.8}, {1, 0.6}}, {{0, 0.6}, {1, 0.8}},
		{{2, 0.8}, {3, 0.6}}, {{2, 0.6}, {3, 0.8}},
	}
	labels := []labelClass{{"a", []int{0, 1}}, {"b", []int{2, 3}}}
	const vocab, full, dims = 5, 3, 2 // LSA: column 0 dropped, as in Fit
	vecs := []float32{
		0, 1, 0,
		0, 1, 0,
		0, 0, 1,
		0, 0, 1,
		0, 1, 0,
	}
	lsa := &lsaTerms{vecs: vecs, full: full, scale: []float64{1, 1}, gamma: 1}
	without := ridgeRows(rows, labels, vocab, dims, ridgeLambda, nil)
	with := ridgeRows(rows, labels, vocab, dims, ridgeLambda, lsa)
	if without == nil || with == nil {
		t.Fatal("ridge regression failed")
	}
	norm := func(r []float64) (s float64) {
		for _, v := range r {
			s += v * v
		}
		return math.Sqrt(s)
	}
	if n := norm(without[4*dims : 5*dims]); n != 0 {
		t.Errorf("TF-IDF only: unseen term has label coordinates of norm %v", n)
	}
	unseen, seen := with[4*dims:5*dims], with[0:dims]
	if norm(unseen) == 0 {
		t.Fatal("with LSA: unseen term has no label coordinates")
	}
	// It lands on term 0's side of the label space, away from term 2's.
	dot := func(a, b []float64) (s float64) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	if dot(unseen, seen) <= 0 || dot(unseen, with[2*dims:3*dims]) >= dot(unseen, seen) {
		t.Errorf("unseen term %v, label-A term %v, label-B term %v", unseen, seen, with[2*dims:3*dims])
	}
}
