package eval

import (
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// TauBatches is the number of source groups of the sampled τ's interval.
const TauBatches = 8

// TauChunk is how many τ sources run their BFS at a time, and the most of
// them kept (evenly spaced) as faithfulness queries with their rows: the
// sample holds O(TauChunk·n) hop bytes whatever the number of sources.
// On graphs where TauChunk rows would exceed TauRowBytes, both shrink to
// TauRows(n).
const TauChunk = 64

// TauRowBytes bounds the hop rows the τ draw holds at a time, and again
// those its queries keep (issue 37: 64 rows are 1.3 GB at 10⁷ nodes).
const TauRowBytes = 256 << 20

// TauRows is how many τ rows of n nodes the draw computes at a time, and
// the most it keeps as queries: TauChunk, fewer when TauChunk rows exceed
// TauRowBytes (at least 8). At most 2·10⁶ nodes it is TauChunk.
func TauRows(n int) int { return max(8, min(TauChunk, TauRowBytes/(2*max(1, n)))) }

// DrawTauSample draws the sampled path's fixed τ pairs once, from seed's
// "tau-sample" stream: sources BFS sources spread over the graphs in
// proportion to their size (at least one per graph of ≥ 2 nodes), each
// paired with pairs/sources targets of its graph drawn uniformly with
// replacement (all other nodes when that is fewer), distances from one BFS
// row per source, TauChunk sources at a time. Every evaluation of a run
// scores the same pairs. Up to TauChunk evenly spaced sources are returned
// with their rows as faithfulness queries. Deterministic for a seed,
// whatever h.Workers is. O(sources·(N+E)) time, O(TauChunk·N) rows.
func DrawTauSample(h *data.Hops, sources, pairs int, seed uint64) (*PairSample, []Query) {
	rng := engine.NewSeeded(seed, "tau-sample")
	u := h.Union
	ps := &PairSample{Batches: TauBatches}
	var srcGraph, srcLocal []int
	for g, gr := range u.Graphs {
		if gr.N < 2 {
			continue
		}
		k := max(1, int(int64(sources)*int64(gr.N)/int64(u.N)))
		for t := 0; t < k; t++ {
			srcGraph, srcLocal = append(srcGraph, g), append(srcLocal, rng.IntN(gr.N))
		}
	}
	ps.Sources = len(srcGraph)
	per := max(1, pairs/max(1, ps.Sources))
	chunk := TauRows(data.MaxNodes(u.Graphs))    // rows are one graph's long
	stride := max(1, (ps.Sources+chunk-1)/chunk) // every stride-th source is a query
	var queries []Query
	var rows [][]uint16
	for k, g := range srcGraph {
		if k%chunk == 0 {
			hi := min(k+chunk, len(srcGraph))
			rows = h.Rows(srcGraph[k:hi], srcLocal[k:hi], rows)
		}
		n, s, row := u.Graphs[g].N, srcLocal[k], rows[k%chunk]
		if k%stride == 0 {
			queries = append(queries, Query{Graph: g, Node: s, Row: row})
			rows[k%chunk] = nil // kept by the query: the next chunk allocates its own
		}
		add := func(j int) {
			ps.I = append(ps.I, int32(u.Global(g, s)))
			ps.J = append(ps.J, int32(u.Global(g, j)))
			ps.D = append(ps.D, row[j])
			ps.Graph = append(ps.Graph, int32(g))
			ps.Batch = append(ps.Batch, uint8(k%TauBatches))
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
			add(engine.OtherThan(rng.Rand, n, s))
		}
	}
	return ps, queries
}
