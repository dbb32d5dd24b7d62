//go:build !amd64

package embedded

var useAVX2 = false // a variable as on amd64 (tests set it)

func dotInt8AVX2(q *float32, v *int8, n int) float32 { panic("unreachable") }
