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
	if !h.Exact() {
		p := PlanValSample(h.Union, tau, tauSources, tauPairs, seed)
		p.Fill(h, 0, p.Sources(), p.v.Pairs.D)
		return p.Finish()
	}
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
	v.Triples = anchorTriples(&v.Pairs, byAnchor)
	return v
}

// anchorTriples are the ranking yardstick's triples: consecutive targets
// of one anchor, (a, t₂ₖ, t₂ₖ₊₁), ordered nearer first, ties dropped.
func anchorTriples(ps *PairSample, byAnchor [][]int32) [][3]int32 {
	var out [][3]int32
	for _, idx := range byAnchor {
		for k := 0; k+1 < len(idx); k += 2 {
			x, y := idx[k], idx[k+1]
			dx, dy := ps.D[x], ps.D[y]
			if dx == dy {
				continue
			}
			if dx > dy { // unreachable is the largest uint16: farther than any hop count
				x, y = y, x
			}
			out = append(out, [3]int32{ps.I[x], ps.J[x], ps.J[y]})
		}
	}
	return out
}

// ValPlan is the sampled path's validation sample drawn but not measured:
// its sources and pairs, whose distances any range of sources can fill on
// its own (TauPlan's counterpart; ignn prepare --shard).
type ValPlan struct {
	v                  *ValSample
	byAnchor           [][]int32
	srcGraph, srcLocal []int
	start              []int // pairs of source k: start[k] … start[k+1]
	chunk              int
}

// PlanValSample draws DrawValSample's sampled-path sources and targets
// (the same draws in the same order) without a BFS: max(8, tauSources/8)
// sources that are not τ sources, tauPairs/(8·sources) targets each, none a
// τ source.
func PlanValSample(u *data.Union, tau *PairSample, tauSources, tauPairs int, seed uint64) *ValPlan {
	rng := engine.NewSeeded(seed, "val-sample")
	p := &ValPlan{v: &ValSample{}, chunk: TauRows(data.MaxNodes(u.Graphs))}
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
	p.srcGraph, p.srcLocal = make([]int, len(order)), make([]int, len(order))
	for k, o := range order {
		p.srcGraph[k], p.srcLocal[k] = srcGraph[o], srcLocal[o]
	}
	ps := &p.v.Pairs
	for k, g := range p.srcGraph {
		p.start = append(p.start, ps.Len())
		p.byAnchor = append(p.byAnchor, nil)
		n, a := u.Graphs[g].N, p.srcLocal[k]
		for t := 0; t < per; t++ {
			for try := 0; try < 16; try++ {
				j := rng.IntN(n)
				if j != a && !test[int32(u.Global(g, j))] {
					ps.I = append(ps.I, int32(u.Global(g, a)))
					ps.J = append(ps.J, int32(u.Global(g, j)))
					ps.Graph = append(ps.Graph, int32(g))
					p.byAnchor[k] = append(p.byAnchor[k], int32(ps.Len()-1))
					break
				}
			}
		}
	}
	p.start = append(p.start, ps.Len())
	ps.D = make([]uint16, ps.Len())
	return p
}

// Sources is the number of validation sources.
func (p *ValPlan) Sources() int { return len(p.srcGraph) }

// Pairs returns the pair range [lo, hi) of sources [from, to).
func (p *ValPlan) Pairs(from, to int) (lo, hi int) { return p.start[from], p.start[to] }

// D is the plan's distance array, in pair order, which Fill or a reader of
// precomputed parts fills before Finish.
func (p *ValPlan) D() []uint16 { return p.v.Pairs.D }

// Fill computes the hop distances of the pairs of sources [from, to) into
// d (indexed as the plan's pairs) by one BFS per source, TauRows of them at
// a time (more on a small world: data.Hops.ChunkRows). Deterministic
// whatever h.Workers is.
func (p *ValPlan) Fill(h *data.Hops, from, to int, d []uint16) {
	var rows [][]uint16
	chunk := h.ChunkRows(p.chunk)
	for k := from; k < to; k++ {
		if (k-from)%chunk == 0 {
			hi := min(k+chunk, to)
			rows = h.Rows(p.srcGraph[k:hi], p.srcLocal[k:hi], rows)
		}
		row, off := rows[(k-from)%chunk], h.Union.Offsets[p.srcGraph[k]]
		for t := p.start[k]; t < p.start[k+1]; t++ {
			d[t] = row[int(p.v.Pairs.J[t])-off]
		}
	}
}

// Finish returns the validation sample once D is filled: its pairs and
// the ranking yardstick's triples.
func (p *ValPlan) Finish() *ValSample {
	p.v.Triples = anchorTriples(&p.v.Pairs, p.byAnchor)
	return p.v
}
