package run

import (
	"fmt"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/objective"
)

// A mini-batch step's batch: drawn and staged (batch.Batcher.Stage), then bound
// (engine.SlotInput.Use and the terms' Bind), the next one prepared ahead
// while the step trains (engine.Prefetch).

// nextBatch is a batch being prepared ahead (Batch).
type nextBatch struct {
	epoch, step int
	tri         *engine.Ahead[*objective.Triples]
}

// Batch binds mini-batch step of epoch (after Feed(epoch)): its positives
// and negatives, its share of the distance term (RankTriples triples drawn
// for the step, or the step's equal share of the epoch's MSE sample), on
// the subgraph around their nodes. The batch is the one the previous call
// prepared ahead when that call was for the step before, else it is made
// now; then, unless step is the epoch's last (the streams are checkpointed
// between epochs), the next step's is prepared while this one trains.
func (c *Built) Batch(epoch, step int) error {
	var tri *objective.Triples
	if n := c.next; n != nil {
		c.next = nil
		t, err := n.tri.Wait()
		if n.epoch != epoch || n.step != step {
			return fmt.Errorf("batch %d of epoch %d asked for while batch %d of epoch %d was prepared ahead (its draws are taken)", step, epoch, n.step, n.epoch)
		}
		if err != nil {
			return err
		}
		tri = t
		c.ahead++
	} else {
		var err error
		if tri, err = c.stageBatch(epoch, step); err != nil {
			return err
		}
	}
	if err := c.applyBatch(tri); err != nil {
		return err
	}
	if engine.Prefetch && step+1 < c.batch.Steps {
		c.next = &nextBatch{epoch: epoch, step: step + 1, tri: engine.Go(func() (*objective.Triples, error) { return c.stageBatch(epoch, step+1) })}
	}
	return nil
}

// settle waits for a batch being prepared ahead and drops it.
func (c *Built) settle() {
	if c.next != nil {
		c.next.tri.Wait()
		c.next = nil
	}
}

// stageBatch draws step's pairs and triples and stages its subgraph and
// input rows (batch.Batcher.Stage); it returns the triples to bind.
func (c *Built) stageBatch(epoch, step int) (*objective.Triples, error) {
	c.bce.Reset()
	perGraph := make([]int, len(c.p.Splits))
	c.batch.Positives(epoch, step, &c.bce, perGraph)
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
		tri = c.rank.DrawN(c.cfg.RankTriples)
	}
	if c.mse != nil {
		n, steps := c.mseEpoch.Len(), c.batch.Steps
		lo, hi := n*step/steps, n*(step+1)/steps
		c.msePart.Reset()
		c.msePart.I, c.msePart.J, c.msePart.V = append(c.msePart.I, c.mseEpoch.I[lo:hi]...), append(c.msePart.J, c.mseEpoch.J[lo:hi]...), append(c.msePart.V, c.mseEpoch.V[lo:hi]...)
		pairs = append(pairs, &c.msePart)
	}
	return tri, c.batch.Stage(epoch, step, pairs, tri)
}

// applyBatch loads the staged batch and binds its pairs and triples (the
// terms copy them: the next batch may be staged at once).
func (c *Built) applyBatch(tri *objective.Triples) error {
	c.batch.Slots.Use(true, true)
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
			return fmt.Errorf("the step's share of the epoch's %d MSE pairs over %d steps: %w", c.mseEpoch.Len(), c.batch.Steps, err)
		}
	}
	return nil
}

// feedEpoch draws what a mini-batch epoch shares out over its steps: the
// ranking term's BFS sources and rows (sampled path), or the epoch's MSE
// sample.
func (c *Built) feedEpoch() error {
	if c.rank != nil {
		if err := c.rank.Refresh(); err != nil {
			return err
		}
	}
	if c.mse != nil {
		c.mseEpoch.Reset()
		if ps := c.mse.Draw(); ps != nil {
			c.mseEpoch.I, c.mseEpoch.J, c.mseEpoch.V = append(c.mseEpoch.I, ps.I...), append(c.mseEpoch.J, ps.J...), append(c.mseEpoch.V, ps.V...)
		}
	}
	return nil
}
