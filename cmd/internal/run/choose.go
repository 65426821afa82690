package run

import (
	"fmt"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/models"
)

// What an evaluation chooses on the validation pairs before it scores:
// the model's share beside the neighbourhood sketch (--sketch-share 0) and
// the popularity column's weight (--popularity auto).

// SketchReferenceShare is the share chooseEnds's embeddings are made at
// under --sketch-share 0 (and a spilled evaluation's).
const SketchReferenceShare = 0.5

// The shares --sketch-share 0 tries (the model's embedding alone first),
// and the validation τ the sketch may cost for validation AUC.
var sketchShares = []float64{1, 0.85, 0.7, 0.55, 0.4}

const sketchTauGive = 0.01

// popularityTauGive is the validation τ the popularity column may cost for
// validation AUC under --popularity auto: half the sketch's. At the
// sketch's 0.01, plc:20000:4:0.5 took b 0.1 over 0.03 at two seeds of three
// for +0.006 to +0.007 test AUC and −0.014 to −0.016 test τ (GCN;
// docs/frontier-notes.md, tenth session); the recipe is for distances first.
const popularityTauGive = 0.005

func (c *Built) sketchAuto() bool {
	return c.p.Input.Sketch != nil && c.cfg.ModelConfig.SketchShare == 0
}

func (c *Built) popularityAuto() bool {
	return c.p.Input.Popularity != nil && c.cfg.ModelConfig.PopularityAuto
}

// chooseEnds, under --sketch-share 0, picks, on the validation pairs, the sketch's share
// (eval.ChooseMix: the best validation AUC, if it gains more than its
// standard error, for at most sketchTauGive of validation τ) from
// embeddings made at SketchReferenceShare, where both parts can be read
// (eval.Mixed), then the popularity column's weight among
// models.PopularityWeights by the same rule (popularityTauGive) at that
// share, from the same embeddings: a pair's cosine with the column is a
// function of the cosine before it and of the two nodes' column values
// (eval.PopularityCos). It leaves both in the input for the forward passes
// that follow: the evaluation's own, and those of the embeddings written,
// faithfulness and checkpoints. Its forward pass leaves the evaluation
// stream as it was. A spilled evaluation keeps the reference share and
// the column's current weight (spillWarnings says so). Without the
// sketch's choice, the column's weight is chosen from the evaluation's own
// embeddings (popularityLate).
func (c *Built) chooseEnds() error {
	if c.sketchAuto() {
		c.p.Input.SketchMix.W = SketchReferenceShare
	}
	if c.spillEmbeddings() != "" {
		return nil
	}
	state := c.evalState()
	defer func() { _ = c.evalRN.UnmarshalBinary([]byte(state)) }()
	if c.float32Embeddings() {
		z, d, err := c.infer.Embeddings32(c.evalRN.Rand)
		if err != nil {
			return err
		}
		chooseEnds(c, z, d)
		return nil
	}
	z, d, err := c.Embeddings()
	if err != nil {
		return err
	}
	chooseEnds(c, z, d)
	return nil
}

// spillWarnings say what a spilled evaluation could not choose.
func (c *Built) spillWarnings() []string {
	var w []string
	if c.sketchAuto() {
		w = append(w, fmt.Sprintf("choosing the sketch's share on the validation pairs (--sketch-share 0) needs the embeddings in memory, and they are spilled: the sketch keeps the share %g (give one with --sketch-share)", SketchReferenceShare))
	}
	if c.popularityAuto() {
		w = append(w, fmt.Sprintf("choosing the popularity column's weight on the validation pairs (--popularity auto) needs the embeddings in memory, and they are spilled: the column keeps the weight %g (give one with --popularity)", c.p.popB))
	}
	return w
}

func chooseEnds[T engine.Float](c *Built, z []T, d int) {
	tail, m := 0, 0 // the popularity column, after the sketch, is not part of the mix
	if c.p.Input.Popularity != nil {
		tail = 1
	}
	if c.sketchAuto() {
		m = c.cfg.ModelConfig.Sketch
	}
	x := eval.NewMixedTail(z, d, m, tail) // without m, one part: every column before the tail
	v := newValChoice(c, x)
	share := 1.0 // Mixed's one part: its cosine
	if c.sketchAuto() {
		share = v.choose(sketchShares, sketchTauGive, v.pairs.Sim, v.sample.Sim).Share
		c.p.Input.SketchMix.W = share
	}
	if c.popularityAuto() {
		v.choosePopularity(share)
	}
}

// popularityLate reports whether the popularity column's weight is chosen
// from the evaluation's own embeddings (choosePopularityIn) rather than by
// chooseEnds: when nothing else is chosen first, so the choice costs no
// forward pass of its own unless it changes the weight.
func (c *Built) popularityLate() bool { return c.popularityAuto() && !c.sketchAuto() }

// choosePopularityIn chooses the popularity column's weight from
// embeddings z at the column's current weight, and reports whether it
// changed: the embeddings must then be made again.
func choosePopularityIn[T engine.Float](c *Built, z []T, d int) bool {
	b := c.p.popB
	newValChoice(c, eval.NewMixedTail(z, d, 0, 1)).choosePopularity(1)
	return c.p.popB != b
}

// valChoice scores embeddings read through an eval.Mixed on the
// validation pairs (AUC) and the validation sample (τ) at any setting.
type valChoice struct {
	c             *Built
	labels        []bool
	nPos          int
	scores        []float64
	pairs, sample eval.MixParts
}

func newValChoice[T engine.Float](c *Built, x *eval.Mixed[T]) *valChoice {
	v := &valChoice{c: c, labels: make([]bool, len(c.valBCE.V))}
	for k, y := range c.valBCE.V {
		if v.labels[k] = y > 0.5; v.labels[k] {
			v.nPos++
		}
	}
	v.scores = make([]float64, len(v.labels))
	v.pairs, v.sample = eval.PartsOf(x, c.valBCE.I, c.valBCE.J), eval.PartsOf(x, c.val.Pairs.I, c.val.Pairs.J)
	return v
}

// choose is eval.ChooseMix over settings vs, pairSim and sampleSim the
// validation pairs' and the sample's cosines at a setting.
func (v *valChoice) choose(vs []float64, give float64, pairSim, sampleSim func(w float64) func(k int) float64) eval.MixChoice {
	auc := func(w float64) float64 { return v.auc(pairSim(w)) }
	tau := func(w float64) float64 { return v.tau(sampleSim(w)) }
	return eval.ChooseMix(vs, give, v.nPos, len(v.labels)-v.nPos, auc, tau)
}

// auc is the validation AUC of the pairs' cosines sim.
func (v *valChoice) auc(sim func(k int) float64) float64 {
	for k := range v.scores {
		v.scores[k] = sim(k)
	}
	return eval.AUC(v.scores, v.labels)
}

// tau is the validation sample's τ for its cosines sim.
func (v *valChoice) tau(sim func(k int) float64) float64 {
	return v.c.scorer.SampleTauAt(sim, &v.c.val.Pairs)
}

// choosePopularity sets the popularity column's weight to the one chosen
// among models.PopularityWeights (popularityTauGive) on the cosines before
// the column at the sketch's share (1: the one part), and returns the
// choice.
func (v *valChoice) choosePopularity(share float64) eval.MixChoice {
	pairAt, sampleAt := v.popularitySims(share)
	ch := v.choose(models.PopularityWeights, popularityTauGive, pairAt, sampleAt)
	v.c.p.setPopularity(ch.Share)
	return ch
}

// popularitySims are the validation pairs' and the sample's cosines with
// the popularity column at weight b (eval.PopularityCos), from their
// cosines before it at the sketch's share.
func (v *valChoice) popularitySims(share float64) (pairAt, sampleAt func(b float64) func(k int) float64) {
	c := v.c
	g := c.p.popLog
	withColumn := func(sim func(k int) float64, I, J func(k int) int) func(b float64) func(k int) float64 {
		return func(b float64) func(k int) float64 {
			return func(k int) float64 {
				return eval.PopularityCos(sim(k), 1+b*g[I(k)], 1+b*g[J(k)], models.PopularityShare)
			}
		}
	}
	vI, vJ := c.valBCE.I, c.valBCE.J
	sI, sJ := c.val.Pairs.I, c.val.Pairs.J
	return withColumn(v.pairs.Sim(share), func(k int) int { return vI[k] }, func(k int) int { return vJ[k] }),
		withColumn(v.sample.Sim(share), func(k int) int { return int(sI[k]) }, func(k int) int { return int(sJ[k]) })
}

// setPopularity gives the popularity column the weight b (its values as
// features.Popularity makes them).
func (p *Prepared) setPopularity(b float64) {
	if b == p.popB {
		return
	}
	g := p.popLog
	p.Input.Popularity.SetDense(func(i int) float64 { return 1 + b*g[i] })
	p.popB = b
}
