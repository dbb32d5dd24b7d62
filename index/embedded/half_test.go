package embedded

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
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

// BenchmarkHalfBits converts a 256-dimension unit vector to binary16, as
// entry.marshal does.
func BenchmarkHalfBits(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	vec := make([]float32, benchDim)
	for i := range vec {
		vec[i] = float32(r.NormFloat64())
	}
	normalize(vec)
	dst := make([]byte, 2*len(vec))
	for b.Loop() {
		for i, x := range vec {
			binary.LittleEndian.PutUint16(dst[2*i:], halfBits(x))
		}
	}
	b.SetBytes(int64(4 * len(vec)))
}
