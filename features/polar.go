package features

import "math"

// Polar turns landmark columns into a cone around a shared pole: v is the
// row-major n × k matrix of a landmark encoding (1/(1+d) per landmark, 0
// where the landmark is unreachable) and the result is n × (k+1) with row
//
//	[1 | g_i · ŝ_i]
//
// where ŝ_i is the node's standardised row (Standardise) scaled to unit
// length and g_i ∈ [0, 1] its mean distance to the reachable landmarks,
// rescaled over the rows of its graph so that the most central node has 0
// and the most remote 1 (a row that reaches no landmark has 1; a graph
// whose rows all share one mean has 0). A linear map of it can put central
// nodes near one direction (the pole) and remote ones away from it along
// their landmark profile: the cosine of two remote nodes in different
// directions is small, that of two central nodes large, as distance
// through a graph's core behaves (tree- and expander-like graphs, where the
// standardised rows alone lose the centrality). starts holds the first row
// of each graph followed by n. v is left as it was. Sums in row order,
// float64: deterministic. O(n·k).
func Polar(v []float64, n, k int, starts []int) []float64 {
	out := make([]float64, n*(k+1))
	read := func(r int, dst []float64) { copy(dst, v[r*k:(r+1)*k]) }
	polarRows(read, n, k, starts, ColumnStats(read, n, k), func(r int, row []float64) { copy(out[r*(k+1):], row) })
	return out
}

// polarRows computes Polar's rows from the raw landmark rows read and
// their column statistics, handing each (length k+1, reused) to emit.
func polarRows(read RowReader, n, k int, starts []int, st Stats, emit func(r int, row []float64)) {
	mean := make([]float64, n)
	raw := make([]float64, k)
	for r := 0; r < n; r++ {
		read(r, raw)
		var sum, cnt float64
		for _, x := range raw {
			if x > 0 {
				sum, cnt = sum+1/x-1, cnt+1
			}
		}
		mean[r] = math.NaN()
		if cnt > 0 {
			mean[r] = sum / cnt
		}
	}
	o := make([]float64, k+1)
	for g := 0; g+1 < len(starts); g++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for r := starts[g]; r < starts[g+1]; r++ {
			if !math.IsNaN(mean[r]) {
				lo, hi = min(lo, mean[r]), max(hi, mean[r])
			}
		}
		for r := starts[g]; r < starts[g+1]; r++ {
			var gr float64
			switch {
			case math.IsNaN(mean[r]):
				gr = 1
			case hi > lo:
				gr = (mean[r] - lo) / (hi - lo)
			}
			row := o[1:]
			read(r, row)
			st.Apply(row)
			var sq float64
			for _, x := range row {
				sq += x * x
			}
			o[0] = 1
			if sq == 0 {
				clear(row)
			} else {
				f := gr / math.Sqrt(sq)
				for c, x := range row {
					row[c] = f * x
				}
			}
			emit(r, o)
		}
	}
}
