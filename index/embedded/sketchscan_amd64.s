#include "textflag.h"

// func scanBlocksAVX2(tab *byte, blocks *byte, n int, out *uint16)
//
// The sketch estimates of n > 0 blocks of 32 candidates (sketchscan.go):
// a block holds, for each byte m of the 32-byte sketches, that byte of
// its 32 candidates (32 bytes); tab holds two 16-byte tables a byte, the
// estimate of the byte's low and high nibble. For each byte VPSHUFB looks
// both nibbles of the 32 candidates up at once; the bytes are summed in
// 8-bit lanes four bytes at a time (at most 8 × 28 = 224) and then in
// 16-bit lanes, which interleave the candidates by 128-bit lane (0-7 and
// 16-23 in Y0, 8-15 and 24-31 in Y1) until VPERM2I128 puts them in order.
TEXT ·scanBlocksAVX2(SB), NOSPLIT, $0-32
	MOVQ         tab+0(FP), SI
	MOVQ         blocks+8(FP), DI
	MOVQ         n+16(FP), CX
	MOVQ         out+24(FP), DX
	MOVQ         $0x0f0f0f0f0f0f0f0f, AX
	MOVQ         AX, X13
	VPBROADCASTQ X13, Y13
	VPXOR        Y12, Y12, Y12

block:
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	MOVQ  SI, R8
	MOVQ  $8, R9

group:
	VPXOR Y2, Y2, Y2

#define BYTE(off) \
	VMOVDQU        off(DI), Y3; \
	VPSRLW         $4, Y3, Y4; \
	VPAND          Y13, Y3, Y3; \
	VPAND          Y13, Y4, Y4; \
	VBROADCASTI128 off(R8), Y5; \
	VBROADCASTI128 off+16(R8), Y6; \
	VPSHUFB        Y3, Y5, Y5; \
	VPSHUFB        Y4, Y6, Y6; \
	VPADDB         Y5, Y2, Y2; \
	VPADDB         Y6, Y2, Y2

	BYTE(0)
	BYTE(32)
	BYTE(64)
	BYTE(96)
	ADDQ       $128, DI
	ADDQ       $128, R8
	VPUNPCKLBW Y12, Y2, Y3
	VPUNPCKHBW Y12, Y2, Y4
	VPADDW     Y3, Y0, Y0
	VPADDW     Y4, Y1, Y1
	DECQ       R9
	JNZ        group

	VPERM2I128 $0x20, Y1, Y0, Y3
	VPERM2I128 $0x31, Y1, Y0, Y4
	VMOVDQU    Y3, (DX)
	VMOVDQU    Y4, 32(DX)
	ADDQ       $64, DX
	DECQ       CX
	JNZ        block
	VZEROUPPER
	RET
