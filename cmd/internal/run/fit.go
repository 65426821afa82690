package run

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/objective"
)

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

// InterruptedError reports a run stopped by its context after finishing an
// epoch; Dir holds the checkpoint to resume from ("" if none was saved).
type InterruptedError struct {
	Epoch int
	Dir   string
	Err   error
}

func (e *InterruptedError) Error() string {
	if e.Dir == "" {
		return fmt.Sprintf("interrupted after epoch %d: %v (no --save directory, nothing kept)", e.Epoch, e.Err)
	}
	return fmt.Sprintf("interrupted after epoch %d: %v; checkpoint saved in %s — resume with `ignn train --resume %s`", e.Epoch, e.Err, e.Dir, e.Dir)
}

func (e *InterruptedError) Unwrap() error { return e.Err }

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

// loop is the fit stage: engine.Fit over the built run, with evaluation,
// progress hooks, checkpoints and interruption.
type loop struct {
	ctx          context.Context
	cfg          Config
	built        *Built
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
		prior = append(prior, fromMetrics(m))
	}
	l.stepStart = time.Now()
	fc := engine.FitConfig{Epochs: l.cfg.Epochs, EvalEvery: l.cfg.EvalEvery, StartEpoch: l.start, Prior: prior, OnEpoch: l.onEpoch, Patience: l.cfg.Patience}
	if b := l.built.batch; b != nil {
		fc.Steps, fc.Batch = b.Steps, l.built.Batch
	}
	return engine.Fit(l.built.tr, fc, l.built.Feed, l.evaluate)
}

func (l *loop) evaluate(epoch int) (engine.Evaluation, error) {
	l.built.keepNext = epoch == l.cfg.Epochs-1 // the faithfulness follows: no step in between
	m, ws, err := l.built.Evaluate()
	l.built.keepNext = false
	for _, w := range ws {
		if !l.warned[w] {
			l.warned[w] = true
			l.warn(w)
		}
	}
	ev := engine.Evaluation{ValAUC: m.ValAUC, Metrics: map[string]float64{}}
	for _, f := range metricFields {
		if f.score != nil {
			ev.Metrics[f.key] = f.score(m)
		}
	}
	if math.IsNaN(m.TauLo) {
		delete(ev.Metrics, "tau_lo")
		delete(ev.Metrics, "tau_hi")
	}
	if err == nil {
		v, cfg := l.built.lastVal, l.cfg
		dist := v.MSE
		if cfg.DistanceLoss == objective.DistanceRank {
			dist = v.Rank
		}
		ev.Metrics["val_tau"], ev.Metrics["val_bce"], ev.Metrics["val_mse"], ev.Metrics["val_rank"] = v.Tau, v.BCE, v.MSE, v.Rank
		ev.Metrics["val_objective"] = cfg.LambdaBCE*v.BCE + cfg.LambdaMSE*dist
		if !math.IsNaN(m.TauHeldout) {
			ev.Metrics["test_tau_heldout"] = m.TauHeldout
		}
		if mix := l.built.p.Input.SketchMix; mix != nil {
			ev.Metrics["sketch_share"] = mix.W
		}
		if l.built.p.Input.Popularity != nil {
			ev.Metrics["popularity"] = l.built.p.popB
		}
	}
	return ev, err
}

func (l *loop) onEpoch(epoch int, st engine.StepResult, ev *engine.Evaluation) error {
	var m *Metrics
	if ev != nil {
		for _, f := range metricFields {
			if v, ok := st.Terms[f.term]; ok && f.term != "" {
				ev.Metrics[f.key] = v
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
	snap, err := l.built.snapshot(done, l.evals, secs)
	if err != nil {
		return err
	}
	return snap.Save(l.cfg.Save)
}

// metricFields is the one mapping between Metrics (what a result and a
// checkpoint store) and engine.Evaluation's metric names (what the fit
// loop carries): key, the field, where an evaluation's value comes from
// (score: eval.Scores; term: the step's loss term of that name; neither:
// set by evaluate from the validation yardsticks), and whether a zero is
// left out when a stored history is fed back (optional terms).
var metricFields = []struct {
	key      string
	field    func(*Metrics) *Num
	score    func(eval.Scores) float64
	term     string
	optional bool
}{
	{key: "test_auc", field: func(m *Metrics) *Num { return &m.TestAUC }, score: func(s eval.Scores) float64 { return s.TestAUC }},
	{key: "tau", field: func(m *Metrics) *Num { return &m.TestKendallTau }, score: func(s eval.Scores) float64 { return s.Tau }},
	{key: "ap", field: func(m *Metrics) *Num { return &m.TestAP }, score: func(s eval.Scores) float64 { return s.TestAP }},
	{key: "hits20", field: func(m *Metrics) *Num { return &m.TestHits20 }, score: func(s eval.Scores) float64 { return s.TestHits20 }},
	{key: "hits50", field: func(m *Metrics) *Num { return &m.TestHits50 }, score: func(s eval.Scores) float64 { return s.TestHits50 }},
	{key: "tau_lo", score: func(s eval.Scores) float64 { return s.TauLo }},
	{key: "tau_hi", score: func(s eval.Scores) float64 { return s.TauHi }},
	{key: "bce_loss", field: func(m *Metrics) *Num { return &m.BCELoss }, term: "bce", optional: true},
	{key: "mse_loss", field: func(m *Metrics) *Num { return &m.MSELoss }, term: "mse", optional: true},
	{key: "rank_loss", field: func(m *Metrics) *Num { return &m.RankLoss }, term: "rank", optional: true},
	{key: "val_tau", field: func(m *Metrics) *Num { return &m.ValKendallTau }, optional: true},
	{key: "val_objective", field: func(m *Metrics) *Num { return &m.ValObjective }, optional: true},
	{key: "test_tau_heldout", field: func(m *Metrics) *Num { return &m.TestTauHeldout }, optional: true},
	{key: "val_bce", field: func(m *Metrics) *Num { return &m.ValBCE }, optional: true},
	{key: "val_mse", field: func(m *Metrics) *Num { return &m.ValMSE }, optional: true},
	{key: "val_rank", field: func(m *Metrics) *Num { return &m.ValRank }, optional: true},
	{key: "sketch_share", field: func(m *Metrics) *Num { return &m.SketchShare }, optional: true},
	{key: "popularity", field: func(m *Metrics) *Num { return &m.Popularity }, optional: true},
}

// toMetrics is an evaluation as a result stores it.
func toMetrics(ev engine.Evaluation) Metrics {
	m := Metrics{Epoch: ev.Epoch, ValAUC: Num(ev.ValAUC)}
	for _, f := range metricFields {
		if f.field != nil {
			*f.field(&m) = Num(ev.Metrics[f.key])
		}
	}
	if lo, ok := ev.Metrics["tau_lo"]; ok {
		m.TauCI = []Num{Num(lo), Num(ev.Metrics["tau_hi"])}
	}
	return m
}

// fromMetrics is a stored evaluation fed back to the fit loop (a resume).
func fromMetrics(m Metrics) engine.Evaluation {
	ev := engine.Evaluation{Epoch: m.Epoch, ValAUC: float64(m.ValAUC), Metrics: map[string]float64{}}
	for _, f := range metricFields {
		if f.field != nil && (!f.optional || *f.field(&m) != 0) {
			ev.Metrics[f.key] = float64(*f.field(&m))
		}
	}
	if len(m.TauCI) == 2 {
		ev.Metrics["tau_lo"], ev.Metrics["tau_hi"] = float64(m.TauCI[0]), float64(m.TauCI[1])
	}
	return ev
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
