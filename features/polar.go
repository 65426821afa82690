package features

import (
	"math"
	"sort"
)

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
	c := newCone(read, n, k, starts, st)
	o := make([]float64, k+1)
	for r := range n {
		c.row(r, o)
		emit(r, o)
	}
}

// cone is what Polar's rows are made from: the raw rows, their column
// statistics, and each graph's least and greatest mean landmark distance.
// A row is computed from its own raw row and these alone (row), so the
// cone can be stored or viewed row by row.
type cone struct {
	read   RowReader
	st     Stats
	starts []int
	lo, hi []float64 // per graph
}

// newCone reads every row once for the graphs' mean-distance ranges.
func newCone(read RowReader, n, k int, starts []int, st Stats) *cone {
	c := &cone{read: read, st: st, starts: starts}
	raw := make([]float64, k)
	for g := 0; g+1 < len(starts); g++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for r := starts[g]; r < starts[g+1]; r++ {
			read(r, raw)
			if m := meanDistance(raw); !math.IsNaN(m) {
				lo, hi = min(lo, m), max(hi, m)
			}
		}
		c.lo, c.hi = append(c.lo, lo), append(c.hi, hi)
	}
	return c
}

// meanDistance is the mean hop distance 1/x − 1 over a raw row's reachable
// landmarks (x > 0), NaN when it reaches none.
func meanDistance(raw []float64) float64 {
	var sum, cnt float64
	for _, x := range raw {
		if x > 0 {
			sum, cnt = sum+1/x-1, cnt+1
		}
	}
	if cnt == 0 {
		return math.NaN()
	}
	return sum / cnt
}

// row writes row r of the cone into o (length k+1). It reads through
// c.read only, so it is as safe for concurrent calls as read is.
func (c *cone) row(r int, o []float64) {
	g := sort.SearchInts(c.starts, r+1) - 1
	row := o[1:]
	c.read(r, row)
	var gr float64
	switch m := meanDistance(row); {
	case math.IsNaN(m):
		gr = 1
	case c.hi[g] > c.lo[g]:
		gr = (m - c.lo[g]) / (c.hi[g] - c.lo[g])
	}
	c.st.Apply(row)
	var sq float64
	for _, x := range row {
		sq += x * x
	}
	o[0] = 1
	if sq == 0 {
		clear(row)
		return
	}
	f := gr / math.Sqrt(sq)
	for j, x := range row {
		row[j] = f * x
	}
}
