package engine

// sparseRow adds Σ_k v[k]·x[cols[k]] (rows of x, d wide) to y, with the
// AVX2+FMA kernels for float32 when d is a multiple of 8, else in Go in
// entry order. Each call's summation order is fixed by its inputs alone.
func sparseRow[T Float](y, v []T, cols []int, x []T, d int) {
	if len(v) == 0 {
		return
	}
	if haveKernels && d%8 == 0 {
		if y32, ok := any(y).([]float32); ok {
			v32, x32 := any(v).([]float32), any(x).([]float32)
			_ = v32[len(cols)-1]
			for _, c := range cols {
				_ = x32[c*d+d-1] // bounds: the kernels read x unchecked
			}
			j := 0
			for ; j+32 <= d; j += 32 {
				spRow32(&y32[j], &v32[0], &cols[0], len(cols), &x32[j], d)
			}
			for ; j < d; j += 8 {
				spRow8(&y32[j], &v32[0], &cols[0], len(cols), &x32[j], d)
			}
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
