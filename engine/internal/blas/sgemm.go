package blas

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Implementation is gonum's pure-Go BLAS with a faster float32 Gemm on CPUs
// with AVX2 and FMA: register-blocked row kernels (32 columns a row, 16
// columns three rows at a time, 8 columns; sgemm_amd64.s) over k-panels of
// kPanel rows of op(B), rows of C — or, for Aᵀ·B over a long k, the
// panels — split over a fixed partition. Every element of C is summed in an order fixed by
// the shapes alone, so results are bit-identical whatever GOMAXPROCS is and
// whatever Parallel does (they differ from gonum's in the last bits: FMA and
// a different summation order). Float64 and every other routine are
// gonum's, and so is Sgemm where Kernels reports false.
//
// The engine installs one, Parallel running on its workers, for gorgonia
// (tensor.Use) and blas32 at start.
type Implementation struct {
	gonum.Implementation
	// Parallel runs r over every non-empty range [b[c], b[c+1]) and returns
	// when all are done, on whatever goroutines it likes; nil runs them in
	// order on the caller's.
	Parallel func(b [Chunks + 1]int, r Ranger)
}

// Chunks is the fixed number of ranges a parallel Sgemm splits C's rows,
// or k, into. Split k's partial products are added in range order, so
// Chunks is part of what such a product sums; where the ranges run is not.
const Chunks = 4

// Ranger is a parallel Sgemm's share of work: Run computes the range
// [lo, hi) of one of its Chunks ranges.
type Ranger interface{ Run(lo, hi int) }

// ranges runs r over b's non-empty ranges: by Parallel, or in order.
func (impl Implementation) ranges(b [Chunks + 1]int, r Ranger) {
	if impl.Parallel != nil {
		impl.Parallel(b, r)
		return
	}
	for c := 0; c < Chunks; c++ {
		if b[c] < b[c+1] {
			r.Run(b[c], b[c+1])
		}
	}
}

// evenBounds splits n rows into Chunks equal ranges.
func evenBounds(n int) (b [Chunks + 1]int) {
	for c := range b {
		b[c] = n * c / Chunks
	}
	return b
}

const (
	kPanel       = 256     // rows of op(B) per panel: 256×32 floats stay in L1
	gemmParallel = 1 << 17 // m·n·k below which Sgemm stays on one goroutine
	panelScratch = 1 << 23 // floats of panel sums a panel split may keep (32 MB)
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

// gemmFused enables kern32rows on the general path where C's width is a
// multiple of 32; tests turn it off to compare with rowKernel's path.
var gemmFused = true

// gemmTriples: the fused path runs three rows at a time on 16 columns
// (kern16x3) and kern32rows on the rows left; tests turn it off.
var gemmTriples = true

// gemmPanels: a transposed-A product over a long k splits its panels
// rather than C's rows; tests turn it off.
var gemmPanels = true

// Sgemm computes C = alpha·op(A)·op(B) + beta·C (row-major), as blas.Float32
// defines it.
func (impl Implementation) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
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
	case gemmPanels && tA == blas.Trans && m >= 4*Chunks && k >= 2*Chunks*kPanel && (k+kPanel-1)/kPanel*m*n <= panelScratch:
		// Aᵀ·B over a long k (a weight gradient Xᵀ·G over a batch's
		// slots): split the panels, not C's rows — each range computes
		// its panels' sums for every row of C (A and B read once, not once
		// per row range), kept apart and added to C in panel order: what
		// the row split adds, in its order.
		np := (k + kPanel - 1) / kPanel
		p := getScratch(np * m * n)
		defer scratch32.Put(p)
		parts := *p
		gp := gemmJobs.Get().(*gemmJob)
		*gp = g
		gp.panels, gp.out, gp.m, gp.alpha, gp.beta = true, parts, m, 1, 0
		impl.ranges(evenBounds(np), gp)
		*gp = gemmJob{}
		gemmJobs.Put(gp)
		for i := 0; i < m; i++ {
			ci := c[i*ldc : i*ldc+n]
			scaleRow(ci, beta)
			j := 0
			for ; j+32 <= n; j += 32 { // ci[j] += α·v over the panels in order, 32 columns at a time
				colAxpy32(&ci[j], &parts[i*n+j], m*n, &alpha, 0, np)
			}
			for ; j < n; j++ {
				for q := 0; q < np; q++ {
					ci[j] += alpha * parts[q*m*n+i*n+j]
				}
			}
		}
	case m >= 4*Chunks:
		gp := gemmJobs.Get().(*gemmJob)
		*gp = g
		gp.split, gp.out, gp.ldo = false, c, ldc
		impl.ranges(evenBounds(m), gp)
		*gp = gemmJob{}
		gemmJobs.Put(gp)
	default:
		// Few rows, long k (a weight gradient Xᵀ·G over every node): split k
		// into fixed ranges, each into its own m×n partial, added in order.
		p := getScratch(Chunks * m * n)
		defer scratch32.Put(p)
		parts := *p
		clear(parts)
		gp := gemmJobs.Get().(*gemmJob)
		*gp = g
		gp.split, gp.out, gp.m, gp.bd = true, parts, m, evenBounds(k)
		impl.ranges(gp.bd, gp)
		*gp = gemmJob{}
		gemmJobs.Put(gp)
		for i := 0; i < m; i++ {
			ci := c[i*ldc : i*ldc+n]
			scaleRow(ci, beta)
			for q := 0; q < Chunks; q++ {
				for j, v := range parts[q*m*n+i*n : q*m*n+(i+1)*n] {
					ci[j] += v
				}
			}
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
		kern32rows(&t[j], 0, &a[0], 0, as, &b[j], ldb, k, 1, 1, 0) // t = +0 + 1·sum: the sum
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
