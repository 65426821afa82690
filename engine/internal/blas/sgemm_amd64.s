//go:build !noasm

#include "textflag.h"

// GEMMARGS loads the arguments kern32rows and kern16x3 share (their frames
// are laid out alike): c → DI, ldc → R11, a → R13, arow → R12, astride →
// R8 (the strides in bytes), b → BX, ldb → R9 (in bytes).
#define GEMMARGS \
	MOVQ c+0(FP), DI; \
	MOVQ ldc+8(FP), R11; \
	SHLQ $2, R11; \
	MOVQ a+16(FP), R13; \
	MOVQ arow+24(FP), R12; \
	SHLQ $2, R12; \
	MOVQ astride+32(FP), R8; \
	SHLQ $2, R8; \
	MOVQ b+40(FP), BX; \
	MOVQ ldb+48(FP), R9; \
	SHLQ $2, R9

// func kern8(t *float32, a *float32, astride int, b *float32, ldb int, k int)
// t[0:8] = Σ_{l<k} a[l·astride] · b[l·ldb : l·ldb+8], four accumulators
// (l mod 4) added at the end.
TEXT ·kern8(SB), NOSPLIT, $0-48
	MOVQ t+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ astride+16(FP), R8
	SHLQ $2, R8
	MOVQ b+24(FP), DX
	MOVQ ldb+32(FP), R9
	SHLQ $2, R9
	MOVQ k+40(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	CMPQ CX, $4
	JL   tail8

loop8:
	VBROADCASTSS (SI), Y8
	VFMADD231PS  (DX), Y8, Y0
	ADDQ         R8, SI
	ADDQ         R9, DX
	VBROADCASTSS (SI), Y9
	VFMADD231PS  (DX), Y9, Y1
	ADDQ         R8, SI
	ADDQ         R9, DX
	VBROADCASTSS (SI), Y10
	VFMADD231PS  (DX), Y10, Y2
	ADDQ         R8, SI
	ADDQ         R9, DX
	VBROADCASTSS (SI), Y11
	VFMADD231PS  (DX), Y11, Y3
	ADDQ         R8, SI
	ADDQ         R9, DX
	SUBQ         $4, CX
	CMPQ         CX, $4
	JGE          loop8

tail8:
	TESTQ        CX, CX
	JZ           done8
	VBROADCASTSS (SI), Y8
	VFMADD231PS  (DX), Y8, Y0
	ADDQ         R8, SI
	ADDQ         R9, DX
	DECQ         CX
	JMP          tail8

done8:
	VADDPS  Y1, Y0, Y0
	VADDPS  Y3, Y2, Y2
	VADDPS  Y2, Y0, Y0
	VMOVUPS Y0, (DI)
	VZEROUPPER
	RET

// func spRow32(y *float32, v *float32, cols *int, nnz int, x *float32, ldx int)
// y[0:32] += Σ_{k<nnz} v[k] · x[cols[k]·ldx : cols[k]·ldx+32]: y plus the
// even entries in one accumulator set, the odd ones in another, added at
// the end (a fixed order).
TEXT ·spRow32(SB), NOSPLIT, $0-48
	MOVQ    y+0(FP), DI
	MOVQ    v+8(FP), SI
	MOVQ    cols+16(FP), BX
	MOVQ    nnz+24(FP), CX
	MOVQ    x+32(FP), DX
	MOVQ    ldx+40(FP), R9
	SHLQ    $2, R9
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	VXORPS  Y4, Y4, Y4
	VXORPS  Y5, Y5, Y5
	VXORPS  Y6, Y6, Y6
	VXORPS  Y7, Y7, Y7
	CMPQ    CX, $2
	JL      sptail32

sploop32:
	MOVQ         (BX), AX
	IMULQ        R9, AX
	ADDQ         DX, AX
	VBROADCASTSS (SI), Y8
	VFMADD231PS  (AX), Y8, Y0
	VFMADD231PS  32(AX), Y8, Y1
	VFMADD231PS  64(AX), Y8, Y2
	VFMADD231PS  96(AX), Y8, Y3
	MOVQ         8(BX), AX
	IMULQ        R9, AX
	ADDQ         DX, AX
	VBROADCASTSS 4(SI), Y9
	VFMADD231PS  (AX), Y9, Y4
	VFMADD231PS  32(AX), Y9, Y5
	VFMADD231PS  64(AX), Y9, Y6
	VFMADD231PS  96(AX), Y9, Y7
	ADDQ         $16, BX
	ADDQ         $8, SI
	SUBQ         $2, CX
	CMPQ         CX, $2
	JGE          sploop32

sptail32:
	TESTQ        CX, CX
	JZ           spdone32
	MOVQ         (BX), AX
	IMULQ        R9, AX
	ADDQ         DX, AX
	VBROADCASTSS (SI), Y8
	VFMADD231PS  (AX), Y8, Y0
	VFMADD231PS  32(AX), Y8, Y1
	VFMADD231PS  64(AX), Y8, Y2
	VFMADD231PS  96(AX), Y8, Y3

spdone32:
	VADDPS  Y4, Y0, Y0
	VADDPS  Y5, Y1, Y1
	VADDPS  Y6, Y2, Y2
	VADDPS  Y7, Y3, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VZEROUPPER
	RET

// func spRow8(y *float32, v *float32, cols *int, nnz int, x *float32, ldx int)
// y[0:8] += Σ_{k<nnz} v[k] · x[cols[k]·ldx : cols[k]·ldx+8], even and odd
// entries in two accumulators added at the end.
TEXT ·spRow8(SB), NOSPLIT, $0-48
	MOVQ    y+0(FP), DI
	MOVQ    v+8(FP), SI
	MOVQ    cols+16(FP), BX
	MOVQ    nnz+24(FP), CX
	MOVQ    x+32(FP), DX
	MOVQ    ldx+40(FP), R9
	SHLQ    $2, R9
	VMOVUPS (DI), Y0
	VXORPS  Y4, Y4, Y4
	CMPQ    CX, $2
	JL      sptail8

sploop8:
	MOVQ         (BX), AX
	IMULQ        R9, AX
	ADDQ         DX, AX
	VBROADCASTSS (SI), Y8
	VFMADD231PS  (AX), Y8, Y0
	MOVQ         8(BX), AX
	IMULQ        R9, AX
	ADDQ         DX, AX
	VBROADCASTSS 4(SI), Y9
	VFMADD231PS  (AX), Y9, Y4
	ADDQ         $16, BX
	ADDQ         $8, SI
	SUBQ         $2, CX
	CMPQ         CX, $2
	JGE          sploop8

sptail8:
	TESTQ        CX, CX
	JZ           spdone8
	MOVQ         (BX), AX
	IMULQ        R9, AX
	ADDQ         DX, AX
	VBROADCASTSS (SI), Y8
	VFMADD231PS  (AX), Y8, Y0

spdone8:
	VADDPS  Y4, Y0, Y0
	VMOVUPS Y0, (DI)
	VZEROUPPER
	RET

// func kern32rows(c *float32, ldc int, a *float32, arow, astride int, b *float32, ldb, k, rows int, alpha float32, load int)
// For each of rows rows r: t[0:32] = Σ_{l<k} a[r·arow + l·astride] ·
// b[l·ldb : l·ldb+32], in two interleaved accumulator sets (even and odd l)
// added at the end (a fixed order), then c[r·ldc : r·ldc+32] = c + α·t when load is non-zero,
// else +0 + α·t (a cleared C): the products rounded, then the sums — the
// operations of rowKernel followed by Sgemm's `ci[j] += alpha * t[j]`, in
// one call for a whole range of rows.
TEXT ·kern32rows(SB), NOSPLIT, $0-88
	GEMMARGS
	MOVQ         rows+64(FP), R10
	VBROADCASTSS alpha+72(FP), Y13
	VXORPS       Y14, Y14, Y14
	MOVQ         load+80(FP), AX
	TESTQ        R10, R10
	JZ           endrows

row:
	MOVQ   R13, SI
	MOVQ   BX, DX
	MOVQ   k+56(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	CMPQ   CX, $2
	JL     tailrows

looprows:
	VBROADCASTSS (SI), Y8
	VFMADD231PS  (DX), Y8, Y0
	VFMADD231PS  32(DX), Y8, Y1
	VFMADD231PS  64(DX), Y8, Y2
	VFMADD231PS  96(DX), Y8, Y3
	ADDQ         R8, SI
	ADDQ         R9, DX
	VBROADCASTSS (SI), Y9
	VFMADD231PS  (DX), Y9, Y4
	VFMADD231PS  32(DX), Y9, Y5
	VFMADD231PS  64(DX), Y9, Y6
	VFMADD231PS  96(DX), Y9, Y7
	ADDQ         R8, SI
	ADDQ         R9, DX
	SUBQ         $2, CX
	CMPQ         CX, $2
	JGE          looprows

tailrows:
	TESTQ        CX, CX
	JZ           donerow
	VBROADCASTSS (SI), Y8
	VFMADD231PS  (DX), Y8, Y0
	VFMADD231PS  32(DX), Y8, Y1
	VFMADD231PS  64(DX), Y8, Y2
	VFMADD231PS  96(DX), Y8, Y3

donerow:
	VADDPS Y4, Y0, Y0
	VADDPS Y5, Y1, Y1
	VADDPS Y6, Y2, Y2
	VADDPS Y7, Y3, Y3
	VMULPS Y13, Y0, Y0
	VMULPS Y13, Y1, Y1
	VMULPS Y13, Y2, Y2
	VMULPS Y13, Y3, Y3
	TESTQ  AX, AX
	JZ     zerorow
	VADDPS (DI), Y0, Y0
	VADDPS 32(DI), Y1, Y1
	VADDPS 64(DI), Y2, Y2
	VADDPS 96(DI), Y3, Y3
	JMP    storerow

zerorow:
	VADDPS Y14, Y0, Y0
	VADDPS Y14, Y1, Y1
	VADDPS Y14, Y2, Y2
	VADDPS Y14, Y3, Y3

storerow:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ    R11, DI
	ADDQ    R12, R13
	DECQ    R10
	JNZ     row

endrows:
	VZEROUPPER
	RET

// func kern16x3(c *float32, ldc int, a *float32, arow, astride int, b *float32, ldb, k, triples int, alpha float32, load int)
// kern32rows on 16 columns, three rows at a time: for each row r < 3·triples,
// t[0:16] = Σ_{l<k} a[r·arow + l·astride] · b[l·ldb : l·ldb+16] in the
// same two accumulator sets (even and odd l) added at the end, then
// c[r·ldc : r·ldc+16] = c + α·t (load) or +0 + α·t: each element's
// operations those of kern32rows, while b's 16 columns are loaded once for
// three rows (a panel of b over 16 columns stays in L1 across the rows).
TEXT ·kern16x3(SB), NOSPLIT, $0-88
	GEMMARGS
	MOVQ triples+64(FP), R10
	MOVQ load+80(FP), AX
	TESTQ R10, R10
	JZ    end3

triple:
	MOVQ   R13, SI
	MOVQ   BX, DX
	MOVQ   k+56(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	CMPQ   CX, $2
	JL     tail3

loop3:
	VMOVUPS      (DX), Y12
	VMOVUPS      32(DX), Y13
	VBROADCASTSS (SI), Y14
	VFMADD231PS  Y12, Y14, Y0
	VFMADD231PS  Y13, Y14, Y1
	VBROADCASTSS (SI)(R12*1), Y15
	VFMADD231PS  Y12, Y15, Y4
	VFMADD231PS  Y13, Y15, Y5
	VBROADCASTSS (SI)(R12*2), Y14
	VFMADD231PS  Y12, Y14, Y8
	VFMADD231PS  Y13, Y14, Y9
	ADDQ         R8, SI
	ADDQ         R9, DX
	VMOVUPS      (DX), Y12
	VMOVUPS      32(DX), Y13
	VBROADCASTSS (SI), Y14
	VFMADD231PS  Y12, Y14, Y2
	VFMADD231PS  Y13, Y14, Y3
	VBROADCASTSS (SI)(R12*1), Y15
	VFMADD231PS  Y12, Y15, Y6
	VFMADD231PS  Y13, Y15, Y7
	VBROADCASTSS (SI)(R12*2), Y14
	VFMADD231PS  Y12, Y14, Y10
	VFMADD231PS  Y13, Y14, Y11
	ADDQ         R8, SI
	ADDQ         R9, DX
	SUBQ         $2, CX
	CMPQ         CX, $2
	JGE          loop3

tail3:
	TESTQ        CX, CX
	JZ           done3
	VMOVUPS      (DX), Y12
	VMOVUPS      32(DX), Y13
	VBROADCASTSS (SI), Y14
	VFMADD231PS  Y12, Y14, Y0
	VFMADD231PS  Y13, Y14, Y1
	VBROADCASTSS (SI)(R12*1), Y15
	VFMADD231PS  Y12, Y15, Y4
	VFMADD231PS  Y13, Y15, Y5
	VBROADCASTSS (SI)(R12*2), Y14
	VFMADD231PS  Y12, Y14, Y8
	VFMADD231PS  Y13, Y14, Y9

done3:
	VADDPS       Y2, Y0, Y0
	VADDPS       Y3, Y1, Y1
	VADDPS       Y6, Y4, Y4
	VADDPS       Y7, Y5, Y5
	VADDPS       Y10, Y8, Y8
	VADDPS       Y11, Y9, Y9
	VBROADCASTSS alpha+72(FP), Y12
	VMULPS       Y12, Y0, Y0
	VMULPS       Y12, Y1, Y1
	VMULPS       Y12, Y4, Y4
	VMULPS       Y12, Y5, Y5
	VMULPS       Y12, Y8, Y8
	VMULPS       Y12, Y9, Y9
	TESTQ        AX, AX
	JZ           zero3
	MOVQ         DI, DX
	VADDPS       (DX), Y0, Y0
	VADDPS       32(DX), Y1, Y1
	ADDQ         R11, DX
	VADDPS       (DX), Y4, Y4
	VADDPS       32(DX), Y5, Y5
	ADDQ         R11, DX
	VADDPS       (DX), Y8, Y8
	VADDPS       32(DX), Y9, Y9
	JMP          store3

zero3:
	VXORPS Y13, Y13, Y13
	VADDPS Y13, Y0, Y0
	VADDPS Y13, Y1, Y1
	VADDPS Y13, Y4, Y4
	VADDPS Y13, Y5, Y5
	VADDPS Y13, Y8, Y8
	VADDPS Y13, Y9, Y9

store3:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ    R11, DI
	VMOVUPS Y4, (DI)
	VMOVUPS Y5, 32(DI)
	ADDQ    R11, DI
	VMOVUPS Y8, (DI)
	VMOVUPS Y9, 32(DI)
	ADDQ    R11, DI
	LEAQ    (R13)(R12*2), R13
	ADDQ    R12, R13
	DECQ    R10
	JNZ     triple

end3:
	VZEROUPPER
	RET
