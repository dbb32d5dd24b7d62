#include "textflag.h"

// func halfsF16C(dst *byte, src *float32, n int)
//
// 8 floats per iteration; imm8 0 is round to nearest even, whatever MXCSR
// says.
TEXT ·halfsF16C(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

halfs:
	VMOVUPS   (SI), Y0
	VCVTPS2PH $0, Y0, (DI)
	ADDQ      $32, SI
	ADDQ      $16, DI
	SUBQ      $8, CX
	JNZ       halfs
	VZEROUPPER
	RET

// func roundHalfF16C(dst, src *float32, n int)
TEXT ·roundHalfF16C(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

round:
	VMOVUPS   (SI), Y0
	VCVTPS2PH $0, Y0, X1
	VCVTPH2PS X1, Y1
	VMOVUPS   Y1, (DI)
	ADDQ      $32, SI
	ADDQ      $32, DI
	SUBQ      $8, CX
	JNZ       round
	VZEROUPPER
	RET

// func halfValuesF16C(dst *float32, src *byte, n int)
TEXT ·halfValuesF16C(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

values:
	VCVTPH2PS (SI), Y0
	VMOVUPS   Y0, (DI)
	ADDQ      $16, SI
	ADDQ      $32, DI
	SUBQ      $8, CX
	JNZ       values
	VZEROUPPER
	RET
