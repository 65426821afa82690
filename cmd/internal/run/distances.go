package run

import (
	"sort"
	"sync"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
)

// tauBatches is the number of source groups of the τ interval.
const tauBatches = 8

// tauChunk is how many τ sources run their BFS at a time, and the most of
// them kept (evenly spaced) as faithfulness queries with their rows: the
// sample holds O(tauChunk·n) hop bytes whatever --tau-sources is.
const tauChunk = 64

// tauSample draws the sampled path's fixed τ pairs once, from the seeded
// "tau-sample" stream: cfg.TauSources sources spread over the graphs in
// proportion to their size (at least one per graph), each paired with
// cfg.TauPairs/sources targets of its graph drawn uniformly with
// replacement (all other nodes when that is fewer), distances from one BFS
// per source, tauChunk sources at a time. Every evaluation of the run
// scores the same pairs. Up to tauChunk evenly spaced sources are returned
// with their rows as faithfulness queries.
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
	stride := max(1, (ps.Sources+tauChunk-1)/tauChunk) // every stride-th source is a query
	var queries []eval.Query
	var rows [][]uint16
	for k, g := range srcGraph {
		if k%tauChunk == 0 {
			hi := min(k+tauChunk, len(srcGraph))
			rows = bfsRows(p.Adjs, srcGraph[k:hi], srcLocal[k:hi], cfg.Workers, rows)
		}
		n, s, row := u.Graphs[g].N, srcLocal[k], rows[k%tauChunk]
		if k%stride == 0 {
			queries = append(queries, eval.Query{Graph: g, Node: s, Row: row})
			rows[k%tauChunk] = nil // kept by the query: the next chunk allocates its own
		}
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
// rows do not depend on workers. reuse's rows are overwritten where their
// length fits (nil entries are allocated).
func bfsRows(adjs []*data.Adj, srcGraph, srcLocal []int, workers int, reuse [][]uint16) [][]uint16 {
	rows := reuse[:0]
	for k, g := range srcGraph {
		if k < len(reuse) && reuse[k] != nil && len(reuse[k]) == adjs[g].N {
			rows = append(rows, reuse[k])
		} else {
			rows = append(rows, make([]uint16, adjs[g].N))
		}
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
