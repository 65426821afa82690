package engine

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/gonum"
	"gorgonia.org/tensor"
)

// BLAS is gonum's pure-Go BLAS with a faster float32 Gemm on CPUs with AVX2
// and FMA: register-blocked row kernels (32 and 8 columns, sgemm_amd64.s)
// over k-panels of kPanel rows of op(B), rows of C split over a fixed
// partition. Every element of C is summed in an order fixed by the shapes
// alone, so results are bit-identical whatever GOMAXPROCS is (they differ
// from gonum's in the last bits: FMA and a different summation order).
// Float64 and every other routine are gonum's.
//
// The engine installs it for gorgonia (tensor.Use) and blas32 at start.
type BLAS struct{ gonum.Implementation }

func init() {
	if haveKernels {
		tensor.Use(BLAS{})
		blas32.Use(BLAS{})
	}
}

const (
	kPanel       = 256     // rows of op(B) per panel: 256×32 floats stay in L1
	gemmParallel = 1 << 17 // m·n·k below which Sgemm stays on one goroutine
)

var scratch32 = sync.Pool{New: func() any { return new([]float32) }}

func getScratch(n int) *[]float32 {
	p := scratch32.Get().(*[]float32)
	if cap(*p) < n {
		*p = make([]float32, n)
	}
	*p = (*p)[:n]
	return p
}

// gemmNarrow enables Sgemm's inline paths for one-column and rank-one
// shapes; tests turn it off to compare them with the general path.
var gemmNarrow = true

// Sgemm computes C = alpha·op(A)·op(B) + beta·C (row-major), as blas.Float32
// defines it.
func (impl BLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if !haveKernels || m == 0 || n == 0 || k == 0 || alpha == 0 || (tA != blas.NoTrans && tA != blas.Trans) ||
		(tB != blas.NoTrans && tB != blas.Trans) || lda < 1 || ldb < 1 || ldc < max(1, n) ||
		len(c) < ldc*(m-1)+n || !gemmFits(tA, m, k, lda, len(a)) || !gemmFits(tB, k, n, ldb, len(b)) {
		// Gonum checks and reports bad arguments, and does the degenerate cases.
		impl.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	// op(B) as a row-major k×n panel source: transposed into scratch when needed.
	if tB == blas.Trans {
		p := getScratch(k * n)
		defer scratch32.Put(p)
		bt := *p
		for j := 0; j < n; j++ {
			row := b[j*ldb : j*ldb+k]
			for l, v := range row {
				bt[l*n+j] = v
			}
		}
		b, ldb = bt, n
	}
	// Row i of op(A): a[i*lda:] with stride 1, or a[i:] with stride lda.
	aRow, aStride := lda, 1
	if tA == blas.Trans {
		aRow, aStride = 1, lda
	}
	g := gemmJob{a: a, b: b, lda: lda, ldb: ldb, aRow: aRow, aStride: aStride, n: n, k: k, alpha: alpha, beta: beta}
	work := m * n * k
	switch {
	case gemmNarrow && haveKernels && n == 1 && tA == blas.Trans && m == 32:
		// Aᵀ·b with 32 columns: one streaming pass over A (gemvT's kernel)
		// beats four passes that each read a quarter of every row.
		g.rows(0, m, 0, k, c, ldc, true)
	case work < gemmParallel:
		g.rows(0, m, 0, k, c, ldc, true) // g stays on the stack
	case m >= 4*rowChunks:
		gp := gemmJobs.Get().(*gemmJob)
		*gp = g
		gp.split, gp.out, gp.ldo = false, c, ldc
		runRangesOf(evenBounds(m), gp)
		*gp = gemmJob{}
		gemmJobs.Put(gp)
	default:
		// Few rows, long k (a weight gradient Xᵀ·G over every node): split k
		// into fixed ranges, each into its own m×n partial, added in order.
		p := getScratch(rowChunks * m * n)
		defer scratch32.Put(p)
		parts := *p
		clear(parts)
		gp := gemmJobs.Get().(*gemmJob)
		*gp = g
		gp.split, gp.out, gp.m, gp.bd = true, parts, m, evenBounds(k)
		runRangesOf(gp.bd, gp)
		*gp = gemmJob{}
		gemmJobs.Put(gp)
		for i := 0; i < m; i++ {
			ci := c[i*ldc : i*ldc+n]
			scaleRow(ci, beta)
			for q := 0; q < rowChunks; q++ {
				for j, v := range parts[q*m*n+i*n : q*m*n+(i+1)*n] {
					ci[j] += v
				}
			}
		}
	}
}

// gemmJob is one Sgemm call's operands, op(B) already row-major.
type gemmJob struct {
	a, b                          []float32
	lda, ldb, aRow, aStride, n, k int
	alpha, beta                   float32
	// A parallel call's chunks (run): C's rows into out (stride ldo), or,
	// when split, k's ranges bd into m×n partials in out.
	split bool
	out   []float32
	ldo   int
	m     int
	bd    [rowChunks + 1]int
}

var gemmJobs = sync.Pool{New: func() any { return new(gemmJob) }}

func (g *gemmJob) run(lo, hi int) {
	if !g.split {
		g.rows(lo, hi, 0, g.k, g.out, g.ldo, true)
		return
	}
	q, mn := chunkOf(g.bd, lo, hi), g.m*g.n
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
	p := getScratch(g.n)
	t := *p
	for i := lo; i < hi; i++ {
		ci := out[i*ldo : i*ldo+g.n]
		if scale {
			scaleRow(ci, g.beta)
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
		scratch32.Put(p)
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
		scratch32.Put(p)
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
		scratch32.Put(p)
		return
	}
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

// scaleRow sets c = beta·c (0 clears: C may hold NaN when beta is 0).
func scaleRow(c []float32, beta float32) {
	switch beta {
	case 0:
		clear(c)
	case 1:
	default:
		for j := range c {
			c[j] *= beta
		}
	}
}

// gemmFits reports whether an r×c operand (c×r when transposed) with
// leading dimension ld fits in length ln.
func gemmFits(t blas.Transpose, r, c, ld, ln int) bool {
	if t == blas.Trans {
		r, c = c, r
	}
	return ld >= max(1, c) && ln >= ld*(r-1)+c
}

// rowKernel writes t[0:n] = Σ_{l<k} a[l·as] · b[l·ldb : l·ldb+n].
func rowKernel(t, a []float32, as int, b []float32, ldb, k, n int) {
	_ = a[(k-1)*as]
	_ = b[(k-1)*ldb+n-1]
	j := 0
	for ; j+32 <= n; j += 32 {
		kern32(&t[j], &a[0], as, &b[j], ldb, k)
	}
	for ; j+8 <= n; j += 8 {
		kern8(&t[j], &a[0], as, &b[j], ldb, k)
	}
	for ; j < n; j++ {
		var s float32
		for l := 0; l < k; l++ {
			s += a[l*as] * b[l*ldb+j]
		}
		t[j] = s
	}
}
