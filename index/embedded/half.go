package embedded

import (
	"encoding/binary"

	"github.com/x448/float16"
)

// Vectors are kept at IEEE binary16 precision, in memory and on disk. A
// 256-dimension vector is 1 KiB as float32 and does not compress: it was
// two fifths of the bytes a bulk load holds and writes. binary16 keeps 11
// significant bits: the cosine of two 256-dimension unit vectors moved by
// at most 1.0e-4 over 20,000 random pairs, far below the gaps between
// neighbours the embedder tells apart (the engine's recall tests are
// unchanged). The in-memory copy is rounded the same way, so a search
// ranks identically before and after a restart.
//
// The conversions are x448/float16's (round to nearest even). A 256-value
// vector takes ~0.6 µs, under a CPU-second per million companies loaded;
// the F16C assembly that did it in 25 ns was removed, as no bar needs that
// gain (docs/decisions.md, "Hand-written low-level code (issue 13)").

// putHalfs writes the binary16 of each src[i], little-endian, to
// dst[2i:2i+2].
func putHalfs(dst []byte, src []float32) {
	dst = dst[:2*len(src)]
	for i, f := range src {
		binary.LittleEndian.PutUint16(dst[2*i:], uint16(float16.Fromfloat32(f)))
	}
}

// roundHalf sets dst[i] to src[i] rounded to binary16 precision.
func roundHalf(dst, src []float32) {
	src = src[:len(dst)]
	for i, f := range src {
		dst[i] = float16.Fromfloat32(f).Float32()
	}
}

// getHalfs sets dst[i] to the value of the little-endian binary16 in
// src[2i:2i+2].
func getHalfs(dst []float32, src []byte) {
	src = src[:2*len(dst)]
	half := halfValues
	for i := range dst {
		dst[i] = half[binary.LittleEndian.Uint16(src[2*i:])]
	}
}

// halfValues is the library's value of every binary16, looked up rather
// than converted: opening an index converts 256 million of them (a vector
// in 0.27 µs rather than 0.57).
var halfValues = func() *[1 << 16]float32 {
	var t [1 << 16]float32
	for i := range t {
		t[i] = float16.Frombits(uint16(i)).Float32()
	}
	return &t
}()
