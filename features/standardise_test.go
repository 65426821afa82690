package features

import (
	"math"
	"testing"
)

// TestStandardise: every column ends with mean 0 and population std 1,
// against sums done here; a constant column becomes 0; the map is affine
// per column (the order of the values within a column is kept).
func TestStandardise(t *testing.T) {
	const n, k = 5, 3
	v := []float64{
		1, 7, 0.25,
		2, 7, 0.5,
		4, 7, 0.125,
		8, 7, 1,
		16, 7, 0.5,
	}
	orig := append([]float64(nil), v...)
	Standardise(v, n, k)
	for c := 0; c < k; c++ {
		var mean, sq float64
		for r := 0; r < n; r++ {
			mean += orig[r*k+c]
		}
		mean /= n
		for r := 0; r < n; r++ {
			sq += (orig[r*k+c] - mean) * (orig[r*k+c] - mean)
		}
		sd := math.Sqrt(sq / n)
		for r := 0; r < n; r++ {
			want := 0.0
			if sd > 0 {
				want = (orig[r*k+c] - mean) / sd
			}
			if math.Abs(v[r*k+c]-want) > 1e-12 {
				t.Errorf("row %d column %d: %v, want %v", r, c, v[r*k+c], want)
			}
		}
	}
	if v[1] != 0 || v[4] != 0 {
		t.Errorf("the constant column: %v", v)
	}
	// 0.1 three times: the float64 mean is 0.10000000000000002, so a
	// constant column must be recognised, not scaled from its rounding.
	tenth := []float64{0.1, 0.1, 0.1}
	Standardise(tenth, 3, 1)
	if tenth[0] != 0 || tenth[1] != 0 || tenth[2] != 0 {
		t.Errorf("a constant column of 0.1: %v, want zeros", tenth)
	}
	Standardise(nil, 0, 3) // no rows: nothing to do, no division by zero
}
