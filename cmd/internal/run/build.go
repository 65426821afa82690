package run

import (
	"fmt"
	"math"

	"gorgonia.org/tensor"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/models"
	"github.com/ignn/ignn/objective"
)

// Built is the third stage, a built run: the training graph (model +
// objective) and a forward-only evaluation graph over shared parameters,
// the trainer, and the seeded streams and pair sets each epoch draws from.
type Built struct {
	p     *Prepared
	cfg   Config
	ps    *engine.ParamStore
	tr    *engine.Trainer
	fwd   *engine.Forward // the whole-graph forward pass, or
	infer *inferer        // chunks of nodes (mini-batch runs from ChunkedInferenceNodes on)
	loss  *objective.Loss

	negRN, dropRN, evalRN *engine.Seeded
	mseRN                 *engine.Seeded // kept (and checkpointed) even without the MSE
	signRN                *engine.Seeded // LapPE sign flips (drawn only with a lap input)
	lapK                  int            // width of a Laplacian input (0: none)
	signs                 []float64
	bce                   objective.Pairs          // this epoch's BCE pairs
	mse                   *objective.PairSampler   // nil without the MSE term
	rank                  *objective.TripleSampler // nil without the ranking term
	scorer                eval.Evaluator
	batch                 *batcher        // nil: whole-graph steps
	val                   *eval.ValSample // the validation pair sample (issue 29)
	valBCE                objective.Pairs // every graph's validation negatives, then positives
	lastVal               valScores       // its yardsticks at the last Evaluate
	mseEpoch              objective.Pairs // mini-batches: the epoch's MSE sample, shared out over the steps
	msePart               objective.Pairs
}

// privateBuffers turns the engine's buffer sharing off (tests compare).
var privateBuffers bool

// Build constructs the graphs and the trainer for a resolved cfg.
func Build(p *Prepared, cfg Config) (*Built, error) {
	entry, err := models.Lookup(cfg.Model)
	if err != nil {
		return nil, err
	}
	dt := tensor.Float32
	if cfg.DType == Float64 {
		dt = tensor.Float64
	}
	c := &Built{p: p, cfg: cfg, ps: engine.NewParamStore(dt, engine.Stream(cfg.Seed, "init")),
		negRN: engine.NewSeeded(cfg.Seed, "negatives"), evalRN: engine.NewSeeded(cfg.Seed, "eval"),
		dropRN: engine.NewSeeded(cfg.Seed, "dropout"), mseRN: engine.NewSeeded(cfg.Seed, "mse-pairs"),
		signRN: engine.NewSeeded(cfg.Seed, "lap-signs")}
	c.ps.PrivateBuffers = privateBuffers
	if c.val = p.val; c.val == nil { // --skip-polar auto drew them in Prepare, from the same configuration
		c.val = p.valSample(cfg)
	}
	c.scorer.Exclude = c.val.Exclude
	for g, sp := range p.Splits {
		for y, ps := range [][]data.Pair{sp.ValNeg, sp.Val} {
			for _, q := range ps {
				i, j := p.Union.GlobalPair(g, q)
				c.valBCE.Add(i, j, float64(y))
			}
		}
	}
	if pos := cfg.Position; pos.Kind == features.PosLap {
		c.lapK, c.signs = pos.K, make([]float64, pos.K)
	}
	model := entry.New(cfg.ModelConfig)
	bTrain := engine.NewBuilder(c.ps, true)
	nTrain := 0
	for _, s := range p.Splits {
		nTrain += len(s.Train)
	}
	if cfg.BatchSize > 0 {
		if c.batch, err = newBatcher(p, cfg.Seed, cfg.BatchSize, cfg.BatchSteps, cfg.BatchFanout, cfg.ModelConfig.Layers); err != nil {
			return nil, err
		}
		nTrain = cfg.BatchSize
	}
	obj := cfg.Objective()
	var mseIn objective.MSEInput
	if obj.LambdaMSE > 0 && obj.Distance == objective.DistanceRank {
		c.rank = objective.NewTripleSampler(p.Hops, c.mseRN, cfg.RankTriples, cfg.MSESources, cfg.RankPairs)
		if cfg.RankFixedSources {
			c.rank.FixSources(engine.Stream(cfg.Seed, "rank-sources"))
		}
		mseIn.Triples = cfg.RankTriples
	} else if obj.LambdaMSE > 0 {
		c.mse = objective.NewPairSampler(p.Hops, c.mseRN, objective.PairSamplerOptions{Alpha: cfg.Alpha, Cap: cfg.MSEPairs,
			MayFix: cfg.BatchSize == 0, Sources: cfg.MSESources, Stratified: cfg.MSESampling == MSEStratified})
		mseIn.Slots = c.mse.Slots
		if c.batch != nil {
			mseIn.Slots = (c.mse.Slots + c.batch.steps - 1) / c.batch.steps
		}
		if c.mse.Fixed {
			mseIn.All, mseIn.AllPairs = c.mse.Blocks, c.mse.Total
		}
	}
	in := p.Input
	if c.batch != nil {
		perTriple := 3 // nodes of a triple; a pair triple has 4
		if cfg.RankPairs {
			perTriple = 4
		}
		c.batch.allocate(cfg.BatchNodes, 4*nTrain+perTriple*mseIn.Triples+2*mseIn.Slots)
		in = c.batch.Input()
	}
	z, err := models.Build(model, bTrain, in)
	if err != nil {
		return nil, err
	}
	if c.loss, err = objective.Build(bTrain, z, obj, 2*nTrain, mseIn); err != nil {
		return nil, err
	}
	c.tr, err = engine.NewTrainer(bTrain, c.loss.Total, c.loss.Terms,
		engine.TrainOptions{LR: cfg.LR, WeightDecay: cfg.WeightDec}, c.dropRN.Rand)
	if err != nil {
		return nil, err
	}
	if c.batch != nil && p.Union.N >= ChunkedInferenceNodes {
		c.infer, err = newInferer(p, model, c.ps, cfg.ModelConfig.Layers, c.batch.sub.Slots)
		return c, err
	}
	bEval := engine.NewBuilder(c.ps, false)
	ze, err := models.Build(model, bEval, p.Input)
	if err != nil {
		return nil, err
	}
	if c.fwd, err = engine.NewForward(bEval, ze); err != nil {
		return nil, err
	}
	return c, nil
}

// Supervision says what the distance term trains on: its pairs or triples
// and how they are drawn ("" without the term).
func (c *Built) Supervision() string {
	if c.rank != nil {
		return c.rank.Mode
	}
	if c.mse == nil {
		return ""
	}
	return c.mse.Mode
}

// Feed draws the epoch's inputs and binds them: the training positives
// with freshly drawn negatives (as many, per graph), the MSE sample when
// the pairs do not fit, and random signs for Laplacian eigenvector inputs
// (an eigenvector's sign is arbitrary; evaluation uses the stored signs).
func (c *Built) Feed(epoch int) error {
	if c.lapK > 0 {
		for j := range c.signs {
			c.signs[j] = float64(1 - 2*c.signRN.IntN(2))
		}
		c.p.Input.X.SetColumnSigns(c.p.EncodingCol, c.signs)
		if c.p.Input.Skip != nil {
			c.p.Input.Skip.SetColumnSigns(0, c.signs)
		}
	}
	if c.batch != nil {
		return c.feedEpoch()
	}
	if c.loss.BCE != nil {
		c.bce.Reset()
		u := c.p.Union
		for g, s := range c.p.Splits {
			for _, q := range s.Train {
				i, j := u.GlobalPair(g, q)
				c.bce.Add(i, j, 1)
			}
			for _, q := range s.SampleTrainNegatives(c.negRN.Rand, len(s.Train)) {
				i, j := u.GlobalPair(g, q)
				c.bce.Add(i, j, 0)
			}
		}
		if err := c.loss.BCE.Bind(&c.bce); err != nil {
			return err
		}
	}
	if c.rank != nil {
		return c.loss.Rank.Bind(c.rank.Draw())
	}
	if c.mse != nil {
		if pairs := c.mse.Draw(); pairs != nil {
			return c.loss.MSE.Bind(pairs)
		}
	}
	return nil
}

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
	if c.float32Embeddings() {
		z, d, err := c.infer.Embeddings32(c.evalRN.Rand)
		if err != nil {
			return eval.Scores{}, nil, err
		}
		return evaluate(c, z, d)
	}
	z, d, err := c.Embeddings()
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
// float32: a float32 run's chunked inference, whose values are float32
// already (half the memory; the scores sum in float64 as for float64
// rows, so they are the same).
func (c *Built) float32Embeddings() bool {
	return c.infer != nil && c.cfg.DType == Float32 && c.lapK == 0
}

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

// EmbeddingShard is shard i of n of the embeddings through chunked
// inference (inferer.Shard): the run's own inferer (mini-batch runs from
// ChunkedInferenceNodes on) when slots is 0 or its slots, otherwise one on
// slots node slots (0: the training batch's), the same for every shard, so
// that the shards of one slots setting together are `--shard 0/1` of it,
// bit for bit. Whole-graph runs have no node slots to chunk into: an
// error.
func (c *Built) EmbeddingShard(i, n, slots int) ([]int, []float32, int, error) {
	if n < 1 || i < 0 || i >= n {
		return nil, nil, 0, fmt.Errorf("embedding shard %d of %d: want 0 ≤ i < n", i, n)
	}
	c.unflip()
	f := c.infer
	if f == nil || (slots > 0 && slots != f.sub.Slots) {
		if c.batch == nil {
			return nil, nil, 0, fmt.Errorf("sharded embedding runs chunked inference over a mini-batch model's node slots; this model was trained on the whole graph at once (no --batch-size): embed it in one process")
		}
		if slots <= 0 {
			slots = c.batch.sub.Slots
		}
		entry, err := models.Lookup(c.cfg.Model)
		if err != nil {
			return nil, nil, 0, err
		}
		if f, err = newInferer(c.p, entry.New(c.cfg.ModelConfig), c.ps, c.cfg.ModelConfig.Layers, slots); err != nil {
			return nil, nil, 0, err
		}
		defer f.Close()
	}
	return f.Shard(c.evalRN.Rand, i, n)
}

// evaluate scores embeddings z (width d).
func evaluate[T engine.Float](c *Built, z []T, d int) (eval.Scores, []string, error) {
	for _, v := range z {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
			return eval.Scores{}, nil, fmt.Errorf("training diverged: the embeddings contain %v (lower --lr or the λ weights)", v)
		}
	}
	c.lastVal = valScoresOf(c, z, d)
	if !c.p.Exact() {
		s, warns := c.scorer.SampledMetricsOf(engine.RowDot(z, d), c.p.Splits, c.p.Union, c.p.TauSample)
		return s, warns, nil
	}
	s, warns := c.scorer.GraphMetrics(widen(z), d, c.p.Splits, c.p.Union)
	return s, warns, nil
}

// valScores are the validation yardsticks of one evaluation.
type valScores struct {
	Tau, BCE, MSE, Rank float64
}

// valScores computes them for embeddings z (width d), with the objective's
// own forward values: τ over the validation sample, the BCE of the cosine
// logit on every graph's validation positives and negatives, the paper's
// MSE over the sample, and the ranking loss over its triples. Means; NaN
// where empty.
func valScoresOf[T engine.Float](c *Built, z []T, d int) valScores {
	temp := c.cfg.RankTemp
	if temp == 0 {
		temp = DefaultRankTemp
	}
	v := &c.val.Pairs
	return valScores{Tau: c.scorer.SampleTauOf(engine.RowDot(z, d), v), BCE: objective.LogisticMean(z, d, &c.valBCE),
		MSE: objective.MSEMean(z, d, v.I, v.J, v.D, c.cfg.Alpha), Rank: objective.RankMean(z, d, c.val.Triples, temp)}
}

// Close releases the machines.
func (c *Built) Close() {
	if c.tr != nil {
		c.tr.Close()
	}
	if c.infer != nil {
		c.infer.Close()
	}
	if c.fwd != nil {
		c.fwd.Close()
	}
}

// FaithfulnessK is the k of the reported precision@k.
const FaithfulnessK = 10

// maxQueries bounds the exact path's faithfulness queries (every node of
// small graphs; evenly spaced nodes beyond).
const maxQueries = 2000

// Faithfulness scores the current embeddings' faithfulness to hop distance
// (eval.FaithfulnessOf) around the run's query nodes.
func (c *Built) Faithfulness() (*Faithfulness, error) {
	if c.float32Embeddings() {
		z, d, err := c.infer.Embeddings32(c.evalRN.Rand)
		if err != nil {
			return nil, err
		}
		return faithfulness(c, z, d), nil
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
