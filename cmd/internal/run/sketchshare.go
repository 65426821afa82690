package run

import (
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
)

// SketchReferenceShare is the share chooseShare's embeddings are made at
// under --sketch-share 0 (and a spilled evaluation's).
const SketchReferenceShare = 0.5

// The shares --sketch-share 0 tries (the model's embedding alone first),
// and the validation τ the sketch may cost for validation AUC.
var sketchShares = []float64{1, 0.85, 0.7, 0.55, 0.4}

const sketchTauGive = 0.01

func (c *Built) sketchAuto() bool {
	return c.p.Input.Sketch != nil && c.cfg.ModelConfig.SketchShare == 0
}

// chooseShare picks the sketch's share on the validation pairs
// (eval.ChooseMix: the best validation AUC, if it gains more than its
// standard error, for at most sketchTauGive of validation τ) from
// embeddings made at SketchReferenceShare, where both parts can be read
// (eval.Mixed), and leaves it in the input for the forward passes that
// follow: the evaluation's own, and those of the embeddings written,
// faithfulness and checkpoints. Its forward pass leaves the evaluation
// stream as it was. A spilled evaluation keeps the reference share (the
// warning says so).
func (c *Built) chooseShare() error {
	mix := c.p.Input.SketchMix
	mix.W = SketchReferenceShare
	if c.spillEmbeddings() != "" {
		return nil
	}
	state := c.evalState()
	defer func() { _ = c.evalRN.UnmarshalBinary([]byte(state)) }()
	var ch eval.MixChoice
	if c.float32Embeddings() {
		z, d, err := c.infer.Embeddings32(c.evalRN.Rand)
		if err != nil {
			return err
		}
		ch = choose(c, z, d)
	} else {
		z, d, err := c.Embeddings()
		if err != nil {
			return err
		}
		ch = choose(c, z, d)
	}
	mix.W = ch.Share
	return nil
}

func choose[T engine.Float](c *Built, z []T, d int) eval.MixChoice {
	tail := 0 // the popularity column, after the sketch, is not part of the mix
	if c.p.Input.Popularity != nil {
		tail = 1
	}
	x := eval.NewMixedTail(z, d, c.cfg.ModelConfig.Sketch, tail)
	labels := make([]bool, len(c.valBCE.V))
	nPos := 0
	for k, v := range c.valBCE.V {
		if labels[k] = v > 0.5; labels[k] {
			nPos++
		}
	}
	scores := make([]float64, len(labels))
	pairs, sample := eval.PartsOf(x, c.valBCE.I, c.valBCE.J), eval.PartsOf(x, c.val.Pairs.I, c.val.Pairs.J)
	auc := func(v float64) float64 {
		sim := pairs.Sim(v)
		for k := range scores {
			scores[k] = sim(k)
		}
		return eval.AUC(scores, labels)
	}
	tau := func(v float64) float64 { return c.scorer.SampleTauAt(sample.Sim(v), &c.val.Pairs) }
	return eval.ChooseMix(sketchShares, sketchTauGive, nPos, len(labels)-nPos, auc, tau)
}
