package objective

import (
	"fmt"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// PairSampler draws the MSE term's distance supervision: every
// intra-graph pair i < j with its target t = 1 − 1/d^α, bound once when
// they fit the cap (Fixed), otherwise a uniform sample (with replacement)
// of Slots pairs redrawn every epoch from the caller's stream. On the
// sampled distance path (h not exact) an epoch's pairs come from Sources
// BFS rows of random nodes, Slots/Sources random targets each (uniform,
// or equally many per hop distance with Stratified).
type PairSampler struct {
	Blocks []engine.MSEBlock // Fixed: every pair's target, per graph, for engine.PairMSE
	Total  int               // intra-graph pairs (exact path)
	Slots  int               // pairs per epoch
	Fixed  bool              // all pairs, bound once
	Mode   string            // what the run trains on, for its result

	h          *data.Hops
	rng        *engine.Seeded
	alpha      float64
	all        Pairs
	sample     Pairs
	per        int // sampled path: targets per source
	sources    int
	stratified bool
	byDist     []int32    // stratified: a source's row's nodes sorted by distance
	start      []int32    // stratified: bucket starts in byDist
	rows       [][]uint16 // the epoch's BFS rows, reused (no fresh N-row pages per epoch)
}

// PairSamplerOptions are what a PairSampler reads of a run.
type PairSamplerOptions struct {
	Alpha float64 // the target's exponent α
	Cap   int     // most pairs per epoch (--mse-pairs)
	// MayFix lets every pair be bound once when they fit the cap (false
	// under mini-batches, which share an epoch's draw out over steps).
	MayFix     bool
	Sources    int  // sampled path: BFS sources per epoch
	Stratified bool // sampled path: equally many targets per hop distance
}

// NewPairSampler prepares the MSE supervision over h's graphs, drawing
// from rng.
func NewPairSampler(h *data.Hops, rng *engine.Seeded, o PairSamplerOptions) *PairSampler {
	m := &PairSampler{h: h, rng: rng, alpha: o.Alpha, sources: o.Sources}
	u := h.Union
	if !h.Exact() {
		m.per = max(1, o.Cap/m.sources)
		m.Slots = m.sources * m.per
		m.Mode = fmt.Sprintf("sampled: %d pairs every epoch, %d random targets of each of %d BFS sources drawn per epoch", m.Slots, m.per, m.sources)
		if o.Stratified {
			m.stratified = true
			m.Mode += ", equally many per hop distance (stratified)"
		}
		return m
	}
	for _, gr := range u.Graphs {
		m.Total += gr.N * (gr.N - 1) / 2
	}
	target := func(d uint16) float64 { return Target(int(d), d != data.Unreachable, o.Alpha) }
	if m.Total <= o.Cap && o.MayFix {
		// Every pair, every epoch: targets C = 1 − 2t per graph for the
		// fused engine.PairMSE.
		m.Fixed, m.Slots = true, m.Total
		m.Mode = fmt.Sprintf("all %d intra-graph pairs every epoch", m.Total)
		for g, gr := range u.Graphs {
			n := gr.N
			c := make([]float64, n*n)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if i != j {
						c[i*n+j] = 1 - 2*target(h.At(g, i, j))
					}
				}
			}
			m.Blocks = append(m.Blocks, engine.MSEBlock{Off: u.Offsets[g], N: n, C: c})
		}
		return m
	}
	for g, gr := range u.Graphs {
		n := gr.N
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				m.all.Add(u.Global(g, i), u.Global(g, j), target(h.At(g, i, j)))
			}
		}
	}
	m.Slots = min(o.Cap, m.Total)
	m.Mode = fmt.Sprintf("%d of %d intra-graph pairs, resampled every epoch", m.Slots, m.Total)
	return m
}

// Draw returns the pairs to bind this epoch, or nil when the fixed set is
// already bound. The set is reused by the next call.
func (m *PairSampler) Draw() *Pairs {
	if m.Fixed {
		return nil
	}
	m.sample.Reset()
	if !m.h.Exact() {
		return m.drawBFS()
	}
	for t := 0; t < m.Slots; t++ {
		r := m.rng.IntN(m.all.Len())
		m.sample.Add(m.all.I[r], m.all.J[r], m.all.V[r])
	}
	return &m.sample
}

// drawBFS is the sampled path's draw: sources uniform over all nodes, then
// per source `per` targets uniform over the other nodes of its graph (with
// replacement), targets from the source's BFS row. An unbiased sample of
// the all-pairs MSE; O(sources·(N+E)) per epoch.
func (m *PairSampler) drawBFS() *Pairs {
	u := m.h.Union
	srcGraph, srcLocal := make([]int, m.sources), make([]int, m.sources)
	for k := range srcGraph {
		srcGraph[k], srcLocal[k] = u.Local(m.rng.IntN(u.N))
	}
	m.rows = m.h.Rows(srcGraph, srcLocal, m.rows)
	for k, g := range srcGraph {
		n, s := u.Graphs[g].N, srcLocal[k]
		if n < 2 {
			continue
		}
		if m.stratified {
			m.drawStratified(g, s, m.rows[k])
			continue
		}
		for t := 0; t < m.per; t++ {
			m.add(g, s, engine.OtherThan(m.rng.Rand, n, s), m.rows[k])
		}
	}
	return &m.sample
}

// add appends the pair (s, j) of graph g with the target of row[j].
func (m *PairSampler) add(g, s, j int, row []uint16) {
	u, d := m.h.Union, row[j]
	m.sample.Add(u.Global(g, s), u.Global(g, j), Target(int(d), d != data.Unreachable, m.alpha))
}

// drawStratified adds m.per targets of source s (graph g, BFS row row):
// the distinct distances present in the row (unreachable counts as one)
// take turns, in a random rotation, and each turn picks a node uniformly
// within its distance. Near pairs, a vanishing share of a large graph's
// pairs, then weigh as much as far ones in the MSE. O(n) per source.
func (m *PairSampler) drawStratified(g, s int, row []uint16) {
	n := len(row)
	key := func(d uint16) int { // bucket of a distance; 0 = unreachable
		if d == data.Unreachable {
			return 0
		}
		return int(d)
	}
	maxD := 0
	for _, d := range row {
		if d != data.Unreachable {
			maxD = max(maxD, int(d))
		}
	}
	m.start = append(m.start[:0], make([]int32, maxD+2)...)
	for j, d := range row {
		if j != s {
			m.start[key(d)+1]++
		}
	}
	for b := 1; b < len(m.start); b++ {
		m.start[b] += m.start[b-1]
	}
	if cap(m.byDist) < n {
		m.byDist = make([]int32, n)
	}
	m.byDist = m.byDist[:n]
	next := append([]int32(nil), m.start[:maxD+1]...)
	for j, d := range row {
		if j != s {
			b := key(d)
			m.byDist[next[b]] = int32(j)
			next[b]++
		}
	}
	var buckets []int
	for b := 0; b <= maxD; b++ {
		if m.start[b+1] > m.start[b] {
			buckets = append(buckets, b)
		}
	}
	if len(buckets) == 0 {
		return
	}
	rot := m.rng.IntN(len(buckets))
	for t := 0; t < m.per; t++ {
		b := buckets[(t+rot)%len(buckets)]
		lo, hi := m.start[b], m.start[b+1]
		m.add(g, s, int(m.byDist[lo+int32(m.rng.IntN(int(hi-lo)))]), row)
	}
}
