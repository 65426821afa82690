package features

import (
	"gonum.org/v1/gonum/mat"
)

// PrincipalMap returns a k×out map (row-major) whose columns are the top
// out eigenvectors of the uncentred Gram matrix XᵀX of the n×k rows x, so
// that x·W keeps as much of the rows' inner products as out dimensions can
// (all of them when out ≥ k: then W = [I | 0]). Each eigenvector's sign is
// fixed (its largest-magnitude entry positive), so the map is a function of
// x alone. O(n·k² + k³).
func PrincipalMap[T float32 | float64](x []T, n, k, out int) []float64 {
	return PrincipalRows(func(r int, dst []float64) {
		for j, v := range x[r*k : (r+1)*k] {
			dst[j] = float64(v)
		}
	}, n, k, out)
}

// PrincipalRows is PrincipalMap of the n rows read (engine.Features.Rows
// reads a stored or viewed block), summed in the same order.
func PrincipalRows(read RowReader, n, k, out int) []float64 {
	w := make([]float64, k*out)
	if out >= k {
		for i := 0; i < k; i++ {
			w[i*out+i] = 1
		}
		return w
	}
	g := make([]float64, k*k)
	row := make([]float64, k)
	for r := 0; r < n; r++ {
		read(r, row)
		for a, va := range row {
			if va == 0 {
				continue
			}
			ga := g[a*k : (a+1)*k]
			for b := a; b < k; b++ {
				ga[b] += va * row[b]
			}
		}
	}
	for a := 0; a < k; a++ {
		for b := 0; b < a; b++ {
			g[a*k+b] = g[b*k+a]
		}
	}
	var es mat.EigenSym
	if !es.Factorize(mat.NewSymDense(k, g), true) {
		for i := 0; i < out; i++ {
			w[i*out+i] = 1
		}
		return w
	}
	var v mat.Dense
	es.VectorsTo(&v)
	// Eigenvalues come in ascending order: the last out columns, largest first.
	for c := 0; c < out; c++ {
		src := k - 1 - c
		big, sign := 0.0, 1.0
		for a := 0; a < k; a++ {
			if e := v.At(a, src); e*e > big {
				big, sign = e*e, 1
				if e < 0 {
					sign = -1
				}
			}
		}
		for a := 0; a < k; a++ {
			w[a*out+c] = sign * v.At(a, src)
		}
	}
	return w
}
