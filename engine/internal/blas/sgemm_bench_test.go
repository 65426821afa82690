package blas

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// BenchmarkSgemm: the products of one default training step on a graph of
// 10⁶ nodes (101,600 node slots, hidden width 32, a 64-column input; timed
// there at 72 ms of a 146 ms two-core step), one goroutine: the layers'
// X·W (k = 32, 64 and 65), the backward pass's G·Wᵀ, and the weight
// gradients Xᵀ·G (the k-split path, its four ranges in order).
func BenchmarkSgemm(b *testing.B) {
	const slots = 101_600
	for _, s := range []struct {
		tA, tB  blas.Transpose
		m, n, k int
	}{
		{blas.NoTrans, blas.NoTrans, slots, 32, 32},
		{blas.NoTrans, blas.Trans, slots, 32, 32},
		{blas.NoTrans, blas.NoTrans, slots, 32, 65},
		{blas.Trans, blas.NoTrans, 32, 32, slots},
		{blas.Trans, blas.NoTrans, 65, 32, slots},
	} {
		b.Run(fmt.Sprintf("%c%c_m%d_n%d_k%d", s.tA, s.tB, s.m, s.n, s.k), func(b *testing.B) {
			if !haveKernels {
				b.Skip("no AVX2+FMA: Sgemm is gonum's")
			}
			lda, ldb := s.k, s.n
			if s.tA == blas.Trans {
				lda = s.m
			}
			if s.tB == blas.Trans {
				ldb = s.k
			}
			a, w, c := rand32(1, s.m*s.k), rand32(2, s.k*s.n), make([]float32, s.m*s.n)
			b.SetBytes(int64(4 * (s.m*s.k + s.k*s.n + s.m*s.n)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				Implementation{}.Sgemm(s.tA, s.tB, s.m, s.n, s.k, 1, a, lda, w, ldb, 0, c, s.n)
			}
		})
	}
}
