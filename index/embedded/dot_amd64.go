package embedded

import "golang.org/x/sys/cpu"

var useAVX2 = cpu.X86.HasAVX2

// dotInt8AVX2 is the sum of q[i] × float32(v[i]) for n > 0 elements, n a
// multiple of 16.
//
//go:noescape
func dotInt8AVX2(q *float32, v *int8, n int) float32
