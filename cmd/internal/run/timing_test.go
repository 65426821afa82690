package run

import (
	"context"
	"testing"
)

// TestMedianStepTime: ms_per_epoch is the median of the epochs' step times
// (odd, even, empty), and a run reports both it and the mean.
func TestMedianStepTime(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 4}, 4}, {[]float64{9, 1, 2, 7}, 4.5}} {
		in := append([]float64(nil), c.xs...)
		if got := median(c.xs); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.xs, got, c.want)
		}
		for i := range in {
			if in[i] != c.xs[i] {
				t.Fatalf("median reordered its input: %v", c.xs)
			}
		}
	}
	cfg := Default()
	cfg.Epochs, cfg.EvalEvery = 12, 6
	r, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if !(r.MsPerEpoch > 0) || !(r.MsPerEpochMean > 0) || r.MsPerEpochMean*12 > 1000*r.TrainSeconds {
		t.Fatalf("ms_per_epoch %v, mean %v, train seconds %v", r.MsPerEpoch, r.MsPerEpochMean, r.TrainSeconds)
	}
	if r.MsPerStep != 0 || !(r.EvalSeconds > 0) || r.PrepareSeconds > r.MsPerEpochMean*12/1000 || r.EvalSeconds+r.MsPerEpochMean*12/1000 > r.TrainSeconds {
		t.Fatalf("whole-graph steps: ms_per_step %v, prepare %v s, evaluations %v s of %v s", r.MsPerStep, r.PrepareSeconds, r.EvalSeconds, r.TrainSeconds)
	}
}

// TestTrainTimeSplit: a mini-batch run splits its training time into the
// epochs' preparation, the steps and the evaluations, and states the
// step's own median time.
func TestTrainTimeSplit(t *testing.T) {
	cfg := Default()
	cfg.Dataset, cfg.Explicit = "grid:20x20", map[string]bool{}
	cfg.Epochs, cfg.BatchSteps, cfg.EvalEvery = 3, 4, 1
	cfg.Explicit["epochs"], cfg.Explicit["batch-steps"], cfg.Explicit["eval-every"] = true, true, true
	r, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Batches == "" {
		t.Fatal("not a mini-batch run")
	}
	steps := r.MsPerEpochMean * 3 / 1000 // preparation included
	if !(r.MsPerStep > 0) || r.MsPerStep*4 > r.MsPerEpoch || !(r.PrepareSeconds > 0) || !(r.EvalSeconds > 0) ||
		r.PrepareSeconds > steps || steps+r.EvalSeconds > r.TrainSeconds {
		t.Fatalf("ms_per_step %v (epoch %v), prepare %v s, steps and prepare %v s, evaluations %v s of %v s",
			r.MsPerStep, r.MsPerEpoch, r.PrepareSeconds, steps, r.EvalSeconds, r.TrainSeconds)
	}
}
