#include "textflag.h"

// func axpyInt8AVX2(w float32, q *int8, sum *float32, n int, pf *int8)
//
// 16 elements per iteration: sign-extend 8 int8 codes to int32, convert to
// float32, multiply by w, add to sum. VMULPS then VADDPS (not VFMADD) so
// the result rounds exactly as the Go loop in axpy.go does.
TEXT ·axpyInt8AVX2(SB), NOSPLIT, $0-40
	VBROADCASTSS w+0(FP), Y0
	MOVQ         q+8(FP), SI
	MOVQ         sum+16(FP), DI
	MOVQ         n+24(FP), CX
	MOVQ         pf+32(FP), R8
	MOVQ         CX, R9

prefetch:
	PREFETCHT0 (R8)
	ADDQ       $64, R8
	SUBQ       $64, R9
	JG         prefetch

loop:
	VPMOVSXBD (SI), Y1
	VPMOVSXBD 8(SI), Y2
	VCVTDQ2PS Y1, Y1
	VCVTDQ2PS Y2, Y2
	VMULPS    Y0, Y1, Y1
	VMULPS    Y0, Y2, Y2
	VADDPS    (DI), Y1, Y1
	VADDPS    32(DI), Y2, Y2
	VMOVUPS   Y1, (DI)
	VMOVUPS   Y2, 32(DI)
	ADDQ      $16, SI
	ADDQ      $64, DI
	SUBQ      $16, CX
	JNZ       loop
	VZEROUPPER
	RET

// func axpyF32AVX2(a float32, x *float32, y *float32, n int)
//
// y[i] += a × x[i] for n > 0 elements, n a multiple of 16; VMULPS then
// VADDPS, rounding as the Go loop in axpy.go does.
TEXT ·axpyF32AVX2(SB), NOSPLIT, $0-32
	VBROADCASTSS a+0(FP), Y0
	MOVQ         x+8(FP), SI
	MOVQ         y+16(FP), DI
	MOVQ         n+24(FP), CX

f32loop:
	VMULPS  (SI), Y0, Y1
	VMULPS  32(SI), Y0, Y2
	VADDPS  (DI), Y1, Y1
	VADDPS  32(DI), Y2, Y2
	VMOVUPS Y1, (DI)
	VMOVUPS Y2, 32(DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	SUBQ    $16, CX
	JNZ     f32loop
	VZEROUPPER
	RET

// func projectAVX2(quant *int8, rank int, rows *int32, ws *float32, n int, sum *float32, blocks int)
//
// For each block of 64 coordinates, 0 ≤ b < blocks: keeps sum[64b:64b+64]
// in eight registers while it adds ws[i] × quant[rows[i]×rank + 64b ...]
// for i = 0 … n-1, in that order, then stores the block back. Every
// element rounds as in axpyInt8 (VMULPS then VADDPS), in the same order of
// rows, so the sums are bit for bit those of one axpyInt8 call per row.
// The last block may read past a row's rank codes (the caller pads quant)
// and sum its garbage into coordinates ≥ rank (the caller ignores them).
// Requires n > 0 and blocks > 0.
TEXT ·projectAVX2(SB), NOSPLIT, $0-56
	MOVQ quant+0(FP), R8
	MOVQ rank+8(FP), R9
	MOVQ rows+16(FP), R10
	MOVQ ws+24(FP), R11
	MOVQ n+32(FP), R12
	MOVQ sum+40(FP), DI
	MOVQ blocks+48(FP), R13
	XORQ R14, R14 // the block's byte offset in a row

block:
	VMOVUPS 0(DI), Y8
	VMOVUPS 32(DI), Y9
	VMOVUPS 64(DI), Y10
	VMOVUPS 96(DI), Y11
	VMOVUPS 128(DI), Y12
	VMOVUPS 160(DI), Y13
	VMOVUPS 192(DI), Y14
	VMOVUPS 224(DI), Y15
	XORQ    BX, BX

row:
	// Rows are random: while adding the first block, fetch the whole row
	// sixteen ahead, so the later blocks find every row in the cache.
	TESTQ      R14, R14
	JNZ        noprefetch
	LEAQ       16(BX), AX
	CMPQ       AX, R12
	JGE        noprefetch
	MOVL       (R10)(AX*4), AX
	IMULQ      R9, AX
	ADDQ       R8, AX
	MOVQ       R13, CX

prefetch:
	PREFETCHT0 (AX)
	ADDQ       $64, AX
	DECQ       CX
	JNZ        prefetch

noprefetch:
	MOVL         (R10)(BX*4), SI
	IMULQ        R9, SI
	ADDQ         R8, SI
	ADDQ         R14, SI
	VBROADCASTSS (R11)(BX*4), Y0
	VPMOVSXBD    0(SI), Y1
	VPMOVSXBD    8(SI), Y2
	VPMOVSXBD    16(SI), Y3
	VPMOVSXBD    24(SI), Y4
	VCVTDQ2PS    Y1, Y1
	VCVTDQ2PS    Y2, Y2
	VCVTDQ2PS    Y3, Y3
	VCVTDQ2PS    Y4, Y4
	VMULPS       Y0, Y1, Y1
	VMULPS       Y0, Y2, Y2
	VMULPS       Y0, Y3, Y3
	VMULPS       Y0, Y4, Y4
	VADDPS       Y1, Y8, Y8
	VADDPS       Y2, Y9, Y9
	VADDPS       Y3, Y10, Y10
	VADDPS       Y4, Y11, Y11
	VPMOVSXBD    32(SI), Y5
	VPMOVSXBD    40(SI), Y6
	VPMOVSXBD    48(SI), Y7
	VPMOVSXBD    56(SI), Y1
	VCVTDQ2PS    Y5, Y5
	VCVTDQ2PS    Y6, Y6
	VCVTDQ2PS    Y7, Y7
	VCVTDQ2PS    Y1, Y1
	VMULPS       Y0, Y5, Y5
	VMULPS       Y0, Y6, Y6
	VMULPS       Y0, Y7, Y7
	VMULPS       Y0, Y1, Y1
	VADDPS       Y5, Y12, Y12
	VADDPS       Y6, Y13, Y13
	VADDPS       Y7, Y14, Y14
	VADDPS       Y1, Y15, Y15
	INCQ         BX
	CMPQ         BX, R12
	JL           row

	VMOVUPS Y8, 0(DI)
	VMOVUPS Y9, 32(DI)
	VMOVUPS Y10, 64(DI)
	VMOVUPS Y11, 96(DI)
	VMOVUPS Y12, 128(DI)
	VMOVUPS Y13, 160(DI)
	VMOVUPS Y14, 192(DI)
	VMOVUPS Y15, 224(DI)
	ADDQ    $256, DI
	ADDQ    $64, R14
	DECQ    R13
	JNZ     block
	VZEROUPPER
	RET
