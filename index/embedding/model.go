package embedding

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// Options configure Fit; the zero value gives the defaults.
type Options struct {
	Dim        int   // output dimension; default 256
	MaxVocab   int   // terms kept, most frequent first; default 24,000
	MinDocFreq int   // a term must occur in this many sample docs; default 2 (1 for samples under 50 docs)
	Seed       int64 // random projection seed; default 1
}

func (o Options) withDefaults(n int) Options {
	if o.Dim <= 0 {
		o.Dim = 256
	}
	if o.MaxVocab <= 0 {
		o.MaxVocab = 24000
	}
	if o.MinDocFreq <= 0 {
		o.MinDocFreq = 2
		if n < 50 {
			o.MinDocFreq = 1
		}
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// Model is a fitted TF-IDF + truncated SVD embedder.
type Model struct {
	id      string
	dim     int
	vocab   map[uint64]int32 // term hash -> row
	idf     []float32        // per row
	proj    []float32        // rows x dim, row-major: the term's coordinates
	rowHash []uint64         // inverse of vocab, built while fitting
}

var _ Embedder = (*Model)(nil)

// ID implements Embedder: "tfidf-svd-v1-<dim>-<hash of the model>".
func (m *Model) ID() string { return m.id }

// Dim implements Embedder.
func (m *Model) Dim() int { return m.dim }

// Embed implements Embedder. A document with no known term embeds to the
// zero vector, which is similar to nothing.
func (m *Model) Embed(d Doc) []float32 {
	b := docBag(d)
	v := m.project(b)
	releaseBag(b)
	return v
}

// EmbedText implements Embedder: query text is weighted like a description.
func (m *Model) EmbedText(s string) []float32 {
	return m.Embed(Doc{Description: s})
}

type weighted struct {
	row int32
	w   float32
}

var weightedPool = sync.Pool{New: func() any { s := make([]weighted, 0, 512); return &s }}

// project sums the projection rows of the known terms. Terms are summed in
// row order, not map order, so the same text always gives bit-identical
// vectors.
func (m *Model) project(b bag) []float32 {
	wp := weightedPool.Get().(*[]weighted)
	terms := (*wp)[:0]
	for h, tf := range b {
		if row, ok := m.vocab[h]; ok {
			terms = append(terms, weighted{row, sublinear(tf) * m.idf[row]})
		}
	}
	slices.SortFunc(terms, func(a, b weighted) int { return int(a.row - b.row) })
	out := make([]float32, m.dim)
	for _, t := range terms {
		p := m.proj[int(t.row)*m.dim : int(t.row+1)*m.dim]
		for i := range out {
			out[i] += t.w * p[i]
		}
	}
	*wp = terms[:0]
	weightedPool.Put(wp)
	return normalize(out)
}

// Fit learns the vocabulary, IDF weights and projection from a sample of
// documents. It is deterministic for the same documents and options.
func Fit(docs []Doc, opt Options) (*Model, error) {
	opt = opt.withDefaults(len(docs))
	bags := make([]bag, 0, len(docs))
	df := map[uint64]int{}
	for _, d := range docs {
		b := docBag(d)
		if len(b) == 0 {
			releaseBag(b)
			continue
		}
		for h := range b {
			df[h]++
		}
		bags = append(bags, b)
	}
	defer func() {
		for _, b := range bags {
			releaseBag(b)
		}
	}()
	n := len(bags)
	if n == 0 {
		return nil, ErrTooFewDocs
	}
	// Vocabulary: frequent enough to be learned, not so frequent that it
	// says nothing.
	type term struct {
		h  uint64
		df int
	}
	maxDF := n
	if n >= 20 {
		maxDF = n / 2
	}
	var terms []term
	for h, c := range df {
		if c >= opt.MinDocFreq && c <= maxDF {
			terms = append(terms, term{h, c})
		}
	}
	sort.Slice(terms, func(i, j int) bool {
		if terms[i].df != terms[j].df {
			return terms[i].df > terms[j].df
		}
		return terms[i].h < terms[j].h
	})
	if len(terms) > opt.MaxVocab {
		terms = terms[:opt.MaxVocab]
	}
	if len(terms) == 0 {
		return nil, ErrTooFewDocs
	}
	// Deterministic row order regardless of map iteration.
	sort.Slice(terms, func(i, j int) bool { return terms[i].h < terms[j].h })
	m := &Model{dim: opt.Dim, vocab: make(map[uint64]int32, len(terms)), idf: make([]float32, len(terms))}
	for i, t := range terms {
		m.vocab[t.h] = int32(i)
		m.idf[i] = float32(math.Log(float64(n+1)/float64(t.df+1)) + 1)
	}
	a := m.sparseRows(bags)
	m.proj = randomizedSVD(a, len(terms), opt.Dim, uint64(opt.Seed))
	m.id = m.computeID()
	return m, nil
}

// hashes returns the term hash of each row.
func (m *Model) hashes() []uint64 {
	if m.rowHash == nil {
		m.rowHash = make([]uint64, len(m.idf))
		for h, r := range m.vocab {
			m.rowHash[r] = h
		}
	}
	return m.rowHash
}

// csr is a sparse matrix in compressed rows: docs x terms.
type csr struct {
	ptr []int
	col []int32
	val []float64
}

func (c *csr) rows() int { return len(c.ptr) - 1 }

// sparseRows builds the L2-normalized TF-IDF rows of the sample.
func (m *Model) sparseRows(bags []bag) *csr {
	c := &csr{ptr: []int{0}}
	for _, b := range bags {
		start := len(c.col)
		for h := range b {
			if row, ok := m.vocab[h]; ok {
				c.col = append(c.col, row)
			}
		}
		// Column order fixes the floating-point summation order: fits of
		// the same sample are bit-identical.
		slices.Sort(c.col[start:])
		rev := m.hashes()
		var norm float64
		for _, row := range c.col[start:] {
			w := float64(sublinear(b[rev[row]]) * m.idf[row])
			c.val = append(c.val, w)
			norm += w * w
		}
		if norm > 0 {
			inv := 1 / math.Sqrt(norm)
			for i := start; i < len(c.val); i++ {
				c.val[i] *= inv
			}
		}
		c.ptr = append(c.ptr, len(c.col))
	}
	return c
}

// mulDense returns A·X (rows x l) for X (terms x l), rows split across CPUs.
func (c *csr) mulDense(x *mat.Dense) *mat.Dense {
	_, l := x.Dims()
	out := mat.NewDense(c.rows(), l, nil)
	parallel(c.rows(), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			dst := out.RawRowView(i)
			for k := c.ptr[i]; k < c.ptr[i+1]; k++ {
				src := x.RawRowView(int(c.col[k]))
				v := c.val[k]
				for j := range dst {
					dst[j] += v * src[j]
				}
			}
		}
	})
	return out
}

// mulTDense returns Aᵀ·Y (terms x l) for Y (rows x l).
func (c *csr) mulTDense(y *mat.Dense, terms int) *mat.Dense {
	_, l := y.Dims()
	workers := runtime.GOMAXPROCS(0)
	parts := make([]*mat.Dense, workers)
	var wg sync.WaitGroup
	per := (c.rows() + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := w*per, min((w+1)*per, c.rows())
		parts[w] = mat.NewDense(terms, l, nil)
		wg.Add(1)
		go func(out *mat.Dense, lo, hi int) {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				src := y.RawRowView(i)
				for k := c.ptr[i]; k < c.ptr[i+1]; k++ {
					dst := out.RawRowView(int(c.col[k]))
					v := c.val[k]
					for j := range dst {
						dst[j] += v * src[j]
					}
				}
			}
		}(parts[w], lo, max(lo, hi))
	}
	wg.Wait()
	for w := 1; w < workers; w++ {
		parts[0].Add(parts[0], parts[w])
	}
	return parts[0]
}

func parallel(n int, fn func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	per := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := w*per, min((w+1)*per, n)
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); fn(lo, hi) }()
	}
	wg.Wait()
}

// orthonormalize returns an orthonormal basis of y's columns (Cholesky QR,
// applied twice for stability), with a small ridge for rank deficiency.
func orthonormalize(y *mat.Dense) *mat.Dense {
	for pass := 0; pass < 2; pass++ {
		_, l := y.Dims()
		var g mat.SymDense
		g.SymOuterK(1, y.T())
		var trace float64
		for i := 0; i < l; i++ {
			trace += g.At(i, i)
		}
		ridge := 1e-10*trace/float64(l) + 1e-300
		for i := 0; i < l; i++ {
			g.SetSym(i, i, g.At(i, i)+ridge)
		}
		var ch mat.Cholesky
		if !ch.Factorize(&g) {
			return y
		}
		var r, rinv mat.TriDense
		ch.UTo(&r)
		if err := rinv.InverseTri(&r); err != nil {
			return y
		}
		var q mat.Dense
		q.Mul(y, &rinv)
		y = &q
	}
	return y
}

// randomizedSVD returns the top-k right singular vectors of a (docs x terms)
// as a terms x k row-major projection (Halko, Martinsson and Tropp 2011: a
// Gaussian sketch, one power iteration, then an exact SVD of the small
// projected matrix through the eigendecomposition of B·Bᵀ). Columns beyond
// the rank of a are zero.
func randomizedSVD(a *csr, terms, k int, seed uint64) []float32 {
	l := min(k+10, a.rows(), terms)
	r := rand.New(rand.NewPCG(seed, 0x5EED))
	omega := mat.NewDense(terms, l, nil)
	raw := omega.RawMatrix().Data
	for i := range raw {
		raw[i] = r.NormFloat64()
	}
	q := orthonormalize(a.mulDense(omega))
	z := orthonormalize(a.mulTDense(q, terms))
	q = orthonormalize(a.mulDense(z))
	bt := a.mulTDense(q, terms) // Bᵀ = Aᵀ·Q, terms x l

	var bbt mat.SymDense
	bbt.SymOuterK(1, bt.T())
	var eig mat.EigenSym
	if !eig.Factorize(&bbt, true) {
		return make([]float32, terms*k)
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	order := make([]int, len(vals))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return vals[order[i]] > vals[order[j]] })

	proj := make([]float32, terms*k)
	col := make([]float64, terms)
	for c := 0; c < min(k, len(order)); c++ {
		lambda := vals[order[c]]
		if lambda <= 1e-12 {
			break
		}
		sigma := math.Sqrt(lambda)
		w := mat.Col(nil, order[c], &vecs)
		colVec := mat.NewVecDense(terms, col)
		colVec.MulVec(bt, mat.NewVecDense(len(w), w))
		// Fix the sign so the largest-magnitude entry is positive: the
		// same corpus then gives the same vectors on every platform.
		var big float64
		for _, x := range col {
			if math.Abs(x) > math.Abs(big) {
				big = x
			}
		}
		s := 1 / sigma
		if big < 0 {
			s = -s
		}
		for t := 0; t < terms; t++ {
			proj[t*k+c] = float32(col[t] * s)
		}
	}
	return proj
}

const magic = "PRSPEMB1"

// MarshalBinary serializes the model.
func (m *Model) MarshalBinary() ([]byte, error) {
	return m.encode(), nil
}

func (m *Model) encode() []byte {
	rows := len(m.idf)
	hashes := make([]uint64, rows)
	for h, r := range m.vocab {
		hashes[r] = h
	}
	var b bytes.Buffer
	b.Grow(16 + rows*(12+4*m.dim))
	b.WriteString(magic)
	var u32 [4]byte
	binary.LittleEndian.PutUint32(u32[:], uint32(m.dim))
	b.Write(u32[:])
	binary.LittleEndian.PutUint32(u32[:], uint32(rows))
	b.Write(u32[:])
	var u64 [8]byte
	for r := 0; r < rows; r++ {
		binary.LittleEndian.PutUint64(u64[:], hashes[r])
		b.Write(u64[:])
		binary.LittleEndian.PutUint32(u32[:], math.Float32bits(m.idf[r]))
		b.Write(u32[:])
	}
	for _, x := range m.proj {
		binary.LittleEndian.PutUint32(u32[:], math.Float32bits(x))
		b.Write(u32[:])
	}
	return b.Bytes()
}

func (m *Model) computeID() string {
	sum := sha256.Sum256(m.encode())
	return fmt.Sprintf("tfidf-svd-v1-%d-%s", m.dim, hex.EncodeToString(sum[:4]))
}

// ErrCorruptModel is returned by Load for bytes that are not a model.
var ErrCorruptModel = errors.New("corrupt embedder model")

// Load restores a model serialized by MarshalBinary.
func Load(b []byte) (*Model, error) {
	if len(b) < len(magic)+8 || string(b[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: bad header", ErrCorruptModel)
	}
	p := b[len(magic):]
	dim := int(binary.LittleEndian.Uint32(p))
	rows := int(binary.LittleEndian.Uint32(p[4:]))
	p = p[8:]
	if dim <= 0 || dim > 1<<14 || rows <= 0 || rows > 1<<24 {
		return nil, fmt.Errorf("%w: dimension %d, %d terms", ErrCorruptModel, dim, rows)
	}
	if want := uint64(rows)*12 + uint64(rows)*uint64(dim)*4; uint64(len(p)) != want {
		return nil, fmt.Errorf("%w: %d bytes of body, want %d", ErrCorruptModel, len(p), want)
	}
	m := &Model{dim: dim, vocab: make(map[uint64]int32, rows), idf: make([]float32, rows), proj: make([]float32, rows*dim)}
	for r := 0; r < rows; r++ {
		h := binary.LittleEndian.Uint64(p)
		if _, dup := m.vocab[h]; dup {
			return nil, fmt.Errorf("%w: duplicate term", ErrCorruptModel)
		}
		m.vocab[h] = int32(r)
		m.idf[r] = math.Float32frombits(binary.LittleEndian.Uint32(p[8:]))
		p = p[12:]
	}
	for i := range m.proj {
		m.proj[i] = math.Float32frombits(binary.LittleEndian.Uint32(p[i*4:]))
	}
	m.id = m.computeID()
	return m, nil
}
