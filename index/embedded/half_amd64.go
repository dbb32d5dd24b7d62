package embedded

import "golang.org/x/sys/cpu"

// F16C's conversions round to nearest even (imm8 0), quiet NaNs and keep
// their top payload bits, as halfBits and halfValues do: TestHalfF16C
// checks every float32 and every binary16.
var useF16C = cpu.X86.HasAVX && cpu.X86.HasF16C

// halfsF16C writes the binary16 of src[0:n] to dst[0:2n], n > 0 a multiple
// of 8.
//
//go:noescape
func halfsF16C(dst *byte, src *float32, n int)

// roundHalfF16C sets dst[0:n] to src[0:n] rounded to binary16, n > 0 a
// multiple of 8.
//
//go:noescape
func roundHalfF16C(dst, src *float32, n int)

// halfValuesF16C sets dst[0:n] to the values of the binary16 in
// src[0:2n], n > 0 a multiple of 8.
//
//go:noescape
func halfValuesF16C(dst *float32, src *byte, n int)
