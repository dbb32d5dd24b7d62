package embedding

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Options configure Fit. The zero value of each field selects its default.
type Options struct {
	// Dim is the vector length; default 256. A sample with fewer
	// independent directions than Dim leaves the trailing components zero.
	Dim int
	// MaxVocab caps the vocabulary, keeping the terms found in the most
	// documents; default 30,000. The serialized model takes about
	// MaxVocab × (Dim + 12) bytes.
	MaxVocab int
	// MinDocFreq is the number of sample documents a term must occur in to
	// be learned; default 2 (a term seen once says nothing about neighbours).
	MinDocFreq int
	// Seed seeds the random sketch of the randomized SVD. The same
	// documents and options, seed included, always give the same model.
	Seed int64
	// PowerIterations sharpen the randomized SVD; default 1 (0 selects the
	// default).
	PowerIterations int
	// Weights are the field weights; the zero value means DefaultWeights.
	Weights Weights
	// LabelDims is the number of label directions (see supervised.go)
	// learned from the sample's industry labels, taken from the Dim
	// components, with label-informed term gains; 0 or negative for none,
	// the default. DefaultLabelDims is the best measured on the relevance
	// benchmark, but off by default: with it the engine's sign-sketch
	// screen loses recall on mixture queries (decisions.md, "Relevance
	// (issue 22)" and "Relevance: hybrid ranking"). A sample without two
	// labels of two documents each gets none either way.
	LabelDims int
	// LabelWeight is the energy of the label directions relative to the
	// LSA components, over the sample's documents; default
	// DefaultLabelWeight.
	LabelWeight float64
	// Stemming selects the tokenizer's stemmer; StemDefault (zero) is
	// StemPlural, the tokenizer of every model before it (format version
	// 2). StemEnglish (version 3) measured within noise of it on the
	// relevance benchmark (decisions.md, "Relevance: vocabulary").
	Stemming Stemming
}

// Defaults and limits.
const (
	DefaultDim        = 256
	DefaultMaxVocab   = 30000
	DefaultMinDocFreq = 2
	// MinFitDocs is the fewest documents with learned terms Fit accepts;
	// around fifty give a usable model.
	MinFitDocs = 10
	// MaxDim bounds Dim (and what Load accepts).
	MaxDim = 4096
	// maxVocabLimit bounds MaxVocab (and what Load accepts).
	maxVocabLimit = 1 << 22

	// One power iteration measured as well as two to four on the
	// Wikipedia set and halves the SVD's sparse products.
	defaultPowerIterations = 1
	oversample             = 16
	// singularPower scales component j by s_j^singularPower: 1 is the
	// plain LSA projection, 0 whitens. Measured precision@10 (Wikipedia
	// set / synthetic short noisy descriptions, 1,200 and 5,000 docs):
	// 1: 0.256/0.357/0.431, 0.5: 0.253/0.431/0.526, 0: 0.238/0.480/0.597
	// (TF-IDF: 0.224/0.450/0.592). 0.5 is within noise of the best on real
	// text and far more robust where frequent, topic-free words dominate
	// the top components.
	singularPower = 0.5
)

func (o Options) withDefaults() (Options, error) {
	if o.Dim == 0 {
		o.Dim = DefaultDim
	}
	if o.MaxVocab == 0 {
		o.MaxVocab = DefaultMaxVocab
	}
	if o.MinDocFreq == 0 {
		o.MinDocFreq = DefaultMinDocFreq
	}
	if o.PowerIterations == 0 {
		o.PowerIterations = defaultPowerIterations
	}
	if o.Weights == (Weights{}) {
		o.Weights = DefaultWeights
	}
	if o.Stemming == StemDefault {
		o.Stemming = StemPlural
	}
	if o.LabelWeight == 0 {
		o.LabelWeight = DefaultLabelWeight
	}
	switch {
	case o.Dim < 1 || o.Dim > MaxDim:
		return o, fmt.Errorf("%w: Dim %d is outside 1-%d", ErrInvalidOptions, o.Dim, MaxDim)
	case o.MaxVocab < 1 || o.MaxVocab > maxVocabLimit:
		return o, fmt.Errorf("%w: MaxVocab %d is outside 1-%d", ErrInvalidOptions, o.MaxVocab, maxVocabLimit)
	case o.MinDocFreq < 1:
		return o, fmt.Errorf("%w: MinDocFreq %d is below 1", ErrInvalidOptions, o.MinDocFreq)
	case o.LabelDims >= o.Dim:
		return o, fmt.Errorf("%w: LabelDims %d is not below Dim %d", ErrInvalidOptions, o.LabelDims, o.Dim)
	case !(o.LabelWeight > 0 && o.LabelWeight <= 1000):
		return o, fmt.Errorf("%w: LabelWeight %v is outside 0-1000", ErrInvalidOptions, o.LabelWeight)
	case o.Stemming != StemPlural && o.Stemming != StemEnglish:
		return o, fmt.Errorf("%w: Stemming %d is unknown", ErrInvalidOptions, o.Stemming)
	case o.PowerIterations < 0 || o.PowerIterations > 10:
		return o, fmt.Errorf("%w: PowerIterations %d is outside 0-10", ErrInvalidOptions, o.PowerIterations)
	}
	for _, w := range []float32{o.Weights.Name, o.Weights.Description, o.Weights.SiteText, o.Weights.Keywords, o.Weights.Industries} {
		if !(w >= 0 && w <= 1000) {
			return o, fmt.Errorf("%w: field weight %v is outside 0-1000", ErrInvalidOptions, w)
		}
	}
	return o, nil
}

// hashWeight is a term of a fit document with its field-weighted
// sublinear term frequency.
type hashWeight struct {
	h uint64
	w float32
}

// fitScratch collects a fit document's term hashes field by field.
type fitScratch struct {
	tk  tokenizer
	acc []hashWeight
}

func (f *fitScratch) add(w float32, texts ...string) {
	if w == 0 {
		return
	}
	f.tk.hashes = f.tk.hashes[:0]
	budget := maxFieldBytes
	for _, t := range texts {
		if budget <= 0 {
			break
		}
		if len(t) > budget {
			t = t[:budget]
		}
		budget -= len(t)
		f.tk.terms(t, nil)
	}
	hashes := f.tk.hashes
	slices.Sort(hashes)
	for i := 0; i < len(hashes); {
		j := i + 1
		for j < len(hashes) && hashes[j] == hashes[i] {
			j++
		}
		f.acc = append(f.acc, hashWeight{hashes[i], w * sublinear(j-i)})
		i = j
	}
}

// docTerms returns d's distinct term hashes, ascending, with their weights:
// the same weighting Embed applies, before IDF.
func (f *fitScratch) docTerms(d Doc, w Weights) []hashWeight {
	f.acc = f.acc[:0]
	f.add(w.Name, d.Name)
	f.add(w.Description, d.Description)
	f.add(w.SiteText, d.SiteText)
	f.add(w.Keywords, d.Keywords...)
	f.add(w.Industries, d.Industries...)
	slices.SortFunc(f.acc, func(a, b hashWeight) int { return cmp.Compare(a.h, b.h) })
	out := make([]hashWeight, 0, len(f.acc))
	for _, hw := range f.acc {
		if n := len(out); n > 0 && out[n-1].h == hw.h {
			out[n-1].w += hw.w
			continue
		}
		out = append(out, hw)
	}
	return out
}

// Fit learns a model from a sample of documents: the vocabulary (terms in
// at least MinDocFreq documents, the MaxVocab most widespread), IDF weights,
// and the projection onto right singular vectors 2 to Dim+1 of the sample's
// L2-normalized TF-IDF matrix (the first is the mean document's direction,
// see below). The same docs and opt give the same model bit for bit
// whatever the number of CPUs; other CPU architectures may round
// differently, which is why an index stores the serialized model rather
// than refitting. It returns ErrTooFewDocs when fewer than MinFitDocs
// documents contain a learned term.
func Fit(docs []Doc, opt Options) (*Model, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	terms := make([][]hashWeight, len(docs))
	parallelChunks(len(docs), 256, func(lo, hi int) {
		f := fitScratch{tk: tokenizer{stemming: opt.Stemming}}
		for i := lo; i < hi; i++ {
			terms[i] = f.docTerms(docs[i], opt.Weights)
		}
	})
	vocab, df, nonEmpty := selectVocab(terms, opt)
	if nonEmpty < MinFitDocs || len(vocab) == 0 {
		return nil, fmt.Errorf("%w: %d documents have text, at least %d are needed", ErrTooFewDocs, nonEmpty, MinFitDocs)
	}
	idf := make([]float64, len(vocab))
	for i, d := range df {
		// Smoothed IDF, as if one extra document held every term.
		idf[i] = math.Log(float64(1+nonEmpty)/float64(1+d)) + 1
	}
	var gains []float64
	if opt.LabelDims > 0 {
		gains = termGains(docs, opt, vocab)
	}
	lex := lexicalWeights(idf, gains)
	if opt.LabelDims > 0 {
		// Words that say little about the labels count for less (see
		// termGains); the gains are folded into the IDF, so into the rows.
		for i := range idf {
			idf[i] *= gains[i]
		}
	}
	x := tfidfMatrix(terms, vocab, idf)
	if x.rows() < MinFitDocs {
		return nil, fmt.Errorf("%w: %d documents share learned terms, at least %d are needed", ErrTooFewDocs, x.rows(), MinFitDocs)
	}
	var labelled *labelledSet
	labelDims := 0
	if opt.LabelDims > 0 {
		if labelled = labelledDocs(docs, opt, vocab, idf); labelled != nil {
			labelDims = opt.LabelDims
		}
	}
	// One component more than asked for: the first is dropped below.
	vecs, sv := truncatedSVD(x, len(vocab), opt.Dim-labelDims+1, opt.PowerIterations, opt.Seed)
	if len(sv) < 2 {
		return nil, fmt.Errorf("%w: the sample's TF-IDF matrix has rank %d", ErrTooFewDocs, len(sv))
	}
	// The first singular vector of a non-negative TF-IDF matrix is close to
	// the mean document: every company scores high on it, so it inflates
	// all cosines alike and ranks by genericness. Dropping it lifted
	// precision@10 on the Wikipedia set from 0.223 to 0.248 at
	// singularPower 0.5, and from 0.210 to 0.255 at 1. Mean-centering
	// before the SVD measured the same, at the cost of an IDF and a centre
	// vector at embed time.
	full := len(sv)
	lsaRank := full - 1
	rank := lsaRank + labelDims
	p := &params{dim: opt.Dim, rank: rank, weights: opt.Weights, stemming: opt.Stemming, hashes: vocab,
		scales: make([]float32, len(vocab)), quant: make([]int8, len(vocab)*rank), lex: lex}
	// Fold IDF and the singular values into each term's row, so Embed is one
	// weighted sum of rows.
	scale := make([]float64, lsaRank)
	for j := range scale {
		scale[j] = math.Pow(sv[j+1], singularPower)
	}
	beta := 0.0
	var labels []float64
	if labelDims > 0 {
		var lsa *lsaTerms
		if lsaGamma > 0 {
			lsa = &lsaTerms{vecs: vecs, full: full, scale: scale, gamma: lsaGamma}
		}
		labels = ridgeRows(labelled.rows, labelled.labels, len(vocab), labelDims, ridgeLambda, lsa)
		if labels == nil {
			// The factorization failed (it does not for a positive
			// definite kernel): no label directions, their components zero.
			labels = make([]float64, len(vocab)*labelDims)
		}
		beta = labelScale(x, vecs, full, scale, labels, labelDims, opt.LabelWeight)
	}
	row := make([]float64, rank)
	for t := range vocab {
		v := vecs[t*full+1 : (t+1)*full]
		for j := 0; j < lsaRank; j++ {
			row[j] = idf[t] * float64(v[j]) * scale[j]
		}
		for j := 0; j < labelDims; j++ {
			row[lsaRank+j] = beta * idf[t] * labels[t*labelDims+j]
		}
		p.scales[t] = quantize(row, p.quant[t*rank:(t+1)*rank])
	}
	p.fallback = meanDirection(x, idf, p)
	return p.model()
}

// selectVocab returns the learned term hashes (ascending), their document
// frequencies and the number of documents with any term.
func selectVocab(terms [][]hashWeight, opt Options) (vocab []uint64, df []int, nonEmpty int) {
	for _, ts := range terms {
		if len(ts) > 0 {
			nonEmpty++
		}
	}
	// Document frequencies: hashes are spread over buckets of the hash
	// space per chunk of documents, then each bucket is counted with its own
	// map, both steps on all CPUs. Nothing depends on the CPU count.
	const buckets, docChunk = 32, 1024
	spread := make([][buckets][]uint64, (len(terms)+docChunk-1)/docChunk)
	parallelChunks(len(terms), docChunk, func(lo, hi int) {
		var total int
		for _, ts := range terms[lo:hi] {
			total += len(ts)
		}
		b := &spread[lo/docChunk]
		for k := range b {
			b[k] = make([]uint64, 0, total/buckets*5/4+16)
		}
		for _, ts := range terms[lo:hi] {
			for _, hw := range ts {
				b[hw.h%buckets] = append(b[hw.h%buckets], hw.h)
			}
		}
	})
	type termDF struct {
		h  uint64
		df int
	}
	perBucket := make([][]termDF, buckets)
	parallelChunks(buckets, 1, func(k, _ int) {
		var size int
		for c := range spread {
			size += len(spread[c][k])
		}
		counts := make(map[uint64]int32, size/2)
		for c := range spread {
			for _, h := range spread[c][k] {
				counts[h]++
			}
			spread[c][k] = nil
		}
		for h, c := range counts {
			if int(c) >= opt.MinDocFreq {
				perBucket[k] = append(perBucket[k], termDF{h, int(c)})
			}
		}
	})
	var kept []termDF
	for _, b := range perBucket {
		kept = append(kept, b...)
	}
	// Most widespread first, ties broken by hash.
	slices.SortFunc(kept, func(a, b termDF) int {
		if c := cmp.Compare(b.df, a.df); c != 0 {
			return c
		}
		return cmp.Compare(a.h, b.h)
	})
	if len(kept) > opt.MaxVocab {
		kept = kept[:opt.MaxVocab]
	}
	slices.SortFunc(kept, func(a, b termDF) int { return cmp.Compare(a.h, b.h) })
	vocab, df = make([]uint64, len(kept)), make([]int, len(kept))
	for i, k := range kept {
		vocab[i], df[i] = k.h, k.df
	}
	return vocab, df, nonEmpty
}

// tfidfMatrix builds the L2-normalized TF-IDF rows of the documents with at
// least one learned term.
func tfidfMatrix(terms [][]hashWeight, vocab []uint64, idf []float64) *csr {
	rowOf := make(map[uint64]int32, len(vocab))
	for t, h := range vocab {
		rowOf[h] = int32(t)
	}
	x := &csr{ptr: []int{0}}
	for _, ts := range terms {
		start := len(x.col)
		var sq float64
		for _, hw := range ts {
			t, ok := rowOf[hw.h]
			if !ok {
				continue
			}
			v := float64(hw.w) * idf[t]
			x.col = append(x.col, t)
			x.val = append(x.val, float32(v))
			sq += v * v
		}
		if len(x.col) == start {
			continue
		}
		// Columns ascend because vocab and each document's terms are both
		// sorted by hash.
		inv := float32(1 / math.Sqrt(sq))
		for k := start; k < len(x.val); k++ {
			x.val[k] *= inv
		}
		x.ptr = append(x.ptr, len(x.col))
	}
	return x
}

// quantize stores row as int8 codes times a per-row scale, returned. Eight
// bits per coordinate keep the model a quarter of its float32 size while
// moving cosines by well under a percent.
func quantize(row []float64, q []int8) float32 {
	var big float64
	for _, v := range row {
		big = max(big, math.Abs(v))
	}
	if big == 0 || math.IsNaN(big) || math.IsInf(big, 0) {
		clear(q)
		return 0
	}
	scale := float32(big / 127)
	for j, v := range row {
		q[j] = int8(math.Round(math.Max(-127, math.Min(127, v/float64(scale)))))
	}
	return scale
}

// meanDirection is the embedding of the average fit document: the fallback
// for input without known terms, which then ranks the most typical
// companies first instead of producing a zero or NaN vector.
func meanDirection(x *csr, idf []float64, p *params) []float32 {
	mean := make([]float64, len(idf))
	for k, t := range x.col {
		mean[t] += float64(x.val[k])
	}
	sum := make([]float64, p.rank)
	for t, v := range mean {
		if v == 0 || p.scales[t] == 0 {
			continue
		}
		// The rows already carry IDF, and x's values too.
		w := v / idf[t] * float64(p.scales[t])
		for j, q := range p.quant[t*p.rank : (t+1)*p.rank] {
			sum[j] += w * float64(q)
		}
	}
	out := make([]float32, p.dim)
	var sq float64
	for _, v := range sum {
		sq += v * v
	}
	if sq == 0 {
		out[0] = 1
		return out
	}
	inv := 1 / math.Sqrt(sq)
	for j, v := range sum {
		out[j] = float32(v * inv)
	}
	return out
}
