package embedded

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/x448/float16"
)

func TestHalfConversions(t *testing.T) {
	tests := []struct {
		in   float32
		bits uint16
		back float32
	}{
		{1, 0x3c00, 1},
		{-2, 0xc000, -2},
		{0.1, 0x2e66, 0.0999755859375},
		{1 + 1.0/2048, 0x3c00, 1},            // a tie rounds to even (down)
		{1 + 3.0/2048, 0x3c02, 1 + 2.0/1024}, // a tie rounds to even (up)
		{65520, 0x7c00, float32(math.Inf(1))},
		{1e-8, 0x0000, 0},
		{6e-8, 0x0001, 5.960464477539063e-08}, // the smallest subnormal
	}
	// Odd lengths and every position, so an indexing slip shows.
	for _, tc := range tests {
		for n := 1; n <= 3; n++ {
			src := make([]float32, n)
			src[n-1] = tc.in
			dst := make([]byte, 2*n)
			putHalfs(dst, src)
			if got := binary.LittleEndian.Uint16(dst[2*(n-1):]); got != tc.bits {
				t.Errorf("putHalfs(%g) = %#04x, want %#04x", tc.in, got, tc.bits)
			}
			back := make([]float32, n)
			getHalfs(back, dst)
			rounded := make([]float32, n)
			roundHalf(rounded, src)
			if back[n-1] != tc.back || rounded[n-1] != tc.back {
				t.Errorf("getHalfs, roundHalf(%g) = %g, %g, want %g", tc.in, back[n-1], rounded[n-1], tc.back)
			}
		}
	}
	nan := []float32{float32(math.NaN())}
	roundHalf(nan, nan)
	if !math.IsNaN(float64(nan[0])) {
		t.Errorf("roundHalf(NaN) = %g", nan[0])
	}
}

// TestHalfValues compares the lookup table with the library on every
// binary16 (NaNs by their bits).
func TestHalfValues(t *testing.T) {
	for i := range 1 << 16 {
		want := float16.Frombits(uint16(i)).Float32()
		if got := halfValues[i]; math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("halfValues[%#04x] = %#08x, want %#08x", i, math.Float32bits(got), math.Float32bits(want))
		}
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
// back, as entry.marshal and entry.decode do.
func BenchmarkHalfBits(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	vec := make([]float32, benchDim)
	for i := range vec {
		vec[i] = float32(r.NormFloat64())
	}
	normalize(vec)
	dst := make([]byte, 2*len(vec))
	b.Run("putHalfs", func(b *testing.B) {
		for b.Loop() {
			putHalfs(dst, vec)
		}
		b.SetBytes(int64(4 * len(vec)))
	})
	back := make([]float32, len(vec))
	b.Run("getHalfs", func(b *testing.B) {
		for b.Loop() {
			getHalfs(back, dst)
		}
		b.SetBytes(int64(4 * len(vec)))
	})
}
