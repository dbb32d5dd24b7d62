package embedding

import (
	"math"
	"slices"
)

// Lexical signatures (issue 22): a document's sparse TF-IDF vector over the
// model's vocabulary, the lexical leg of the hybrid ranking the relevance
// benchmark measures (index/embedding/evaluate: the vector top N reranked
// by vector cosine plus a weight times the signatures' cosine). Each term's
// lexical weight is its IDF times its label gain when the fit learned label
// directions (termGains: "bank" counts for more than "headquartered").
//
// The weights belong to a fitted model only and are not serialized: the
// hybrid rerank measured within noise of the label-direction vectors alone
// (decisions.md, "Relevance: hybrid ranking"), so discovery does not use
// it, and an index's model does not carry the weights.

// Lexical is a sparse, L2-normalized term vector: rows ascending, one
// weight each. The zero value (no known terms) has cosine 0 with anything.
type Lexical struct {
	rows []int32
	w    []float32
}

// Len is the number of terms.
func (l Lexical) Len() int { return len(l.rows) }

// Cosine is the dot product of two signatures of the same model.
func (l Lexical) Cosine(o Lexical) float64 {
	var s float32
	a, b := l.rows, o.rows
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			s += l.w[i] * o.w[j]
			i++
			j++
		}
	}
	return float64(s)
}

// HasLexical reports whether the model carries lexical weights: a model
// from Fit does, one from Load does not (its signatures are empty).
func (m *Model) HasLexical() bool { return m.lex != nil }

// Lexical returns d's signature: the terms Embed reads, each weighted by
// its field-weighted sublinear count times its lexical weight.
func (m *Model) Lexical(d Doc) Lexical {
	if m.lex == nil {
		return Lexical{}
	}
	s := m.scratch()
	defer scratchPool.Put(s)
	s.doc(d, m.weights)
	return m.lexical(s)
}

// LexicalText returns the signature of free text read as a description.
func (m *Model) LexicalText(text string) Lexical {
	if m.lex == nil {
		return Lexical{}
	}
	s := m.scratch()
	defer scratchPool.Put(s)
	s.field(text, 1)
	return m.lexical(s)
}

func (m *Model) lexical(s *scratch) Lexical {
	out := Lexical{rows: make([]int32, 0, len(s.rows)), w: make([]float32, 0, len(s.rows))}
	slices.Sort(s.rows)
	var sq float64
	for _, r := range s.rows {
		w := s.weight[r] * m.lex[r]
		if w == 0 {
			continue
		}
		out.rows = append(out.rows, r)
		out.w = append(out.w, w)
		sq += float64(w) * float64(w)
	}
	s.reset()
	if sq > 0 {
		inv := float32(1 / math.Sqrt(sq))
		for i := range out.w {
			out.w[i] *= inv
		}
	}
	return out
}

// lexicalWeights are the per-term lexical weights: IDF times the label
// gains (none: gains of 1).
func lexicalWeights(idf, gains []float64) []float32 {
	out := make([]float32, len(idf))
	for t := range idf {
		g := 1.0
		if gains != nil {
			g = gains[t]
		}
		out[t] = float32(idf[t] * g)
	}
	return out
}
