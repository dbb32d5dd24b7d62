package embedded

import (
	"encoding/binary"
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

// putHalfs writes the binary16 of each src[i], little-endian, to
// dst[2i:2i+2].
func putHalfs(dst []byte, src []float32) {
	dst = dst[:2*len(src)]
	n := 0
	if useF16C {
		if n = len(src) &^ 7; n > 0 {
			halfsF16C(&dst[0], &src[0], n)
		}
	}
	for i := n; i < len(src); i++ {
		binary.LittleEndian.PutUint16(dst[2*i:], halfBits(src[i]))
	}
}

// roundHalf sets dst[i] to src[i] rounded to binary16 precision.
func roundHalf(dst, src []float32) {
	src = src[:len(dst)]
	n := 0
	if useF16C {
		if n = len(dst) &^ 7; n > 0 {
			roundHalfF16C(&dst[0], &src[0], n)
		}
	}
	half := halfValues
	for i := n; i < len(dst); i++ {
		dst[i] = half[halfBits(src[i])]
	}
}

// getHalfs sets dst[i] to the value of the little-endian binary16 in
// src[2i:2i+2].
func getHalfs(dst []float32, src []byte) {
	src = src[:2*len(dst)]
	n := 0
	if useF16C {
		if n = len(dst) &^ 7; n > 0 {
			halfValuesF16C(&dst[0], &src[0], n)
		}
	}
	half := halfValues
	for i := n; i < len(dst); i++ {
		dst[i] = half[binary.LittleEndian.Uint16(src[2*i:])]
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
