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

// TauBFSRows is the most BFS rows of an n-node graph the τ or validation
// sample's Fill holds at once: TauRows(n), or more on a small world
// (data.Hops.ChunkRows) — for a memory plan made before the graph is
// known to be one.
func TauBFSRows(n int) int { return max(TauRows(n), data.SweepRows(n)) }

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
// It is PlanTauSample then TauPlan.Fill of every source.
func DrawTauSample(h *data.Hops, sources, pairs int, seed uint64) (*PairSample, []Query) {
	ps, qs, _ := DrawTauSampleSpilled(h, sources, pairs, seed, "")
	return ps, qs
}

// DrawTauSampleSpilled is DrawTauSample keeping the queries' rows in a
// spill file in dir (none: "", held as DrawTauSample's), written as the
// BFS makes them: the same sample and the same queries' distances.
func DrawTauSampleSpilled(h *data.Hops, sources, pairs int, seed uint64, dir string) (*PairSample, []Query, error) {
	p := PlanTauSample(h.Union, sources, pairs, seed)
	if dir != "" {
		q := 0
		for k := range p.Sample.Sources {
			if p.IsQuery(k) {
				q++
			}
		}
		s, err := data.NewSpill[uint16](dir, q, data.MaxNodes(h.Union.Graphs))
		if err != nil {
			return nil, nil, err
		}
		p.QueryRows = s
	}
	p.Sample.D = make([]uint16, p.Sample.Len())
	qs, err := p.Fill(h, 0, p.Sample.Sources, p.Sample.D)
	if err != nil {
		return nil, nil, err
	}
	return p.Sample, qs, nil
}

// TauPlan is the fixed τ sample drawn but not measured: its sources and
// pairs (Sample, whose D is nil), from which the distances of any range of
// sources can be filled on their own — by separate processes, a Slurm
// array's tasks (issue 37), each BFS row the same whoever computes it.
type TauPlan struct {
	Sample             *PairSample
	srcGraph, srcLocal []int
	start              []int // pairs of source k: start[k] … start[k+1]
	stride, chunk      int   // every stride-th source is a query; BFS rows at a time
	// QueryRows, when set, receives the queries' rows as Fill makes
	// them (row q for the q-th query Fill meets, padded with Unreachable
	// to its width), and the queries read them from it.
	QueryRows *data.Spill[uint16]
	spilled   int // rows written to QueryRows
}

// PlanTauSample draws DrawTauSample's sources and pairs from seed's
// "tau-sample" stream (the same draws, in the same order) without a BFS.
// O(sources + pairs).
func PlanTauSample(u *data.Union, sources, pairs int, seed uint64) *TauPlan {
	rng := engine.NewSeeded(seed, "tau-sample")
	ps := &PairSample{Batches: TauBatches}
	p := &TauPlan{Sample: ps}
	for g, gr := range u.Graphs {
		if gr.N < 2 {
			continue
		}
		k := max(1, int(int64(sources)*int64(gr.N)/int64(u.N)))
		for t := 0; t < k; t++ {
			p.srcGraph, p.srcLocal = append(p.srcGraph, g), append(p.srcLocal, rng.IntN(gr.N))
		}
	}
	ps.Sources = len(p.srcGraph)
	per := max(1, pairs/max(1, ps.Sources))
	p.chunk = TauRows(data.MaxNodes(u.Graphs))        // rows are one graph's long
	p.stride = max(1, (ps.Sources+p.chunk-1)/p.chunk) // every stride-th source is a query
	for k, g := range p.srcGraph {
		p.start = append(p.start, len(ps.I))
		n, s := u.Graphs[g].N, p.srcLocal[k]
		add := func(j int) {
			ps.I = append(ps.I, int32(u.Global(g, s)))
			ps.J = append(ps.J, int32(u.Global(g, j)))
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
	p.start = append(p.start, len(ps.I))
	return p
}

// Pairs returns the pair range [lo, hi) of sources [from, to).
func (p *TauPlan) Pairs(from, to int) (lo, hi int) { return p.start[from], p.start[to] }

// IsQuery reports whether source k is kept with its row as a faithfulness
// query.
func (p *TauPlan) IsQuery(k int) bool { return k%p.stride == 0 }

// Fill computes the hop distances of the pairs of sources [from, to) into
// d (indexed as Sample's pairs: d[Pairs(from, to)] is written) by one BFS
// per source, p's chunk of rows at a time (more on a small world:
// data.Hops.ChunkRows), and returns those sources'
// faithfulness queries (IsQuery) with their rows (in QueryRows when set;
// an error is its write's). Deterministic whatever h.Workers is and
// however the sources are split into ranges.
func (p *TauPlan) Fill(h *data.Hops, from, to int, d []uint16) ([]Query, error) {
	u := h.Union
	var queries []Query
	var rows [][]uint16
	var pad []uint16
	chunk := h.ChunkRows(p.chunk)
	for k := from; k < to; k++ {
		if (k-from)%chunk == 0 {
			hi := min(k+chunk, to)
			rows = h.Rows(p.srcGraph[k:hi], p.srcLocal[k:hi], rows)
		}
		g, row := p.srcGraph[k], rows[(k-from)%chunk]
		switch {
		case p.IsQuery(k) && p.QueryRows != nil:
			w := row
			if len(row) < p.QueryRows.Cols {
				pad = append(append(pad[:0], row...), make([]uint16, p.QueryRows.Cols-len(row))...)
				for i := len(row); i < len(pad); i++ {
					pad[i] = data.Unreachable
				}
				w = pad
			}
			if err := p.QueryRows.Set(p.spilled, w); err != nil {
				return nil, err
			}
			queries = append(queries, SpilledQuery(g, p.srcLocal[k], p.QueryRows, p.spilled))
			p.spilled++
		case p.IsQuery(k):
			queries = append(queries, p.Query(k, row))
			rows[(k-from)%chunk] = nil // kept by the query: the next chunk allocates its own
		}
		off := u.Offsets[g]
		for t := p.start[k]; t < p.start[k+1]; t++ {
			d[t] = row[int(p.Sample.J[t])-off]
		}
	}
	return queries, nil
}

// Query is source k's faithfulness query with its BFS row (IsQuery(k)).
func (p *TauPlan) Query(k int, row []uint16) Query {
	return Query{Graph: p.srcGraph[k], Node: p.srcLocal[k], Row: row}
}

// RowLen is the length of source k's BFS row: its graph's node count.
func (p *TauPlan) RowLen(u *data.Union, k int) int { return u.Graphs[p.srcGraph[k]].N }
