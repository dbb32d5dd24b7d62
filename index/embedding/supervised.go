package embedding

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Label directions (issue 22): the companies of a fit sample that carry
// industry labels teach the model which words go with which industry, and
// that knowledge reaches the companies without labels. A linear classifier
// is fitted from the labelled documents' text (name, description, site
// text, keywords — not the labels themselves, so it learns words, not the
// label term) to their labels; two documents the classifier scores alike
// are alike. The label-score space is reduced to its top LabelDims
// directions, and each term's coordinates in it are appended to its LSA
// row, so Embed stays one weighted sum of rows and the model format does not
// change.

const (
	// minLabelDocs: a label on one document is that document, not a class.
	minLabelDocs = 2
	// maxLabels bounds the classes (and their Gram matrix, maxLabels²).
	maxLabels = 2048
	// maxLabelledDocs bounds the labelled documents the classifier learns
	// from: their kernel matrix is maxLabelledDocs² and its Cholesky
	// factorization maxLabelledDocs³/3 operations, ~2 s at 2,048.
	maxLabelledDocs = 2048
)

type sparseEntry struct {
	t int32
	v float64
}

type labelClass struct {
	name string
	docs []int
}

// LabelKey is the form under which industry labels are grouped into
// classes: the label's words as the tokenizer reads them (folded,
// plural-stemmed, stop words dropped), so "Pharmaceuticals" and
// "pharmaceutical" are one class.
func LabelKey(label string) string { return labelKey(label, StemDefault) }

func labelKey(label string, s Stemming) string {
	var words []string
	for _, t := range TermsWith(label, s) {
		if !strings.Contains(t, " ") {
			words = append(words, t)
		}
	}
	if len(words) == 0 {
		// "Category 5", "3D": no word of two letters; the label as given.
		return strings.ToLower(strings.TrimSpace(label))
	}
	return strings.Join(words, " ")
}

// labelledSet is the labelled documents' TF-IDF rows and their classes.
type labelledSet struct {
	rows   [][]sparseEntry
	labels []labelClass
}

// labelledDocs gathers the labelled documents of the sample; nil when
// fewer than two labels qualify.
func labelledDocs(docs []Doc, opt Options, vocab []uint64, idf []float64) *labelledSet {
	rowOf := make(map[uint64]int32, len(vocab))
	for t, h := range vocab {
		rowOf[h] = int32(t)
	}
	textOnly := opt.Weights
	textOnly.Industries = 0
	f := fitScratch{tk: tokenizer{stemming: opt.Stemming}}
	labelDocs := map[string][]int{}
	var rows [][]sparseEntry
	for _, d := range docs {
		if len(rows) == maxLabelledDocs {
			break
		}
		if len(d.Industries) == 0 {
			continue
		}
		var r []sparseEntry
		var sq float64
		for _, hw := range f.docTerms(Doc{Name: d.Name, Description: d.Description, SiteText: d.SiteText, Keywords: d.Keywords}, textOnly) {
			if t, ok := rowOf[hw.h]; ok {
				v := float64(hw.w) * idf[t]
				r = append(r, sparseEntry{t, v})
				sq += v * v
			}
		}
		if len(r) == 0 {
			continue
		}
		inv := 1 / math.Sqrt(sq)
		for k := range r {
			r[k].v *= inv
		}
		seen := map[string]bool{}
		for _, l := range d.Industries {
			key := labelKey(l, opt.Stemming)
			if key != "" && !seen[key] {
				seen[key] = true
				labelDocs[key] = append(labelDocs[key], len(rows))
			}

		}
		rows = append(rows, r)
	}
	var labels []labelClass
	for l, ds := range labelDocs {
		if len(ds) >= minLabelDocs {
			labels = append(labels, labelClass{l, ds})
		}
	}
	if len(labels) < 2 {
		return nil
	}
	slices.SortFunc(labels, func(a, b labelClass) int {
		if c := cmp.Compare(len(b.docs), len(a.docs)); c != 0 {
			return c
		}
		return cmp.Compare(a.name, b.name)
	})
	if len(labels) > maxLabels {
		labels = labels[:maxLabels]
	}
	return &labelledSet{rows, labels}
}

// lsaTerms gives the ridge regression the LSA coordinates of the terms
// (vecs[t*full+1+j] × scale[j]), so a labelled document is also described
// by its LSA vector and a term no labelled document holds still gets label
// coordinates through the terms it co-occurs with.
type lsaTerms struct {
	vecs  []float32
	full  int
	scale []float64
	gamma float64 // the LSA part's weight in the kernel, relative to the TF-IDF part's
}

func (l *lsaTerms) rank() int { return len(l.scale) }

// doc returns the LSA vector of a sparse row.
func (l *lsaTerms) doc(r []sparseEntry) []float64 {
	z := make([]float64, l.rank())
	for _, e := range r {
		v := l.vecs[int(e.t)*l.full+1 : (int(e.t)+1)*l.full]
		for j := range z {
			z[j] += e.v * float64(v[j]) * l.scale[j]
		}
	}
	return z
}

// ridgeRows: a ridge regression from the labelled rows X to their label
// indicators Y, solved in the dual (A = (XXᵀ + λI)⁻¹Y, weights W = XᵀA);
// the label space is reduced by the eigendecomposition of WᵀW = AᵀXXᵀA =
// Aᵀ(Y − λA).
func ridgeRows(rows [][]sparseEntry, labels []labelClass, vocab, dims int, lambda float64, lsa *lsaTerms) []float64 {
	// Keep the documents of a qualifying label only.
	docLabels := map[int][]int{}
	for li, l := range labels {
		for _, d := range l.docs {
			docLabels[d] = append(docLabels[d], li)
		}
	}
	var keep []int
	for d := range rows {
		if len(docLabels[d]) > 0 {
			keep = append(keep, d)
		}
	}
	n, nl := len(keep), len(labels)
	acc := make([]float64, vocab)
	k := mat.NewSymDense(n, nil)
	var z [][]float64
	gamma := 0.0
	if lsa != nil && lsa.gamma > 0 {
		z = make([][]float64, n)
		var energy float64
		for a, d := range keep {
			z[a] = lsa.doc(rows[d])
			for _, v := range z[a] {
				energy += v * v
			}
		}
		// The rows are unit length: gamma 1 gives the LSA part the same
		// mean energy as the TF-IDF part.
		if energy > 0 {
			gamma = lsa.gamma * float64(n) / energy
		}
	}
	for a, da := range keep {
		for _, e := range rows[da] {
			acc[e.t] = e.v
		}
		for b := a; b < n; b++ {
			var s float64
			for _, e := range rows[keep[b]] {
				s += acc[e.t] * e.v
			}
			if a == b {
				s += lambda
			}
			if gamma > 0 {
				for j, v := range z[a] {
					s += gamma * v * z[b][j]
				}
			}
			k.SetSym(a, b, s)
		}
		for _, e := range rows[da] {
			acc[e.t] = 0
		}
	}
	y := mat.NewDense(n, nl, nil)
	for a, d := range keep {
		ls := docLabels[d]
		for _, l := range ls {
			y.Set(a, l, 1/float64(len(ls)))
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(k) {
		return nil
	}
	var am mat.Dense
	if err := ch.SolveTo(&am, y); err != nil {
		return nil
	}
	// G = Aᵀ(Y − λA).
	var resid mat.Dense
	resid.Scale(-lambda, &am)
	resid.Add(y, &resid)
	var gd mat.Dense
	gd.Mul(am.T(), &resid)
	g := mat.NewSymDense(nl, nil)
	for i := 0; i < nl; i++ {
		for j := i; j < nl; j++ {
			g.SetSym(i, j, (gd.At(i, j)+gd.At(j, i))/2)
		}
	}
	vals, vecs, ok := eigDesc(g)
	if !ok {
		return nil
	}
	kd := min(dims, nl)
	u := mat.DenseCopyOf(vecs.Slice(0, nl, 0, kd))
	var b mat.Dense // n × kd: A·U
	b.Mul(&am, u)
	colScale := make([]float64, kd)
	for j := range colScale {
		if v := vals[j]; v > 1e-12 {
			colScale[j] = math.Pow(math.Sqrt(v), labelPower-1)
		}
	}
	out := make([]float64, vocab*dims)
	for a, d := range keep {
		for _, e := range rows[d] {
			row := out[int(e.t)*dims : int(e.t)*dims+kd]
			for j := range row {
				row[j] += e.v * b.At(a, j) * colScale[j]
			}
		}
	}
	if gamma > 0 {
		// The LSA part: term t's weights are gamma × its LSA row × ZᵀB.
		r := lsa.rank()
		zb := make([]float64, r*kd)
		for a := range keep {
			for i, zv := range z[a] {
				row := zb[i*kd : (i+1)*kd]
				for j := range row {
					row[j] += zv * b.At(a, j)
				}
			}
		}
		for j := range kd {
			for i := range r {
				zb[i*kd+j] *= gamma * colScale[j]
			}
		}
		for t := range vocab {
			v := lsa.vecs[t*lsa.full+1 : (t+1)*lsa.full]
			row := out[t*dims : t*dims+kd]
			for i := range r {
				c := float64(v[i]) * lsa.scale[i]
				if c == 0 {
					continue
				}
				for j, w := range zb[i*kd : (i+1)*kd] {
					row[j] += c * w
				}
			}
		}
	}
	return out
}

// Defaults of the label directions and term gains, chosen on the tuning
// part of the relevance benchmark (docs/benchmarks.md, "Relevance"): 32,
// 64, 96 and 128 directions at weights 0.25-8 measured; 64-128 at 2-4
// within 0.003 of each other; ridge (λ 0.3 and 1) against nearest-centroid
// scores (with and without the first, "average class", direction): within
// 0.005 on whole descriptions, ridge 0.01 better on first sentences; term
// gains (floor 0.05-0.5, smoothing 0.5-5) added 0.03.
const (
	DefaultLabelDims   = 96
	DefaultLabelWeight = 2.0
	// labelPower scales label direction j by σ_j^labelPower (1: the
	// exact classifier score kernel), as singularPower does the LSA
	// components; 0, 0.5 and 1 measured within 0.004.
	labelPower  = 0.5
	ridgeLambda = 1.0
	// lsaGamma weighs the labelled documents' LSA vectors in the ridge
	// kernel against their TF-IDF rows (1: the same mean energy; 0: TF-IDF
	// only, as before 2026-11-27). 0.5, 1 and 2 measured within 0.002 on
	// the tuning part, 0.009 above 0 on whole paragraphs (benchmarks.md).
	lsaGamma = 1.0
	// Term gains: floor, additive smoothing toward the label prior, power.
	gainFloor, gainSmoothing, gainPower = 0.2, 0.5, 1.0
)

// labelScale returns the factor that gives the label directions weight
// times the LSA components' energy, summed over (up to 4,096 of) the
// sample's TF-IDF rows x. The LSA row of term t is idf·vecs[t, 1:]·scale,
// its label row idf·labels[t]·factor; x's values already carry IDF, so
// both sums use the rows without it.
func labelScale(x *csr, vecs []float32, full int, scale, labels []float64, dims int, weight float64) float64 {
	lsaRank := full - 1
	a := make([]float64, lsaRank)
	b := make([]float64, dims)
	var ea, eb float64
	for i := 0; i < min(x.rows(), 4096); i++ {
		clear(a)
		clear(b)
		for k := x.ptr[i]; k < x.ptr[i+1]; k++ {
			t := int(x.col[k])
			w := float64(x.val[k])
			v := vecs[t*full+1 : (t+1)*full]
			for j := range a {
				a[j] += w * float64(v[j]) * scale[j]
			}
			l := labels[t*dims : (t+1)*dims]
			for j := range b {
				b[j] += w * l[j]
			}
		}
		for _, v := range a {
			ea += v * v
		}
		for _, v := range b {
			eb += v * v
		}
	}
	if eb == 0 {
		return 0
	}
	return math.Sqrt(weight * ea / eb)
}

// termGains weighs each term by how much it says about the labels: one
// minus the normalized entropy of the smoothed label distribution of the
// labelled documents holding it, so "bank" counts for more than "company"
// or "headquartered". Terms no labelled document holds keep gain 1.
func termGains(docs []Doc, opt Options, vocab []uint64) []float64 {
	floor, alpha, power := gainFloor, gainSmoothing, gainPower
	rowOf := make(map[uint64]int32, len(vocab))
	for t, h := range vocab {
		rowOf[h] = int32(t)
	}
	textOnly := opt.Weights
	textOnly.Industries = 0
	f := fitScratch{tk: tokenizer{stemming: opt.Stemming}}
	labelIdx := map[string]int{}
	type docL struct {
		terms  []int32
		labels []int
	}
	var ds []docL
	labelCount := map[string]int{}
	for _, d := range docs {
		for _, l := range d.Industries {
			labelCount[labelKey(l, opt.Stemming)]++
		}
	}
	for _, d := range docs {
		var ls []int
		for _, l := range d.Industries {
			k := labelKey(l, opt.Stemming)
			if labelCount[k] < minLabelDocs {
				continue
			}
			i, ok := labelIdx[k]
			if !ok {
				i = len(labelIdx)
				labelIdx[k] = i
			}
			if !slices.Contains(ls, i) {
				ls = append(ls, i)
			}
		}
		if len(ls) == 0 {
			continue
		}
		var ts []int32
		for _, hw := range f.docTerms(Doc{Name: d.Name, Description: d.Description, SiteText: d.SiteText, Keywords: d.Keywords}, textOnly) {
			if t, ok := rowOf[hw.h]; ok {
				ts = append(ts, t)
			}
		}
		ds = append(ds, docL{ts, ls})
	}
	nl := len(labelIdx)
	gains := make([]float64, len(vocab))
	for i := range gains {
		gains[i] = 1
	}
	if nl < 2 {
		return gains
	}
	prior := make([]float64, nl)
	var total float64
	counts := map[int32][]float64{}
	for _, d := range ds {
		w := 1 / float64(len(d.labels))
		for _, l := range d.labels {
			prior[l] += w
			total += w
		}
		for _, t := range d.terms {
			c := counts[t]
			if c == nil {
				c = make([]float64, nl)
				counts[t] = c
			}
			for _, l := range d.labels {
				c[l] += w
			}
		}
	}
	for l := range prior {
		prior[l] /= total
	}
	hmax := math.Log(float64(nl))
	var sum float64
	// In term order: the mean below must not depend on map order.
	seen := make([]int32, 0, len(counts))
	for t := range counts {
		seen = append(seen, t)
	}
	slices.Sort(seen)
	for _, t := range seen {
		c := counts[t]
		var n float64
		for _, v := range c {
			n += v
		}
		var h float64
		for l, v := range c {
			p := (v + alpha*prior[l]) / (n + alpha)
			if p > 0 {
				h -= p * math.Log(p)
			}
		}
		for l := range prior {
			if c[l] == 0 {
				p := alpha * prior[l] / (n + alpha)
				if p > 0 {
					h -= p * math.Log(p)
				}
			}
		}
		g := math.Max(floor, math.Pow(math.Max(0, 1-h/hmax), power))
		gains[t] = g
		sum += g
	}
	// Unseen terms get the mean gain, not a bonus over seen ones.
	mean := sum / float64(len(counts))
	for t := range gains {
		if _, ok := counts[int32(t)]; !ok {
			gains[t] = mean
		}
	}
	return gains
}
