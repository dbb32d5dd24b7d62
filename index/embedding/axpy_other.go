//go:build !amd64

package embedding

// Variables, not constants, so tests can switch kernels on every platform.
var useAVX2, useAVX512 = false, false

func axpyInt8AVX2(w float32, q *int8, sum *float32, n int, pf *int8) { panic("unreachable") }
func axpyF32AVX2(a float32, x, y *float32, n int)                    { panic("unreachable") }

func projectAVX2(quant *int8, rank int, rows *int32, ws *float32, n int, sum *float32, blocks int) {
	panic("unreachable")
}

func projectAVX512(quant *int8, rank int, rows *int32, ws *float32, n int, sum *float32, blocks int) {
	panic("unreachable")
}
