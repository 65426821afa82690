//go:build !noasm

package blas

import "golang.org/x/sys/cpu"

// haveKernels: the AVX2+FMA float32 kernels of sgemm_amd64.s and
// elem_amd64.s run here.
var haveKernels = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func kern32rows(c *float32, ldc int, a *float32, arow, astride int, b *float32, ldb, k, rows int, alpha float32, load int)

//go:noescape
func kern16x3(c *float32, ldc int, a *float32, arow, astride int, b *float32, ldb, k, triples int, alpha float32, load int)

//go:noescape
func kern8(t *float32, a *float32, astride int, b *float32, ldb int, k int)

//go:noescape
func spRow32(y *float32, v *float32, cols *int, nnz int, x *float32, ldx int)

//go:noescape
func spRow8(y *float32, v *float32, cols *int, nnz int, x *float32, ldx int)

//go:noescape
func reluMask32(out, x, gr *float32, n int)

//go:noescape
func anchorFwd32(o, hm, hs, b, f *float32, arg, self *int, slots, d int)

//go:noescape
func colSum16(acc, x *float32, ldx, rows int)

//go:noescape
func colAxpy32(acc, x *float32, ldx int, b *float32, ldb, rows int)

//go:noescape
func scatterAxpy32(o, gr, f *float32, idx *int, slots, d int)
