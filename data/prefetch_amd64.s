//go:build !noasm

#include "textflag.h"

// func PrefetchLines(p, q unsafe.Pointer)
// Hints that the cache lines of p and q (q may be nil) will be read soon:
// PREFETCHT0 never faults and changes nothing a program can observe but
// its timing.
TEXT ·PrefetchLines(SB), NOSPLIT, $0-16
	MOVQ       p+0(FP), AX
	MOVQ       q+8(FP), BX
	PREFETCHT0 (AX)
	TESTQ      BX, BX
	JZ         done
	PREFETCHT0 (BX)

done:
	RET
