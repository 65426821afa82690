//go:build !noasm

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

// func colSum16(acc, x *float32, ldx, rows int)
// acc[0:16] += x[r·ldx : r·ldx+16] for r = 0…rows−1, in row order per lane
// (the Go loop's column sums, eight lanes at a time).
TEXT ·colSum16(SB), NOSPLIT, $0-32
	MOVQ    acc+0(FP), DI
	MOVQ    x+8(FP), SI
	MOVQ    ldx+16(FP), R8
	SHLQ    $2, R8
	MOVQ    rows+24(FP), CX
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	TESTQ   CX, CX
	JZ      c16done

c16loop:
	VADDPS (SI), Y0, Y0
	VADDPS 32(SI), Y1, Y1
	ADDQ   R8, SI
	DECQ   CX
	JNZ    c16loop

c16done:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VZEROUPPER
	RET

// func colAxpy32(acc, x *float32, ldx int, b *float32, ldb, rows int)
// acc[0:32] += x[r·ldx : r·ldx+32] · b[r·ldb] for r = 0…rows−1: a multiply,
// then an add (no FMA), in row order per lane.
TEXT ·colAxpy32(SB), NOSPLIT, $0-48
	MOVQ    acc+0(FP), DI
	MOVQ    x+8(FP), SI
	MOVQ    ldx+16(FP), R8
	SHLQ    $2, R8
	MOVQ    b+24(FP), DX
	MOVQ    ldb+32(FP), R9
	SHLQ    $2, R9
	MOVQ    rows+40(FP), CX
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	TESTQ   CX, CX
	JZ      cadone

caloop:
	VBROADCASTSS (DX), Y8
	VMULPS       (SI), Y8, Y4
	VMULPS       32(SI), Y8, Y5
	VMULPS       64(SI), Y8, Y6
	VMULPS       96(SI), Y8, Y7
	VADDPS       Y4, Y0, Y0
	VADDPS       Y5, Y1, Y1
	VADDPS       Y6, Y2, Y2
	VADDPS       Y7, Y3, Y3
	ADDQ         R8, SI
	ADDQ         R9, DX
	DECQ         CX
	JNZ          caloop

cadone:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VZEROUPPER
	RET

// func scatterAxpy32(o, gr, f *float32, idx *int, slots, d int)
// For every slot s: o[idx[s]·d + k] += f[s]·g[s·d + k] (k < d, d a multiple
// of 8), a multiply then an add, slots in order; f nil: += g.
TEXT ·scatterAxpy32(SB), NOSPLIT, $0-48
	MOVQ o+0(FP), DI
	MOVQ gr+8(FP), SI
	MOVQ f+16(FP), DX
	MOVQ idx+24(FP), R10
	MOVQ slots+32(FP), CX
	MOVQ d+40(FP), R13
	SHLQ $2, R13
	TESTQ CX, CX
	JZ    sadone

saslot:
	MOVQ  (R10), AX
	IMULQ R13, AX
	ADDQ  DI, AX
	XORQ  R12, R12
	TESTQ DX, DX
	JZ    sacolnof
	VBROADCASTSS (DX), Y14

sacol:
	VMULPS  (SI)(R12*1), Y14, Y0
	VADDPS  (AX)(R12*1), Y0, Y0
	VMOVUPS Y0, (AX)(R12*1)
	ADDQ    $32, R12
	CMPQ    R12, R13
	JL      sacol
	ADDQ    $4, DX
	JMP     sanext

sacolnof:
	VMOVUPS (SI)(R12*1), Y0
	VADDPS  (AX)(R12*1), Y0, Y0
	VMOVUPS Y0, (AX)(R12*1)
	ADDQ    $32, R12
	CMPQ    R12, R13
	JL      sacolnof

sanext:
	ADDQ R13, SI
	ADDQ $8, R10
	DECQ CX
	JNZ  saslot

sadone:
	VZEROUPPER
	RET
