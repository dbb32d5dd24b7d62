//go:build !amd64

package embedded

const useAVX2 = false

func dotInt8AVX2(q *float32, v *int8, n int) float32 { panic("unreachable") }
