package eval

import (
	"fmt"
	"math"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// Scores are one evaluation's averages over graphs. TauLo and TauHi bound
// a 95% interval of τ on the sampled path (NaN on the exact path, where τ
// is computed over every pair and has no sampling error).
// TestAP and TestHits20/50 rank the test split like TestAUC
// (AveragePrecision, HitsAtK), per graph and averaged.
type Scores struct {
	ValAUC, TestAUC, Tau, TauLo, TauHi float64
	TestAP, TestHits20, TestHits50     float64
	// TauHeldout is τ over the pairs with no endpoint in
	// Evaluator.Exclude (NaN when Exclude is nil): the test pairs a
	// validation sample anchored at the excluded nodes never saw.
	TauHeldout float64
}

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
// CollapseSpread over its pairs) gets τ and both AUCs undefined — its
// scores would only rank rounding noise — and a warning.
// Cost O(Σ n_g²·d) for the cosines plus O(P) for τ (KendallTauBInts).
func GraphMetrics(z []float64, d int, splits []*data.Split, u *data.Union) (Scores, []string) {
	var e Evaluator
	return e.GraphMetrics(z, d, splits, u)
}

// Evaluator keeps GraphMetrics's buffers across evaluations of one run.
// The zero value is ready; it is not safe for concurrent use.
type Evaluator struct {
	// Exclude, when set, marks global rows whose pairs GraphMetrics leaves
	// out of Scores.TauHeldout.
	Exclude []bool

	tau   TauScratch
	dist  []uint16
	cos   []float64
	hDist []uint16
	hCos  []float64
	sDist []uint16
	sCos  []float64
}

// GraphMetrics is the package function with e's buffers.
func (e *Evaluator) GraphMetrics(z []float64, d int, splits []*data.Split, u *data.Union) (Scores, []string) {
	dot := rowDot(z, d)
	var val, test, tau, held mean
	var rk rankMeans
	var warns []string
	for g, s := range splits {
		e.dist, e.cos = e.dist[:0], e.cos[:0]
		e.hDist, e.hCos = e.hDist[:0], e.hCos[:0]
		lo, hi := math.Inf(1), math.Inf(-1)
		n := s.Graph.N
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				h := s.Dist.At(i, j)
				if h == data.Unreachable {
					continue
				}
				gi, gj := u.Global(g, i), u.Global(g, j)
				c := dot(gi, gj)
				lo, hi = math.Min(lo, c), math.Max(hi, c)
				e.dist = append(e.dist, h)
				e.cos = append(e.cos, -c) // ascending distance ~ descending cosine
				if e.Exclude != nil && !e.Exclude[gi] && !e.Exclude[gj] {
					e.hDist, e.hCos = append(e.hDist, h), append(e.hCos, -c)
				}
			}
		}
		if len(e.dist) >= 2 && hi-lo <= CollapseSpread {
			warns = append(warns, fmt.Sprintf("graph %s: embeddings collapsed (cosine spread %.2g ≤ 1e-6); AUC and Kendall τ undefined for it", s.Graph.Name, hi-lo))
			continue
		}
		val.add(aucOf(dot, u, g, s.Val, s.ValNeg))
		sc, lb := pairScores(dot, u, g, s.Test, s.TestNeg)
		r := rankScores(sc, lb) // sorted once for the AUC, AP and Hits
		test.add(r.auc())
		rk.add(r)
		if len(e.dist) >= 2 {
			tau.add(e.tau.KendallTauBInts(e.dist, e.cos))
		}
		if len(e.hDist) >= 2 {
			held.add(e.tau.KendallTauBInts(e.hDist, e.hCos))
		}
	}
	return rk.fill(Scores{ValAUC: val.value(), TestAUC: test.value(), Tau: tau.value(), TauLo: math.NaN(), TauHi: math.NaN(), TauHeldout: held.value()}), warns
}

// SampleTau is τ-b between hop distance (ascending) and cosine
// (descending) over a pair sample's pairs at finite distance, per graph,
// averaged over the graphs where it is defined (at least two pairs, a
// cosine spread above CollapseSpread); NaN when it is nowhere defined.
func (e *Evaluator) SampleTau(z []float64, d int, ps *PairSample) float64 {
	return e.SampleTauOf(rowDot(z, d), ps)
}

// SampleTauOf is SampleTau with the similarity of rows i and j given by
// sim (a cosine computed without forming unit rows, for instance).
func (e *Evaluator) SampleTauOf(dot func(i, j int) float64, ps *PairSample) float64 {
	return e.SampleTauAt(ps.pairSim(dot), ps)
}

// SampleTauAt is SampleTau with pair k's similarity given by sim(k),
// called in increasing k for the pairs at finite distance (similarities
// computed once and read at several mixes: run's --sketch-share 0).
func (e *Evaluator) SampleTauAt(sim func(k int) float64, ps *PairSample) float64 {
	var tau mean
	for lo := 0; lo < ps.Len(); {
		hi := lo
		for hi < ps.Len() && ps.Graph[hi] == ps.Graph[lo] {
			hi++
		}
		var cmin, cmax float64
		e.sDist, e.sCos, cmin, cmax = ps.finite(sim, lo, hi, e.sDist[:0], e.sCos[:0], nil)
		if len(e.sDist) >= 2 && cmax-cmin > CollapseSpread {
			tau.add(e.tau.KendallTauBInts(e.sDist, e.sCos))
		}
		lo = hi
	}
	return tau.value()
}

// rankMeans averages AP and Hits@K over graphs.
type rankMeans struct{ ap, h20, h50 mean }

// add scores one graph's test pairs, ranked.
func (r *rankMeans) add(s ranked) {
	r.ap.add(s.ap())
	r.h20.add(s.hits(20))
	r.h50.add(s.hits(50))
}

func (r *rankMeans) fill(s Scores) Scores {
	s.TestAP, s.TestHits20, s.TestHits50 = r.ap.value(), r.h20.value(), r.h50.value()
	return s
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

// rowDot returns ⟨z_i, z_j⟩ for rows of width d.
func rowDot[T engine.Float](z []T, d int) func(i, j int) float64 { return engine.RowDot(z, d) }
