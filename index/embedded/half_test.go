package embedded

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/x448/float16"
)

func TestHalfMatchesLibrary(t *testing.T) {
	check := func(f float32) {
		t.Helper()
		want := uint16(float16.Fromfloat32(f))
		if got := halfBits(f); got != want {
			t.Fatalf("halfBits(%g = %#08x) = %#04x, want %#04x", f, math.Float32bits(f), got, want)
		}
		var dst [1]float32
		roundHalf(dst[:], []float32{f})
		if w := float16.Frombits(want).Float32(); math.Float32bits(dst[0]) != math.Float32bits(w) && !math.IsNaN(float64(w)) {
			t.Fatalf("roundHalf(%g) = %g, want %g", f, dst[0], w)
		}
		if w := float16.Frombits(want).Float32(); math.Float32bits(halfValues[want]) != math.Float32bits(w) {
			t.Fatalf("halfValues[%#04x] = %g, want %g", want, halfValues[want], w)
		}
	}
	// Every exponent boundary of the fast path, with mantissas that round
	// down, to even, up, and carry into the exponent.
	for exp := uint32(100); exp <= 160; exp++ {
		for _, mant := range []uint32{0, 1, 0x0fff, 0x1000, 0x1001, 0x2fff, 0x3000, 0x7fe000, 0x7fefff, 0x7ff000, 0x7fffff} {
			for _, sign := range []uint32{0, 1 << 31} {
				check(math.Float32frombits(sign | exp<<23 | mant))
			}
		}
	}
	for _, f := range []float32{0, float32(math.Copysign(0, -1)), 1, -1, 65504, 65520, 1e-8, float32(math.Inf(1)), float32(math.NaN())} {
		check(f)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2_000_000 {
		check(math.Float32frombits(r.Uint32()))
	}
	// The values unit vectors hold.
	for range 1_000_000 {
		check(float32(r.NormFloat64() / 16))
	}
}

func TestEntryVectorCodec(t *testing.T) {
	vec := []float32{0.0625, -0.3, 1e-7, 0.123456789, -1}
	e := entry{vector: vec, score: 7, start: noDate}
	var got entry
	if err := got.unmarshal(e.marshal(nil)); err != nil {
		t.Fatal(err)
	}
	want := make([]float32, len(vec))
	roundHalf(want, vec)
	for i := range want {
		if got.vector[i] != want[i] {
			t.Errorf("vector[%d] = %g, want %g (rounded from %g)", i, got.vector[i], want[i], vec[i])
		}
	}

	// An index written before binary16 vectors still opens.
	v1 := []byte{codecFloat32V1}
	v1 = binary.AppendUvarint(v1, uint64(len(vec)))
	for _, x := range vec {
		v1 = binary.LittleEndian.AppendUint32(v1, math.Float32bits(x))
	}
	v1 = binary.AppendVarint(v1, 7)
	v1 = binary.AppendVarint(v1, noDate)
	v1 = append(v1, 0)
	for range numKeyword {
		v1 = binary.AppendUvarint(v1, 0)
	}
	var old entry
	if err := old.unmarshal(v1); err != nil {
		t.Fatal(err)
	}
	for i := range vec {
		if old.vector[i] != vec[i] {
			t.Errorf("v1 vector[%d] = %g, want %g", i, old.vector[i], vec[i])
		}
	}
	if old.score != 7 || old.start != noDate {
		t.Errorf("v1 entry = score %d start %d", old.score, old.start)
	}

	for _, bad := range [][]byte{nil, {9}, {codecVersion, 5, 1, 2}} {
		if err := new(entry).unmarshal(bad); err == nil {
			t.Errorf("unmarshal(%v) succeeded", bad)
		}
	}
}

// BenchmarkHalfBits converts a 256-dimension unit vector to binary16 and
// back: halfBits a float at a time (the scalar path), and putHalfs and
// getHalfs, as entry.marshal and entry.decode do.
func BenchmarkHalfBits(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	vec := make([]float32, benchDim)
	for i := range vec {
		vec[i] = float32(r.NormFloat64())
	}
	normalize(vec)
	dst := make([]byte, 2*len(vec))
	b.Run("scalar", func(b *testing.B) {
		for b.Loop() {
			for i, x := range vec {
				binary.LittleEndian.PutUint16(dst[2*i:], halfBits(x))
			}
		}
		b.SetBytes(int64(4 * len(vec)))
	})
	b.Run("putHalfs", func(b *testing.B) {
		for b.Loop() {
			putHalfs(dst, vec)
		}
		b.SetBytes(int64(4 * len(vec)))
	})
	back := make([]float32, len(vec))
	b.Run("table", func(b *testing.B) {
		for b.Loop() {
			for i := range back {
				back[i] = halfValues[binary.LittleEndian.Uint16(dst[2*i:])]
			}
		}
		b.SetBytes(int64(4 * len(vec)))
	})
	b.Run("getHalfs", func(b *testing.B) {
		for b.Loop() {
			getHalfs(back, dst)
		}
		b.SetBytes(int64(4 * len(vec)))
	})
}

// TestHalfF16C checks the F16C conversions against halfBits and halfValues
// on every float32 (every binary16 for the way back), in blocks that also
// leave a tail to the scalar loop. It takes a few seconds a core, so
// -short skips the float32 sweep.
func TestHalfF16C(t *testing.T) {
	if !useF16C {
		t.Skip("no F16C")
	}
	// Every binary16 back to float32.
	halfs := make([]byte, 2<<16)
	for i := range 1 << 16 {
		binary.LittleEndian.PutUint16(halfs[2*i:], uint16(i))
	}
	vals := make([]float32, 1<<16)
	getHalfs(vals, halfs)
	for i, v := range vals {
		if math.Float32bits(v) != math.Float32bits(halfValues[i]) {
			t.Fatalf("getHalfs(%#04x) = %#08x, halfValues %#08x", i, math.Float32bits(v), math.Float32bits(halfValues[i]))
		}
	}
	if testing.Short() {
		t.Skip("-short: not every float32")
	}
	const block = 1<<16 - 3 // not a multiple of 8: the tail goes through the scalar path
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	errs := make(chan string, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := make([]float32, block)
			dst := make([]byte, 2*block)
			rounded := make([]float32, block)
			for start := uint64(w) * block; start < 1<<32; start += uint64(workers) * block {
				n := min(block, 1<<32-start)
				for i := range n {
					src[i] = math.Float32frombits(uint32(start + i))
				}
				putHalfs(dst[:2*n], src[:n])
				roundHalf(rounded[:n], src[:n])
				for i := range n {
					want := halfBits(src[i])
					if got := binary.LittleEndian.Uint16(dst[2*i:]); got != want {
						errs <- fmt.Sprintf("putHalfs(%#08x) = %#04x, halfBits %#04x", start+i, got, want)
						return
					}
					if got, want := math.Float32bits(rounded[i]), math.Float32bits(halfValues[want]); got != want {
						errs <- fmt.Sprintf("roundHalf(%#08x) = %#08x, want %#08x", start+i, got, want)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// FuzzHalfF16C compares the vector conversions with the scalar ones on
// any bits, at lengths around the 8-float blocks.
func FuzzHalfF16C(f *testing.F) {
	f.Add([]byte{0, 0, 0x80, 0x7f, 1, 0, 0x80, 0x7f, 0, 0xf0, 0x7f, 0x47})
	f.Fuzz(func(t *testing.T, raw []byte) {
		src := make([]float32, len(raw)/4)
		for i := range src {
			src[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		dst := make([]byte, 2*len(src))
		putHalfs(dst, src)
		rounded := make([]float32, len(src))
		roundHalf(rounded, src)
		back := make([]float32, len(src))
		getHalfs(back, dst)
		for i, x := range src {
			h := halfBits(x)
			if got := binary.LittleEndian.Uint16(dst[2*i:]); got != h {
				t.Fatalf("putHalfs(%#08x) = %#04x, want %#04x", math.Float32bits(x), got, h)
			}
			want := math.Float32bits(halfValues[h])
			if got := math.Float32bits(rounded[i]); got != want {
				t.Fatalf("roundHalf(%#08x) = %#08x, want %#08x", math.Float32bits(x), got, want)
			}
			if got := math.Float32bits(back[i]); got != want {
				t.Fatalf("getHalfs(%#04x) = %#08x, want %#08x", h, got, want)
			}
		}
	})
}
