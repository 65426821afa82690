package eval

import (
	"math"

	"github.com/ignn/ignn/engine"
)

// InvNorms returns 1/‖v_r‖ for the rows of the row-major n × d matrix v (0
// for a zero row), each squared norm starting from extra(r) (nil: 0; the
// squared norm of columns kept elsewhere, such as a sparse identity) and
// adding the row's columns in order. With it, a cosine needs no unit copy
// of v (0.5 GB at 10⁶ nodes × 64 columns). O(n·d).
func InvNorms(v []float64, n, d int, extra func(r int) float64) []float64 {
	inv := make([]float64, n)
	for r := range n {
		var sq float64
		if extra != nil {
			sq = extra(r)
		}
		inv[r] = InvNorm(v[r*d:(r+1)*d], sq)
	}
	return inv
}

// InvNorm is InvNorms of one row: 1/‖row‖ with extra added to the squared
// norm first (0 for a zero norm).
func InvNorm(row []float64, extra float64) float64 {
	sq := extra
	for _, x := range row {
		sq += x * x
	}
	if sq > 0 {
		return 1 / math.Sqrt(sq)
	}
	return 0
}

// RowCosine returns the cosine of rows i and j of the n × d matrix v (0
// when either row is zero), from InvNorms computed once.
func RowCosine(v []float64, n, d int) func(i, j int) float64 {
	inv, dot := InvNorms(v, n, d, nil), rowDot(v, d)
	return func(i, j int) float64 { return dot(i, j) * inv[i] * inv[j] }
}

// FeatureCosine is RowCosine of the dense part of f, in whichever storage
// holds it (a compacted block's float32 values, widened; sums in float64;
// a view's rows computed as they are needed, so its cosine serves one
// goroutine).
func FeatureCosine(f *engine.Features) func(i, j int) float64 {
	if f.View != nil {
		return viewCosine(f)
	}
	if f.Dense32 == nil {
		return RowCosine(f.Dense, f.N, f.DenseDim)
	}
	v, d := f.Dense32, f.DenseDim
	inv := make([]float64, f.N)
	for r := range f.N {
		var sq float64
		for _, x := range v[r*d : (r+1)*d] {
			sq += float64(x) * float64(x)
		}
		if sq > 0 {
			inv[r] = 1 / math.Sqrt(sq)
		}
	}
	return func(i, j int) float64 {
		var dot float64
		a, b := v[i*d:(i+1)*d], v[j*d:(j+1)*d]
		for k, x := range a {
			dot += float64(x) * float64(b[k])
		}
		return dot * inv[i] * inv[j]
	}
}

// viewCosine is FeatureCosine of a view: the same sums over the rows it
// computes (two per pair), each row's inverse norm summed from the row the
// pair computes anyway — the sum a pass over every row beforehand would
// make, without its N row computations (at 10⁷ nodes ≈ 5 s a block, on one
// core, for a sample that reads a few 10⁵ rows).
func viewCosine(f *engine.Features) func(i, j int) float64 {
	d := f.DenseDim
	a, b, scratch := make([]float32, d), make([]float32, d), make([]float64, f.ViewScratch)
	invNorm := func(row []float32) float64 {
		var sq float64
		for _, x := range row {
			sq += float64(x) * float64(x)
		}
		if sq > 0 {
			return 1 / math.Sqrt(sq)
		}
		return 0
	}
	return func(i, j int) float64 {
		f.View(i, a, scratch)
		f.View(j, b, scratch)
		var dot float64
		for k, x := range a {
			dot += float64(x) * float64(b[k])
		}
		return dot * invNorm(a) * invNorm(b)
	}
}
