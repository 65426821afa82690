package memplan

import (
	"math/rand/v2"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// The plan's probe of a mini-batch's node slots, sized by engine's rule
// (engine.ProbedSlots) as the batch sizes them from its own probe of the
// training edges.

// ProbeSlots estimates a mini-batch's node slots as the run sizes them (a
// step's seeds seed nodes × the mean layers-hop neighbourhood of engine.ProbeNodes
// nodes drawn from rng, +25%: ProbedSlots; batchNodes when given, at most
// the nodes), probing each graph's whole edge set with BFS (the training
// edges are a subset: the estimate errs large), every neighbour (a
// fan-out's mean is smaller: an upper bound). widest is the largest
// neighbourhood the probe met, a hub's included (with batchNodes, no
// probe: the largest graph's hub): where it exceeds the slots, the chunked
// inference of a staged model runs layer-wise.
func ProbeSlots(graphs []*data.Graph, layers, seeds, batchNodes int, rng *rand.Rand) (slots, widest int64) {
	n := 0
	for _, g := range graphs {
		n += g.N
	}
	layers = max(1, layers)
	if batchNodes > 0 { // no probe: the largest graph's hub alone
		g := 0
		for k, gr := range graphs {
			if gr.N > graphs[g].N {
				g = k
			}
		}
		return int64(min(batchNodes, n)), hubReach(data.NewAdj(graphs[g].N, graphs[g].Edges), layers, nil)
	}
	adjs := map[int]*data.Adj{}
	var row []uint16
	var queue []int32
	total := 0
	for range engine.ProbeNodes {
		v := rng.IntN(n)
		g := 0
		for v >= graphs[g].N {
			v -= graphs[g].N
			g++
		}
		a := adjs[g]
		if a == nil {
			a = data.NewAdj(graphs[g].N, graphs[g].Edges)
			adjs[g] = a
		}
		if len(row) < a.N {
			row = make([]uint16, a.N)
		}
		queue = a.BFS(v, layers, row[:a.N], queue)
		total += len(queue)
		widest = max(widest, int64(len(queue)))
	}
	for _, a := range adjs {
		widest = max(widest, hubReach(a, layers, row))
	}
	s, _ := engine.ProbedSlots(int(1.25*float64(seeds)*float64(total)/engine.ProbeNodes), seeds, n)
	return int64(s), widest
}

// hubReach is the size of the layers-hop neighbourhood of a's node of
// highest degree: the widest is a hub's, and the inference meets it (its
// breadth-first order starts at the lowest node id, a Barabási–Albert
// graph's first hub) where random probes may not. row, when it holds a.N
// entries, is the BFS's scratch.
func hubReach(a *data.Adj, layers int, row []uint16) int64 {
	if len(row) < a.N {
		row = make([]uint16, a.N)
	}
	return int64(len(a.BFS(a.Hub(), layers, row[:a.N], nil)))
}
