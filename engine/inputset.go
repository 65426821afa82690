package engine

import "fmt"

// The in-place changes of a Features' dense values that models built on it
// see at their next run: Laplacian sign flips and a popularity column's
// weight.

// SetColumnSigns multiplies dense columns first … first+len(signs)−1 by
// signs (±1) relative to their values at the first call; all-ones signs
// restore them. Models built on f see the change at their next run (the
// constant is held by reference). Used for the random sign flips of
// Laplacian eigenvector inputs. O(N·len(signs)). It panics when the
// columns are out of range.
func (f *Features) SetColumnSigns(first int, signs []float64) {
	k := len(signs)
	if first < 0 || first+k > f.DenseDim {
		panic(fmt.Sprintf("engine: SetColumnSigns: columns %d…%d of %d", first, first+k-1, f.DenseDim))
	}
	f.Materialise()
	if f.orig == nil {
		f.orig = make([]float64, f.N*k)
		for r := 0; r < f.N; r++ {
			for j := range k {
				f.orig[r*k+j] = f.At(r*f.DenseDim + first + j)
			}
		}
	}
	c := f.constant()
	for r := 0; r < f.N; r++ {
		for j, s := range signs {
			v := s * f.orig[r*k+j]
			if f.Dense != nil {
				f.Dense[r*f.DenseDim+first+j] = v
			}
			c.v32[r*f.DenseDim+first+j] = float32(v) // Dense32 itself in float32 storage
		}
	}
}

// SetDense sets every dense value: entry e (row e / DenseDim, column e %
// DenseDim) becomes at(e). Models built on f see the change at their next
// run (the constant is held by reference), and so do rows staged from f
// afterwards. Used for a popularity column whose weight is chosen on
// validation pairs. O(N·DenseDim).
func (f *Features) SetDense(at func(e int) float64) {
	if f.Sparse != nil || f.orig != nil {
		panic("engine: SetDense: features with a sparse part or sign flips")
	}
	f.Materialise()
	c := f.constant()
	for e := range f.N * f.DenseDim {
		v := at(e)
		if f.Dense != nil {
			f.Dense[e] = v
		}
		c.v32[e] = float32(v) // Dense32 itself in float32 storage
	}
}
