package eval

import (
	"fmt"
	"math"
)

// Summary is mean and population standard deviation (ddof = 0, as P-GNN
// reports) over the defined values; N counts them.
type Summary struct {
	Mean, Std float64
	N         int
}

// Summarise ignores NaN (undefined) values.
func Summarise(xs []float64) Summary {
	var s Summary
	for _, x := range xs {
		if !math.IsNaN(x) {
			s.Mean += x
			s.N++
		}
	}
	if s.N == 0 {
		return Summary{math.NaN(), math.NaN(), 0}
	}
	s.Mean /= float64(s.N)
	for _, x := range xs {
		if !math.IsNaN(x) {
			s.Std += (x - s.Mean) * (x - s.Mean)
		}
	}
	s.Std = math.Sqrt(s.Std / float64(s.N))
	return s
}

// String formats "0.993 ± 0.002" or "undefined".
func (s Summary) String() string {
	if s.N == 0 {
		return "undefined"
	}
	return fmt.Sprintf("%.3f ± %.3f", s.Mean, s.Std)
}
