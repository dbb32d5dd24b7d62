package embedding

import (
	"math"
	"sync"
)

// Weights are the relative weights of a document's fields. A term's weight
// in a document is the sum over fields of weight × (1 + ln count in that
// field), so repeating a word in long site text cannot drown a keyword.
type Weights struct {
	Name, Description, SiteText, Keywords, Industries float32
}

// DefaultWeights: industry labels and keywords are curated and say most
// about what a company does (they matter most for lookalikes); the name is
// mostly a proper noun; site text is long and noisy.
var DefaultWeights = Weights{Name: 0.5, Description: 1, SiteText: 0.5, Keywords: 1.5, Industries: 2}

// maxFieldBytes bounds the text read from one field: beyond the first
// 16 KiB a company's site text adds little and would only slow ingest.
const maxFieldBytes = 16 << 10

// Model is a fitted TF-IDF + truncated SVD embedder. It is immutable once
// built, so any number of goroutines may use it at once.
type Model struct {
	id       string
	dim      int
	rank     int // projected components; dim-rank trailing components are always zero
	weights  Weights
	stemming Stemming  // the tokenizer's stemmer, fixed by the model's format version
	hashes   []uint64  // term hashes, ascending; a term's row is its position
	rows     termIndex // term hash → row
	// A term's projection row is quant[row*rank:(row+1)*rank] ×
	// scales[row]: its IDF × its right singular vector coordinates × the
	// singular values to the power singularPower, as serialized. Kept as
	// int8 codes rather than expanded to float32: see axpyInt8.
	quant    []int8
	scales   []float32
	fallback []float32 // unit vector for input without known terms
	lex      []float32 // per row: lexical weight (lexical.go); nil in old models
	encoded  []byte    // the serialized model, source of the id
}

// ID implements Embedder: "tfidf-svd-v1-<dim>-<first 8 hex digits of the
// SHA-256 of the serialized model>".
func (m *Model) ID() string { return m.id }

// Dim implements Embedder.
func (m *Model) Dim() int { return m.dim }

// VocabSize is the number of terms the model knows.
func (m *Model) VocabSize() int { return len(m.hashes) }

// Embed implements Embedder.
func (m *Model) Embed(d Doc) []float32 {
	s := m.scratch()
	defer scratchPool.Put(s)
	s.doc(d, m.weights)
	return m.project(s)
}

// doc counts the fields of d with weights w.
func (s *scratch) doc(d Doc, w Weights) {
	s.field(d.Name, w.Name)
	s.field(d.Description, w.Description)
	s.field(d.SiteText, w.SiteText)
	s.list(d.Keywords, w.Keywords)
	s.list(d.Industries, w.Industries)
}

// EmbedText implements Embedder. Query text is read as a description, so
// "cybersecurity for banks" lands among companies described that way.
func (m *Model) EmbedText(text string) []float32 {
	s := m.scratch()
	defer scratchPool.Put(s)
	s.field(text, 1)
	return m.project(s)
}

// KnownTerms counts the distinct terms of d the model knows. Zero means d
// embeds to the fallback vector: a caller may refuse such a query rather
// than rank by it.
func (m *Model) KnownTerms(d Doc) int {
	s := m.scratch()
	defer scratchPool.Put(s)
	s.field(d.Name, 1)
	s.field(d.Description, 1)
	s.field(d.SiteText, 1)
	s.list(d.Keywords, 1)
	s.list(d.Industries, 1)
	n := len(s.rows)
	s.reset()
	return n
}

// scratch holds the buffers of one Embed call; pooled, so embedding does
// not allocate beyond the returned vector. Per-row counters are dense
// arrays over the vocabulary, so counting a term is an array increment and
// no sort is needed; every call leaves them zero again.
type scratch struct {
	m         *Model
	tk        tokenizer
	counts    []uint16  // per row: occurrences in the current field
	weight    []float32 // per row: weight summed over the fields so far
	fieldRows []int32   // rows seen in the current field
	rows      []int32   // rows seen in the document, in first-seen order
	ws        []float32 // per entry of rows: its weight × its row's scale
	sum       []float32
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func (m *Model) scratch() *scratch {
	s := scratchPool.Get().(*scratch)
	s.m = m
	s.tk.stemming = m.stemming
	if n := len(m.hashes); len(s.counts) < n {
		s.counts, s.weight = make([]uint16, n), make([]float32, n)
	}
	return s
}

// count counts the terms the tokenizer found; unknown terms are ignored.
func (s *scratch) count(hashes []uint64) {
	// Locals, which the appends to fieldRows cannot alias, so the loop
	// does not reload them from s for every term.
	rows, counts, fieldRows := s.m.rows, s.counts, s.fieldRows
	for _, h := range hashes {
		r, ok := rows.get(h)
		if !ok {
			continue
		}
		switch counts[r] {
		case 0:
			fieldRows = append(fieldRows, r)
		case math.MaxUint16:
			continue
		}
		counts[r]++
	}
	s.fieldRows = fieldRows
}

func (s *scratch) field(text string, w float32) {
	if w == 0 || text == "" {
		return
	}
	if len(text) > maxFieldBytes {
		text = text[:maxFieldBytes]
	}
	s.tk.hashes = s.tk.hashes[:0]
	s.tk.terms(text, nil)
	s.count(s.tk.hashes)
	s.endField(w)
}

// list reads the entries of a list field (keywords, industry labels) as one
// field; no bigram spans two entries.
func (s *scratch) list(entries []string, w float32) {
	if w == 0 || len(entries) == 0 {
		return
	}
	budget := maxFieldBytes
	s.tk.hashes = s.tk.hashes[:0]
	for _, e := range entries {
		if budget <= 0 {
			break
		}
		if len(e) > budget {
			e = e[:budget]
		}
		budget -= len(e)
		s.tk.terms(e, nil)
	}
	s.count(s.tk.hashes)
	s.endField(w)
}

// endField adds the field's sublinear term weights to the document's.
func (s *scratch) endField(w float32) {
	for _, r := range s.fieldRows {
		if s.weight[r] == 0 {
			s.rows = append(s.rows, r)
		}
		s.weight[r] += w * sublinear(int(s.counts[r]))
		s.counts[r] = 0
	}
	s.fieldRows = s.fieldRows[:0]
}

// reset zeroes the per-row state a call touched.
func (s *scratch) reset() {
	for _, r := range s.rows {
		s.weight[r] = 0
	}
	s.rows = s.rows[:0]
}

// sublinearTable caches 1 + ln(n) for small counts.
var sublinearTable = func() (t [64]float32) {
	for n := 1; n < len(t); n++ {
		t[n] = float32(1 + math.Log(float64(n)))
	}
	return t
}()

func sublinear(n int) float32 {
	if n < len(sublinearTable) {
		return sublinearTable[n]
	}
	return float32(1 + math.Log(float64(n)))
}

// project sums the projection rows of the known terms, in the order the
// terms first occur (a fixed order: the same input always gives the same
// bits), and normalizes.
func (m *Model) project(s *scratch) []float32 {
	out := make([]float32, m.dim)
	// Room for the kernel's last block, whose coordinates past the rank
	// are scratch.
	n := (m.rank + projectSpan - 1) / projectSpan * projectSpan
	if cap(s.sum) < n {
		s.sum = make([]float32, n)
	}
	clear(s.sum[:n])
	sum := s.sum[:m.rank]
	// The weights first, in a loop of independent loads the CPU overlaps;
	// then the rows.
	if cap(s.ws) < len(s.rows) {
		s.ws = make([]float32, len(s.rows), 2*len(s.rows))
	}
	ws := s.ws[:len(s.rows)]
	for i, row := range s.rows {
		ws[i] = s.weight[row] * m.scales[row]
	}
	projectRows(m.quant, m.rank, s.rows, ws, sum)
	s.reset()
	var sq float64
	for _, x := range sum {
		sq += float64(x) * float64(x)
	}
	// A sum can vanish although terms were known (cancelling coordinates);
	// it then means as little as no terms at all.
	if sq == 0 || math.IsInf(sq, 0) || math.IsNaN(sq) {
		copy(out, m.fallback)
		return out
	}
	inv := 1 / math.Sqrt(sq)
	for i, x := range sum {
		out[i] = float32(float64(x) * inv)
	}
	return out
}
