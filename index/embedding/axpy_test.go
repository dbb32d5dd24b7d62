package embedding

import (
	"math"
	"math/rand/v2"
	"slices"
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

// TestProjectRows checks a document's projection by each vector kernel
// against one plain loop per row, bit for bit, for ranks around the
// kernels' blocks, with and without the padding the kernels need.
func TestProjectRows(t *testing.T) {
	kernels := []struct {
		name       string
		avx2, wide bool
	}{{"scalar", false, false}, {"avx2", true, false}, {"avx512", true, true}}
	saved2, saved512 := useAVX2, useAVX512
	defer func() { useAVX2, useAVX512 = saved2, saved512 }()
	for _, k := range kernels {
		if (k.avx2 && !saved2) || (k.wide && !saved512) {
			t.Logf("%s: not supported by this CPU", k.name)
			continue
		}
		useAVX2, useAVX512 = k.avx2, k.wide
		t.Run(k.name, testProjectRows)
	}
}

func testProjectRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for rank := 1; rank <= 600; rank += 1 + rank/100 {
		terms := 1 + rng.IntN(40)
		codes := make([]int8, terms*rank, terms*rank+projectPad)
		for i := range codes {
			codes[i] = int8(rng.IntN(256) - 128)
		}
		// The padding holds codes too: the kernel may read them but
		// they must not reach sum[:rank].
		for i := len(codes); i < cap(codes); i++ {
			codes[:cap(codes)][i] = int8(rng.IntN(256) - 128)
		}
		for _, pad := range []bool{true, false} {
			quant := codes
			if !pad {
				quant = slices.Clip(codes)
			}
			rows := make([]int32, rng.IntN(2*terms+1))
			ws := make([]float32, len(rows))
			for i := range rows {
				rows[i] = int32(rng.IntN(terms))
				ws[i] = rng.Float32()*0.02 - 0.01
			}
			want := make([]float32, rank)
			for i, row := range rows {
				q := quant[int(row)*rank : int(row+1)*rank]
				for j := range want {
					want[j] += float32(ws[i] * float32(q[j]))
				}
			}
			got := make([]float32, rank, (rank+projectSpan-1)/projectSpan*projectSpan)
			projectRows(quant, rank, rows, ws, got)
			for j := range want {
				if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
					t.Fatalf("rank=%d rows=%d pad=%v j=%d: %v, want %v", rank, len(rows), pad, j, got[j], want[j])
				}
			}
		}
	}
}

// BenchmarkAxpyF32 is the fit's sparse-product step on a 257-wide row
// (Dim+1 components), with the AVX2 kernel and with the Go loop alone:
// the figure that keeps the kernel (docs/decisions.md, "Hand-written
// low-level code kept").
func BenchmarkAxpyF32(b *testing.B) {
	x, y := make([]float32, 257), make([]float32, 257)
	for i := range x {
		x[i] = float32(i%7) / 7
	}
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	for _, avx2 := range []bool{true, false} {
		if avx2 && !saved {
			continue
		}
		name := "go"
		if avx2 {
			name = "avx2"
		}
		b.Run(name, func(b *testing.B) {
			useAVX2 = avx2
			for b.Loop() {
				axpyF32(0.5, x, y)
			}
		})
	}
}
