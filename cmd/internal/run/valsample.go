package run

import (
	"math"
	"slices"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/objective"
)

// valSample is the validation side of distance faithfulness (issue 29):
// fixed, seeded pairs (stream "val-sample") that model selection may look
// at and the test τ never counts.
//
//   - Exact path: in each graph of n ≥ 3 nodes, ⌈n/10⌉ anchor nodes; the
//     validation pairs are every pair with an anchor in it. Test τ stays
//     over all pairs (test_kendall_tau, unchanged), and
//     test_kendall_tau_heldout is τ over the pairs with no anchor: the two
//     samples share no pair.
//   - Sampled path: max(8, TauSources/8) BFS sources that are not τ-sample
//     sources, each with TauPairs/(8·sources) targets that are not τ-sample
//     sources either. Every τ-sample pair has a τ source in it, so no
//     validation pair is a test pair.
//
// Triples for the ranking yardstick are consecutive targets of one anchor,
// (a, t₂ₖ, t₂ₖ₊₁), ordered nearer first, ties dropped.
type valSample struct {
	pairs   eval.PairSample
	tri     [][3]int32
	exclude []bool // exact path: the anchors (global rows)
}

func newValSample(p *Prepared, cfg Config) *valSample {
	rng := engine.NewSeeded(cfg.Seed, "val-sample")
	v := &valSample{}
	u := p.Union
	var byAnchor [][]int32 // per anchor, its pairs' indices, in target order
	add := func(g, a, t int, d uint16) {
		v.pairs.I = append(v.pairs.I, int32(u.Global(g, a)))
		v.pairs.J = append(v.pairs.J, int32(u.Global(g, t)))
		v.pairs.D = append(v.pairs.D, d)
		v.pairs.Graph = append(v.pairs.Graph, int32(g))
		byAnchor[len(byAnchor)-1] = append(byAnchor[len(byAnchor)-1], int32(v.pairs.Len()-1))
	}
	if p.Exact() {
		v.exclude = make([]bool, u.N)
		for g, s := range p.Splits {
			n := s.Graph.N
			if n < 3 {
				continue
			}
			anchors := rng.Perm(n)[:(n+9)/10]
			isAnchor := make([]bool, n)
			for _, a := range anchors {
				isAnchor[a] = true
				v.exclude[u.Global(g, a)] = true
			}
			done := make([]bool, n)
			for _, a := range anchors {
				byAnchor = append(byAnchor, nil)
				for _, t := range rng.Perm(n) {
					if t != a && !done[t] {
						add(g, a, t, s.Dist.At(a, t))
					}
				}
				done[a] = true
			}
		}
	} else {
		test := map[int32]bool{}
		for _, i := range p.TauSample.I {
			test[i] = true
		}
		sources := max(8, cfg.TauSources/8)
		per := max(1, cfg.TauPairs/(8*sources))
		var srcGraph, srcLocal []int
		for k := 0; k < sources; k++ {
			for try := 0; try < 16; try++ {
				r := rng.IntN(u.N)
				g := graphOf(u, r)
				if !test[int32(r)] && u.Graphs[g].N >= 3 {
					srcGraph, srcLocal = append(srcGraph, g), append(srcLocal, r-u.Offsets[g])
					break
				}
			}
		}
		order := make([]int, len(srcGraph)) // graph by graph, as a PairSample stores pairs
		for k := range order {
			order[k] = k
		}
		slices.SortStableFunc(order, func(a, b int) int { return srcGraph[a] - srcGraph[b] })
		sg, sl := make([]int, len(order)), make([]int, len(order))
		for k, o := range order {
			sg[k], sl[k] = srcGraph[o], srcLocal[o]
		}
		srcGraph, srcLocal = sg, sl
		rows := bfsRows(p.Adjs, srcGraph, srcLocal, cfg.Workers, nil)
		for k, g := range srcGraph {
			byAnchor = append(byAnchor, nil)
			n, a := u.Graphs[g].N, srcLocal[k]
			for t := 0; t < per; t++ {
				for try := 0; try < 16; try++ {
					j := rng.IntN(n)
					if j != a && !test[int32(u.Global(g, j))] {
						add(g, a, j, rows[k][j])
						break
					}
				}
			}
		}
	}
	for _, idx := range byAnchor {
		for k := 0; k+1 < len(idx); k += 2 {
			x, y := idx[k], idx[k+1]
			dx, dy := v.pairs.D[x], v.pairs.D[y]
			if dx == dy {
				continue
			}
			if dx > dy { // unreachable is the largest uint16: farther than any hop count
				x, y = y, x
			}
			v.tri = append(v.tri, [3]int32{v.pairs.I[x], v.pairs.J[x], v.pairs.J[y]})
		}
	}
	return v
}

// valScores are the validation yardsticks of one evaluation.
type valScores struct {
	Tau, BCE, MSE, Rank float64
}

// score computes them for embeddings z (width d): τ over the sample, the
// BCE of the cosine logit on every graph's validation positives and
// negatives, the paper's MSE over the sample (targets 1 − 1/d^α), and the
// ranking loss over the triples (temperature T). Means; NaN where empty.
func (v *valSample) score(e *eval.Evaluator, z []float64, d int, splits []*data.Split, u *data.Union, alpha, temp float64) valScores {
	dot := func(i, j int) float64 {
		var s float64
		a, b := z[i*d:(i+1)*d], z[j*d:(j+1)*d]
		for k := range a {
			s += a[k] * b[k]
		}
		return s
	}
	var s valScores
	s.Tau = e.SampleTau(z, d, &v.pairs)
	var bce float64
	var nb int
	for g, sp := range splits {
		for y, ps := range [][]data.Pair{sp.ValNeg, sp.Val} {
			for _, q := range ps {
				c := dot(u.GlobalPair(g, q))
				bce += softplus(c) - float64(y)*c
				nb++
			}
		}
	}
	s.BCE = bce / float64(nb)
	var mse float64
	for k := range v.pairs.I {
		dd := v.pairs.D[k]
		t := objective.Target(int(dd), dd != data.Unreachable, alpha)
		r := (1-dot(int(v.pairs.I[k]), int(v.pairs.J[k])))/2 - t
		mse += r * r
	}
	s.MSE = mse / float64(v.pairs.Len())
	var rank float64
	for _, t := range v.tri {
		rank += softplus((dot(int(t[0]), int(t[2])) - dot(int(t[0]), int(t[1]))) / temp)
	}
	s.Rank = rank / float64(len(v.tri))
	return s
}

// softplus is log(1 + eˣ), stable for large |x|.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}
