package embedding

import "golang.org/x/sys/cpu"

var (
	useAVX2   = cpu.X86.HasAVX2
	useAVX512 = cpu.X86.HasAVX512F
)

// axpyInt8AVX2 is axpyInt8 for n > 0 elements, n a multiple of 16; it
// prefetches the n bytes at pf.
//
//go:noescape
func axpyInt8AVX2(w float32, q *int8, sum *float32, n int, pf *int8)

// axpyF32AVX2 is axpyF32 for n > 0 elements, n a multiple of 16.
//
//go:noescape
func axpyF32AVX2(a float32, x, y *float32, n int)

// projectAVX2 adds ws[i] × the row rows[i] of quant to sum, for the first
// 64 × blocks coordinates: see project.
//
//go:noescape
func projectAVX2(quant *int8, rank int, rows *int32, ws *float32, n int, sum *float32, blocks int)

// projectAVX512 is projectAVX2 with blocks of 256 coordinates.
//
//go:noescape
func projectAVX512(quant *int8, rank int, rows *int32, ws *float32, n int, sum *float32, blocks int)
