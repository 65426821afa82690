package run

import "github.com/ignn/ignn/data"

// emb32 is what the chunked float32 inference computed: the embeddings
// held (z), or in a spill file on the sampled path with --spill.
type emb32 struct {
	step  int // Adam's steps when computed (Built.kept)
	z     []float32
	spill *data.Spill[float32]
	d     int
}

// embeddings32 runs the chunked float32 inference (Built.float32Embeddings).
func (c *Built) embeddings32() (*emb32, error) {
	if dir := c.spillEmbeddings(); dir != "" {
		s, d, err := c.infer.EmbeddingsSpilled(c.evalRN.Rand, dir)
		return &emb32{spill: s, d: d}, err
	}
	z, d, err := c.infer.Embeddings32(c.evalRN.Rand)
	return &emb32{z: z, d: d}, err
}

// evalState is the evaluation stream's state.
func (c *Built) evalState() string {
	b, _ := c.evalRN.MarshalBinary()
	return string(b)
}

// steps is how many optimiser steps the parameters have taken.
func (c *Built) steps() int { return c.tr.Adam.T }

// keep holds k, the embeddings of the evaluation Built.keepNext marks (the
// final epoch's), as Built.kept for the faithfulness that follows
// (Built.Faithfulness) in place of a second whole-graph inference (7.5
// minutes at 10⁸ nodes), and reports whether it did (the caller then leaves
// a spill open). Chunked inference is a function of the parameters and of
// what it draws from the evaluation stream, so the rows are what a second
// inference would compute, bit for bit, while Adam takes no step (takeKept
// checks) and when the inference drew nothing: the stream's state after it
// equal to before (a model that draws gets its second inference, as
// before). Only the chunked float32 inference keeps (the whole-graph
// forward pass's output is its own buffer), and only the final epoch's:
// held through training steps, they would add to the peak.
func (c *Built) keep(before string, k *emb32) bool {
	if !c.keepNext || c.evalState() != before {
		return false
	}
	k.step, c.kept = c.steps(), k
	return true
}

// takeKept returns the kept embeddings when the parameters have not
// changed since, and forgets them either way (the caller closes a spill).
func (c *Built) takeKept() *emb32 {
	k := c.kept
	c.kept = nil
	if k != nil && k.step != c.steps() {
		if k.spill != nil {
			k.spill.Close()
		}
		return nil
	}
	return k
}

// dropKept forgets (and closes) the kept embeddings.
func (c *Built) dropKept() {
	if k := c.takeKept(); k != nil && k.spill != nil {
		k.spill.Close()
	}
}
