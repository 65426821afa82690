package engine_test

import (
	"testing"

	. "github.com/ignn/ignn/engine"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestDivergenceStopsWithTerm: a NaN loss stops Fit with the epoch and the
// term that diverged, and leaves the parameters untouched.
func TestDivergenceStopsWithTerm(t *testing.T) {
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), true)
	x := b.Param("x", Constant(0), 3)
	SetFloat64(x.Value().(*tensor.Dense), []float64{1, -1, 2})
	mse := G.Must(G.Sum(G.Must(G.Log(x)))) // log(−1) = NaN
	bce := G.Must(G.Sum(G.Must(G.Square(x))))
	loss := G.Must(G.Add(mse, bce))
	tr, err := NewTrainer(b, loss, map[string]*G.Node{"bce": bce, "mse": mse}, TrainOptions{LR: 0.1}, Stream(1, "d"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Fit(tr, FitConfig{Epochs: 5, EvalEvery: 1}, func(int) error { return nil },
		func(int) (Evaluation, error) { return Evaluation{}, nil })
	if err == nil || err.Error() != "epoch 0: training diverged: mse became NaN (lower --lr or the λ weights)" {
		t.Fatalf("error %v", err)
	}
	if got := ToFloat64(x.Value().(*tensor.Dense)); got[0] != 1 || got[1] != -1 || got[2] != 2 {
		t.Errorf("parameters changed by a diverged step: %v", got)
	}
}

// TestNonFiniteParameterStops: a finite loss whose Adam update overflows a
// parameter stops the run naming the parameter (issue 11: only the loss was
// checked, so the next epochs trained on Inf).
func TestNonFiniteParameterStops(t *testing.T) {
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), true)
	w := b.Param("w", Constant(0), 2)
	SetFloat64(w.Value().(*tensor.Dense), []float64{1, 1})
	// Σ tanh(w) stays finite for any w; Adam's first step moves w by −lr
	// (to −1.7e308) and the second, driven by the first moment alone (tanh'
	// underflows to 0 there), by ≈ −0.67·lr more: past the float64 range.
	loss := G.Must(G.Sum(G.Must(G.Tanh(w))))
	tr, err := NewTrainer(b, loss, map[string]*G.Node{"bce": loss}, TrainOptions{LR: 1.7e308}, Stream(1, "d"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Fit(tr, FitConfig{Epochs: 5, EvalEvery: 1}, func(int) error { return nil },
		func(int) (Evaluation, error) { return Evaluation{}, nil })
	if err == nil || err.Error() != "epoch 1: training diverged: parameter w became -Inf (lower --lr or the λ weights)" {
		t.Fatalf("error %v", err)
	}
}

// TestPatience: with patience 2 the loop stops after the second evaluation
// in a row without a better validation AUC, and a loop resumed from the
// evaluations before that point stops at the same epoch.
func TestPatience(t *testing.T) {
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), true)
	w := b.Param("w", Constant(0), 2)
	loss := G.Must(G.Sum(G.Must(G.Square(w))))
	tr, err := NewTrainer(b, loss, map[string]*G.Node{"bce": loss}, TrainOptions{LR: 0.01}, Stream(1, "d"))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	auc := map[int]float64{0: 0.5, 2: 0.7, 4: 0.6, 6: 0.7, 8: 0.9, 10: 0.8}
	eval := func(e int) (Evaluation, error) { return Evaluation{ValAUC: auc[e]}, nil }
	fc := FitConfig{Epochs: 12, EvalEvery: 2, Patience: 2}
	res, err := Fit(tr, fc, func(int) error { return nil }, eval)
	if err != nil {
		t.Fatal(err)
	}
	// Evaluations 0.5, 0.7 (best), 0.6, 0.7 (not better: ties do not count) → stop after epoch 6.
	if res.Stopped != 6 || res.Best.Epoch != 2 || res.Final.Epoch != 6 {
		t.Fatalf("stopped %d, best epoch %d, final epoch %d; want 6, 2, 6", res.Stopped, res.Best.Epoch, res.Final.Epoch)
	}
	fc.StartEpoch, fc.Prior = 5, res.Evals[:3] // resumed after epoch 4
	again, err := Fit(tr, fc, func(int) error { return nil }, eval)
	if err != nil || again.Stopped != 6 {
		t.Fatalf("resumed loop stopped at %d (%v), want 6", again.Stopped, err)
	}
	fc.Patience, fc.StartEpoch, fc.Prior = 0, 0, nil
	if all, _ := Fit(tr, fc, func(int) error { return nil }, eval); all.Stopped != -1 || all.Final.Epoch != 11 {
		t.Errorf("patience 0: stopped %d, final %d", all.Stopped, all.Final.Epoch)
	}
}

// TestFitSteps: with Steps 3 every epoch runs three optimisation steps,
// each after Batch(epoch, step) in order, and OnEpoch sees the mean loss.
func TestFitSteps(t *testing.T) {
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), true)
	w := b.Param("w", Constant(0), 1)
	c := b.Input("c", 1)
	loss := G.Must(G.Sum(G.Must(G.Square(G.Must(G.Sub(w, c))))))
	tr, err := NewTrainer(b, loss, map[string]*G.Node{"sq": loss}, TrainOptions{LR: 1e-9}, Stream(1, "d"))
	if err != nil {
		t.Fatal(err)
	}
	var calls [][2]int
	var means []float64
	_, err = Fit(tr, FitConfig{Epochs: 2, EvalEvery: 1, Steps: 3,
		Batch: func(epoch, step int) error {
			calls = append(calls, [2]int{epoch, step})
			return G.Let(c, tensor.New(tensor.WithShape(1), tensor.WithBacking([]float64{float64(step + 1)})))
		},
		OnEpoch: func(epoch int, st StepResult, _ *Evaluation) error {
			means = append(means, st.Loss, st.Terms["sq"])
			return nil
		}}, func(int) error { return nil }, func(int) (Evaluation, error) { return Evaluation{}, nil })
	if err != nil {
		t.Fatal(err)
	}
	if want := [][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}; len(calls) != 6 || calls[5] != want[5] || calls[1] != want[1] {
		t.Fatalf("batch calls %v, want %v", calls, want)
	}
	// w ≈ 0 (lr 1e-9): losses 1, 4, 9 → mean 14/3.
	for _, m := range means {
		if d := m - 14.0/3; d > 1e-6 || d < -1e-6 {
			t.Fatalf("epoch means %v, want 14/3", means)
		}
	}
}
