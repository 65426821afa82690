package engine

import "github.com/ignn/ignn/engine/internal/blas"

// sparseRow adds Σ_k v[k]·x[cols[k]] (rows of x, d wide) to y, with the
// AVX2+FMA kernels for float32 when d is a multiple of 8 (blas.SparseRow),
// else in Go in entry order. Each call's summation order is fixed by its
// inputs alone.
func sparseRow[T Float](y, v []T, cols []int, x []T, d int) {
	if len(v) == 0 {
		return
	}
	if blas.Kernels() && d%8 == 0 {
		if y32, ok := any(y).([]float32); ok {
			blas.SparseRow(y32, any(v).([]float32), cols, any(x).([]float32), d)
			return
		}
	}
	for k, c := range cols {
		w, xr := v[k], x[c*d:(c+1)*d]
		for j := range y[:d] {
			y[j] += w * xr[j]
		}
	}
}
