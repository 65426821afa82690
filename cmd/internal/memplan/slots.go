package memplan

import (
	"math/rand/v2"

	"github.com/ignn/ignn/data"
)

// A mini-batch's node slots: the rule that sizes them from a probe of the
// mean L-hop neighbourhood (the run's own probe of its training edges, and
// ProbeSlots, the plan's of the whole edge set before anything is built).

// ProbeNodes is how many nodes a probe measures the neighbourhood of.
const ProbeNodes = 64

// SlotCap bounds the node slots a probe sizes: a step's cost follows its
// slots. On a small world (a Barabási–Albert graph, a social network) the
// seeds' 3-hop neighbourhoods reach most of the graph, so that without a
// cap every step computes every node (10⁶ nodes: 1.3 s a step, 10⁷:
// refused at 47 GB); grids and geometric graphs probe 10⁵–1.9·10⁵ slots at
// every size measured up to 10⁸ nodes. A step whose neighbourhoods exceed
// the slots keeps its seeds and their nearest hops and cuts the rest, and
// how deep did not show in any result measured (GCN, one seed, Intel
// machine, 2026-11-27; docs/large-graphs.md): ba:1000000:4 test AUC 0.5743
// and τ 0.5487 at 65,536 slots against 0.5741 and 0.5493 at 262,144, the
// command 609 → 286 s and 2.80 → 1.55 GiB; rgg:1000000:8 0.9972 and
// 0.8800 against 0.9972 and 0.8807 at its probed 191,280 slots (340 → 189
// s); grid:1000x1000 0.9845 and 0.9292 against 0.9846 and 0.9287 at
// 101,600 (205 → 157 s); on ba:100000:4 16,384 slots cost τ 0.0014.
var SlotCap = 1 << 16 // a variable for tests

// slotLimit is the most slots a probe gives a batch of seeds seed nodes
// (listed, with repeats): SlotCap, or twice the seeds where they would not
// leave room for their first hop (a --batch-size of 10⁵).
func slotLimit(seeds int) int { return max(SlotCap, 2*seeds) }

// ProbedSlots are the slots of a batch of seeds seed nodes whose probe
// estimated estimate (a quarter more than the seeds × the mean
// neighbourhood): the estimate up to slotLimit, at least 1024, at most n;
// cut reports whether the limit bound it below n.
func ProbedSlots(estimate, seeds, n int) (slots int, cut bool) {
	limit := slotLimit(seeds)
	slots = min(max(min(estimate, limit), 1024), n)
	return slots, estimate > limit && slots < n
}

// ProbeSlots estimates a mini-batch's node slots as the run sizes them (a
// step's seeds seed nodes × the mean layers-hop neighbourhood of ProbeNodes
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
	for range ProbeNodes {
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
	s, _ := ProbedSlots(int(1.25*float64(seeds)*float64(total)/ProbeNodes), seeds, n)
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
