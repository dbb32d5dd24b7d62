package embedding

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

var blas = gonum.Implementation{}

// csr is a sparse matrix in compressed rows. Values are float32: the
// sparse products of the SVD are bound by memory traffic, and their
// rounding only perturbs a random sketch.
type csr struct {
	ptr []int
	col []int32
	val []float32
}

func (c *csr) rows() int { return len(c.ptr) - 1 }

// transpose returns cᵀ, which has cols rows.
func (c *csr) transpose(cols int) *csr {
	t := &csr{ptr: make([]int, cols+1), col: make([]int32, len(c.col)), val: make([]float32, len(c.val))}
	for _, j := range c.col {
		t.ptr[j+1]++
	}
	for j := 0; j < cols; j++ {
		t.ptr[j+1] += t.ptr[j]
	}
	next := slices.Clone(t.ptr[:cols])
	for i := 0; i < c.rows(); i++ {
		for k := c.ptr[i]; k < c.ptr[i+1]; k++ {
			j := c.col[k]
			t.col[next[j]] = int32(i)
			t.val[next[j]] = c.val[k]
			next[j]++
		}
	}
	return t
}

// mul returns c·b for a dense row-major b with l columns.
func (c *csr) mul(b []float32, l int) []float32 {
	out := make([]float32, c.rows()*l)
	parallelChunks(c.rows(), 512, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			dst := out[i*l : (i+1)*l]
			for k := c.ptr[i]; k < c.ptr[i+1]; k++ {
				j := int(c.col[k])
				axpyF32(c.val[k], b[j*l:(j+1)*l], dst)
			}
		}
	})
	return out
}

// parallelChunks runs fn over [0,n) in chunks of the given size on all
// CPUs. Work is split by chunk, never by CPU count, so anything computed
// per chunk is the same on every machine.
func parallelChunks(n, chunk int, fn func(lo, hi int)) {
	chunks := (n + chunk - 1) / chunk
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		for lo := 0; lo < n; lo += chunk {
			fn(lo, min(lo+chunk, n))
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				fn(c*chunk, min((c+1)*chunk, n))
			}
		}()
	}
	wg.Wait()
}

// gram returns aᵀa (l×l) for a dense row-major a with l columns,
// accumulated in float64. Rows are summed per fixed chunk and the chunk
// sums added in order, so the result does not depend on scheduling.
func gram[F float32 | float64](a []F, l int) *mat.SymDense {
	n := len(a) / l
	const chunk = 2048
	parts := make([][]float64, (n+chunk-1)/chunk)
	parallelChunks(n, chunk, func(lo, hi int) {
		g := make([]float64, l*l)
		r := make([]float64, l)
		for i := lo; i < hi; i++ {
			for j, v := range a[i*l : (i+1)*l] {
				r[j] = float64(v)
			}
			for p, v := range r {
				if v != 0 {
					floats.AddScaled(g[p*l+p:(p+1)*l], v, r[p:])
				}
			}
		}
		parts[lo/chunk] = g
	})
	g := mat.NewSymDense(l, nil)
	for _, part := range parts {
		for p := 0; p < l; p++ {
			for q := p; q < l; q++ {
				g.SetSym(p, q, g.At(p, q)+part[p*l+q])
			}
		}
	}
	return g
}

// mulSmall returns a·m for a dense row-major a (n×l) and a small m (l×k),
// in float64 when exact is set (a basis whose orthogonality matters) and in
// float32 otherwise.
func mulSmall(a []float32, l int, m *mat.Dense, exact bool) []float32 {
	_, k := m.Dims()
	n := len(a) / l
	out := make([]float32, n*k)
	raw := m.RawMatrix()
	if exact {
		parallelChunks(n, 512, func(lo, hi int) {
			acc := make([]float64, k)
			for i := lo; i < hi; i++ {
				clear(acc)
				for p, v := range a[i*l : (i+1)*l] {
					if v != 0 {
						floats.AddScaled(acc, float64(v), raw.Data[p*raw.Stride:p*raw.Stride+k])
					}
				}
				for j, v := range acc {
					out[i*k+j] = float32(v)
				}
			}
		})
		return out
	}
	m32 := make([]float32, l*k)
	for p := 0; p < l; p++ {
		for j := 0; j < k; j++ {
			m32[p*k+j] = float32(raw.Data[p*raw.Stride+j])
		}
	}
	parallelChunks(n, 512, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			dst := out[i*k : (i+1)*k]
			for p, v := range a[i*l : (i+1)*l] {
				if v != 0 {
					axpyF32(v, m32[p*k:(p+1)*k], dst)
				}
			}
		}
	})
	return out
}

// eigDesc returns the eigenvalues of g in descending order with the
// matching eigenvectors as columns.
func eigDesc(g *mat.SymDense) ([]float64, *mat.Dense, bool) {
	var e mat.EigenSym
	if !e.Factorize(g, true) {
		return nil, nil, false
	}
	vals := e.Values(nil)
	var vecs mat.Dense
	e.VectorsTo(&vecs)
	n := len(vals)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case vals[a] > vals[b]:
			return -1
		case vals[a] < vals[b]:
			return 1
		}
		return 0
	})
	sorted := make([]float64, n)
	out := mat.NewDense(n, n, nil)
	for c, o := range order {
		sorted[c] = vals[o]
		for r := 0; r < n; r++ {
			out.Set(r, c, vecs.At(r, o))
		}
	}
	return sorted, out, true
}

// whitener returns R (l×l') with (aR)ᵀ(aR) = I for the Gram matrix g of
// a's columns, dropping directions whose eigenvalue is below tol times the
// largest: aR is an orthonormal basis of a's numerical column space.
func whitener(g *mat.SymDense, tol float64) *mat.Dense {
	vals, vecs, ok := eigDesc(g)
	if !ok || len(vals) == 0 || vals[0] <= 0 {
		return nil
	}
	keep := 0
	for keep < len(vals) && vals[keep] > tol*vals[0] {
		keep++
	}
	l, _ := g.Dims()
	r := mat.NewDense(l, keep, nil)
	for c := 0; c < keep; c++ {
		s := 1 / math.Sqrt(vals[c])
		for p := 0; p < l; p++ {
			r.Set(p, c, vecs.At(p, c)*s)
		}
	}
	return r
}

// orthonormalize returns an orthonormal basis of a's column space (a is
// dense row-major with l columns) and its column count.
func orthonormalize(a []float32, l int) ([]float32, int) {
	r := whitener(gram(a, l), 1e-12)
	if r == nil {
		return nil, 0
	}
	_, k := r.Dims()
	return mulSmall(a, l, r, true), k
}

// truncatedSVD returns the top k right singular vectors of x (docs × terms)
// as a terms×r row-major matrix, r ≤ k, and the r singular values,
// descending. Components with negligible singular values are left out.
//
// It is the randomized SVD of Halko, Martinsson and Tropp (2011): a random
// sketch Y = x·Ω of x's column space, sharpened by power iterations
// Y ← x·xᵀ·Y, an orthonormal basis Q of Y, then the exact SVD of the small
// B = Qᵀ·x through the eigendecomposition of B·Bᵀ = ZᵀZ with Z = xᵀ·Q.
// Only Y is orthonormalized, once per iteration: Y's columns lean towards
// the top singular vectors by (σ₁/σₗ)^(2q+1), well inside float64 range for
// the one or two iterations used, and Y has a row per document, fewer than
// the terms.
func truncatedSVD(x *csr, terms, k, iters int, seed int64) ([]float32, []float64) {
	xt := x.transpose(terms)
	l := min(k+oversample, x.rows(), terms)
	if l == 0 {
		return nil, nil
	}
	// Random ±1 sketch: as good as Gaussian for range finding, cheaper.
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9E3779B97F4A7C15))
	omega := make([]float32, terms*l)
	for i := 0; i < len(omega); i += 64 {
		bits := rng.Uint64()
		for b := 0; b < 64 && i+b < len(omega); b++ {
			omega[i+b] = float32(int(bits>>b&1)*2 - 1)
		}
	}
	y, ly := x.mul(omega, l), l
	for it := 0; it < iters; it++ {
		normalizeColumns(y, ly)
		y = x.mul(xt.mul(y, ly), ly)
	}
	q, lq := orthonormalize(y, ly)
	if lq == 0 {
		return nil, nil
	}
	z := xt.mul(q, lq) // Bᵀ
	vals, u, ok := eigDesc(gram(z, lq))
	if !ok {
		return nil, nil
	}
	r := 0
	for r < min(k, len(vals)) && vals[r] > 1e-12*vals[0] && vals[r] > 0 {
		r++
	}
	if r == 0 {
		return nil, nil
	}
	// Right singular vectors: Bᵀ·U·S⁻¹.
	sv := make([]float64, r)
	m := mat.NewDense(lq, r, nil)
	for j := range sv {
		sv[j] = math.Sqrt(vals[j])
		for p := 0; p < lq; p++ {
			m.Set(p, j, u.At(p, j)/sv[j])
		}
	}
	vecs := mulSmall(z, lq, m, false)
	// Sign convention: the largest-magnitude coordinate of each vector is
	// positive, so the basis does not flip with rounding.
	for j := 0; j < r; j++ {
		var big float32
		for t := 0; t < terms; t++ {
			if v := vecs[t*r+j]; abs32(v) > abs32(big) {
				big = v
			}
		}
		if big < 0 {
			for t := 0; t < terms; t++ {
				vecs[t*r+j] = -vecs[t*r+j]
			}
		}
	}
	return vecs, sv
}

// normalizeColumns scales each column of a (row-major, l columns) to unit
// length, keeping power iterations far from overflow.
func normalizeColumns(a []float32, l int) {
	norms := make([]float64, l)
	for i := 0; i < len(a); i += l {
		for j, v := range a[i : i+l] {
			norms[j] += float64(v) * float64(v)
		}
	}
	scale := make([]float32, l)
	for j, n := range norms {
		if n > 0 {
			scale[j] = float32(1 / math.Sqrt(n))
		}
	}
	for i := 0; i < len(a); i += l {
		for j := range scale {
			a[i+j] *= scale[j]
		}
	}
}

func abs32(v float32) float32 { return math.Float32frombits(math.Float32bits(v) &^ (1 << 31)) }
