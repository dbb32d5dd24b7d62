package elastic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/internal/demo"
)

// This file simulates, in Go, the vector quantization Elasticsearch applies
// for the dense_vector index types the mappings may choose, to measure
// their recall without a cluster (none runs on the build machine). It
// measures the quantization's loss only: every candidate is scored (as the
// *_flat types do); the HNSW graph's own approximation comes on top
// equally for hnsw, int8_hnsw and bbq_hnsw.
//
// int8 (int8_hnsw, int8_flat; Lucene's scalar quantizer): per segment,
// the lower and upper quantiles of all components at the confidence
// interval max(0.9, 1-1/(dims+1)) bound the range; each component is
// clamped and rounded to 7 bits (0..127); a float per vector (the "+4
// bytes") holds the corrective offset, so a dot product is alpha²·Σqᵢrᵢ
// plus both offsets. The query is quantized with the segment's quantiles.
//
// bbq (bbq_hnsw, bbq_flat; Elasticsearch's better binary quantization as
// of 8.16-9.0): per segment, the centroid c; a vector v keeps one bit per
// dimension, the sign of v-c, plus corrective factors (the "+14 bytes":
// |v-c|, <x̄,(v-c)/|v-c|> with x̄ the ±1/√d code, <v-c,c>); the query's
// residual q-c is quantized to 4 bits, and <v,q> is estimated as
// <c,q> + <v-c,c> + |v-c|·<x̄,q'>/<x̄,(v-c)/|v-c|>. With rescore_vector
// (oversample o) the top ceil(o·k) estimates are rescored with the float
// vectors.

// segmentDocs is the simulated segment size: quantiles and centroids are
// per segment, as Lucene computes them at flush and merge.
const segmentDocs = 50_000

// int8Segment quantizes the vectors of one segment.
type int8Segment struct {
	lo, hi, alpha float32
	codes         [][]uint8
	offsets       []float32
}

func int8Quantiles(vecs [][]float32) (lo, hi float32) {
	d := len(vecs[0])
	ci := max(0.9, 1-1/float64(d+1))
	var all []float32
	for _, v := range vecs[:min(len(vecs), 25_000)] { // Lucene samples 25,000 vectors
		all = append(all, v...)
	}
	slices.Sort(all)
	at := func(p float64) float32 { return all[min(len(all)-1, int(p*float64(len(all)-1)+0.5))] }
	return at((1 - ci) / 2), at(1 - (1-ci)/2)
}

func newInt8Segment(vecs [][]float32) *int8Segment {
	lo, hi := int8Quantiles(vecs)
	s := &int8Segment{lo: lo, hi: hi, alpha: (hi - lo) / 127}
	for _, v := range vecs {
		q, off := s.quantize(v)
		s.codes, s.offsets = append(s.codes, q), append(s.offsets, off)
	}
	return s
}

// quantize returns v's 7-bit code and its corrective offset.
func (s *int8Segment) quantize(v []float32) ([]uint8, float32) {
	q := make([]uint8, len(v))
	var off float32
	for i, x := range v {
		dx := x - s.lo
		dxc := min(max(x, s.lo), s.hi) - s.lo
		r := float32(math.Round(float64(dxc / s.alpha)))
		q[i] = uint8(r)
		dxq := r * s.alpha
		off += s.lo*(x-s.lo/2) + (dx-dxq)*dxq
	}
	return q, off
}

func (s *int8Segment) score(qc []uint8, qoff float32, i int) float32 {
	var dot int32
	for j, c := range s.codes[i] {
		dot += int32(c) * int32(qc[j])
	}
	return s.alpha*s.alpha*float32(dot) + qoff + s.offsets[i]
}

// bbqSegment holds one segment's 1-bit codes and corrective factors.
type bbqSegment struct {
	c       []float32
	bits    [][]bool
	norm    []float32 // |v-c|
	xDotR   []float32 // <x̄, (v-c)/|v-c|>
	rDotC   []float32 // <v-c, c>
	invSqrt float32
}

func newBBQSegment(vecs [][]float32) *bbqSegment {
	d := len(vecs[0])
	s := &bbqSegment{c: make([]float32, d), invSqrt: float32(1 / math.Sqrt(float64(d)))}
	for _, v := range vecs {
		for j, x := range v {
			s.c[j] += x / float32(len(vecs))
		}
	}
	for _, v := range vecs {
		b := make([]bool, d)
		var n2, xr, rc float64
		for j, x := range v {
			r := float64(x - s.c[j])
			b[j] = r > 0
			n2 += r * r
			rc += r * float64(s.c[j])
			if b[j] {
				xr += r
			} else {
				xr -= r
			}
		}
		n := math.Sqrt(n2)
		xd := 0.0
		if n > 0 {
			xd = xr * float64(s.invSqrt) / n
		}
		s.bits, s.norm, s.xDotR, s.rDotC = append(s.bits, b), append(s.norm, float32(n)), append(s.xDotR, float32(xd)), append(s.rDotC, float32(rc))
	}
	return s
}

// query returns the 4-bit quantized residual q-c and <c,q>.
func (s *bbqSegment) query(q []float32) ([]float32, float32) {
	r := make([]float32, len(q))
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	var cq float32
	for j, x := range q {
		r[j] = x - s.c[j]
		lo, hi = min(lo, r[j]), max(hi, r[j])
		cq += s.c[j] * x
	}
	if step := (hi - lo) / 15; step > 0 {
		for j := range r {
			r[j] = lo + float32(math.Round(float64((r[j]-lo)/step)))*step
		}
	}
	return r, cq
}

func (s *bbqSegment) score(qr []float32, cq float32, i int) float32 {
	if s.xDotR[i] == 0 {
		return cq + s.rDotC[i]
	}
	var xq float32
	for j, on := range s.bits[i] {
		if on {
			xq += qr[j]
		} else {
			xq -= qr[j]
		}
	}
	return cq + s.rDotC[i] + s.norm[i]*xq*s.invSqrt/s.xDotR[i]
}

// quantMethod is one index type's scorer; its estimates are ranked alone
// (oversample 0) and with each rescore_vector oversample.
type quantMethod struct {
	name        string
	minDims     int
	oversamples []float64
	build       func(vecs [][]float32) func(q []float32) []float32
}

func segmented(vecs [][]float32, each func(seg [][]float32) func(q []float32, out []float32)) func(q []float32) []float32 {
	var segs []func(q []float32, out []float32)
	var starts []int
	for lo := 0; lo < len(vecs); lo += segmentDocs {
		hi := min(lo+segmentDocs, len(vecs))
		segs, starts = append(segs, each(vecs[lo:hi])), append(starts, lo)
	}
	return func(q []float32) []float32 {
		out := make([]float32, len(vecs))
		for k, f := range segs {
			end := len(vecs)
			if k+1 < len(starts) {
				end = starts[k+1]
			}
			f(q, out[starts[k]:end])
		}
		return out
	}
}

func int8Scorer(vecs [][]float32) func(q []float32) []float32 {
	return segmented(vecs, func(seg [][]float32) func(q, out []float32) {
		s := newInt8Segment(seg)
		return func(q, out []float32) {
			qc, qoff := s.quantize(q)
			for i := range out {
				out[i] = s.score(qc, qoff, i)
			}
		}
	})
}

func bbqScorer(vecs [][]float32) func(q []float32) []float32 {
	return segmented(vecs, func(seg [][]float32) func(q, out []float32) {
		s := newBBQSegment(seg)
		return func(q, out []float32) {
			qr, cq := s.query(q)
			for i := range out {
				out[i] = s.score(qr, cq, i)
			}
		}
	})
}

var quantMethods = []quantMethod{
	{name: "int8", oversamples: []float64{0, 1.5, 2, 3, 4, 5}, build: int8Scorer},
	{name: "bbq", minDims: 64, oversamples: []float64{0, 2, 3, 5, 8}, build: bbqScorer},
}

func dotF(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// topK returns the indices of the k highest scores, best first (ties by
// index).
func topK(scores []float32, k int) []int {
	k = min(k, len(scores))
	better := func(a, b int) bool {
		return scores[a] > scores[b] || scores[a] == scores[b] && a < b
	}
	top := make([]int, 0, k+1)
	for i := range scores {
		if len(top) == k && !better(i, top[k-1]) {
			continue
		}
		at := sort.Search(len(top), func(j int) bool { return better(i, top[j]) })
		top = slices.Insert(top, at, i)
		if len(top) > k {
			top = top[:k]
		}
	}
	return top
}

// quantRecall is recall@k over a query set and the share of queries whose
// top k came back in the exact order (up to exact ties), per oversample.
type quantRecall struct {
	oversample, recall, sameOrder float64
}

func measureRecall(m quantMethod, vecs, queries [][]float32, k int) []quantRecall {
	score := m.build(vecs)
	out := make([]quantRecall, len(m.oversamples))
	for _, q := range queries {
		exact := make([]float32, len(vecs))
		for i, v := range vecs {
			exact[i] = dotF(q, v)
		}
		want := topK(exact, k)
		est := score(q)
		for o, os := range m.oversamples {
			got := topK(est, k)
			if os > 0 {
				cand := topK(est, int(math.Ceil(os*float64(k))))
				re := make([]float32, len(cand))
				for j, i := range cand {
					re[j] = exact[i]
				}
				order := topK(re, k)
				got = got[:0]
				for _, j := range order {
					got = append(got, cand[j])
				}
			}
			hit := 0
			for _, i := range want {
				if slices.Contains(got, i) {
					hit++
				}
			}
			out[o].oversample = os
			out[o].recall += float64(hit) / float64(len(want)) / float64(len(queries))
			// The same order up to exact ties (equal cosines rank either way).
			tied := len(got) == len(want)
			for i := 0; tied && i < len(got); i++ {
				tied = math.Abs(float64(exact[got[i]]-exact[want[i]])) < 1e-6
			}
			if tied {
				out[o].sameOrder += 1 / float64(len(queries))
			}
		}
	}
	return out
}

func unitF(v []float32) []float32 {
	n := math.Sqrt(float64(dotF(v, v)))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out
}

// TestQuantizedRecallConformance runs the simulation on the conformance
// suite's vectors (index/enginetest, 8 dimensions: below bbq's 64, so
// int8 only): every fixture vector as a query over companies and over
// contacts. The suite checks exact orders, so int8 must keep them.
func TestQuantizedRecallConformance(t *testing.T) {
	var companies, contacts [][]float32
	for _, d := range enginetest.Fixtures() {
		companies = append(companies, unitF(d.Vector))
	}
	for _, d := range enginetest.ContactFixtures() {
		contacts = append(contacts, unitF(d.Vector))
	}
	for _, set := range []struct {
		name string
		vecs [][]float32
	}{{"companies", companies}, {"contacts", contacts}} {
		for _, m := range quantMethods {
			if len(set.vecs[0]) < m.minDims {
				continue
			}
			k := min(10, len(set.vecs))
			for _, r := range measureRecall(m, set.vecs, set.vecs, k) {
				t.Logf("%s, %s, oversample %g: recall@%d %.3f, same order %.3f", set.name, m.name, r.oversample, k, r.recall, r.sameOrder)
				if r.recall < 1-1e-9 || r.sameOrder < 1-1e-9 {
					t.Errorf("%s: %s (oversample %g) changes the conformance ranking", set.name, m.name, r.oversample)
				}
			}
		}
	}
}

// TestQuantizedRecallDemo runs the simulation on demo companies embedded
// by the real embedder (fitted on the first 20,000), queried with 200
// held-out companies' vectors: PROSPECT_ES_QUANT_N=100000 go test -run
// QuantizedRecallDemo -v ./index/elastic/. Without the variable it runs
// on 5,000 companies, 50 queries.
func TestQuantizedRecallDemo(t *testing.T) {
	n, nq := 5_000, 50
	if s := os.Getenv("PROSPECT_ES_QUANT_N"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1000 {
			t.Fatalf("PROSPECT_ES_QUANT_N=%q: want a number >= 1000", s)
		}
		n, nq = v, 200
	} else if testing.Short() {
		t.Skip("short")
	}
	g := demo.New(demo.Options{Companies: n + nq, Seed: 1})
	docs := make([]embedding.Doc, n+nq)
	for i := range docs {
		docs[i] = embedding.DocOf(g.Company(i))
	}
	model, err := embedding.Fit(docs[:min(n, 20_000)], embedding.Options{})
	if err != nil {
		t.Fatal(err)
	}
	vecs := make([][]float32, n)
	for i := range vecs {
		vecs[i] = model.Embed(docs[i])
	}
	queries := make([][]float32, nq)
	for i := range queries {
		queries[i] = model.Embed(docs[n+i])
	}
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(vecs), func(i, j int) { vecs[i], vecs[j] = vecs[j], vecs[i] }) // segments of mixed industries
	d := len(vecs[0])
	t.Logf("%d demo companies, %d dims, %d queries, segments of %d", n, d, nq, segmentDocs)
	for _, m := range quantMethods {
		for _, r := range measureRecall(m, vecs, queries, 10) {
			t.Logf("%-5s oversample %-3g recall@10 %.3f  same top-10 order %.3f  bytes/vector %s", m.name, r.oversample, r.recall, r.sameOrder, vectorBytes(m.name, d))
			// What the mappings rely on: int8 rescored with knnOversample.
			if m.name == "int8" && r.oversample == knnOversample && r.recall < 0.9 {
				t.Errorf("int8, oversample %g: recall@10 %.3f < 0.9", r.oversample, r.recall)
			}
		}
	}
}

// vectorBytes is Elasticsearch's documented memory estimate per vector.
func vectorBytes(method string, d int) string {
	switch {
	case len(method) >= 4 && method[:4] == "int8":
		return fmt.Sprint(d + 4)
	case len(method) >= 3 && method[:3] == "bbq":
		return fmt.Sprint(d/8 + 14)
	}
	return fmt.Sprint(4 * d)
}
