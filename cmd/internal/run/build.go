package run

import (
	"gorgonia.org/tensor"

	"github.com/ignn/ignn/cmd/internal/batch"
	"github.com/ignn/ignn/cmd/internal/infer"
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
	infer *infer.Inferer  // chunks of nodes (mini-batch runs from ChunkedInferenceNodes on)
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
	batch                 *batch.Batcher  // nil: whole-graph steps
	val                   *eval.ValSample // the validation pair sample (issue 29)
	valBCE                objective.Pairs // every graph's validation negatives, then positives
	lastVal               valScores       // its yardsticks at the last Evaluate
	tape                  eval.PairTape   // the pairs the evaluations ask for (eval/pairtape.go)
	mseEpoch              objective.Pairs // mini-batches: the epoch's MSE sample, shared out over the steps
	msePart               objective.Pairs
	next                  *nextBatch // the batch being prepared ahead (Batch), or nil
	ahead                 int        // batches Batch took from ahead
	keepNext              bool       // the next Evaluate keeps its embeddings for the faithfulness (the final epoch's)
	kept                  *emb32     // what it kept (evaluate.go: keep)
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
	if p.Input.Popularity != nil && cfg.ModelConfig.PopularityAuto {
		p.setPopularity(0) // each run chooses from the column unused (a Prepared may be built again)
	}
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
		train := make([][]data.Pair, len(p.Splits))
		for g, s := range p.Splits {
			train[g] = s.Train
		}
		whole := *p.Input // training graphs leave the sketch out: their batches need not stage its rows
		whole.Sketch, whole.SketchMix, whole.Popularity, whole.PopularityMix = nil, nil, nil, nil
		c.batch, err = batch.New(batch.Input{Union: p.Union, Train: train, Graph: &whole, Seed: cfg.Seed,
			Size: cfg.BatchSize, Steps: cfg.BatchSteps, Fanout: cfg.BatchFanout, Layers: cfg.ModelConfig.Layers})
		if err != nil {
			return nil, err
		}
		nTrain = cfg.BatchSize
	}
	obj := cfg.Objective()
	var mseIn objective.MSEInput
	if obj.LambdaMSE > 0 && obj.Distance == objective.DistanceRank {
		c.rank = objective.NewTripleSampler(p.Hops, c.mseRN, cfg.RankTriples, cfg.MSESources, cfg.RankPairs)
		if dir := cfg.spillDir(); dir != "" {
			c.rank.SpillTo(dir)
		}
		if cfg.RankFixedSources {
			if err := c.rank.FixSources(engine.Stream(cfg.Seed, "rank-sources")); err != nil {
				return nil, err
			}
		}
		if sources, every := capacityThinning(cfg, p.Union.N); every > 0 {
			c.rank.Thin(sources, every)
		}
		mseIn.Triples = cfg.RankTriples
	} else if obj.LambdaMSE > 0 {
		c.mse = objective.NewPairSampler(p.Hops, c.mseRN, objective.PairSamplerOptions{Alpha: cfg.Alpha, Cap: cfg.MSEPairs,
			MayFix: cfg.BatchSize == 0, Sources: cfg.MSESources, Stratified: cfg.MSESampling == MSEStratified})
		mseIn.Slots = c.mse.Slots
		if c.batch != nil {
			mseIn.Slots = (c.mse.Slots + c.batch.Steps - 1) / c.batch.Steps
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
		c.batch.Allocate(cfg.BatchNodes, 4*nTrain+perTriple*mseIn.Triples+2*mseIn.Slots)
		in = c.batch.Input()
	}
	z, err := models.Build(model, bTrain, in)
	if err != nil {
		return nil, err
	}
	mseIn.On = bTrain.DistanceView
	if c.loss, err = objective.Build(bTrain, z, obj, 2*nTrain, mseIn); err != nil {
		return nil, err
	}
	c.tr, err = engine.NewTrainer(bTrain, c.loss.Total, c.loss.Terms,
		engine.TrainOptions{LR: cfg.LR, WeightDecay: cfg.WeightDec}, c.dropRN.Rand)
	if err != nil {
		return nil, err
	}
	if chunked(cfg, p.Union.N) {
		c.infer, err = infer.New(infer.Input{Graph: p.Input, Model: model, Params: c.ps, Layers: cfg.ModelConfig.Layers, Slots: c.batch.Slots.Sub.Slots})
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

// Objective is the loss configuration of a resolved Config.
func (c Config) Objective() objective.Config {
	return objective.Config{LambdaBCE: c.LambdaBCE, LambdaMSE: c.LambdaMSE, Alpha: c.Alpha, Distance: c.DistanceLoss, RankTemp: c.RankTemp}
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
// (all, or BCESample of them drawn per graph) with freshly drawn negatives
// (as many, per graph), the MSE sample when the pairs do not fit, and
// random signs for Laplacian eigenvector inputs (an eigenvector's sign is
// arbitrary; evaluation uses the stored signs).
func (c *Built) Feed(epoch int) error {
	c.settle() // none is ahead between epochs (Batch prepares none past an epoch's last step); the signs below change the source rows
	c.p.warmSpills()
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
			k := len(s.Train)
			if m := c.cfg.BCESample; m > 0 && m < k { // a uniform draw with replacement, from the negatives' stream
				for range m {
					i, j := u.GlobalPair(g, s.Train[c.negRN.IntN(k)])
					c.bce.Add(i, j, 1)
				}
				k = m
			} else {
				for _, q := range s.Train {
					i, j := u.GlobalPair(g, q)
					c.bce.Add(i, j, 1)
				}
			}
			for _, q := range s.SampleTrainNegatives(c.negRN.Rand, k) {
				i, j := u.GlobalPair(g, q)
				c.bce.Add(i, j, 0)
			}
		}
		if err := c.loss.BCE.Bind(&c.bce); err != nil {
			return err
		}
	}
	if c.rank != nil {
		tr, err := c.rank.Draw()
		if err != nil {
			return err
		}
		return c.loss.Rank.Bind(tr)
	}
	if c.mse != nil {
		if pairs := c.mse.Draw(); pairs != nil {
			return c.loss.MSE.Bind(pairs)
		}
	}
	return nil
}

// Close releases the machines.
func (c *Built) Close() {
	c.settle()
	c.dropKept()
	if c.tr != nil {
		c.tr.Close()
	}
	if c.infer != nil {
		c.infer.Close()
	}
	if c.fwd != nil {
		c.fwd.Close()
	}
	if c.rank != nil {
		c.rank.Close()
	}
}
