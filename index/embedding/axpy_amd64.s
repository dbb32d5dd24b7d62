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
