package run

import (
	"fmt"

	"github.com/ignn/ignn/objective"
)

// feedEpoch draws what a mini-batch epoch shares out over its steps: the
// ranking term's BFS sources and rows (sampled path), or the epoch's MSE
// sample.
func (c *Cell) feedEpoch() error {
	if c.rank != nil {
		c.rank.refresh()
	}
	if c.mse != nil {
		c.mseEpoch.Reset()
		if ps := c.mse.draw(); ps != nil {
			c.mseEpoch.I, c.mseEpoch.J, c.mseEpoch.V = append(c.mseEpoch.I, ps.I...), append(c.mseEpoch.J, ps.J...), append(c.mseEpoch.V, ps.V...)
		}
	}
	return nil
}

// Batch binds mini-batch step of epoch (after Feed(epoch)): its positives
// and negatives, its share of the distance term (RankTriples triples drawn
// for the step, or the step's equal share of the epoch's MSE sample), on
// the subgraph around their nodes.
func (c *Cell) Batch(epoch, step int) error {
	c.bce.Reset()
	perGraph := make([]int, len(c.p.Splits))
	c.batch.positives(epoch, step, &c.bce, perGraph)
	u := c.p.Union
	for g, k := range perGraph {
		if k == 0 {
			continue
		}
		for _, q := range c.p.Splits[g].SampleTrainNegatives(c.negRN.Rand, k) {
			i, j := u.GlobalPair(g, q)
			c.bce.Add(i, j, 0)
		}
	}
	pairs := []*objective.Pairs{&c.bce}
	var tri *objective.Triples
	if c.rank != nil {
		tri = c.rank.drawN(c.cfg.RankTriples)
	}
	if c.mse != nil {
		n, steps := c.mseEpoch.Len(), c.batch.steps
		lo, hi := n*step/steps, n*(step+1)/steps
		c.msePart.Reset()
		c.msePart.I, c.msePart.J, c.msePart.V = append(c.msePart.I, c.mseEpoch.I[lo:hi]...), append(c.msePart.J, c.mseEpoch.J[lo:hi]...), append(c.msePart.V, c.mseEpoch.V[lo:hi]...)
		pairs = append(pairs, &c.msePart)
	}
	if err := c.batch.load(epoch, step, pairs, tri); err != nil {
		return err
	}
	if c.loss.BCE != nil {
		if err := c.loss.BCE.Bind(&c.bce); err != nil {
			return err
		}
	}
	if c.rank != nil {
		if err := c.loss.Rank.Bind(tri); err != nil {
			return fmt.Errorf("ranking triples (every draw tied?): %w", err)
		}
	}
	if c.mse != nil {
		if err := c.loss.MSE.Bind(&c.msePart); err != nil {
			return fmt.Errorf("the step's share of the epoch's %d MSE pairs over %d steps: %w", c.mseEpoch.Len(), c.batch.steps, err)
		}
	}
	return nil
}
