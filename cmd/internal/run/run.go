package run

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/ignn/ignn/cmd/internal/memplan"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
)

// Run trains one run and returns its metrics: resolve → prepare → build →
// fit (evaluating every EvalEvery epochs) → result. ctx cancels between
// epochs. With cfg.Save set, a checkpoint is written atomically after every
// evaluation, at the end, and when ctx stops the run.
func Run(ctx context.Context, cfg Config, hooks Hooks) (*Result, error) {
	return run(ctx, cfg, hooks, nil)
}

// Hooks observe a run (all optional).
type Hooks struct {
	// Epoch is called after every epoch; ev is nil on unevaluated epochs.
	Epoch func(epoch int, loss float64, ev *Metrics)
	// Warn reports a non-fatal problem (also kept in Result.Warnings).
	Warn func(msg string)
	// Note reports what loading the graph decided that a user should hear
	// about — a first line read as a header or as counts, ignored columns
	// (data.Dataset.Notes) —, kept in Result.Warnings before the warnings
	// as always; Warn gets them when Note is nil.
	Note func(msg string)
	// Resolved is called once with the effective configuration, before
	// any training work.
	Resolved func(cfg Config)
	// Stage announces each slow phase before the first epoch (loading,
	// distances, encodings, features, building) for graphs of at least
	// StageNodes nodes; small runs stay quiet.
	Stage func(msg string)
	// Start is called once preparation is done, as the first epoch starts
	// (an ETA measured from here leaves setup out).
	Start func()
	// Plan is called with the run's memory plan (and its graph's size)
	// once the graph is built, before the plan is checked against
	// --max-memory; returning true stops the run there with ErrPlanOnly.
	Plan func(p memplan.Plan, nodes, edges int) (stop bool)
}

// StageNodes is the graph size from which Hooks.Stage is called.
const StageNodes = 10_000

// Resume continues the run saved in dir with its saved configuration; it
// ends with the same metrics as the uninterrupted run. Its checkpoints go
// back to dir.
func Resume(ctx context.Context, dir string, hooks Hooks) (*Result, error) {
	return ResumeOn(ctx, dir, Local{}, hooks)
}

// Local is what a run takes from the machine it runs on rather than from
// its configuration, so a resumed run takes it from where it resumes
// (a checkpoint does not hold it; neither changes a number): the memory
// limit and where to spill (Config.MaxMemory, Config.Spill).
type Local struct {
	MaxMemory int64
	Spill     string
}

// ResumeOn is Resume on a machine of local's limit and spill directory.
func ResumeOn(ctx context.Context, dir string, local Local, hooks Hooks) (*Result, error) {
	ck, err := LoadCheckpoint(dir)
	if err != nil {
		return nil, err
	}
	cfg := ck.Config
	cfg.Save, cfg.MaxMemory, cfg.Spill = dir, local.MaxMemory, local.Spill
	return run(ctx, cfg, hooks, ck)
}

func run(ctx context.Context, cfg Config, hooks Hooks, ck *Checkpoint) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	ds, err := LoadDataset(cfg)
	if err != nil {
		return nil, err
	}
	asked := cfg
	if cfg, err = cfg.Resolve(ds); err != nil {
		return nil, err
	}
	ds = UseFeatures(ds, cfg)
	if !cfg.Variant.Hash() && (!asked.Position.IsHash() || asked.PositionSkip) && hooks.Warn != nil {
		hooks.Warn(fmt.Sprintf("--position/--position-skip have no effect on variant %s: only hash and both take a positional input", cfg.Variant))
	}
	if !cfg.PositionSkip && (asked.ModelConfig.SkipGate || asked.SkipStandardise || asked.SkipPrincipal || asked.SkipPolar != features.SkipPolarOff) && hooks.Warn != nil {
		hooks.Warn("--skip-gate/--skip-standardise/--skip-principal/--skip-polar have no effect without the skip path (--position-skip, on the hash and both variants)")
	}
	if asked.RankPairs && !cfg.RankPairs && hooks.Warn != nil {
		hooks.Warn("--rank-pairs has no effect without the ranking distance term (--distance-loss rank, on the mse and both variants)")
	}
	if cfg.ModelConfig.SkipSmooth > 0 && chunked(cfg, ds.NumNodes()) { // the smoothing reads one hop past the chunks' subgraphs
		return nil, &SettingError{fmt.Errorf("--skip-smooth reads one hop past the model's layers, which inference by chunks (mini-batch runs from %d nodes) does not hold", ChunkedInferenceNodes)}
	}
	if hooks.Resolved != nil {
		hooks.Resolved(cfg)
	}
	shape, plan := planOf(cfg, ds)
	if hooks.Plan != nil && hooks.Plan(plan, ds.NumNodes(), ds.NumEdges()) {
		return nil, ErrPlanOnly
	}
	if err := plan.Check(cfg.MaxMemory); err != nil {
		return nil, err
	}
	if cfg.Spill == SpillAuto {
		cfg.Spill = plan.Spill
	}
	if cfg.Spill != "" {
		if err := shape.CheckSpill(cfg.Spill); err != nil {
			return nil, err
		}
		if hooks.Warn != nil {
			hooks.Warn(shape.SpillNote(cfg.Spill, plan, cfg.MaxMemory))
		}
	}
	if plan.BigRun {
		defer debug.SetGCPercent(debug.SetGCPercent(memplan.BigRunGCPercent))
	}
	var stage func(string)
	var stages stageClock
	if ds.NumNodes() >= StageNodes { // small runs stay quiet and keep no stage times
		stage = func(msg string) {
			stages.mark(msg)
			if hooks.Stage != nil {
				hooks.Stage(msg)
			}
		}
	}
	p, err := PrepareWith(ds, cfg, stage)
	if err != nil {
		return nil, err
	}
	res := newResult(cfg, p)
	res.MemoryEstimate = plan.Total
	res.Encoding, res.EncodingSeconds = p.Encoding, p.EncodingSeconds
	res.SkipChoice = p.SkipChoice
	warn := func(msg string) {
		res.Warnings = append(res.Warnings, msg)
		if hooks.Warn != nil {
			hooks.Warn(msg)
		}
	}
	for _, n := range p.Notes {
		res.Warnings = append(res.Warnings, n)
		if hooks.Note != nil {
			hooks.Note(n)
		} else if hooks.Warn != nil {
			hooks.Warn(n)
		}
	}
	for _, w := range p.Warnings {
		warn(w)
	}
	if stage != nil {
		stage("building the model and its gradient graph")
	}
	built, err := Build(p, cfg)
	if err != nil {
		return nil, err
	}
	defer built.Close()
	res.Params, res.Supervision = built.ps.Count(), built.Supervision()
	if built.batch != nil {
		res.Batches = built.batch.Mode()
	}
	l := &loop{ctx: ctx, cfg: cfg, built: built, hooks: hooks, warn: warn, warned: map[string]bool{}}
	if ck != nil {
		if err := built.restore(ck); err != nil {
			return nil, err
		}
		l.start, l.evals, l.priorSeconds = ck.Epoch, append(l.evals, ck.Evals...), ck.StepSeconds
	}
	if stage != nil {
		stages.mark("training and evaluation")
	}
	if hooks.Start != nil {
		hooks.Start()
	}
	t0 := time.Now()
	fr, err := l.fit()
	if err != nil {
		return nil, err
	}
	res.TrainSeconds = time.Since(t0).Seconds()
	if b := built.batch; b != nil && b.CutBatches > 0 && b.Capped { // expected: said in the result, not warned
		res.Batches += fmt.Sprintf("; %d steps cut %.1f links to nodes beyond the slots each on average", b.CutBatches, float64(b.Cut)/float64(b.CutBatches))
	} else if b != nil && b.CutBatches > 0 {
		warn(fmt.Sprintf("%d mini-batch steps filled their %d node slots and cut %d links to nodes beyond them (%.1f per cut step): those seeds saw part of their neighbourhood; raise --batch-nodes or lower --batch-size", b.CutBatches, b.Slots.Sub.Slots, b.Cut, float64(b.Cut)/float64(b.CutBatches)))
	}
	ran := cfg.Epochs - l.start
	if fr.Stopped >= 0 {
		res.StoppedEpoch, ran = fr.Stopped, fr.Stopped+1-l.start
	}
	res.MsPerEpochMean = 1000 * fr.StepSeconds / float64(max(1, ran))
	res.MsPerEpoch = 1000 * median(fr.StepTimes)
	res.EvalSeconds = fr.EvalSeconds
	for _, p := range fr.PrepareTimes {
		res.PrepareSeconds += p
	}
	if b := built.batch; b != nil {
		own := make([]float64, len(fr.StepTimes)) // each epoch's steps without its preparation
		for i, p := range fr.PrepareTimes {
			own[i] = fr.StepTimes[i] - p
		}
		res.MsPerStep = 1000 * median(own) / float64(b.Steps)
	}
	for _, s := range p.Splits {
		res.ValPositives, res.ValNegatives = res.ValPositives+len(s.Val), res.ValNegatives+len(s.ValNeg)
	}
	res.History = l.evals
	res.Final = l.evals[len(l.evals)-1]
	res.Select(cfg.Select)
	if msg := belowChance(res, p); msg != "" {
		warn(msg)
	}
	if stage != nil {
		stages.mark("faithfulness of the final embeddings")
	}
	if res.Faithfulness, err = built.Faithfulness(); err != nil {
		return nil, err
	}
	res.StageSeconds = stages.done()
	return res, nil
}

// stageClock times a run's stages (Result.StageSeconds): each lasts from
// its mark to the next.
type stageClock struct {
	stages []StageTime
	t      time.Time
}

func (c *stageClock) mark(stage string) {
	now := time.Now()
	if n := len(c.stages); n > 0 {
		c.stages[n-1].Seconds = now.Sub(c.t).Seconds()
	}
	c.t = now
	if stage != "" {
		c.stages = append(c.stages, StageTime{Stage: stage})
	}
}

// done closes the last stage and returns them all (nil when none ran).
func (c *stageClock) done() []StageTime {
	c.mark("")
	return c.stages
}

// belowChance is the warning for a run whose reported or final test AUC is
// below chance beyond sampling noise (eval.BelowChance over the test
// pairs of every graph), "" otherwise: a ranking that puts held-out
// positives below random pairs is a defect of the setting, not a weak
// model, and is said, never left to a table.
func belowChance(res *Result, p *Prepared) string {
	var pos, neg int
	for _, s := range p.Splits {
		pos, neg = pos+len(s.Test), neg+len(s.TestNeg)
	}
	which, auc := "final", float64(res.Final.TestAUC)
	if a := float64(res.TestAUC); a < auc {
		which, auc = fmt.Sprintf("reported (epoch %d)", res.BestEpoch), a
	}
	if !eval.BelowChance(auc, pos, neg) {
		return ""
	}
	return fmt.Sprintf("the %s test AUC %.3f is below chance (under %.3f, 0.5 − 2 SE over %d + %d test pairs): the model ranks held-out positives "+
		"below random pairs — a defect of the setting, not a weak model; see docs/frontier-notes.md (below chance) for one such case and its cause", which, auc, eval.ChanceBound(pos, neg), pos, neg)
}
