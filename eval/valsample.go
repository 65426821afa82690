package eval

import (
	"slices"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// ValSample is the validation side of distance faithfulness (issue 29):
// fixed, seeded pairs (stream "val-sample") that model selection may look
// at and the test τ never counts. It lives beside the τ sample so that one
// place keeps the two disjoint:
//
//   - Exact path: in each graph of n ≥ 3 nodes, ⌈n/10⌉ anchor nodes; the
//     validation pairs are every pair with an anchor in it. Test τ stays
//     over all pairs, and Scores.TauHeldout is τ over the pairs with no
//     anchor (Evaluator.Exclude = Exclude): the two share no pair.
//   - Sampled path: max(8, tauSources/8) BFS sources that are not τ-sample
//     sources, each with tauPairs/(8·sources) targets that are not τ-sample
//     sources either. Every τ-sample pair has a τ source in it, so no
//     validation pair is a test pair.
//
// Triples for the ranking yardstick are consecutive targets of one anchor,
// (a, t₂ₖ, t₂ₖ₊₁), ordered nearer first, ties dropped.
type ValSample struct {
	Pairs   PairSample
	Triples [][3]int32
	Exclude []bool // exact path: the anchors (global rows); nil on the sampled path
}

// DrawValSample draws the validation sample of a run seeded with seed; tau
// is the run's τ sample on the sampled path (nil on the exact path), drawn
// with tauSources and tauPairs. Deterministic for a seed whatever h.Workers
// is.
func DrawValSample(h *data.Hops, tau *PairSample, tauSources, tauPairs int, seed uint64) *ValSample {
	rng := engine.NewSeeded(seed, "val-sample")
	v := &ValSample{}
	u := h.Union
	var byAnchor [][]int32 // per anchor, its pairs' indices, in target order
	add := func(g, a, t int, d uint16) {
		v.Pairs.I = append(v.Pairs.I, int32(u.Global(g, a)))
		v.Pairs.J = append(v.Pairs.J, int32(u.Global(g, t)))
		v.Pairs.D = append(v.Pairs.D, d)
		v.Pairs.Graph = append(v.Pairs.Graph, int32(g))
		byAnchor[len(byAnchor)-1] = append(byAnchor[len(byAnchor)-1], int32(v.Pairs.Len()-1))
	}
	if h.Exact() {
		v.Exclude = make([]bool, u.N)
		for g, gr := range u.Graphs {
			n := gr.N
			if n < 3 {
				continue
			}
			anchors := rng.Perm(n)[:(n+9)/10]
			for _, a := range anchors {
				v.Exclude[u.Global(g, a)] = true
			}
			done := make([]bool, n)
			for _, a := range anchors {
				byAnchor = append(byAnchor, nil)
				for _, t := range rng.Perm(n) {
					if t != a && !done[t] {
						add(g, a, t, h.At(g, a, t))
					}
				}
				done[a] = true
			}
		}
	} else {
		test := map[int32]bool{}
		for _, i := range tau.I {
			test[i] = true
		}
		sources := max(8, tauSources/8)
		per := max(1, tauPairs/(8*sources))
		var srcGraph, srcLocal []int
		for k := 0; k < sources; k++ {
			for try := 0; try < 16; try++ {
				r := rng.IntN(u.N)
				g, i := u.Local(r)
				if !test[int32(r)] && u.Graphs[g].N >= 3 {
					srcGraph, srcLocal = append(srcGraph, g), append(srcLocal, i)
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
		rows := h.Rows(srcGraph, srcLocal, nil)
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
			dx, dy := v.Pairs.D[x], v.Pairs.D[y]
			if dx == dy {
				continue
			}
			if dx > dy { // unreachable is the largest uint16: farther than any hop count
				x, y = y, x
			}
			v.Triples = append(v.Triples, [3]int32{v.Pairs.I[x], v.Pairs.J[x], v.Pairs.J[y]})
		}
	}
	return v
}
