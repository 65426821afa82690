package blas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The Go versions of the kernels (generic.go) against the kernels: on amd64
// with AVX2 and FMA the assembly, elsewhere (and with -tags noasm) the
// kernels' names over the Go versions.

// TestGoElemKernelsMatchAsm: the element kernels use no FMA, so their Go
// versions equal them bit for bit (NaN payloads aside), special values
// included.
func TestGoElemKernelsMatchAsm(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{8, 64, 4096} {
		x, g := specialValues(rng, n), specialValues(rng, n)
		got, want := make([]float32, n), make([]float32, n)
		reluMask32(&got[0], &x[0], &g[0], n)
		reluMaskGo(want, x, g)
		sameBits32(t, "reluMask", got, want)
	}
	for _, d := range []int{8, 32, 40} {
		n, s := 20, 500
		hm, hs, b, f, arg, self := anchorInputs(rng, n, s, d)
		got, want := make([]float32, s*d), make([]float32, s*d)
		anchorFwd32(&got[0], &hm[0], &hs[0], &b[0], &f[0], &arg[0], &self[0], s, d)
		anchorFwdGo(want, hm, hs, b, f, arg, self, d)
		sameBits32(t, "anchorFwd", got, want)
		g, o0 := specialValues(rng, s*d), specialValues(rng, n*d)
		for _, withF := range []bool{true, false} {
			fs, fp := f, &f[0]
			if !withF {
				fs, fp = nil, nil
			}
			got, want := append([]float32(nil), o0...), append([]float32(nil), o0...)
			scatterAxpy32(&got[0], &g[0], fp, &arg[0], s, d)
			scatterAxpyGo(want, g, fs, arg, d)
			sameBits32(t, "scatterAxpy", got, want)
		}
	}
	for _, rows := range []int{1, 3, 300} {
		for _, ldx := range []int{32, 45} {
			x, b, acc0 := specialValues(rng, rows*ldx), specialValues(rng, 2*rows), specialValues(rng, 32)
			got, want := append([]float32(nil), acc0...), append([]float32(nil), acc0...)
			colSum16(&got[0], &x[0], ldx, rows)
			colSum16(&got[16], &x[16], ldx, rows)
			colSumGo(want, x, ldx, rows)
			sameBits32(t, "colSum", got, want)
			got, want = append([]float32(nil), acc0...), append([]float32(nil), acc0...)
			colAxpy32(&got[0], &x[0], ldx, &b[0], 2, rows)
			colAxpyGo(want, x, ldx, b, 2, rows)
			sameBits32(t, "colAxpy", got, want)
		}
	}
}

// exactProducts returns n values whose pairwise products are exact in
// float32 (8 and 12 significant bits) but whose sums round: a sum of them
// is the same with or without a fused multiply-add, so only the order of
// the additions shows.
func exactProducts(rng *rand.Rand, n int, bits int) []float32 {
	v := make([]float32, n)
	for i := range v {
		m := float64(rng.IntN(1<<bits) - 1<<(bits-1))
		v[i] = float32(math.Ldexp(m, rng.IntN(24)-12-bits))
	}
	return v
}

// TestGoFMAKernelsMatchAsm: kern32rows (one row, and three with α·t added
// to C or to zero), kern16x3 (two triples), kern8 and the sparse-row kernels
// against their Go versions, which add the same terms in the same order but
// round each product first: bit for bit where the products are exact,
// within rounding on general inputs. Odd and even k (kern8's groups of four
// and its tail), strides, repeated sparse columns.
func TestGoFMAKernelsMatchAsm(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	type gen func(n int, bits int) []float32
	exact := func(n, bits int) []float32 { return exactProducts(rng, n, bits) }
	general := func(n, _ int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	check := func(what string, got, want []float32, exactly bool, terms int) {
		t.Helper()
		if exactly {
			sameBits32(t, what, got, want)
			return
		}
		for i := range want {
			if d := math.Abs(float64(got[i]) - float64(want[i])); d > 1e-6*float64(terms+1)*(1+math.Abs(float64(want[i]))) {
				t.Fatalf("%s: [%d] = %v, Go version %v", what, i, got[i], want[i])
			}
		}
	}
	for _, g := range []struct {
		name    string
		f       gen
		exactly bool
	}{{"exact products", exact, true}, {"general", general, false}} {
		for _, k := range []int{1, 2, 3, 4, 5, 6, 7, 9, 256, 301} {
			for _, st := range [][2]int{{1, 40}, {3, 72}} {
				as, ldb := st[0], st[1]
				a, b := g.f((k-1)*as+1, 8), g.f((k-1)*ldb+32, 12)
				got, want := make([]float32, 32), make([]float32, 32)
				kern32rows(&got[0], 0, &a[0], 0, as, &b[0], ldb, k, 1, 1, 0)
				kern32Go(want, a, as, b, ldb, k)
				check(g.name+": kern32rows as one row's sum", got, want, g.exactly, k)
				// Three rows (a's rows 1 apart), α·t added to C or to zero.
				const rows, ldc = 3, 40
				ar := g.f(rows-1+(k-1)*as+1, 8)
				for _, load := range []int{0, 1} {
					c0 := g.f(rows*ldc, 12)
					got, want := append([]float32(nil), c0...), append([]float32(nil), c0...)
					kern32rows(&got[0], ldc, &ar[0], 1, as, &b[0], ldb, k, rows, -0.75, load)
					kern32rowsGo(want, ldc, ar, 1, as, b, ldb, k, rows, -0.75, load != 0)
					check(fmt.Sprintf("%s: kern32rows, load %d", g.name, load), got, want, g.exactly, k)
					// Two triples of rows on 16 columns.
					ar6 := g.f(5+(k-1)*as+1, 8)
					got, want = make([]float32, 6*ldc), make([]float32, 6*ldc)
					copy(got, c0)
					copy(want, c0)
					kern16x3(&got[0], ldc, &ar6[0], 1, as, &b[0], ldb, k, 2, -0.75, load)
					kern16x3Go(want, ldc, ar6, 1, as, b, ldb, k, 6, -0.75, load != 0)
					check(fmt.Sprintf("%s: kern16x3, load %d", g.name, load), got, want, g.exactly, k)
				}
				got, want = got[:8], want[:8]
				kern8(&got[0], &a[0], as, &b[0], ldb, k)
				kern8Go(want, a, as, b, ldb, k)
				check(g.name+": kern8", got, want, g.exactly, k)
			}
		}
		const rows, d = 30, 40
		x := g.f(rows*d, 12)
		for _, nnz := range []int{1, 2, 3, 4, 7, 50} {
			cols := make([]int, nnz)
			for i := range cols {
				cols[i] = rng.IntN(rows)
			}
			v, y0 := g.f(nnz, 8), g.f(d, 12)
			got, want := append([]float32(nil), y0...), append([]float32(nil), y0...)
			spRow32(&got[0], &v[0], &cols[0], nnz, &x[0], d)
			spRow8(&got[32], &v[0], &cols[0], nnz, &x[32], d)
			spRowGo(want[:32], v, cols, x, d)
			spRowGo(want[32:], v, cols, x[32:], d)
			check(g.name+": spRow", got, want, g.exactly, nnz)
		}
	}
}

// TestKernelsCheckBounds: the exported functions panic on an index or a
// length the kernels would read or write out of bounds.
func TestKernelsCheckBounds(t *testing.T) {
	const n, d = 4, 8
	m, o := make([]float32, n*d), make([]float32, 2*d)
	f := []float32{1, 1}
	for name, call := range map[string]func(){
		"AnchorForward arg":  func() { AnchorForward(o, m, m, m[:d], f, []int{0, n}, []int{0, 0}, d) },
		"AnchorForward self": func() { AnchorForward(o, m, m, m[:d], f, []int{0, 0}, []int{-1, 0}, d) },
		"AnchorForward o":    func() { AnchorForward(o[:d], m, m, m[:d], f, []int{0, 0}, []int{0, 0}, d) },
		"ScatterAxpy idx":    func() { ScatterAxpy(m, o, nil, []int{0, n}, d) },
		"ScatterAxpy g":      func() { ScatterAxpy(m, o[:d], f, []int{0, 1}, d) },
		"SparseRow col":      func() { SparseRow(o, f, []int{0, n}, m, d) },
		"SparseRow y":        func() { SparseRow(o[:d-1], f, []int{0, 1}, m, d) },
		"ColSum32 x":         func() { ColSum32(make([]float32, 32), m, 32, 2) },
		"ReluMask out":       func() { ReluMask(o[:d], m, m) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			call()
		}()
	}
}
