package eval

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ignn/ignn/data"
)

// PairSample is a fixed sample of intra-graph pairs with their hop
// distances, for τ on graphs too large for all pairs: BFS rows from seeded
// sources, each source paired with sampled targets of its graph. Pairs are
// stored graph by graph; Batch assigns each pair to one of Batches groups of
// sources (source k → group k mod Batches) for the interval.
type PairSample struct {
	I, J    []int32 // global rows of the union
	D       []uint16
	Graph   []int32 // graph of each pair, non-decreasing
	Batch   []uint8
	Batches int
	Sources int
}

// pairSim is pair k's similarity by dot.
func (ps *PairSample) pairSim(dot func(i, j int) float64) func(k int) float64 {
	return func(k int) float64 { return dot(int(ps.I[k]), int(ps.J[k])) }
}

// Len is the number of sampled pairs.
func (ps *PairSample) Len() int { return len(ps.I) }

// SampledMetrics is GraphMetrics with τ over a PairSample: τ-b per graph over
// its sampled pairs at finite distance, averaged over graphs; and a 95%
// batch-means interval: the same average on each batch of sources,
// mean ± t(0.975, B−1)·sd/√B around the full-sample τ (sources are
// independent draws; pairs sharing a source are not, which the batches
// respect). AUCs and the collapse rule are as in GraphMetrics (the spread is
// taken over the sampled pairs). O(P log P) for P sampled pairs.
func (e *Evaluator) SampledMetrics(z []float64, d int, splits []*data.Split, u *data.Union, ps *PairSample) (Scores, []string) {
	return e.SampledMetricsOf(rowDot(z, d), splits, u, ps)
}

// SampledMetricsOf is SampledMetrics of the similarity dot (engine.RowDot
// of float32 or float64 embeddings).
func (e *Evaluator) SampledMetricsOf(dot func(i, j int) float64, splits []*data.Split, u *data.Union, ps *PairSample) (Scores, []string) {
	var val, test, tau mean
	var rk rankMeans
	batch := make([]mean, ps.Batches)
	var warns []string
	lo := 0
	for g, s := range splits {
		hi := lo
		for hi < ps.Len() && int(ps.Graph[hi]) == g {
			hi++
		}
		var bsel []uint8
		var cmin, cmax float64
		e.dist, e.cos, cmin, cmax = ps.finite(ps.pairSim(dot), lo, hi, e.dist[:0], e.cos[:0], func(k int) { bsel = append(bsel, ps.Batch[k]) })
		lo = hi
		if len(e.dist) >= 2 && cmax-cmin <= CollapseSpread {
			warns = append(warns, fmt.Sprintf("graph %s: embeddings collapsed (cosine spread %.2g ≤ 1e-6 over the sampled pairs); AUC and Kendall τ undefined for it", s.Graph.Name, cmax-cmin))
			continue
		}
		val.add(aucOf(dot, u, g, s.Val, s.ValNeg))
		sc, lb := pairScores(dot, u, g, s.Test, s.TestNeg)
		r := rankScores(sc, lb) // sorted once for the AUC, AP and Hits
		test.add(r.auc())
		rk.add(r)
		if len(e.dist) < 2 {
			continue
		}
		tau.add(e.tau.KendallTauBInts(e.dist, e.cos))
		all, allCos := e.dist, e.cos
		for b := range batch {
			var bd []uint16
			var bc []float64
			for k, x := range bsel {
				if int(x) == b {
					bd, bc = append(bd, all[k]), append(bc, allCos[k])
				}
			}
			if len(bd) >= 2 {
				batch[b].add(e.tau.KendallTauBInts(bd, bc))
			}
		}
	}
	sc := rk.fill(Scores{ValAUC: val.value(), TestAUC: test.value(), Tau: tau.value(), TauLo: math.NaN(), TauHi: math.NaN(), TauHeldout: math.NaN()})
	var bs []float64
	for _, m := range batch {
		if v := m.value(); !math.IsNaN(v) {
			bs = append(bs, v)
		}
	}
	if len(bs) >= 2 && !math.IsNaN(sc.Tau) {
		var m, v float64
		for _, x := range bs {
			m += x
		}
		m /= float64(len(bs))
		for _, x := range bs {
			v += (x - m) * (x - m)
		}
		sd := math.Sqrt(v / float64(len(bs)-1))
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(bs) - 1)}.Quantile(0.975)
		half := t * sd / math.Sqrt(float64(len(bs)))
		sc.TauLo, sc.TauHi = sc.Tau-half, sc.Tau+half
	}
	return sc, warns
}

// aucOf is the AUC of the cosine on graph g's positives against negatives.
func aucOf(dot func(i, j int) float64, u *data.Union, g int, pos, neg []data.Pair) float64 {
	return AUC(pairScores(dot, u, g, pos, neg))
}

// pairScores is the cosine of graph g's positives, then of its negatives,
// with their labels: what the AUC and the ranking metrics score (computed
// once for both; on spilled embeddings each is two reads).
func pairScores(dot func(i, j int) float64, u *data.Union, g int, pos, neg []data.Pair) ([]float64, []bool) {
	off := u.Offsets[g]
	return localScores(func(i, j int) float64 { return dot(off+i, off+j) }, pos, neg)
}

// finite appends the pairs lo…hi−1 at finite distance to dist and cos
// (the negated cosine, so ascending distance matches descending cosine),
// calls each(k) for each (when not nil), and returns the cosines' range.
func (ps *PairSample) finite(sim func(k int) float64, lo, hi int, dist []uint16, cos []float64, each func(k int)) ([]uint16, []float64, float64, float64) {
	cmin, cmax := math.Inf(1), math.Inf(-1)
	for k := lo; k < hi; k++ {
		if ps.D[k] == data.Unreachable {
			continue
		}
		c := sim(k)
		cmin, cmax = math.Min(cmin, c), math.Max(cmax, c)
		dist, cos = append(dist, ps.D[k]), append(cos, -c)
		if each != nil {
			each(k)
		}
	}
	return dist, cos, cmin, cmax
}
