package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// refRowNorm is rowNormRows one row at a time, as it was before its sums
// ran four rows side by side: the reference its bits must equal.
func refRowNorm[T Float](x, g []T, d int, out []T) {
	for r := 0; r < len(x)/d; r++ {
		xr := x[r*d : (r+1)*d]
		var ss float64
		for _, v := range xr {
			ss += float64(v) * float64(v)
		}
		nrm := math.Sqrt(ss)
		or := out[r*d : (r+1)*d]
		if nrm < normEps {
			inv := T(1 / normEps)
			src := xr
			if g != nil {
				src = g[r*d : (r+1)*d]
			}
			for k := range or {
				or[k] = src[k] * inv
			}
			continue
		}
		inv := 1 / nrm
		if g == nil {
			for k := range or {
				or[k] = T(float64(xr[k]) * inv)
			}
			continue
		}
		gr := g[r*d : (r+1)*d]
		var gy float64
		for k := range gr {
			gy += float64(gr[k]) * float64(xr[k]) * inv
		}
		for k := range or {
			or[k] = T((float64(gr[k]) - gy*float64(xr[k])*inv) * inv)
		}
	}
}

// TestRowNormRowsBits: the four-rows-at-a-time sums give the reference's
// bits, forward and gradient, float32 and float64, on row counts that are
// and are not multiples of four, with zero rows, rows below the norm's
// floor, huge values, NaN and ±Inf among them, and every start row of a
// range.
func TestRowNormRowsBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	special := []float64{0, math.Copysign(0, -1), 1e-300, 1e-13, 3e38, -3e38, math.NaN(), math.Inf(1), math.Inf(-1)}
	for _, d := range []int{1, 3, 32} {
		for _, n := range []int{1, 4, 7, 13} {
			x := make([]float64, n*d)
			g := make([]float64, n*d)
			for i := range x {
				x[i], g[i] = rng.NormFloat64()*math.Pow(10, float64(rng.IntN(9)-4)), rng.NormFloat64()
				if rng.IntN(12) == 0 {
					x[i] = special[rng.IntN(len(special))]
				}
			}
			if n > 2 {
				for k := 0; k < d; k++ {
					x[d+k] = 0                      // a zero row
					x[2*d+k] = 1e-14 * float64(k%2) // below the floor
				}
			}
			checkRowNormBits(t, x, g, d)
			x32, g32 := make([]float32, len(x)), make([]float32, len(g))
			for i := range x {
				x32[i], g32[i] = float32(x[i]), float32(g[i])
			}
			checkRowNormBits(t, x32, g32, d)
		}
	}
}

func checkRowNormBits[T Float](t *testing.T, x, g []T, d int) {
	t.Helper()
	n := len(x) / d
	for _, grad := range []bool{false, true} {
		gg := g
		if !grad {
			gg = nil
		}
		want := make([]T, len(x))
		refRowNorm(x, gg, d, want)
		for lo := 0; lo < n; lo++ {
			got := make([]T, len(x))
			rowNormRows(x, gg, d, got, lo, n)
			for i := lo * d; i < len(x); i++ {
				if math.Float64bits(float64(got[i])) != math.Float64bits(float64(want[i])) && !(got[i] != got[i] && want[i] != want[i]) {
					t.Fatalf("d %d n %d grad %v from row %d: element %d = %v, want %v", d, n, grad, lo, i, got[i], want[i])
				}
			}
		}
	}
}

// BenchmarkRowNormRows: a 10⁵ × 32 float32 batch's L2 normalisation and its
// gradient on one goroutine — rows = rowNormRows, ref = the one-row-at-a-
// time loop it replaced (refRowNorm).
func BenchmarkRowNormRows(b *testing.B) {
	const n, d = 100_000, 32
	rng := rand.New(rand.NewPCG(1, 1))
	x, g, out := make([]float32, n*d), make([]float32, n*d), make([]float32, n*d)
	for i := range x {
		x[i], g[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
	}
	for _, grad := range []bool{false, true} {
		gg, name := g, "grad"
		if !grad {
			gg, name = nil, "forward"
		}
		b.Run(name+"/rows", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				rowNormRows(x, gg, d, out, 0, n)
			}
		})
		b.Run(name+"/ref", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				refRowNorm(x, gg, d, out)
			}
		})
	}
}
