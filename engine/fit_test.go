package engine

import (
	"testing"

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
