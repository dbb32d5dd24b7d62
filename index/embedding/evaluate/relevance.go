package evaluate

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"github.com/openprospect/prospectd/index/embedding"
)

// The relevance benchmark (issue 22): companies are split, by a hash of
// their name, into a tuning part and a held-out part. Every method ranks
// the companies of one part among themselves without seeing their labels;
// a method may learn from the labels of a disjoint labelled set (the
// records of an index that do carry industry labels), never from the
// labels of the part it ranks:
//
//   - held-out: the held-out part is ranked, the labelled set is the whole
//     tuning part;
//   - tuning: the tuning part is cut in two folds by another bit of the
//     hash; each fold is ranked with the other fold as the labelled set,
//     and the two folds' queries are pooled.
//
// Choices are made on the tuning figures only; the held-out figures are
// reported, never tuned on.

// Split is a deterministic partition of an evaluation set.
type Split struct {
	Tuning, HeldOut []Company
	// Folds are the two halves of Tuning used to measure it.
	Folds [2][]Company
}

// SplitCompanies splits by a hash of the name (and description, which
// tells apart two companies of one name), so the split does not depend on
// the file's order and the same company always lands in the same part.
func SplitCompanies(cs []Company) Split {
	var s Split
	for _, c := range cs {
		h := fnv.New64a()
		h.Write([]byte(c.Name))
		h.Write([]byte{0})
		h.Write([]byte(c.Description))
		x := mix(h.Sum64())
		if x&1 == 1 {
			s.HeldOut = append(s.HeldOut, c)
			continue
		}
		s.Tuning = append(s.Tuning, c)
		s.Folds[x>>1&1] = append(s.Folds[x>>1&1], c)
	}
	return s
}

// mix is splitmix64's finalizer: FNV's low bits alone are poorly spread.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// abbreviations end in a full stop that does not end a sentence.
var abbreviations = map[string]bool{
	"inc": true, "co": true, "corp": true, "ltd": true, "plc": true, "st": true,
	"no": true, "nos": true, "jr": true, "sr": true, "mr": true, "dr": true,
	"bros": true, "vs": true, "etc": true, "approx": true, "est": true,
	"u.s": true, "u.k": true, "s.a": true, "n.v": true, "a.g": true, "e.g": true, "i.e": true,
	"s.p.a": true, "b.v": true, "l.p": true,
}

// FirstSentence returns the first sentence of a description: the text up
// to the first full stop, question or exclamation mark followed by a space
// and a capital letter or digit (or by a capital letter directly, as
// scraped text often lacks the space), skipping the full stops of
// initials and common abbreviations ("Inc.", "U.S.", "J. P. Morgan").
func FirstSentence(s string) string {
	s = strings.TrimSpace(s)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		rest := s[i+1:]
		trimmed := strings.TrimLeft(rest, " ")
		if trimmed == "" {
			return s
		}
		next, _ := utf8.DecodeRuneInString(trimmed)
		spaced := len(trimmed) < len(rest)
		if !unicode.IsUpper(next) && !(spaced && unicode.IsDigit(next)) {
			continue
		}
		if c == '.' {
			// The word before the full stop.
			start := strings.LastIndexAny(s[:i], " (\"'") + 1
			word := strings.ToLower(s[start:i])
			if abbreviations[word] || utf8.RuneCountInString(word) == 1 {
				continue
			}
		}
		return strings.TrimSpace(s[:i+1])
	}
	return s
}

// Variant rewrites a company before any method sees it.
type Variant struct {
	Name  string
	Apply func(Company) Company
}

// Variants are the benchmark's two views of the set: the whole lead
// paragraph, and its first sentence only (most real profiles have a
// sentence or two, the hard case).
var Variants = []Variant{
	{"full description", func(c Company) Company { return c }},
	{"first sentence", func(c Company) Company { c.Description = FirstSentence(c.Description); return c }},
}

// A Method ranks a corpus: from the companies to rank (labels removed) and
// a labelled set disjoint from them, it returns their pairwise similarity.
type Method struct {
	Name string
	Sim  func(ranked []embedding.Doc, labelled []Company) (func(i, j int) float64, error)
}

// TFIDFMethod is the TF-IDF cosine baseline: the embedder's terms (word 1-2
// grams, folded, plural-stemmed, no stop words), sublinear tf, smoothed
// IDF, fitted on the ranked corpus.
func TFIDFMethod() Method {
	return Method{Name: "tfidf cosine", Sim: func(ranked []embedding.Doc, _ []Company) (func(i, j int) float64, error) {
		v := TFIDF(docTerms(ranked), true)
		return func(i, j int) float64 { return v[i].Dot(v[j]) }, nil
	}}
}

// SVDMethod is the TF-IDF + truncated SVD baseline (plain latent semantic
// analysis): the TF-IDF vectors above projected on their top dim singular
// directions, documents as U·Σ, compared by cosine.
func SVDMethod(dim int) Method {
	return Method{Name: fmt.Sprintf("tfidf + svd %d", dim), Sim: func(ranked []embedding.Doc, _ []Company) (func(i, j int) float64, error) {
		v, err := LSA(TFIDF(docTerms(ranked), true), dim)
		if err != nil {
			return nil, err
		}
		return func(i, j int) float64 { return Cosine(v[i], v[j]) }, nil
	}}
}

// EmbedderMethod fits the built-in embedder with opt and compares its
// vectors. The fit sample is the ranked corpus (text only) and, when
// withLabels, the labelled set too with each label as the company's
// industry, as an index holds companies with and without industry labels;
// the ranked companies are embedded without labels either way.
func EmbedderMethod(name string, opt embedding.Options, withLabels bool) Method {
	return Method{Name: name, Sim: func(ranked []embedding.Doc, labelled []Company) (func(i, j int) float64, error) {
		m, err := fitSample(ranked, labelled, opt, withLabels)
		if err != nil {
			return nil, fmt.Errorf("fitting %s: %w", name, err)
		}
		v := make([][]float32, len(ranked))
		for i, d := range ranked {
			v[i] = m.Embed(d)
		}
		return func(i, j int) float64 { return Cosine(v[i], v[j]) }, nil
	}}
}

func docTerms(docs []embedding.Doc) [][]string {
	out := make([][]string, len(docs))
	for i, d := range docs {
		out[i] = append(EmbedderTerms(d.Name), EmbedderTerms(d.Description)...)
	}
	return out
}

// LSA projects L2-normalized sparse vectors onto their top dim singular
// directions (documents as U·Σ, as a truncated SVD's transform gives),
// exactly, through the eigendecomposition of the documents' Gram matrix:
// cheap for the few thousand documents of an evaluation set.
func LSA(v []Sparse, dim int) ([][]float32, error) {
	n := len(v)
	g := mat.NewSymDense(n, nil)
	for i := range v {
		for j := i; j < n; j++ {
			g.SetSym(i, j, v[i].Dot(v[j]))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(g, true) {
		return nil, fmt.Errorf("lsa: eigendecomposition of the %d×%d Gram matrix failed", n, n)
	}
	vals := eig.Values(nil) // ascending
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	k := min(dim, n)
	out := make([][]float32, n)
	for i := range out {
		row := make([]float32, k)
		var sq float64
		for c := 0; c < k; c++ {
			col := n - 1 - c
			x := vecs.At(i, col) * math.Sqrt(math.Max(0, vals[col]))
			row[c] = float32(x)
			sq += x * x
		}
		if sq > 0 {
			inv := float32(1 / math.Sqrt(sq))
			for c := range row {
				row[c] *= inv
			}
		}
		out[i] = row
	}
	return out, nil
}

// Row is one method's metrics on both parts.
type Row struct {
	Method          string
	Tuning, HeldOut Metrics
}

// Table is the benchmark's result for one variant.
type Table struct {
	Variant                 string
	TuningSize, HeldOutSize int
	Rows                    []Row
}

// Benchmark measures every method on every variant of the split.
func Benchmark(s Split, variants []Variant, methods []Method) ([]Table, error) {
	return benchmark(s, variants, methods, true)
}

// TuningBenchmark is Benchmark on the tuning part only: what a search over
// settings may look at. The held-out columns stay empty.
func TuningBenchmark(s Split, variants []Variant, methods []Method) ([]Table, error) {
	return benchmark(s, variants, methods, false)
}

func benchmark(s Split, variants []Variant, methods []Method, heldOut bool) ([]Table, error) {
	var out []Table
	for _, v := range variants {
		t := Table{Variant: v.Name, TuningSize: len(s.Tuning)}
		if heldOut {
			t.HeldOutSize = len(s.HeldOut)
		}
		folds := [2][]Company{applyAll(v, s.Folds[0]), applyAll(v, s.Folds[1])}
		held, tuning := applyAll(v, s.HeldOut), applyAll(v, s.Tuning)
		for _, m := range methods {
			r := Row{Method: m.Name}
			for f := range folds {
				got, err := measure(m, folds[f], folds[1-f])
				if err != nil {
					return nil, fmt.Errorf("%s, %s, tuning fold %d: %w", v.Name, m.Name, f, err)
				}
				r.Tuning = r.Tuning.add(got)
			}
			if heldOut {
				got, err := measure(m, held, tuning)
				if err != nil {
					return nil, fmt.Errorf("%s, %s, held-out: %w", v.Name, m.Name, err)
				}
				r.HeldOut = got
			}
			t.Rows = append(t.Rows, r)
		}
		out = append(out, t)
	}
	return out, nil
}

func measure(m Method, ranked, labelled []Company) (Metrics, error) {
	docs := make([]embedding.Doc, len(ranked))
	labels := make([]string, len(ranked))
	for i, c := range ranked {
		docs[i], labels[i] = c.Doc(), c.Label
	}
	sim, err := m.Sim(docs, labelled)
	if err != nil {
		return Metrics{}, err
	}
	return Evaluate(labels, sim)
}

// String prints the table in Markdown; a table of TuningBenchmark (no
// held-out part) has the tuning columns only.
func (t Table) String() string {
	var b strings.Builder
	if t.HeldOutSize == 0 {
		fmt.Fprintf(&b, "%s — tuning %d companies (two folds), held-out not measured\n", t.Variant, t.TuningSize)
		fmt.Fprintf(&b, "| method | tuning P@10 | nDCG@10 | R@100 |\n|---|---|---|---|\n")
		for _, r := range t.Rows {
			fmt.Fprintf(&b, "| %s | %.3f | %.3f | %.3f |\n", r.Method, r.Tuning.PrecisionAt10, r.Tuning.NDCGAt10, r.Tuning.RecallAt100)
		}
		if len(t.Rows) > 0 {
			fmt.Fprintf(&b, "queries: tuning %d\n", t.Rows[0].Tuning.Queries)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%s — tuning %d companies (two folds), held-out %d companies\n", t.Variant, t.TuningSize, t.HeldOutSize)
	fmt.Fprintf(&b, "| method | tuning P@10 | nDCG@10 | R@100 | held-out P@10 | nDCG@10 | R@100 |\n|---|---|---|---|---|---|---|\n")
	for _, r := range t.Rows {
		fmt.Fprintf(&b, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", r.Method,
			r.Tuning.PrecisionAt10, r.Tuning.NDCGAt10, r.Tuning.RecallAt100,
			r.HeldOut.PrecisionAt10, r.HeldOut.NDCGAt10, r.HeldOut.RecallAt100)
	}
	if len(t.Rows) > 0 {
		fmt.Fprintf(&b, "queries: tuning %d, held-out %d\n", t.Rows[0].Tuning.Queries, t.Rows[0].HeldOut.Queries)
	}
	return b.String()
}

// Hybrid rerank defaults, chosen on the tuning part (decisions.md,
// "Relevance: hybrid ranking"): the vector top HybridTop reranked by
// vector cosine + HybridWeight × lexical cosine.
const (
	HybridTop    = 200
	HybridWeight = 0.5
)

// fitSample fits the embedder on the ranked documents and, when
// withLabels, the labelled set with each label as the company's industry.
func fitSample(ranked []embedding.Doc, labelled []Company, opt embedding.Options, withLabels bool) (*embedding.Model, error) {
	sample := slices.Clone(ranked)
	if withLabels {
		for _, c := range labelled {
			d := c.Doc()
			d.Industries = []string{c.Label}
			sample = append(sample, d)
		}
	}
	return embedding.Fit(sample, opt)
}

// LexicalMethod compares the fitted model's lexical signatures
// (embedding.Model.Lexical: TF-IDF over the model's vocabulary, each term's
// IDF times its label gain), the fit sample as EmbedderMethod's with labels.
func LexicalMethod(name string, opt embedding.Options) Method {
	return Method{Name: name, Sim: func(ranked []embedding.Doc, labelled []Company) (func(i, j int) float64, error) {
		m, err := fitSample(ranked, labelled, opt, true)
		if err != nil {
			return nil, fmt.Errorf("fitting %s: %w", name, err)
		}
		lex := make([]embedding.Lexical, len(ranked))
		for i, d := range ranked {
			lex[i] = m.Lexical(d)
		}
		return func(i, j int) float64 { return lex[i].Cosine(lex[j]) }, nil
	}}
}

// HybridMethod is the hybrid ranking as a search engine would run it: the
// top n of the vector ranking reranked by vector cosine + weight × the
// lexical signatures' cosine; below the top n, the vector order.
func HybridMethod(name string, opt embedding.Options, n int, weight float64) Method {
	return Method{Name: name, Sim: func(ranked []embedding.Doc, labelled []Company) (func(i, j int) float64, error) {
		m, err := fitSample(ranked, labelled, opt, true)
		if err != nil {
			return nil, fmt.Errorf("fitting %s: %w", name, err)
		}
		vec := make([][]float32, len(ranked))
		lex := make([]embedding.Lexical, len(ranked))
		for i, d := range ranked {
			vec[i], lex[i] = m.Embed(d), m.Lexical(d)
		}
		// fused[i] holds the reranked score of each of i's top n, offset
		// above every cosine so the top n stay ahead of the rest.
		fused := make([]map[int]float64, len(ranked))
		var buf []neighbour
		for i := range ranked {
			buf = rank(buf, i, len(ranked), func(i, j int) float64 { return Cosine(vec[i], vec[j]) })
			f := make(map[int]float64, n)
			for _, nb := range buf[:min(n, len(buf))] {
				f[nb.j] = 10 + nb.s + weight*lex[i].Cosine(lex[nb.j])
			}
			fused[i] = f
		}
		return func(i, j int) float64 {
			if s, ok := fused[i][j]; ok {
				return s
			}
			return Cosine(vec[i], vec[j])
		}, nil
	}}
}

// Methods are the rows of the relevance benchmark: the two baselines
// (over the plural-stemmed terms of format-version-2 models, whatever the
// embedder's stemmer), the embedder as shipped (text only, and with the
// labelled set's labels as terms of the fit sample), the embedder with
// label directions and term gains, both also with the Snowball English
// stemmer, the lexical signatures alone, and the hybrid rerank of the two.
func Methods() []Method {
	labels := embedding.Options{LabelDims: embedding.DefaultLabelDims}
	english := embedding.Options{Stemming: embedding.StemEnglish}
	labelsEnglish := labels
	labelsEnglish.Stemming = embedding.StemEnglish
	return []Method{
		TFIDFMethod(), SVDMethod(256),
		EmbedderMethod("embedder, unsupervised, text only", embedding.Options{}, false),
		EmbedderMethod("embedder, unsupervised, labels as fit terms", embedding.Options{}, true),
		EmbedderMethod("embedder, unsupervised, labels as fit terms, English stemmer", english, true),
		EmbedderMethod(LabelMethod, labels, true),
		EmbedderMethod(LabelMethod+", English stemmer", labelsEnglish, true),
		LexicalMethod("lexical: model terms, IDF × label gains", labels),
		HybridMethod(fmt.Sprintf("hybrid: vector top %d reranked by + %.1f × lexical", HybridTop, HybridWeight), labels, HybridTop, HybridWeight),
	}
}

// LabelMethod names the row of the embedder with label directions.
const LabelMethod = "embedder, label directions + term gains"
