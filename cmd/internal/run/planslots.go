package run

import (
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/objective"
)

// The memory plan's probe of a mini-batch run's node slots, and whether its
// inference will run layer-wise.

// planSlots estimates a mini-batch's node slots as the batcher sizes them
// (allocate: a step's seed nodes × the mean L-hop neighbourhood of
// probeNodes nodes, +25%, at least 1024, at most N and slotLimit; --batch-nodes when
// given), probing each graph's whole edge set with BFS (the training
// edges are a subset: the estimate errs large). No fan-out: every
// neighbour (with --batch-fanout the mean is fanout-bounded; the estimate
// stays the every-neighbour one, an upper bound).
func planSlots(cfg Config, ds *data.Dataset) int64 {
	slots, _ := planSlotsWidest(cfg, ds)
	return slots
}

// planSlotsWidest is planSlots and the largest L-hop neighbourhood its
// probe met, a hub's included (with --batch-nodes, no probe: the largest
// graph's hub): where it exceeds the slots, the chunked inference of a
// staged model runs layer-wise.
func planSlotsWidest(cfg Config, ds *data.Dataset) (slots, widest int64) {
	n := ds.NumNodes()
	layers := max(1, cfg.ModelConfig.Layers)
	if cfg.BatchNodes > 0 { // no probe: the largest graph's hub alone
		g := 0
		for k, gr := range ds.Graphs {
			if gr.N > ds.Graphs[g].N {
				g = k
			}
		}
		return int64(min(cfg.BatchNodes, n)), hubReach(data.NewAdj(ds.Graphs[g].N, ds.Graphs[g].Edges), layers, nil)
	}
	triples := 0
	if cfg.DistanceLoss == objective.DistanceRank && cfg.Variant.MSE() {
		triples = cfg.RankTriples * 3
		if cfg.RankPairs {
			triples = cfg.RankTriples * 4
		}
	}
	mse := 0
	if cfg.Variant.MSE() && cfg.DistanceLoss != objective.DistanceRank && cfg.BatchSteps > 0 {
		mse = 2 * ((cfg.MSEPairs + cfg.BatchSteps - 1) / cfg.BatchSteps)
	}
	seeds := 4*cfg.BatchSize + triples + mse
	rng := engine.Stream(cfg.Seed, "plan-probe")
	adjs := map[int]*data.Adj{}
	var row []uint16
	var queue []int32
	total := 0
	for range probeNodes {
		v := rng.IntN(n)
		g := 0
		for v >= ds.Graphs[g].N {
			v -= ds.Graphs[g].N
			g++
		}
		a := adjs[g]
		if a == nil {
			a = data.NewAdj(ds.Graphs[g].N, ds.Graphs[g].Edges)
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
	s, _ := probedSlots(int(1.25*float64(seeds)*float64(total)/probeNodes), seeds, n)
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
