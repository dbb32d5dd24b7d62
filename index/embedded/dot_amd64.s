#include "textflag.h"

// func dotInt8AVX2(q *float32, v *int8, n int) float32
//
// The sum of q[i] × float32(v[i]) for n > 0 elements, n a multiple of 16:
// 16 codes per iteration sign-extended to int32, converted to float32,
// multiplied (VMULPS) and added (VADDPS) into two 8-lane accumulators,
// which are summed at the end.
TEXT ·dotInt8AVX2(SB), NOSPLIT, $0-28
	MOVQ   q+0(FP), SI
	MOVQ   v+8(FP), DI
	MOVQ   n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1

loop:
	VPMOVSXBD (DI), Y2
	VPMOVSXBD 8(DI), Y3
	VCVTDQ2PS Y2, Y2
	VCVTDQ2PS Y3, Y3
	VMULPS    (SI), Y2, Y2
	VMULPS    32(SI), Y3, Y3
	VADDPS    Y2, Y0, Y0
	VADDPS    Y3, Y1, Y1
	ADDQ      $16, DI
	ADDQ      $64, SI
	SUBQ      $16, CX
	JNZ       loop

	VADDPS       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0
	VZEROUPPER
	MOVSS        X0, ret+24(FP)
	RET
