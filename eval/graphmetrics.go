package eval

import (
	"fmt"
	"math"

	"github.com/ignn/ignn/data"
)

// Scores are one evaluation's averages over graphs.
type Scores struct{ ValAUC, TestAUC, Tau float64 }

// CollapseSpread is the cosine spread at or below which a graph's
// embeddings count as collapsed: every node maps to the same point up to
// rounding, and rank metrics would score rounding noise.
const CollapseSpread = 1e-6

// GraphMetrics scores embeddings z (row-major, width d, rows in u's global
// order) on every graph's split: validation and test AUC of the cosine
// ⟨z_i, z_j⟩ on the split's positives against its negatives, and Kendall
// τ-b between hop distance (ascending) and cosine (descending) over all
// intra-graph pairs at finite distance. Each is computed per graph and
// averaged over the graphs where it is defined; NaN when it is nowhere
// defined. A graph whose embeddings collapsed (cosine spread ≤
// CollapseSpread over its pairs) gets τ undefined and a warning.
// Cost O(Σ n_g²·d + P log P) for P intra-graph pairs.
func GraphMetrics(z []float64, d int, splits []*data.Split, u *data.Union) (Scores, []string) {
	dot := func(i, j int) float64 {
		var s float64
		a, b := z[i*d:(i+1)*d], z[j*d:(j+1)*d]
		for k := range a {
			s += a[k] * b[k]
		}
		return s
	}
	auc := func(g int, pos, neg []data.Pair) float64 {
		sc := make([]float64, 0, len(pos)+len(neg))
		lb := make([]bool, 0, len(pos)+len(neg))
		for _, q := range pos {
			sc, lb = append(sc, dot(u.GlobalPair(g, q))), append(lb, true)
		}
		for _, q := range neg {
			sc, lb = append(sc, dot(u.GlobalPair(g, q))), append(lb, false)
		}
		return AUC(sc, lb)
	}
	var val, test, tau mean
	var warns []string
	var dist, cos []float64
	for g, s := range splits {
		val.add(auc(g, s.Val, s.ValNeg))
		test.add(auc(g, s.Test, s.TestNeg))
		dist, cos = dist[:0], cos[:0]
		lo, hi := math.Inf(1), math.Inf(-1)
		n := s.Graph.N
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				h := s.Dist.At(i, j)
				if h == data.Unreachable {
					continue
				}
				c := dot(u.Global(g, i), u.Global(g, j))
				lo, hi = math.Min(lo, c), math.Max(hi, c)
				dist = append(dist, float64(h))
				cos = append(cos, -c) // ascending distance ~ descending cosine
			}
		}
		if len(dist) < 2 {
			continue
		}
		if hi-lo <= CollapseSpread {
			warns = append(warns, fmt.Sprintf("graph %s: embeddings collapsed (cosine spread %.2g ≤ 1e-6); Kendall τ undefined for it", s.Graph.Name, hi-lo))
			continue
		}
		tau.add(KendallTauB(dist, cos))
	}
	return Scores{ValAUC: val.value(), TestAUC: test.value(), Tau: tau.value()}, warns
}

// mean averages the defined (non-NaN) values it is given.
type mean struct {
	sum float64
	n   int
}

func (m *mean) add(x float64) {
	if !math.IsNaN(x) {
		m.sum += x
		m.n++
	}
}

func (m mean) value() float64 {
	if m.n == 0 {
		return math.NaN()
	}
	return m.sum / float64(m.n)
}
