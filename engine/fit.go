package engine

import (
	"errors"
	"fmt"
	"time"
)

// Evaluation is the outcome of evaluating the model after an epoch.
type Evaluation struct {
	Epoch   int
	ValAUC  float64            // the selection criterion
	Metrics map[string]float64 // anything else (test AUC, τ, …)
}

// FitConfig sets the epoch loop.
type FitConfig struct {
	Epochs    int
	EvalEvery int // evaluate after epochs 0, K, 2K, … and after the last
	// StartEpoch resumes a loop (epochs before it are taken as done), and
	// Prior holds the evaluations those epochs made.
	StartEpoch int
	Prior      []Evaluation
	// OnEpoch, when set, is called after every epoch (ev is nil when the
	// epoch was not evaluated). Returning an error stops the loop.
	OnEpoch func(epoch int, step StepResult, ev *Evaluation) error
	// Patience > 0 stops the loop after that many evaluations in a row
	// without a higher validation AUC than the best so far (early stopping;
	// 0 runs every epoch). Prior evaluations count, so a resumed loop stops
	// where the uninterrupted one would.
	Patience int
	// Steps > 1 makes every epoch that many optimisation steps
	// (mini-batches): Batch(epoch, step) binds step's inputs before each,
	// after prepare(epoch). The epoch's StepResult is then the mean over
	// its steps of the loss and of each term.
	Steps int
	Batch func(epoch, step int) error
}

// FitResult summarises a run. Best is the first evaluation with the highest
// validation AUC (P-GNN's protocol); Final is the last evaluation.
type FitResult struct {
	Best, Final Evaluation
	Evals       []Evaluation
	Seconds     float64   // wall time of the loop
	StepSeconds float64   // time spent preparing inputs and stepping
	StepTimes   []float64 // seconds per epoch run by this call, in order
	// PrepareTimes is the part of each StepTimes entry spent in
	// prepare(epoch) (an epoch's draws: negatives, pair samples, the
	// ranking sources' BFS), and EvalSeconds the time spent evaluating:
	// what the loop's time is besides the steps themselves.
	PrepareTimes []float64
	EvalSeconds  float64
	Stopped      int // the epoch early stopping ended the loop after; -1 when it ran every epoch
}

// Fit runs the training loop: prepare(epoch) rebinds the epoch's inputs
// (negatives, pair samples), then one Trainer step; evaluate runs every
// EvalEvery epochs. A non-finite loss stops the loop with an error naming the
// epoch and the diverging term.
func Fit(t *Trainer, cfg FitConfig, prepare func(epoch int) error, evaluate func(epoch int) (Evaluation, error)) (FitResult, error) {
	res := FitResult{Stopped: -1}
	if cfg.Epochs < 1 || cfg.EvalEvery < 1 {
		return res, fmt.Errorf("engine: epochs (%d) and eval-every (%d) must be ≥ 1", cfg.Epochs, cfg.EvalEvery)
	}
	start := time.Now()
	best := -1.0
	since := 0 // evaluations since the best
	record := func(ev Evaluation) {
		res.Evals = append(res.Evals, ev)
		if ev.ValAUC > best || len(res.Evals) == 1 {
			best = ev.ValAUC
			res.Best = ev
			since = 0
		} else {
			since++
		}
		res.Final = ev
	}
	for _, ev := range cfg.Prior {
		record(ev)
	}
	if cfg.Patience > 0 && since >= cfg.Patience && len(cfg.Prior) > 0 {
		res.Stopped = res.Final.Epoch
		return res, nil
	}
	for epoch := cfg.StartEpoch; epoch < cfg.Epochs; epoch++ {
		t0 := time.Now()
		if err := prepare(epoch); err != nil {
			return res, fmt.Errorf("epoch %d: preparing inputs: %w", epoch, err)
		}
		res.PrepareTimes = append(res.PrepareTimes, time.Since(t0).Seconds())
		step, err := steps(t, cfg, epoch)
		dt := time.Since(t0).Seconds()
		res.StepSeconds += dt
		res.StepTimes = append(res.StepTimes, dt)
		if err != nil {
			var de *DivergedError
			if errors.As(err, &de) {
				return res, fmt.Errorf("epoch %d: training diverged: %s became %v (lower --lr or the λ weights)", epoch, de.Term, de.Value)
			}
			return res, fmt.Errorf("epoch %d: %w", epoch, err)
		}
		var evp *Evaluation
		if epoch%cfg.EvalEvery == 0 || epoch == cfg.Epochs-1 {
			te := time.Now()
			ev, err := evaluate(epoch)
			res.EvalSeconds += time.Since(te).Seconds()
			if err != nil {
				return res, fmt.Errorf("epoch %d: evaluating: %w", epoch, err)
			}
			ev.Epoch = epoch
			record(ev)
			evp = &res.Evals[len(res.Evals)-1]
		}
		if cfg.OnEpoch != nil {
			if err := cfg.OnEpoch(epoch, step, evp); err != nil {
				return res, err
			}
		}
		if evp != nil && cfg.Patience > 0 && since >= cfg.Patience {
			res.Stopped = epoch
			break
		}
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// steps runs one epoch's optimisation steps (one without cfg.Steps).
func steps(t *Trainer, cfg FitConfig, epoch int) (StepResult, error) {
	if cfg.Steps <= 1 && cfg.Batch == nil {
		return t.Step()
	}
	n := max(1, cfg.Steps)
	mean := StepResult{Terms: map[string]float64{}}
	for k := 0; k < n; k++ {
		if cfg.Batch != nil {
			if err := cfg.Batch(epoch, k); err != nil {
				return mean, fmt.Errorf("batch %d: %w", k, err)
			}
		}
		st, err := t.Step()
		if err != nil {
			return st, err
		}
		mean.Loss += st.Loss / float64(n)
		for name, v := range st.Terms {
			mean.Terms[name] += v / float64(n)
		}
	}
	return mean, nil
}
