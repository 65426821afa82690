package run

import (
	"math"

	"github.com/ignn/ignn/cmd/internal/infer"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/objective"
)

// A built run's embeddings and what is scored on them: the evaluation
// every K epochs (Evaluate), the final faithfulness, and the shards of a
// sharded embedding; the final evaluation's chunked embeddings kept for
// the faithfulness (emb32, keep).

// Embeddings runs the evaluation graph and returns the N×D embeddings.
func (c *Built) Embeddings() ([]float64, int, error) {
	c.unflip()
	if c.infer != nil {
		return c.infer.Embeddings(c.evalRN.Rand)
	}
	z, shape, err := c.fwd.Run(c.evalRN.Rand)
	if err != nil {
		return nil, 0, err
	}
	return z, shape[1], nil
}

// Evaluate scores the current embeddings (eval.GraphMetrics). Non-finite
// embeddings are an error.
func (c *Built) Evaluate() (eval.Scores, []string, error) {
	c.dropKept()
	c.p.warmSpills()
	if c.sketchAuto() {
		if err := c.chooseEnds(); err != nil {
			return eval.Scores{}, nil, err
		}
	}
	if c.float32Embeddings() {
		before := c.evalState()
		e, err := c.embeddings32()
		if err == nil && e.spill == nil && c.popularityLate() && choosePopularityIn(c, e.z, e.d) {
			_ = c.evalRN.UnmarshalBinary([]byte(before)) // made again at the chosen weight, as if made at it
			e, err = c.embeddings32()
		}
		if err != nil {
			return eval.Scores{}, nil, err
		}
		kept := c.keep(before, e)
		if e.spill == nil {
			return evaluate(c, e.z, e.d)
		}
		if !kept {
			defer e.spill.Close()
		}
		var sc eval.Scores
		warns := c.spillWarnings()
		eval.SpilledScores(e.spill, e.d, func(dot func(i, j int) float64) { // one recording: the file streams once
			c.lastVal = valScoresOf(c, dot)
			var w []string
			sc, w = c.scorer.SampledMetricsOf(dot, c.p.Splits, c.p.Union, c.p.TauSample)
			warns = append(warns, w...)
		})
		return sc, warns, nil
	}
	before := c.evalState()
	z, d, err := c.Embeddings()
	if err == nil && c.popularityLate() && choosePopularityIn(c, z, d) {
		_ = c.evalRN.UnmarshalBinary([]byte(before))
		z, d, err = c.Embeddings()
	}
	if err != nil {
		return eval.Scores{}, nil, err
	}
	return evaluate(c, z, d)
}

// widen is z as float64 values (z itself when it is).
func widen[T engine.Float](z []T) []float64 {
	if v, ok := any(z).([]float64); ok {
		return v
	}
	v := make([]float64, len(z))
	for i, x := range z {
		v[i] = float64(x)
	}
	return v
}

// float32Embeddings reports whether the evaluations keep the embeddings in
// float32 (float32Embeddings of the run's configuration).
func (c *Built) float32Embeddings() bool { return float32Embeddings(c.cfg, c.p.Union.N) }

// unflip sets a Laplacian input's column signs back to +1 (training flips
// them at random each epoch); other inputs have none.
func (c *Built) unflip() {
	if c.lapK == 0 {
		return
	}
	for j := range c.signs {
		c.signs[j] = 1
	}
	c.p.Input.X.SetColumnSigns(c.p.EncodingCol, c.signs)
	if c.p.Input.Skip != nil {
		c.p.Input.Skip.SetColumnSigns(0, c.signs)
	}
}

// spillEmbeddings is the directory a float32 chunked evaluation on the
// sampled path writes its embeddings to (Config.Spill), or "" when it
// holds them.
func (c *Built) spillEmbeddings() string {
	if !c.float32Embeddings() || c.p.Exact() {
		return ""
	}
	return c.cfg.spillDir()
}

// evaluate scores embeddings z (width d).
func evaluate[T engine.Float](c *Built, z []T, d int) (eval.Scores, []string, error) {
	for _, v := range z {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
			return eval.Scores{}, nil, infer.DivergedError(v)
		}
	}
	if !c.p.Exact() {
		dot := eval.TapeSimilarity(&c.tape, z, d) // the pairs recorded at the first evaluation, computed ahead at the others
		c.lastVal = valScoresOf(c, dot)
		s, warns := c.scorer.SampledMetricsOf(dot, c.p.Splits, c.p.Union, c.p.TauSample)
		c.tape.Done()
		return s, warns, nil
	}
	c.lastVal = valScoresOf(c, eval.TapeSimilarity(&c.tape, z, d)) // as on the sampled path: the validation pairs computed ahead, concurrently
	c.tape.Done()
	s, warns := c.scorer.GraphMetrics(widen(z), d, c.p.Splits, c.p.Union)
	return s, warns, nil
}

// valScores are the validation yardsticks of one evaluation.
type valScores struct {
	Tau, BCE, MSE, Rank float64
}

// valScores computes them for embeddings of row products dot, with the
// objective's own forward values: τ over the validation sample, the BCE of the cosine
// logit on every graph's validation positives and negatives, the paper's
// MSE over the sample, and the ranking loss over its triples. Means; NaN
// where empty.
func valScoresOf(c *Built, dot func(i, j int) float64) valScores {
	temp := c.cfg.RankTemp
	if temp == 0 {
		temp = DefaultRankTemp
	}
	v := &c.val.Pairs
	return valScores{Tau: c.scorer.SampleTauOf(dot, v), BCE: objective.LogisticMean(dot, &c.valBCE),
		MSE: objective.MSEMean(dot, v.I, v.J, v.D, c.cfg.Alpha), Rank: objective.RankMean(dot, c.val.Triples, temp)}
}

// FaithfulnessK is the k of the reported precision@k.
const FaithfulnessK = 10

// maxQueries bounds the exact path's faithfulness queries (every node of
// small graphs; evenly spaced nodes beyond).
const maxQueries = 2000

// Faithfulness scores the current embeddings' faithfulness to hop distance
// (eval.FaithfulnessOf) around the run's query nodes.
func (c *Built) Faithfulness() (*Faithfulness, error) {
	e := c.takeKept()
	if e == nil && c.float32Embeddings() {
		var err error
		if e, err = c.embeddings32(); err != nil {
			return nil, err
		}
	}
	if e != nil {
		if e.spill != nil {
			defer e.spill.Close()
			return faithJSON(eval.FaithfulnessRows(e.spill.Block, e.d, c.p.Union, c.p.Queries, FaithfulnessK)), nil
		}
		return faithfulness(c, e.z, e.d), nil
	}
	z, d, err := c.Embeddings()
	if err != nil {
		return nil, err
	}
	return faithfulness(c, z, d), nil
}

// faithfulness scores embeddings z (width d) around the run's queries.
func faithfulness[T engine.Float](c *Built, z []T, d int) *Faithfulness {
	qs := c.p.Queries
	if c.p.Exact() {
		u := c.p.Union
		step := max(1, (u.N+maxQueries-1)/maxQueries)
		qs = nil
		for r := 0; r < u.N; r += step {
			g, i := u.Local(r)
			qs = append(qs, eval.Query{Graph: g, Node: i, Row: c.p.Hops.Row(g, i)})
		}
	}
	return faithJSON(eval.FaithfulnessOf(z, d, c.p.Union, qs, FaithfulnessK))
}

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
