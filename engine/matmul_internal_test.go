package engine

import (
	"testing"

	"gorgonia.org/tensor"
)

// TestMatMulTransposes: every transpose combination of the MatMul op (its
// gradients use them all) against the product formula, and each one's
// gradient by finite differences in TestMatMulGradients.
func TestMatMulTransposes(t *testing.T) {
	const m, k, n = 3, 4, 5
	for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
		ar, ac := m, k
		if tr[0] {
			ar, ac = k, m
		}
		br, bc := k, n
		if tr[1] {
			br, bc = n, k
		}
		av, bv := testValues(1, ar*ac), testValues(2, br*bc)
		op := &matMulOp{tA: tr[0], tB: tr[1]}
		out, err := op.Do(tensor.New(tensor.WithShape(ar, ac), tensor.WithBacking(av)), tensor.New(tensor.WithShape(br, bc), tensor.WithBacking(bv)))
		if err != nil {
			t.Fatal(err)
		}
		got := out.(*tensor.Dense).Data().([]float64)
		at := func(i, l int) float64 {
			if tr[0] {
				return av[l*m+i]
			}
			return av[i*k+l]
		}
		bt := func(l, j int) float64 {
			if tr[1] {
				return bv[j*k+l]
			}
			return bv[l*n+j]
		}
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				var s float64
				for l := 0; l < k; l++ {
					s += at(i, l) * bt(l, j)
				}
				if d := got[i*n+j] - s; d > 1e-12 || d < -1e-12 {
					t.Fatalf("%v: C[%d,%d] = %v, want %v", tr, i, j, got[i*n+j], s)
				}
			}
		}
	}
}
