package run

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"sort"
	"time"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/objective"
)

// Run trains one cell and returns its metrics: resolve → prepare → build →
// fit (evaluating every EvalEvery epochs) → result. ctx cancels between
// epochs. With cfg.Save set, a checkpoint is written atomically after every
// evaluation, at the end, and when ctx stops the run.
func Run(ctx context.Context, cfg Config, hooks Hooks) (*Result, error) {
	return run(ctx, cfg, hooks, nil)
}

// Resume continues the run saved in dir with its saved configuration; it
// ends with the same metrics as the uninterrupted run. Its checkpoints go
// back to dir.
func Resume(ctx context.Context, dir string, hooks Hooks) (*Result, error) {
	ck, err := LoadCheckpoint(dir)
	if err != nil {
		return nil, err
	}
	cfg := ck.Config
	cfg.Save = dir
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
	if !cfg.Variant.Hash() && (!asked.Position.IsHash() || asked.PositionSkip) && hooks.Warn != nil {
		hooks.Warn(fmt.Sprintf("--position/--position-skip have no effect on variant %s: only hash and both take a positional input", cfg.Variant))
	}
	if !cfg.PositionSkip && (asked.Model_.SkipGate || asked.SkipStandardise || asked.SkipPolar != SkipPolarOff) && hooks.Warn != nil {
		hooks.Warn("--skip-gate/--skip-standardise/--skip-polar have no effect without the skip path (--position-skip, on the hash and both variants)")
	}
	if hooks.Resolved != nil {
		hooks.Resolved(cfg)
	}
	plan := PlanMemory(cfg, ds)
	if err := plan.Check(cfg.MaxMemory); err != nil {
		return nil, err
	}
	if plan.BigRun {
		defer debug.SetGCPercent(debug.SetGCPercent(BigRunGCPercent))
	}
	var stage func(string)
	if hooks.Stage != nil && ds.NumNodes() >= StageNodes {
		stage = hooks.Stage
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
	for _, w := range p.Warnings {
		warn(w)
	}
	if stage != nil {
		stage("building the model and its gradient graph")
	}
	cell, err := Build(p, cfg)
	if err != nil {
		return nil, err
	}
	defer cell.Close()
	res.Params, res.MSEPairs = cell.ps.Count(), cell.MSEMode()
	if cell.batch != nil {
		res.Batches = cell.batch.Mode()
	}
	l := &loop{ctx: ctx, cfg: cfg, cell: cell, hooks: hooks, warn: warn, warned: map[string]bool{}}
	if ck != nil {
		if err := cell.restore(ck); err != nil {
			return nil, err
		}
		l.start, l.evals, l.priorSeconds = ck.Epoch, append(l.evals, ck.Evals...), ck.StepSeconds
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
	if b := cell.batch; b != nil && b.CutBatches > 0 {
		warn(fmt.Sprintf("%d mini-batch steps filled their %d node slots and cut %d neighbourhood nodes (%.1f per cut step): those seeds saw part of their neighbourhood; raise --batch-nodes or lower --batch-size", b.CutBatches, b.sub.slots, b.Cut, float64(b.Cut)/float64(b.CutBatches)))
	}
	ran := cfg.Epochs - l.start
	if fr.Stopped >= 0 {
		res.StoppedEpoch, ran = fr.Stopped, fr.Stopped+1-l.start
	}
	res.MsPerEpochMean = 1000 * fr.StepSeconds / float64(max(1, ran))
	res.MsPerEpoch = 1000 * median(fr.StepTimes)
	for _, s := range p.Splits {
		res.ValPositives, res.ValNegatives = res.ValPositives+len(s.Val), res.ValNegatives+len(s.ValNeg)
	}
	res.History = l.evals
	res.Final = l.evals[len(l.evals)-1]
	res.Select(cfg.Select)
	if res.Faithfulness, err = cell.Faithfulness(); err != nil {
		return nil, err
	}
	return res, nil
}

// untrainedNote flags a selection that landed on the first evaluation
// (epoch 0, after one step) of a longer run: on large graphs whose
// untrained embeddings already separate links (a 10⁵-node caveman graph:
// validation AUC 0.992 at epoch 0, lower later for base) the selected
// metrics then describe a nearly untrained model, and τ at the best
// validation epoch compares initialisations, not objectives.
func untrainedNote(best, final int) string {
	if best != 0 || final == 0 {
		return ""
	}
	return "; here the highest validation AUC came at epoch 0, after one training step, so the selected metrics describe a nearly untrained model: compare variants by 'final'"
}

func newResult(cfg Config, p *Prepared) *Result {
	r := &Result{Dataset: cfg.Dataset, Task: cfg.Task, Model: cfg.Model, Variant: cfg.Variant,
		Seed: cfg.Seed, Epochs: cfg.Epochs, HashDim: cfg.HashDim, Graphs: len(p.DS.Graphs), Nodes: p.Union.N,
		Selection: fmt.Sprintf("test metrics at the first epoch with the highest validation AUC, evaluated every %d epochs; 'final' = last epoch", cfg.EvalEvery),
		TauPairs:  "Kendall τ-b between hop distance (ascending) and cosine (descending) over all intra-graph pairs at finite distance on the message-passing graph, per graph, averaged",
		Config:    cfg, Fingerprint: p.Fingerprint, Provenance: CurrentProvenance(),
	}
	if !p.Exact() {
		ps := p.TauSample
		r.Distances, r.TauPairCount = DistSampled, ps.Len()
		r.TauPairs = fmt.Sprintf("Kendall τ-b between hop distance (ascending) and cosine (descending) over a fixed sample of %d intra-graph pairs (%d seeded BFS sources, targets uniform; the same pairs at every evaluation), per graph, averaged; test_kendall_tau_ci = 95%% interval by batch means over %d source groups", ps.Len(), ps.Sources, ps.Batches)
	}
	return r
}

// loop is the fit stage: engine.Fit over the cell, with evaluation,
// progress hooks, checkpoints and interruption.
type loop struct {
	ctx          context.Context
	cfg          Config
	cell         *Cell
	hooks        Hooks
	warn         func(string)
	warned       map[string]bool
	start        int       // first epoch to run (resume)
	evals        []Metrics // every evaluation so far
	priorSeconds float64   // step time spent before a resume
	stepStart    time.Time
}

func (l *loop) fit() (engine.FitResult, error) {
	var prior []engine.Evaluation
	for _, m := range l.evals {
		ev := engine.Evaluation{Epoch: m.Epoch, ValAUC: float64(m.ValAUC),
			Metrics: map[string]float64{"test_auc": float64(m.TestAUC), "tau": float64(m.TestKendallTau),
				"ap": float64(m.TestAP), "hits20": float64(m.TestHits20), "hits50": float64(m.TestHits50)}}
		if len(m.TauCI) == 2 {
			ev.Metrics["tau_lo"], ev.Metrics["tau_hi"] = float64(m.TauCI[0]), float64(m.TauCI[1])
		}
		if m.BCELoss != 0 {
			ev.Metrics["bce_loss"] = float64(m.BCELoss)
		}
		if m.MSELoss != 0 {
			ev.Metrics["mse_loss"] = float64(m.MSELoss)
		}
		prior = append(prior, ev)
	}
	l.stepStart = time.Now()
	fc := engine.FitConfig{Epochs: l.cfg.Epochs, EvalEvery: l.cfg.EvalEvery, StartEpoch: l.start, Prior: prior, OnEpoch: l.onEpoch, Patience: l.cfg.Patience}
	if b := l.cell.batch; b != nil {
		fc.Steps, fc.Batch = b.steps, l.cell.Batch
	}
	return engine.Fit(l.cell.tr, fc, l.cell.Feed, l.evaluate)
}

func (l *loop) evaluate(epoch int) (engine.Evaluation, error) {
	m, ws, err := l.cell.Evaluate()
	for _, w := range ws {
		if !l.warned[w] {
			l.warned[w] = true
			l.warn(w)
		}
	}
	ev := engine.Evaluation{ValAUC: m.ValAUC, Metrics: map[string]float64{"test_auc": m.TestAUC, "tau": m.Tau,
		"ap": m.TestAP, "hits20": m.TestHits20, "hits50": m.TestHits50}}
	if !math.IsNaN(m.TauLo) {
		ev.Metrics["tau_lo"], ev.Metrics["tau_hi"] = m.TauLo, m.TauHi
	}
	if err == nil {
		v, cfg := l.cell.lastVal, l.cfg
		dist := v.MSE
		if cfg.DistanceLoss == objective.DistanceRank {
			dist = v.Rank
		}
		ev.Metrics["val_tau"], ev.Metrics["val_bce"], ev.Metrics["val_mse"], ev.Metrics["val_rank"] = v.Tau, v.BCE, v.MSE, v.Rank
		ev.Metrics["val_objective"] = cfg.LambdaBCE*v.BCE + cfg.LambdaMSE*dist
		if !math.IsNaN(m.TauHeldout) {
			ev.Metrics["test_tau_heldout"] = m.TauHeldout
		}
	}
	return ev, err
}

func (l *loop) onEpoch(epoch int, st engine.StepResult, ev *engine.Evaluation) error {
	var m *Metrics
	if ev != nil {
		for name, key := range map[string]string{"bce": "bce_loss", "mse": "mse_loss", "rank": "rank_loss"} {
			if v, ok := st.Terms[name]; ok {
				ev.Metrics[key] = v
			}
		}
		mm := toMetrics(*ev)
		m = &mm
		l.evals = append(l.evals, mm)
	}
	secs := l.priorSeconds + time.Since(l.stepStart).Seconds()
	if l.hooks.Epoch != nil {
		l.hooks.Epoch(epoch, st.Loss, m)
	}
	if err := l.ctx.Err(); err != nil {
		if serr := l.save(epoch+1, secs); serr != nil {
			return fmt.Errorf("interrupted after epoch %d, and saving the checkpoint failed: %w", epoch, serr)
		}
		return &InterruptedError{Epoch: epoch, Dir: l.cfg.Save, Err: err}
	}
	if ev != nil || epoch == l.cfg.Epochs-1 {
		return l.save(epoch+1, secs)
	}
	return nil
}

func (l *loop) save(done int, secs float64) error {
	if l.cfg.Save == "" {
		return nil
	}
	snap, err := l.cell.snapshot(done, l.evals, secs)
	if err != nil {
		return err
	}
	return snap.Save(l.cfg.Save)
}

func toMetrics(ev engine.Evaluation) Metrics {
	m := Metrics{Epoch: ev.Epoch, ValAUC: Num(ev.ValAUC), TestAUC: Num(ev.Metrics["test_auc"]), TestKendallTau: Num(ev.Metrics["tau"]),
		TestAP: Num(ev.Metrics["ap"]), TestHits20: Num(ev.Metrics["hits20"]), TestHits50: Num(ev.Metrics["hits50"])}
	m.BCELoss, m.MSELoss, m.RankLoss = Num(ev.Metrics["bce_loss"]), Num(ev.Metrics["mse_loss"]), Num(ev.Metrics["rank_loss"])
	m.ValKendallTau, m.ValObjective, m.TestTauHeldout = Num(ev.Metrics["val_tau"]), Num(ev.Metrics["val_objective"]), Num(ev.Metrics["test_tau_heldout"])
	m.ValBCE, m.ValMSE, m.ValRank = Num(ev.Metrics["val_bce"]), Num(ev.Metrics["val_mse"]), Num(ev.Metrics["val_rank"])
	if lo, ok := ev.Metrics["tau_lo"]; ok {
		m.TauCI = []Num{Num(lo), Num(ev.Metrics["tau_hi"])}
	}
	return m
}

// median of xs (0 for none); xs is not modified.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}
