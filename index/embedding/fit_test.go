package embedding

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func encoded(t *testing.T, m *Model) []byte {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFitDeterministic(t *testing.T) {
	m, docs, _ := fitted(t)
	again, err := Fit(docs, Options{Dim: 32})
	if err != nil {
		t.Fatal(err)
	}
	if again.ID() != m.ID() || !bytes.Equal(encoded(t, again), encoded(t, m)) {
		t.Fatalf("two fits of the same documents differ: %s and %s", m.ID(), again.ID())
	}

	// The split of work over CPUs must not change a bit.
	prev := runtime.GOMAXPROCS(1)
	single, err := Fit(docs, Options{Dim: 32})
	runtime.GOMAXPROCS(prev)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encoded(t, single), encoded(t, m)) {
		t.Fatal("a fit on one CPU differs from a fit on several")
	}
}

func TestFitIDsDiffer(t *testing.T) {
	m, docs, _ := fitted(t)
	variants := map[string]func() (*Model, error){
		"fewer documents": func() (*Model, error) { return Fit(docs[:100], Options{Dim: 32}) },
		"another seed":    func() (*Model, error) { return Fit(docs, Options{Dim: 32, Seed: 99}) },
		"other weights": func() (*Model, error) {
			return Fit(docs, Options{Dim: 32, Weights: Weights{Description: 1, Keywords: 3}})
		},
		"another dimension": func() (*Model, error) { return Fit(docs, Options{Dim: 24}) },
	}
	for name, fit := range variants {
		other, err := fit()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if other.ID() == m.ID() {
			t.Errorf("%s: the fit has the same id %s", name, m.ID())
		}
	}
	if want := fmt.Sprintf("tfidf-svd-v1-32-%s", m.ID()[len(m.ID())-8:]); m.ID() != want {
		t.Errorf("ID() = %q, want the form %q", m.ID(), want)
	}
}

func TestFitTooFewDocs(t *testing.T) {
	unique := make([]Doc, 40)
	for i := range unique {
		// No word occurs in two documents: nothing can be learned.
		unique[i] = Doc{Description: fmt.Sprintf("word%dx word%dy", i, i)}
	}
	docs, _ := fixtureCorpus(30)
	tests := map[string][]Doc{
		"none":             nil,
		"empty documents":  make([]Doc, 50),
		"nine documents":   docs[:MinFitDocs-1],
		"no shared words":  unique,
		"only stop words":  {{Description: "the of and"}, {Description: "and the of"}},
		"numbers only":     slicesRepeat(Doc{Description: "1999 2024 42"}, 20),
		"one repeated doc": slicesRepeat(Doc{Description: "cloud security"}, 20),
	}
	for name, docs := range tests {
		if _, err := Fit(docs, Options{}); !errors.Is(err, ErrTooFewDocs) {
			t.Errorf("%s: Fit error = %v, want ErrTooFewDocs", name, err)
		}
	}
}

func slicesRepeat(d Doc, n int) []Doc {
	out := make([]Doc, n)
	for i := range out {
		out[i] = d
	}
	return out
}

func TestFitOptionsInvalid(t *testing.T) {
	docs, _ := fixtureCorpus(30)
	tests := map[string]Options{
		"negative dim":     {Dim: -1},
		"dim too large":    {Dim: MaxDim + 1},
		"negative vocab":   {MaxVocab: -5},
		"negative min df":  {MinDocFreq: -1},
		"many iterations":  {PowerIterations: 11},
		"negative weight":  {Weights: Weights{Description: -1}},
		"NaN weight":       {Weights: Weights{Description: float32(math.NaN())}},
		"infinite weight":  {Weights: Weights{Keywords: float32(math.Inf(1))}},
		"negative iterate": {PowerIterations: -1},
	}
	for name, opt := range tests {
		if _, err := Fit(docs, opt); !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("%s: Fit error = %v, want ErrInvalidOptions", name, err)
		}
	}
}

// TestFitSmallSample: fifty documents have fewer independent directions
// than 256 dimensions; the vectors keep the requested length with zeros at
// the end.
func TestFitSmallSample(t *testing.T) {
	docs, _ := fixtureCorpus(50)
	m, err := Fit(docs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Dim() != DefaultDim || m.rank >= DefaultDim || m.rank < 2 {
		t.Fatalf("Dim %d, rank %d; want dim %d and a rank below it", m.Dim(), m.rank, DefaultDim)
	}
	v := m.Embed(docs[0])
	checkUnit(t, m, v)
	for _, x := range v[m.rank:] {
		if x != 0 {
			t.Fatal("a component beyond the sample's rank is not zero")
		}
	}
}

func TestFitMaxVocab(t *testing.T) {
	docs, _ := fixtureCorpus(100)
	m, err := Fit(docs, Options{Dim: 8, MaxVocab: 40})
	if err != nil {
		t.Fatal(err)
	}
	if m.VocabSize() != 40 {
		t.Errorf("VocabSize() = %d, want 40", m.VocabSize())
	}
	if got := len(encoded(t, m)); got != headerSize+40*(12+m.rank)+8*4+4 {
		t.Errorf("model is %d bytes, want %d", got, headerSize+40*(12+m.rank)+8*4+4)
	}
}

// TestTruncatedSVD compares the randomized SVD with gonum's exact SVD on a
// matrix with a decaying spectrum (low rank plus noise), where the top
// components are well separated and must come out precisely.
func TestTruncatedSVD(t *testing.T) {
	const rows, cols, rank, k = 300, 200, 40, 12
	state := uint64(1)
	uniform := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11)/(1<<53) - 0.5
	}
	u, v := mat.NewDense(rows, rank, nil), mat.NewDense(rank, cols, nil)
	for i := 0; i < rows; i++ {
		for j := 0; j < rank; j++ {
			u.Set(i, j, uniform()*math.Pow(0.75, float64(j)))
		}
	}
	for i := 0; i < rank; i++ {
		for j := 0; j < cols; j++ {
			v.Set(i, j, uniform())
		}
	}
	var dense mat.Dense
	dense.Mul(u, v)
	x := &csr{ptr: []int{0}}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			val := float32(dense.At(i, j) + 1e-3*uniform())
			dense.Set(i, j, float64(val))
			x.col = append(x.col, int32(j))
			x.val = append(x.val, val)
		}
		x.ptr = append(x.ptr, len(x.col))
	}
	var svd mat.SVD
	if !svd.Factorize(&dense, mat.SVDThin) {
		t.Fatal("exact SVD failed")
	}
	exact := svd.Values(nil)
	var exactV mat.Dense
	svd.VTo(&exactV)

	vecs, sv := truncatedSVD(x, cols, k, 1, 1)
	if len(sv) != k {
		t.Fatalf("%d singular values, want %d", len(sv), k)
	}
	for j := 0; j < k; j++ {
		if rel := math.Abs(sv[j]-exact[j]) / exact[j]; rel > 1e-4 {
			t.Errorf("singular value %d: %v, exact %v (relative error %.2g)", j, sv[j], exact[j], rel)
		}
		var d float64
		for c := 0; c < cols; c++ {
			d += float64(vecs[c*k+j]) * exactV.At(c, j)
		}
		if math.Abs(math.Abs(d)-1) > 1e-4 {
			t.Errorf("singular vector %d: |cos| with the exact one is %v", j, math.Abs(d))
		}
	}
}
