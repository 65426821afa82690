package blas

import "sync"

// gemmJob is one Sgemm call's operands, op(B) already row-major.
type gemmJob struct {
	a, b                          []float32
	lda, ldb, aRow, aStride, n, k int
	alpha, beta                   float32
	// A parallel call's ranges (Run): C's rows into out (stride ldo), or,
	// when split, k's ranges bd into m×n partials in out, or, with panels,
	// ranges of k-panels, each panel's m×n sums (α = 1, β = 0) into out.
	split, panels bool
	out           []float32
	ldo           int
	m             int
	bd            [Chunks + 1]int
}

var gemmJobs = sync.Pool{New: func() any { return new(gemmJob) }}

// Run computes one range of a parallel call (Ranger).
func (g *gemmJob) Run(lo, hi int) {
	if g.panels {
		mn := g.m * g.n
		for q := lo; q < hi; q++ {
			g.rows(0, g.m, q*kPanel, min(g.k, (q+1)*kPanel), g.out[q*mn:(q+1)*mn], g.n, true)
		}
		return
	}
	if !g.split {
		g.rows(lo, hi, 0, g.k, g.out, g.ldo, true)
		return
	}
	q := 0 // the range's index: its partial
	for g.bd[q] != lo || g.bd[q+1] != hi {
		q++
	}
	mn := g.m * g.n
	g.rows(0, g.m, lo, hi, g.out[q*mn:(q+1)*mn], g.n, false)
}

// rows computes rows lo…hi of C (into out, stride ldo) over op(A)'s
// columns kl…kh, scaling by β first when scale is set.
func (g *gemmJob) rows(lo, hi int, kl, kh int, out []float32, ldo int, scale bool) {
	if gemmNarrow && kh-kl == 1 && scale && g.beta == 0 {
		// An outer product into a cleared C: C = 0 + α·(a·b + 0), as
		// clearing, then the kernels' single multiply-add into zeroed
		// accumulators, give it — in one pass.
		bk := g.b[kl*g.ldb : kl*g.ldb+g.n]
		for i := lo; i < hi; i++ {
			av := g.a[i*g.aRow+kl*g.aStride]
			ci := out[i*ldo : i*ldo+g.n]
			for j, bv := range bk {
				ci[j] = 0 + g.alpha*(av*bv+0)
			}
		}
		return
	}
	// fused: the general path's rows are kern32rows calls, which add α·t
	// to C themselves — into a cleared C by adding to zero, so C is not
	// cleared first.
	fused := gemmFused && g.n%32 == 0 && !(gemmNarrow && kh-kl == 1)
	if scale && !(fused && g.beta == 0) {
		for i := lo; i < hi; i++ {
			scaleRow(out[i*ldo:i*ldo+g.n], g.beta)
		}
	}
	switch {
	case !gemmNarrow:
	case g.n == 1 && g.aStride != 1 && kl == 0 && kh == g.k:
		// op(A)·b with A transposed (Xᵀ·g over every node): rowKernel
		// would walk a column of A per row of C; stream A's rows
		// instead, keeping each C row's panel sums in the same order.
		q := getScratch(hi - lo)
		gemvT(g.a[lo:], g.lda, g.b, g.ldb, g.k, g.alpha, out[lo*ldo:], ldo, *q)
		scratch32.Put(q)
		return
	case g.n == 1 && kh-kl <= kPanel:
		// A matrix-vector product: rowKernel's scalar column, inline
		// (the same sums in the same order, without a call per row;
		// four rows at a time, so their chains overlap).
		i := lo
		for ; i+4 <= hi; i += 4 {
			a0, a1, a2, a3 := g.a[i*g.aRow:], g.a[(i+1)*g.aRow:], g.a[(i+2)*g.aRow:], g.a[(i+3)*g.aRow:]
			var s0, s1, s2, s3 float32
			for l := kl; l < kh; l++ {
				bl := g.b[l*g.ldb]
				s0 += a0[l*g.aStride] * bl
				s1 += a1[l*g.aStride] * bl
				s2 += a2[l*g.aStride] * bl
				s3 += a3[l*g.aStride] * bl
			}
			out[i*ldo] += g.alpha * s0
			out[(i+1)*ldo] += g.alpha * s1
			out[(i+2)*ldo] += g.alpha * s2
			out[(i+3)*ldo] += g.alpha * s3
		}
		for ; i < hi; i++ {
			ai := g.a[i*g.aRow:]
			var sum float32
			for l := kl; l < kh; l++ {
				sum += ai[l*g.aStride] * g.b[l*g.ldb]
			}
			out[i*ldo] += g.alpha * sum
		}
		return
	case kh-kl == 1:
		// An outer product: t = a·b + 0, as the kernels' single
		// multiply-add into zeroed accumulators gives it.
		bk := g.b[kl*g.ldb : kl*g.ldb+g.n]
		for i := lo; i < hi; i++ {
			av := g.a[i*g.aRow+kl*g.aStride]
			ci := out[i*ldo : i*ldo+g.n]
			for j, bv := range bk {
				ci[j] += g.alpha * (av*bv + 0)
			}
		}
		return
	}
	if fused && lo < hi {
		_ = g.a[(hi-1)*g.aRow+(kh-1)*g.aStride] // bounds: the kernel reads unchecked
		_ = g.b[(kh-1)*g.ldb+g.n-1]
		_ = out[(hi-1)*ldo+g.n-1]
		for k0 := kl; k0 < kh; k0 += kPanel {
			kk, load := min(kPanel, kh-k0), 1
			if k0 == kl && scale && g.beta == 0 {
				load = 0
			}
			rest := lo // rows from rest on: one at a time
			if gemmTriples {
				rest += (hi - lo) / 3 * 3
			}
			for j := 0; j < g.n; j += 32 {
				// Three rows on both halves, then the next three: the
				// rows' entries of A are read while in L1.
				for r := lo; r < rest; r += 3 {
					for h := j; h < j+32; h += 16 {
						kern16x3(&out[r*ldo+h], ldo, &g.a[r*g.aRow+k0*g.aStride], g.aRow, g.aStride, &g.b[k0*g.ldb+h], g.ldb, kk, 1, g.alpha, load)
					}
				}
				if rest < hi {
					kern32rows(&out[rest*ldo+j], ldo, &g.a[rest*g.aRow+k0*g.aStride], g.aRow, g.aStride, &g.b[k0*g.ldb+j], g.ldb, kk, hi-rest, g.alpha, load)
				}
			}
		}
		return
	}
	p := getScratch(g.n)
	t := *p
	for k0 := kl; k0 < kh; k0 += kPanel {
		kk := min(kPanel, kh-k0)
		for i := lo; i < hi; i++ {
			ai := g.a[i*g.aRow+k0*g.aStride:]
			bk := g.b[k0*g.ldb:]
			rowKernel(t, ai, g.aStride, bk, g.ldb, kk, g.n)
			ci := out[i*ldo : i*ldo+g.n]
			for j, v := range t {
				ci[j] += g.alpha * v
			}
		}
	}
	scratch32.Put(p)
}

// gemvT adds α·Aᵀ·b to the m entries of c (stride ldc), A being k×m
// (stride lda, its columns 0…m−1 here): per panel of kPanel rows of A, each
// entry's sum runs over the panel's rows in order from zero and is then
// added to c — rowKernel's order for a one-column op(B) — but A is read
// row by row. t (scratch) has one entry per column: m = len(t).
func gemvT(a []float32, lda int, b []float32, ldb, k int, alpha float32, c []float32, ldc int, t []float32) {
	m := len(t)
	for k0 := 0; k0 < k; k0 += kPanel {
		clear(t)
		if m == 32 && haveKernels {
			colAxpy32(&t[0], &a[k0*lda], lda, &b[k0*ldb], ldb, min(kPanel, k-k0))
			for j, v := range t {
				c[j*ldc] += alpha * v
			}
			continue
		}
		for l := k0; l < min(k0+kPanel, k); l++ {
			bl := b[l*ldb]
			for j, v := range a[l*lda : l*lda+m] {
				t[j] += v * bl
			}
		}
		for j, v := range t {
			c[j*ldc] += alpha * v
		}
	}
}
