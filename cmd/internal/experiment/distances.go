package experiment

import (
	"sort"
	"sync"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
)

// tauBatches is the number of source groups of the τ interval.
const tauBatches = 8

// tauSample draws the sampled path's fixed τ pairs once, from the seeded
// "tau-sample" stream: cfg.TauSources sources spread over the graphs in
// proportion to their size (at least one per graph), each paired with
// cfg.TauPairs/sources targets of its graph drawn uniformly with
// replacement (all other nodes when that is fewer), distances from one BFS
// per source. Every evaluation of the run scores the same pairs.
// The sources with their rows are returned too, as faithfulness queries.
func tauSample(p *Prepared, cfg Config) (*eval.PairSample, []eval.Query) {
	rng := engine.NewSeeded(cfg.Seed, "tau-sample")
	u := p.Union
	ps := &eval.PairSample{Batches: tauBatches}
	var srcGraph, srcLocal []int
	for g, gr := range u.Graphs {
		if gr.N < 2 {
			continue
		}
		k := max(1, int(int64(cfg.TauSources)*int64(gr.N)/int64(u.N)))
		for t := 0; t < k; t++ {
			srcGraph, srcLocal = append(srcGraph, g), append(srcLocal, rng.IntN(gr.N))
		}
	}
	ps.Sources = len(srcGraph)
	per := max(1, cfg.TauPairs/max(1, ps.Sources))
	rows := bfsRows(p.Adjs, srcGraph, srcLocal, cfg.Workers)
	var queries []eval.Query
	for k, g := range srcGraph {
		n, s, row := u.Graphs[g].N, srcLocal[k], rows[k]
		queries = append(queries, eval.Query{Graph: g, Node: s, Row: row})
		add := func(j int) {
			ps.I = append(ps.I, int32(u.Global(g, s)))
			ps.J = append(ps.J, int32(u.Global(g, j)))
			ps.D = append(ps.D, row[j])
			ps.Graph = append(ps.Graph, int32(g))
			ps.Batch = append(ps.Batch, uint8(k%tauBatches))
		}
		if per >= n-1 {
			for j := 0; j < n; j++ {
				if j != s {
					add(j)
				}
			}
			continue
		}
		for t := 0; t < per; t++ {
			j := rng.IntN(n - 1)
			if j >= s {
				j++ // uniform over the other nodes
			}
			add(j)
		}
	}
	return ps, queries
}

// bfsRows runs one BFS per source (source k: node srcLocal[k] of graph
// srcGraph[k]) on up to workers goroutines with a fixed assignment, so the
// rows do not depend on workers.
func bfsRows(adjs []*data.Adj, srcGraph, srcLocal []int, workers int) [][]uint16 {
	rows := make([][]uint16, len(srcGraph))
	for k, g := range srcGraph {
		rows[k] = make([]uint16, adjs[g].N)
	}
	if workers <= 0 {
		workers = 2
	}
	workers = max(1, min(workers, len(rows)))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var queue []int32
			for k := w; k < len(rows); k += workers {
				queue = adjs[srcGraph[k]].BFS(srcLocal[k], 0, rows[k], queue)
			}
		}()
	}
	wg.Wait()
	return rows
}

// graphOf returns the graph holding global row r.
func graphOf(u *data.Union, r int) int {
	return sort.Search(len(u.Offsets), func(g int) bool { return u.Offsets[g] > r }) - 1
}
