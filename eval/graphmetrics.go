package eval

import (
	"fmt"
	"math"
	"sort"
	"sync"

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
	hTau  TauScratch // the held-out pairs' (computed beside tau's)
	start []int      // pairCosines: each row's first pair
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
		lo, hi := e.pairCosines(dot, d, s, u, g)
		if len(e.dist) >= 2 && hi-lo <= CollapseSpread {
			warns = append(warns, fmt.Sprintf("graph %s: embeddings collapsed (cosine spread %.2g ≤ 1e-6); AUC and Kendall τ undefined for it", s.Graph.Name, hi-lo))
			continue
		}
		val.add(aucOf(dot, u, g, s.Val, s.ValNeg))
		sc, lb := pairScores(dot, u, g, s.Test, s.TestNeg)
		r := rankScores(sc, lb) // sorted once for the AUC, AP and Hits
		test.add(r.auc())
		rk.add(r)
		t, h := e.taus()
		tau.add(t)
		held.add(h)
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

// evalChunks is the fixed number of ranges the scorers' concurrent paths
// (pairCosines, PartsOf, the faithfulness scan) split their work into:
// each pair's cosine, or each query's tallies, is computed alone by the
// same loop, so which goroutine computes it changes nothing.
const evalChunks = 4

// inChunks runs f(0), …, f(evalChunks−1) each on its own goroutine and
// returns when all are done.
func inChunks(f func(c int)) {
	var wg sync.WaitGroup
	for c := range evalChunks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(c)
		}()
	}
	wg.Wait()
}

// minParallelCosines is the pair count × width below which pairCosines
// stays on one goroutine (a variable: tests lower it).
var minParallelCosines = 1 << 20

// pairCosines fills e.dist with graph g's hop distances over its pairs
// i < j at finite distance, in row order, and e.cos with their negated
// cosines (dot of rows of width d; ascending distance ~ descending
// cosine), concurrently in evalChunks ranges of pairs when there are
// many; with Exclude, e.hDist and e.hCos with the pairs that have no
// excluded end. It returns the least and greatest cosine.
func (e *Evaluator) pairCosines(dot func(i, j int) float64, d int, s *data.Split, u *data.Union, g int) (lo, hi float64) {
	n := s.Graph.N
	e.dist, e.hDist, e.hCos = e.dist[:0], e.hDist[:0], e.hCos[:0]
	e.start = append(e.start[:0], make([]int, n+1)...)
	for i := 0; i < n; i++ {
		e.start[i] = len(e.dist)
		for j := i + 1; j < n; j++ {
			if h := s.Dist.At(i, j); h != data.Unreachable {
				e.dist = append(e.dist, h)
			}
		}
	}
	e.start[n] = len(e.dist)
	p := len(e.dist)
	e.cos = append(e.cos[:0], make([]float64, p)...)
	fill := func(r0, r1 int) (lo, hi float64) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for i := r0; i < r1; i++ {
			gi, k := u.Global(g, i), e.start[i]
			for j := i + 1; j < n; j++ {
				if s.Dist.At(i, j) == data.Unreachable {
					continue
				}
				c := dot(gi, u.Global(g, j))
				lo, hi = math.Min(lo, c), math.Max(hi, c)
				e.cos[k] = -c
				k++
			}
		}
		return lo, hi
	}
	if p < 2*evalChunks || p*max(1, d) < minParallelCosines {
		lo, hi = fill(0, n)
	} else {
		var b [evalChunks + 1]int // row bounds of about equal pair counts
		for c := 1; c < evalChunks; c++ {
			b[c] = max(b[c-1], sort.SearchInts(e.start[:n+1], p*c/evalChunks))
		}
		b[evalChunks] = n
		var los, his [evalChunks]float64
		inChunks(func(c int) { los[c], his[c] = fill(b[c], b[c+1]) })
		lo, hi = math.Inf(1), math.Inf(-1)
		for c := range evalChunks {
			lo, hi = math.Min(lo, los[c]), math.Max(hi, his[c])
		}
	}
	if e.Exclude != nil {
		for i := 0; i < n; i++ {
			gi, k := u.Global(g, i), e.start[i]
			for j := i + 1; j < n; j++ {
				if s.Dist.At(i, j) == data.Unreachable {
					continue
				}
				if !e.Exclude[gi] && !e.Exclude[u.Global(g, j)] {
					e.hDist, e.hCos = append(e.hDist, e.dist[k]), append(e.hCos, e.cos[k])
				}
				k++
			}
		}
	}
	return lo, hi
}

// taus is τ-b over e's pairs and over its held-out pairs (NaN where fewer
// than two), the two computed concurrently when both are large.
func (e *Evaluator) taus() (tau, held float64) {
	tau, held = math.NaN(), math.NaN()
	one := func() {
		if len(e.dist) >= 2 {
			tau = e.tau.KendallTauBInts(e.dist, e.cos)
		}
	}
	two := func() {
		if len(e.hDist) >= 2 {
			held = e.hTau.KendallTauBInts(e.hDist, e.hCos)
		}
	}
	if len(e.hDist) < minParallelTau {
		one()
		two()
		return tau, held
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		two()
	}()
	one()
	wg.Wait()
	return tau, held
}

// minParallelTau is the held-out pair count from which taus computes the
// two τs concurrently (a variable: tests change it).
var minParallelTau = 1 << 16
