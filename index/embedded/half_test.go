package embedded

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
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
	half := make([]float32, len(vec))
	roundHalf(half, vec)
	wantScale, wantCodes := quantize(vec)
	halfScale, halfCodes := quantize(half)
	// tail is what follows the vector in every codec version: score 7, no
	// start date, no flags, no terms.
	tail := binary.AppendVarint(nil, 7)
	tail = binary.AppendVarint(tail, noDate)
	tail = append(tail, 0)
	for range numKeyword {
		tail = binary.AppendUvarint(tail, 0)
	}
	var cur entry
	cur.setVector(vec)
	cur.score, cur.start = 7, noDate
	// Indexes written before int8 vectors still open: their entries are
	// quantized as they are read.
	v1 := binary.AppendUvarint([]byte{codecFloat32V1}, uint64(len(vec)))
	for _, x := range vec {
		v1 = binary.LittleEndian.AppendUint32(v1, math.Float32bits(x))
	}
	v2 := binary.AppendUvarint([]byte{codecHalfV2}, uint64(len(vec)))
	v2 = append(v2, make([]byte, 2*len(vec))...)
	putHalfs(v2[len(v2)-2*len(vec):], vec)
	for _, tc := range []struct {
		name      string
		b         []byte
		scale     float32
		codes     []int8
		full      []float32
		halfBytes bool // the full vector stays binary16 bytes until full()
	}{
		{"v3", cur.marshal(nil), wantScale, wantCodes, half, true},
		{"v2 binary16", append(v2, tail...), halfScale, halfCodes, half, false},
		{"v1 float32", append(v1, tail...), wantScale, wantCodes, vec, false},
	} {
		var got entry
		if err := got.unmarshal(tc.b); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got.scale != tc.scale || !slices.Equal(got.codes, tc.codes) {
			t.Errorf("%s: scale %g codes %v, want %g %v", tc.name, got.scale, got.codes, tc.scale, tc.codes)
		}
		if !slices.Equal(got.full(), tc.full) {
			t.Errorf("%s: full vector %v, want %v", tc.name, got.full(), tc.full)
		}
		if (got.vector == nil) != tc.halfBytes {
			t.Errorf("%s: vector decoded at unmarshal = %v, want %v", tc.name, got.vector != nil, !tc.halfBytes)
		}
		if got.score != 7 || got.start != noDate {
			t.Errorf("%s: score %d start %d", tc.name, got.score, got.start)
		}
		// Rewritten (a refit or an upsert over it), it is a v3 entry
		// with the same codes.
		var again entry
		if err := again.unmarshal(got.marshal(nil)); err != nil {
			t.Fatalf("%s: rewritten: %v", tc.name, err)
		}
		if again.scale != got.scale || !slices.Equal(again.codes, got.codes) {
			t.Errorf("%s: rewritten codes differ", tc.name)
		}
	}

	v3 := cur.marshal(nil)
	for _, bad := range [][]byte{nil, {9}, {0}, {codecVersion, 5, 1, 2}, {codecHalfV2, 5, 1, 2}, v3[:len(v3)-1], append(slices.Clone(v3), 0)} {
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
