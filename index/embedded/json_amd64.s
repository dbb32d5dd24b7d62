#include "textflag.h"

// func jsonPlainAVX2(p *byte, n int) int
//
// 32 bytes per iteration. A byte is plain when, as a signed byte, it is
// at least 0x20 (so neither a control character nor part of a multi-byte
// character) and is none of " & < > \. '"' and '&' differ only in bit 2,
// '<' and '>' only in bit 1, so setting that bit finds either with one
// comparison.
TEXT ·jsonPlainAVX2(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ SI, DI

	MOVQ         $0x2020202020202020, AX
	MOVQ         AX, X1
	VPBROADCASTQ X1, Y1
	MOVQ         $0x0404040404040404, AX
	MOVQ         AX, X3
	VPBROADCASTQ X3, Y3
	MOVQ         $0x2626262626262626, AX
	MOVQ         AX, X5
	VPBROADCASTQ X5, Y5
	MOVQ         $0x0202020202020202, AX
	MOVQ         AX, X6
	VPBROADCASTQ X6, Y6
	MOVQ         $0x3e3e3e3e3e3e3e3e, AX
	MOVQ         AX, X8
	VPBROADCASTQ X8, Y8
	MOVQ         $0x5c5c5c5c5c5c5c5c, AX
	MOVQ         AX, X9
	VPBROADCASTQ X9, Y9

loop:
	VMOVDQU   (SI), Y0
	VPCMPGTB  Y0, Y1, Y2   // 0x20 > b, signed
	VPOR      Y0, Y3, Y4
	VPCMPEQB  Y4, Y5, Y4   // '"' or '&'
	VPOR      Y0, Y6, Y7
	VPCMPEQB  Y7, Y8, Y7   // '<' or '>'
	VPCMPEQB  Y0, Y9, Y10  // '\\'
	VPOR      Y4, Y2, Y2
	VPOR      Y7, Y10, Y10
	VPOR      Y10, Y2, Y2
	VPMOVMSKB Y2, AX
	TESTL     AX, AX
	JNZ       found
	ADDQ      $32, SI
	SUBQ      $32, CX
	JNZ       loop
	SUBQ      DI, SI
	MOVQ      SI, ret+16(FP)
	VZEROUPPER
	RET

found:
	BSFL       AX, AX
	SUBQ       DI, SI
	ADDQ       AX, SI
	MOVQ       SI, ret+16(FP)
	VZEROUPPER
	RET
