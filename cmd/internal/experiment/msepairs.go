package experiment

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
	all    objective.Pairs
	sample objective.Pairs
	slots  int
	fixed  bool // all pairs, bound once
	mode   string
	rng    *engine.Seeded
}

func newMSEPairs(p *Prepared, alpha float64, limit int, rng *engine.Seeded) *msePairs {
	m := &msePairs{rng: rng}
	for g, s := range p.Splits {
		n := s.Graph.N
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				d := s.Dist.At(i, j)
				m.all.Add(p.Union.Global(g, i), p.Union.Global(g, j), objective.Target(int(d), d != data.Unreachable, alpha))
			}
		}
	}
	total := m.all.Len()
	m.slots, m.fixed = total, true
	m.mode = fmt.Sprintf("all %d intra-graph pairs every epoch", total)
	if total > limit {
		m.slots, m.fixed = limit, false
		m.mode = fmt.Sprintf("%d of %d intra-graph pairs, resampled every epoch", limit, total)
	}
	return m
}

// draw returns the pairs to bind this epoch, or nil when the fixed set is
// already bound.
func (m *msePairs) draw() *objective.Pairs {
	if m.fixed {
		return nil
	}
	m.sample.Reset()
	for t := 0; t < m.slots; t++ {
		r := m.rng.IntN(m.all.Len())
		m.sample.Add(m.all.I[r], m.all.J[r], m.all.V[r])
	}
	return &m.sample
}
