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

// func projectAVX512(quant *int8, rank int, rows *int32, ws *float32, n int, sum *float32, blocks int)
//
// projectAVX2 with blocks of 256 coordinates in sixteen registers: a
// 256-dimension model's sum stays in registers for the whole document, and
// each row is read in one pass. The last block may read up to 255 codes
// past a row and sum garbage into coordinates ≥ rank, as in projectAVX2.
// Requires n > 0 and blocks > 0.
TEXT ·projectAVX512(SB), NOSPLIT, $0-56
	MOVQ quant+0(FP), R8
	MOVQ rank+8(FP), R9
	MOVQ rows+16(FP), R10
	MOVQ ws+24(FP), R11
	MOVQ n+32(FP), R12
	MOVQ sum+40(FP), DI
	MOVQ blocks+48(FP), R13
	XORQ R14, R14 // the block's byte offset in a row

block512:
	VMOVUPS 0(DI), Z16
	VMOVUPS 64(DI), Z17
	VMOVUPS 128(DI), Z18
	VMOVUPS 192(DI), Z19
	VMOVUPS 256(DI), Z20
	VMOVUPS 320(DI), Z21
	VMOVUPS 384(DI), Z22
	VMOVUPS 448(DI), Z23
	VMOVUPS 512(DI), Z24
	VMOVUPS 576(DI), Z25
	VMOVUPS 640(DI), Z26
	VMOVUPS 704(DI), Z27
	VMOVUPS 768(DI), Z28
	VMOVUPS 832(DI), Z29
	VMOVUPS 896(DI), Z30
	VMOVUPS 960(DI), Z31
	XORQ    BX, BX

row512:
	// Fetch the block of the row eight ahead meanwhile.
	LEAQ       8(BX), AX
	CMPQ       AX, R12
	JGE        nofetch512
	MOVL       (R10)(AX*4), AX
	IMULQ      R9, AX
	ADDQ       R8, AX
	ADDQ       R14, AX
	PREFETCHT0 (AX)
	PREFETCHT0 64(AX)
	PREFETCHT0 128(AX)
	PREFETCHT0 192(AX)

nofetch512:
	MOVL         (R10)(BX*4), SI
	IMULQ        R9, SI
	ADDQ         R8, SI
	ADDQ         R14, SI
	VBROADCASTSS (R11)(BX*4), Z0
	VPMOVSXBD    0(SI), Z1
	VPMOVSXBD    16(SI), Z2
	VPMOVSXBD    32(SI), Z3
	VPMOVSXBD    48(SI), Z4
	VPMOVSXBD    64(SI), Z5
	VPMOVSXBD    80(SI), Z6
	VPMOVSXBD    96(SI), Z7
	VPMOVSXBD    112(SI), Z8
	VCVTDQ2PS    Z1, Z1
	VCVTDQ2PS    Z2, Z2
	VCVTDQ2PS    Z3, Z3
	VCVTDQ2PS    Z4, Z4
	VCVTDQ2PS    Z5, Z5
	VCVTDQ2PS    Z6, Z6
	VCVTDQ2PS    Z7, Z7
	VCVTDQ2PS    Z8, Z8
	VMULPS       Z0, Z1, Z1
	VMULPS       Z0, Z2, Z2
	VMULPS       Z0, Z3, Z3
	VMULPS       Z0, Z4, Z4
	VMULPS       Z0, Z5, Z5
	VMULPS       Z0, Z6, Z6
	VMULPS       Z0, Z7, Z7
	VMULPS       Z0, Z8, Z8
	VADDPS       Z1, Z16, Z16
	VADDPS       Z2, Z17, Z17
	VADDPS       Z3, Z18, Z18
	VADDPS       Z4, Z19, Z19
	VADDPS       Z5, Z20, Z20
	VADDPS       Z6, Z21, Z21
	VADDPS       Z7, Z22, Z22
	VADDPS       Z8, Z23, Z23
	VPMOVSXBD    128(SI), Z9
	VPMOVSXBD    144(SI), Z10
	VPMOVSXBD    160(SI), Z11
	VPMOVSXBD    176(SI), Z12
	VPMOVSXBD    192(SI), Z13
	VPMOVSXBD    208(SI), Z14
	VPMOVSXBD    224(SI), Z15
	VPMOVSXBD    240(SI), Z1
	VCVTDQ2PS    Z9, Z9
	VCVTDQ2PS    Z10, Z10
	VCVTDQ2PS    Z11, Z11
	VCVTDQ2PS    Z12, Z12
	VCVTDQ2PS    Z13, Z13
	VCVTDQ2PS    Z14, Z14
	VCVTDQ2PS    Z15, Z15
	VCVTDQ2PS    Z1, Z1
	VMULPS       Z0, Z9, Z9
	VMULPS       Z0, Z10, Z10
	VMULPS       Z0, Z11, Z11
	VMULPS       Z0, Z12, Z12
	VMULPS       Z0, Z13, Z13
	VMULPS       Z0, Z14, Z14
	VMULPS       Z0, Z15, Z15
	VMULPS       Z0, Z1, Z1
	VADDPS       Z9, Z24, Z24
	VADDPS       Z10, Z25, Z25
	VADDPS       Z11, Z26, Z26
	VADDPS       Z12, Z27, Z27
	VADDPS       Z13, Z28, Z28
	VADDPS       Z14, Z29, Z29
	VADDPS       Z15, Z30, Z30
	VADDPS       Z1, Z31, Z31
	INCQ         BX
	CMPQ         BX, R12
	JL           row512

	VMOVUPS Z16, 0(DI)
	VMOVUPS Z17, 64(DI)
	VMOVUPS Z18, 128(DI)
	VMOVUPS Z19, 192(DI)
	VMOVUPS Z20, 256(DI)
	VMOVUPS Z21, 320(DI)
	VMOVUPS Z22, 384(DI)
	VMOVUPS Z23, 448(DI)
	VMOVUPS Z24, 512(DI)
	VMOVUPS Z25, 576(DI)
	VMOVUPS Z26, 640(DI)
	VMOVUPS Z27, 704(DI)
	VMOVUPS Z28, 768(DI)
	VMOVUPS Z29, 832(DI)
	VMOVUPS Z30, 896(DI)
	VMOVUPS Z31, 960(DI)
	ADDQ    $1024, DI
	ADDQ    $256, R14
	DECQ    R13
	JNZ     block512
	VZEROUPPER
	RET
