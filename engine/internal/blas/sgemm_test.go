package blas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// rand32 returns n seeded values uniform in [−1, 1).
func rand32(seed uint64, n int) []float32 {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(rng.Float64()*2 - 1)
	}
	return out
}

// goParallel is a Parallel that runs every range but the last on a
// goroutine of its own (the engine's runs them on its workers).
func goParallel(b [Chunks + 1]int, r Ranger) {
	var wg sync.WaitGroup
	for c := 0; c < Chunks-1; c++ {
		if b[c] < b[c+1] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r.Run(b[c], b[c+1])
			}()
		}
	}
	if b[Chunks-1] < b[Chunks] {
		r.Run(b[Chunks-1], b[Chunks])
	}
	wg.Wait()
}

// impls are the ways Sgemm's parallel calls run: in order, and concurrently.
var impls = []struct {
	name string
	impl Implementation
}{{"serial", Implementation{}}, {"goroutines", Implementation{Parallel: goParallel}}}

// TestSgemmMatchesGonum: every transpose combination, odd and kernel-sized
// shapes, padded leading dimensions, alpha and beta, the serial, row-split
// and k-split paths: within float32 rounding of gonum's result (computed in
// float64 from the same inputs).
func TestSgemmMatchesGonum(t *testing.T) {
	if !haveKernels {
		t.Skip("no AVX2+FMA on this CPU: Sgemm is gonum's")
	}
	shapes := [][3]int{{1, 1, 1}, {3, 5, 7}, {9, 33, 17}, {40, 32, 400}, {400, 32, 400}, {64, 40, 300},
		{32, 32, 20000}, {7, 72, 513}, {300, 400, 32}, {5, 8, 4}}
	for _, sh := range shapes {
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				for _, ab := range [][2]float32{{1, 0}, {0.5, 1}, {-2, 0.25}} {
					m, n, k := sh[0], sh[1], sh[2]
					name := fmt.Sprintf("%dx%dx%d/%c%c/%v", m, n, k, tA, tB, ab)
					ar, ac := m, k
					if tA == blas.Trans {
						ar, ac = k, m
					}
					br, bc := k, n
					if tB == blas.Trans {
						br, bc = n, k
					}
					lda, ldb, ldc := ac+3, bc+1, n+2
					a, b := rand32(1, ar*lda), rand32(2, br*ldb)
					c := rand32(3, m*ldc)
					want := make([]float64, len(c))
					for i := range c {
						want[i] = float64(c[i])
					}
					a64, b64 := to64(a), to64(b)
					gonum.Implementation{}.Dgemm(tA, tB, m, n, k, float64(ab[0]), a64, lda, b64, ldb, float64(ab[1]), want, ldc)
					Implementation{Parallel: goParallel}.Sgemm(tA, tB, m, n, k, ab[0], a, lda, b, ldb, ab[1], c, ldc)
					for i := 0; i < m; i++ {
						for j := 0; j < ldc; j++ {
							got, w := float64(c[i*ldc+j]), want[i*ldc+j]
							if j >= n {
								if got != w {
									t.Fatalf("%s: padding C[%d,%d] changed", name, i, j)
								}
								continue
							}
							if math.Abs(got-w) > 1e-5*math.Sqrt(float64(k))*(1+math.Abs(w)) {
								t.Fatalf("%s: C[%d,%d] = %v, want %v", name, i, j, got, w)
							}
						}
					}
				}
			}
		}
	}
}

func to64(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// TestSgemmDeterministic: bit-identical under GOMAXPROCS 1 and 2 and with
// the ranges run in order or on goroutines, on the row-split and the
// k-split paths.
func TestSgemmDeterministic(t *testing.T) {
	if !haveKernels {
		t.Skip("no AVX2+FMA on this CPU: Sgemm is gonum's")
	}
	for _, sh := range [][3]int{{400, 32, 400}, {32, 32, 50000}} {
		m, n, k := sh[0], sh[1], sh[2]
		a, b := rand32(4, m*k), rand32(5, k*n)
		var outs [][]float32
		for _, procs := range []int{1, 2} {
			for _, im := range impls {
				old := runtime.GOMAXPROCS(procs)
				out := make([]float32, m*n)
				im.impl.Sgemm(blas.Trans, blas.NoTrans, m, n, k, 1, transpose32(a, m, k), m, b, n, 0, out, n)
				runtime.GOMAXPROCS(old)
				outs = append(outs, out)
			}
		}
		for q := 1; q < len(outs); q++ {
			for i := range outs[0] {
				if math.Float32bits(outs[q][i]) != math.Float32bits(outs[0][i]) {
					t.Fatalf("%v: C[%d] differs across GOMAXPROCS and Parallel (run %d)", sh, i, q)
				}
			}
		}
	}
}

func transpose32(a []float32, r, c int) []float32 {
	out := make([]float32, len(a))
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			out[j*r+i] = a[i*c+j]
		}
	}
	return out
}

// TestSparseRowKernels: the float32 sparse-row kernels against the row sum
// in float64, for widths on and off the 32/8 blocks and short rows (0–7
// entries, repeated columns), adding to a non-zero y.
func TestSparseRowKernels(t *testing.T) {
	if !haveKernels {
		t.Skip("no AVX2+FMA on this CPU: SparseRow is Go")
	}
	const rows = 50
	for _, d := range []int{8, 16, 32, 40, 64, 72, 104} {
		x := rand32(7, rows*d)
		for nnz := 0; nnz <= 7; nnz++ {
			cols := make([]int, nnz)
			for k := range cols {
				cols[k] = (k*17 + d) % rows
			}
			if nnz > 2 {
				cols[2] = cols[0]
			}
			v, y := rand32(8, nnz), rand32(9, d)
			want := to64(y)
			for k, c := range cols {
				for j := 0; j < d; j++ {
					want[j] += float64(v[k]) * float64(x[c*d+j])
				}
			}
			SparseRow(y, v, cols, x, d)
			for j := range y {
				if math.Abs(float64(y[j])-want[j]) > 1e-5*(1+math.Abs(want[j])) {
					t.Fatalf("d %d, %d entries: y[%d] = %v, want %v", d, nnz, j, y[j], want[j])
				}
			}
		}
	}
}

// TestSgemmNarrowPaths: the inline matrix-vector (n = 1, A plain or
// transposed) and outer-product (k = 1) paths give exactly what the general
// row-kernel path gives — the sums the P-GNN position head and its
// gradients computed before them — including −0 products, alpha and beta,
// serial, row-split and k-split sizes.
func TestSgemmNarrowPaths(t *testing.T) {
	if !haveKernels {
		t.Skip("no AVX2+FMA")
	}
	general := func(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
		gemmNarrow = false
		defer func() { gemmNarrow = true }()
		Implementation{Parallel: goParallel}.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
	for _, sh := range [][4]int{{25600, 1, 32, 0}, {7, 1, 5, 0}, {25600, 32, 1, 0}, {9, 13, 1, 0}, {5000, 40, 1, 0},
		{32, 1, 57402, 1}, {32, 1, 300, 1}, {20, 1, 3000, 1}, {8, 1, 100_000, 1}, {25600, 32, 1, 1}} {
		m, n, k := sh[0], sh[1], sh[2]
		tA, lda := blas.NoTrans, k
		if sh[3] == 1 {
			tA, lda = blas.Trans, m
		}
		for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, ab := range [][2]float32{{1, 0}, {-0.5, 1}, {2, 0.25}} {
				a, b, c0 := rand32(1, m*k), rand32(2, k*n), rand32(3, m*n)
				a[0], b[0] = float32(math.Copysign(0, -1)), 3 // a −0 product
				ldb := n
				if tB == blas.Trans {
					ldb = k
				}
				want, got := append([]float32(nil), c0...), append([]float32(nil), c0...)
				general(tA, tB, m, n, k, ab[0], a, lda, b, ldb, ab[1], want, n)
				Implementation{Parallel: goParallel}.Sgemm(tA, tB, m, n, k, ab[0], a, lda, b, ldb, ab[1], got, n)
				for i := range want {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("%v tB=%v α,β=%v: [%d] = %v, general path %v", sh, tB, ab, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestSgemmFused: the general path's kern32rows calls, with kern16x3 on
// row triples, and the panel split of a long transposed-A product, alone
// and together, give exactly what rowKernel, the Go loop adding α·t to C
// and the row split gave — C of width 32, 64 and 96 (40 stays on the old
// kernels), every transpose, k within one panel, odd, over several panels
// and ending in a one-row panel, β of 0 (no clearing pass), 1 and other, α ≠ 1,
// −0 products (α < 0 with β = 0: C = +0 + α·(+0), not −0), NaN left in C for β = 0, the serial, row-split and k-split
// paths, and the k = 1 shapes with the narrow paths off.
func TestSgemmFused(t *testing.T) {
	if !haveKernels {
		t.Skip("no AVX2+FMA")
	}
	// paths: fused, triples, panels; the reference is none of them.
	run := func(paths [3]bool, narrow bool, tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
		gemmFused, gemmTriples, gemmPanels, gemmNarrow = paths[0], paths[1], paths[2], narrow
		defer func() { gemmFused, gemmTriples, gemmPanels, gemmNarrow = true, true, true, true }()
		Implementation{Parallel: goParallel}.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
	for _, sh := range [][3]int{{101, 32, 32}, {5000, 32, 65}, {37, 64, 600}, {20, 96, 7}, {9, 40, 33},
		{32, 32, 20000}, {65, 32, 3001}, {16, 64, 2305}, {17, 40, 2305}, {3, 32, 1}, {4000, 64, 1}} {
		m, n, k := sh[0], sh[1], sh[2]
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				for _, ab := range [][2]float32{{1, 0}, {-2, 0}, {-0.5, 1}, {2, 0.25}} {
					for _, narrow := range []bool{true, false} {
						lda, ldb, ldc, ar, br := k+1, n+3, n+2, m, k
						if tA == blas.Trans {
							lda, ar = m+1, k
						}
						if tB == blas.Trans {
							ldb, br = k+3, n
						}
						a, b, c0 := rand32(1, ar*lda), rand32(2, br*ldb), rand32(3, m*ldc)
						a[0], b[0] = float32(math.Copysign(0, -1)), 3 // a −0 product
						if ab[1] == 0 {
							c0[0] = float32(math.NaN()) // β = 0: C is not read
						}
						want := append([]float32(nil), c0...)
						run([3]bool{}, narrow, tA, tB, m, n, k, ab[0], a, lda, b, ldb, ab[1], want, ldc)
						for _, paths := range [][3]bool{{true, false, false}, {true, true, false}, {false, false, true}, {true, true, true}} {
							got := append([]float32(nil), c0...)
							run(paths, narrow, tA, tB, m, n, k, ab[0], a, lda, b, ldb, ab[1], got, ldc)
							for i := range want {
								if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
									t.Fatalf("%v %c%c α,β=%v narrow=%v fused,triples,panels=%v: C[%d] = %v, rowKernel's path %v",
										sh, tA, tB, ab, narrow, paths, i, got[i], want[i])
								}
							}
						}
					}
				}
			}
		}
	}
}
