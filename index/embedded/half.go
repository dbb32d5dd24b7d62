package embedded

import (
	"math"

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

// halfBits returns the binary16 nearest to f (ties to even). The common
// case, a normal binary16, is rounded here; zero, subnormals, overflow,
// infinities and NaN go to the library.
func halfBits(f float32) uint16 {
	u := math.Float32bits(f)
	exp := u >> 23 & 0xff
	if exp < 113 || exp > 141 {
		return uint16(float16.Fromfloat32(f))
	}
	r := u + 0x0fff + (u >> 13 & 1)
	return uint16(r>>16&0x8000 | ((r>>23&0xff)-112)<<10 | r>>13&0x3ff)
}

// roundHalf sets dst[i] to src[i] rounded to binary16 precision.
func roundHalf(dst, src []float32) {
	half := halfValues
	for i, f := range src[:len(dst)] {
		dst[i] = half[halfBits(f)]
	}
}

// halfValues maps every binary16 to its float32 value: loading an index
// converts hundreds of millions of them.
var halfValues = func() *[1 << 16]float32 {
	var t [1 << 16]float32
	for i := range t {
		t[i] = float16.Frombits(uint16(i)).Float32()
	}
	return &t
}()
