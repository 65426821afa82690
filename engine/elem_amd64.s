#include "textflag.h"

// Branch-free element kernels (AVX2). Each computes exactly what the Go
// loop it replaces computes — the same IEEE operations in the same order,
// no fused multiply-add — so results are bit-identical to it.

// func reluMask32(out, x, gr *float32, n int)
// out[i] = g[i] if x[i] > 0 else 0 (NaN x → 0), for n a multiple of 8.
TEXT ·reluMask32(SB), NOSPLIT, $0-32
	MOVQ   out+0(FP), DI
	MOVQ   x+8(FP), SI
	MOVQ   gr+16(FP), DX
	MOVQ   n+24(FP), CX
	VXORPS Y15, Y15, Y15
	SHRQ   $3, CX
	JZ     rdone

rloop:
	VMOVUPS (SI), Y0
	VCMPPS  $0x1e, Y15, Y0, Y1 // x > 0, ordered: NaN → false
	VANDPS  (DX), Y1, Y2
	VMOVUPS Y2, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DX
	ADDQ    $32, DI
	DECQ    CX
	JNZ     rloop

rdone:
	VZEROUPPER
	RET

// func anchorFwd32(o, hm, hs, b, f *float32, arg, self *int, slots, d int)
// For every slot s: o[s·d+k] = max((f[s]·hm[arg[s]·d+k] + hs[self[s]·d+k]) + b[k], 0)
// (NaN → 0, −0 → +0, as the Go loop's "if v > 0"), for d a multiple of 8.
TEXT ·anchorFwd32(SB), NOSPLIT, $0-72
	MOVQ   o+0(FP), DI
	MOVQ   hm+8(FP), SI
	MOVQ   hs+16(FP), DX
	MOVQ   b+24(FP), R8
	MOVQ   f+32(FP), R9
	MOVQ   arg+40(FP), R10
	MOVQ   self+48(FP), R11
	MOVQ   slots+56(FP), CX
	MOVQ   d+64(FP), R13
	SHLQ   $2, R13
	VXORPS Y15, Y15, Y15
	TESTQ  CX, CX
	JZ     adone

aslot:
	VBROADCASTSS (R9), Y14
	MOVQ         (R10), AX
	IMULQ        R13, AX
	ADDQ         SI, AX
	MOVQ         (R11), BX
	IMULQ        R13, BX
	ADDQ         DX, BX
	XORQ         R12, R12

acol:
	VMULPS  (AX)(R12*1), Y14, Y0
	VADDPS  (BX)(R12*1), Y0, Y0
	VADDPS  (R8)(R12*1), Y0, Y0
	VMAXPS  Y15, Y0, Y0 // max(v, +0): the second source on NaN or ±0 ties
	VMOVUPS Y0, (DI)(R12*1)
	ADDQ    $32, R12
	CMPQ    R12, R13
	JL      acol
	ADDQ    R13, DI
	ADDQ    $4, R9
	ADDQ    $8, R10
	ADDQ    $8, R11
	DECQ    CX
	JNZ     aslot

adone:
	VZEROUPPER
	RET
