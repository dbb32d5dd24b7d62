package embedding

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAxpyInt8 checks the vector kernel against the plain loop bit for bit,
// for every length around its 16-element blocks.
func TestAxpyInt8(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 300; n++ {
		q := make([]int8, n)
		for i := range q {
			q[i] = int8(rng.IntN(256) - 128)
		}
		got, want := make([]float32, n), make([]float32, n)
		for i := range got {
			got[i] = rng.Float32()*2 - 1
			want[i] = got[i]
		}
		for range 3 {
			w := rng.Float32()*0.01 - 0.005
			axpyInt8(w, q, got, q)
			for i := range want {
				want[i] += float32(w * float32(q[i]))
			}
		}
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d i=%d: %v, want %v (avx2 %v)", n, i, got[i], want[i], useAVX2)
			}
		}
	}
}

// TestAxpyF32 checks the float32 kernel against gonum's Saxpy, which the
// fit used before it, bit for bit: a fitted model must not change.
func TestAxpyF32(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= 300; n++ {
		x, got, want := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
			got[i] = float32(rng.NormFloat64())
			want[i] = got[i]
		}
		for range 3 {
			a := float32(rng.NormFloat64())
			axpyF32(a, x, got)
			blas.Saxpy(n, a, x, 1, want, 1)
		}
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d i=%d: %v, want %v (avx2 %v)", n, i, got[i], want[i], useAVX2)
			}
		}
	}
}
