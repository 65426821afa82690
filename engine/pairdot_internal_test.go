package engine

import (
	"math"
	"runtime"
	"testing"
)

// TestPairDotChunked: the parallel scatter-add equals the serial one (up to
// summation order) and is bit-identical whatever GOMAXPROCS is.
func TestPairDotChunked(t *testing.T) {
	const n, d, p = 300, 32, 5000
	z := testValues(8, n*d)
	g := testValues(9, p)
	I, J := make([]int, p), make([]int, p)
	for k := range I {
		I[k], J[k] = (k*7)%n, (k*13+5)%n
	}
	serial := make([]float64, n*d)
	pairDotGrad(z, I, J, g, d, serial)
	run := func(procs int) []float64 {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		out := make([]float64, n*d)
		pairDotGradChunked(z, I, J, g, d, out, func(int) []float64 { return make([]float64, len(out)) })
		return out
	}
	one, two := run(1), run(2)
	for k := range serial {
		if one[k] != two[k] {
			t.Fatalf("entry %d differs between GOMAXPROCS 1 and 2", k)
		}
		if math.Abs(one[k]-serial[k]) > 1e-12 {
			t.Fatalf("entry %d: chunked %g, serial %g", k, one[k], serial[k])
		}
	}
}
