package embedding

import (
	"math"
	"testing"
)

func TestLexical(t *testing.T) {
	var docs []Doc
	for i := 0; i < 20; i++ {
		docs = append(docs,
			Doc{Name: "First Bank", Description: "bank loans deposits company", Industries: []string{"Banking"}},
			Doc{Name: "Green Farm", Description: "farm tractors harvest company", Industries: []string{"Farming"}},
			Doc{Description: "company bank farm"})
	}
	m, err := Fit(docs, Options{Dim: 16, LabelDims: 6})
	if err != nil {
		t.Fatal(err)
	}
	if !m.HasLexical() {
		t.Fatal("a fitted model has no lexical weights")
	}
	bank := m.LexicalText("bank loans")
	tests := []struct {
		name   string
		a, b   Lexical
		lo, hi float64
	}{
		{"itself", bank, bank, 0.999, 1.001},
		{"no shared term", bank, m.LexicalText("tractors harvest"), 0, 0},
		{"unknown words", bank, m.LexicalText("zebra quantum"), 0, 0},
		{"a document of the topic", bank, m.Lexical(docs[0]), 0.3, 0.999},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.a.Cosine(tc.b)
			if got < tc.lo || got > tc.hi || math.IsNaN(got) {
				t.Errorf("cosine %v, want %v-%v", got, tc.lo, tc.hi)
			}
			if sym := tc.b.Cosine(tc.a); math.Abs(sym-got) > 1e-6 {
				t.Errorf("cosine not symmetric: %v and %v", got, sym)
			}
		})
	}
	// The label gains: "company" is on every label, "bank" on one.
	c := m.LexicalText("bank company")
	rb, _ := m.rows.get(termHash([]byte("bank")))
	rc, _ := m.rows.get(termHash([]byte("company")))
	weight := map[int32]float32{}
	for i, r := range c.rows {
		weight[r] = c.w[i]
	}
	if c.Len() != 2 || !(weight[rb] > 2*weight[rc]) {
		t.Errorf("signature of \"bank company\": bank %v, company %v; want bank above twice company", weight[rb], weight[rc])
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.HasLexical() || loaded.LexicalText("bank").Len() != 0 {
		t.Error("a loaded model has lexical weights (they are not serialized)")
	}
}
