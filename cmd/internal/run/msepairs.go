package run

import (
	"fmt"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/objective"
)

// msePairs is the MSE term's distance supervision: every intra-graph pair
// i < j with its target t = 1 − 1/d^α, bound once when they fit the
// --mse-pairs cap, otherwise a uniform sample (with replacement) of cap
// pairs redrawn every epoch from the seeded "mse-pairs" stream.
type msePairs struct {
	blocks []engine.MSEBlock // fixed: every pair's target, per graph, for engine.PairMSE
	total  int
	all    objective.Pairs
	sample objective.Pairs
	slots  int
	fixed  bool // all pairs, bound once
	mode   string
	rng    *engine.Seeded

	// sampled distances: per epoch, BFS from `sources` random nodes, each
	// paired with `per` random targets of its graph.
	p                     *Prepared
	alpha                 float64
	sources, per, workers int
	stratified            bool
	byDist                []int32    // stratified: a source's row's nodes sorted by distance
	start                 []int32    // stratified: bucket starts in byDist
	rows                  [][]uint16 // the epoch's BFS rows, reused (no fresh N-row pages per epoch)
}

func newMSEPairs(p *Prepared, cfg Config, rng *engine.Seeded) *msePairs {
	alpha, limit := cfg.Alpha, cfg.MSEPairs
	m := &msePairs{rng: rng, p: p, alpha: alpha, sources: cfg.MSESources, workers: cfg.Workers}
	if !p.Exact() {
		m.per = max(1, limit/m.sources)
		m.slots = m.sources * m.per
		m.mode = fmt.Sprintf("sampled: %d pairs every epoch, %d random targets of each of %d BFS sources drawn per epoch", m.slots, m.per, m.sources)
		if cfg.MSESampling == MSEStratified {
			m.stratified = true
			m.mode += ", equally many per hop distance (stratified)"
		}
		return m
	}
	for _, s := range p.Splits {
		m.total += s.Graph.N * (s.Graph.N - 1) / 2
	}
	target := func(d uint16) float64 { return objective.Target(int(d), d != data.Unreachable, alpha) }
	if m.total <= limit && cfg.BatchSize == 0 {
		// Every pair, every epoch: targets C = 1 − 2t per graph for the
		// fused engine.PairMSE.
		m.fixed, m.slots = true, m.total
		m.mode = fmt.Sprintf("all %d intra-graph pairs every epoch", m.total)
		for g, s := range p.Splits {
			n := s.Graph.N
			c := make([]float64, n*n)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if i != j {
						c[i*n+j] = 1 - 2*target(s.Dist.At(i, j))
					}
				}
			}
			m.blocks = append(m.blocks, engine.MSEBlock{Off: p.Union.Offsets[g], N: n, C: c})
		}
		return m
	}
	for g, s := range p.Splits {
		n := s.Graph.N
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				m.all.Add(p.Union.Global(g, i), p.Union.Global(g, j), target(s.Dist.At(i, j)))
			}
		}
	}
	m.slots = min(limit, m.total)
	m.mode = fmt.Sprintf("%d of %d intra-graph pairs, resampled every epoch", m.slots, m.total)
	return m
}

// draw returns the pairs to bind this epoch, or nil when the fixed set is
// already bound.
func (m *msePairs) draw() *objective.Pairs {
	if m.fixed {
		return nil
	}
	m.sample.Reset()
	if !m.p.Exact() {
		return m.drawBFS()
	}
	for t := 0; t < m.slots; t++ {
		r := m.rng.IntN(m.all.Len())
		m.sample.Add(m.all.I[r], m.all.J[r], m.all.V[r])
	}
	return &m.sample
}

// drawBFS is the sampled path's draw: sources uniform over all nodes, then
// per source `per` targets uniform over the other nodes of its graph (with
// replacement), targets from the source's BFS row. An unbiased sample of
// the all-pairs MSE; O(sources·(N+E)) per epoch.
func (m *msePairs) drawBFS() *objective.Pairs {
	u := m.p.Union
	srcGraph, srcLocal := make([]int, m.sources), make([]int, m.sources)
	for k := range srcGraph {
		r := m.rng.IntN(u.N)
		g := graphOf(u, r)
		srcGraph[k], srcLocal[k] = g, r-u.Offsets[g]
	}
	m.rows = bfsRows(m.p.Adjs, srcGraph, srcLocal, m.workers, m.rows)
	rows := m.rows
	for k, g := range srcGraph {
		n, s := u.Graphs[g].N, srcLocal[k]
		if n < 2 {
			continue
		}
		if m.stratified {
			m.drawStratified(g, s, rows[k])
			continue
		}
		for t := 0; t < m.per; t++ {
			j := m.rng.IntN(n - 1)
			if j >= s {
				j++
			}
			d := rows[k][j]
			m.sample.Add(u.Global(g, s), u.Global(g, j), objective.Target(int(d), d != data.Unreachable, m.alpha))
		}
	}
	return &m.sample
}

// drawStratified adds m.per targets of source s (graph g, BFS row row):
// the distinct distances present in the row (unreachable counts as one)
// take turns, in a random rotation, and each turn picks a node uniformly
// within its distance. Near pairs, a vanishing share of a large graph's
// pairs, then weigh as much as far ones in the MSE. O(n) per source.
func (m *msePairs) drawStratified(g, s int, row []uint16) {
	u := m.p.Union
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
		j := int(m.byDist[lo+int32(m.rng.IntN(int(hi-lo)))])
		d := row[j]
		m.sample.Add(u.Global(g, s), u.Global(g, j), objective.Target(int(d), d != data.Unreachable, m.alpha))
	}
}
