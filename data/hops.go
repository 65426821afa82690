package data

import "sort"

// Hops is the hop-distance source every sampler reads (τ and validation
// samples, the distance term's pairs and triples, faithfulness queries):
// per graph of a union, either an exact all-pairs table (Split.Dist) or the
// message-passing adjacency whose BFS rows are computed on demand (the
// sampled path, for graphs whose tables would not fit). Workers spreads
// BFS over goroutines; it never changes a row.
type Hops struct {
	Union   *Union
	Tables  []*Distances // exact path: one per graph; nil on the sampled path
	Adjs    []*Adj       // sampled path: one per graph; nil on the exact path
	Workers int
}

// Exact reports whether every graph has its all-pairs table.
func (h *Hops) Exact() bool { return h.Adjs == nil }

// At is the hop distance between nodes i and j of graph g (exact path
// only; it panics on the sampled path).
func (h *Hops) At(g, i, j int) uint16 { return h.Tables[g].At(i, j) }

// Row is node i of graph g's table row: its distance to every node of g
// (exact path only; a view, not a copy).
func (h *Hops) Row(g, i int) []uint16 {
	t := h.Tables[g]
	return t.D[i*t.N : (i+1)*t.N]
}

// Rows returns one row per source (source k: node srcLocal[k] of graph
// srcGraph[k]): table views on the exact path; on the sampled path one BFS
// per source on up to Workers goroutines (≤ 0: 2) with a fixed assignment,
// or, for a run of msMinSources or more of one small world's sources,
// multi-source sweeps (Adj.rowsOf): the same rows, whatever Workers is,
// O(sources·(N+E)). reuse's rows are
// overwritten where their length fits (nil entries are allocated); the
// exact path leaves reuse alone.
func (h *Hops) Rows(srcGraph, srcLocal []int, reuse [][]uint16) [][]uint16 {
	if h.Exact() {
		rows := make([][]uint16, len(srcGraph))
		for k, g := range srcGraph {
			rows[k] = h.Row(g, srcLocal[k])
		}
		return rows
	}
	rows := reuse[:0]
	for k, g := range srcGraph {
		if k < len(reuse) && reuse[k] != nil && len(reuse[k]) == h.Adjs[g].N {
			rows = append(rows, reuse[k])
		} else {
			rows = append(rows, make([]uint16, h.Adjs[g].N))
		}
	}
	workers := h.Workers
	if workers <= 0 {
		workers = 2
	}
	var single []int // sources without a multi-source sweep: one BFS each, all on the workers
	for lo := 0; lo < len(rows); {
		hi := lo + 1
		for hi < len(rows) && srcGraph[hi] == srcGraph[lo] {
			hi++
		}
		if a := h.Adjs[srcGraph[lo]]; a.multiSource(hi - lo) { // a run of one small world's sources
			a.rowsOf(srcLocal[lo:hi], 0, func(k int) []uint16 { return rows[lo+k] }, workers)
		} else {
			for k := lo; k < hi; k++ {
				single = append(single, k)
			}
		}
		lo = hi
	}
	perSource(len(single), workers, func(i int, queue []int32) []int32 {
		k := single[i]
		return h.Adjs[srcGraph[k]].BFS(srcLocal[k], 0, rows[k], queue)
	})
	return rows
}

// ChunkRows is how many BFS rows a sampler that would compute want of them
// at a time (its own memory bound) should ask Rows for at once: want, or,
// when want is below a sweep's width and the union's largest graph takes
// the multi-source sweeps, SweepRows of that graph (when more than want).
// A sweep serves its rows for about the time of a few BFS each (issue 37:
// a 10⁷-node small world's τ sample at 12 rows a chunk ran one BFS per
// source). The rows, and so every distance, are the same either way.
func (h *Hops) ChunkRows(want int) int {
	if h.Exact() || want >= msWidth {
		return want
	}
	big := 0
	for g, a := range h.Adjs {
		if a.N > h.Adjs[big].N {
			big = g
		}
	}
	k := SweepRows(h.Adjs[big].N)
	if k <= want || !h.Adjs[big].smallWorld() {
		return want
	}
	return k
}

// GraphOf returns the graph holding global row r (O(log graphs)).
func (u *Union) GraphOf(r int) int {
	return sort.Search(len(u.Offsets), func(g int) bool { return u.Offsets[g] > r }) - 1
}

// Local splits global row r into its graph and the node's id in it.
func (u *Union) Local(r int) (g, i int) {
	g = u.GraphOf(r)
	return g, r - u.Offsets[g]
}

// NewHops is the hop-distance source of u's graphs over their edges (graph
// g's local edges are edges[g]): all-pairs tables when exact (each refused
// past MaxDistanceBytes, as HopDistances says), else the adjacencies for
// BFS on demand. workers spreads the BFS; it never changes a distance.
func NewHops(u *Union, edges [][][2]int32, exact bool, workers int) (*Hops, error) {
	h := &Hops{Union: u, Workers: workers}
	for g, gr := range u.Graphs {
		if !exact {
			h.Adjs = append(h.Adjs, NewAdj(gr.N, edges[g]))
			continue
		}
		d, err := HopDistances(gr.N, edges[g], 0, workers)
		if err != nil {
			return nil, err
		}
		h.Tables = append(h.Tables, d)
	}
	return h, nil
}
