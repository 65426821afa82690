package engine_test

import (
	"math"
	"testing"

	. "github.com/ignn/ignn/engine"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestAdamMatchesPyTorch: two steps of Adam(lr=0.1, weight_decay=0.01) on
// f(w) = Σ w² from w = [1, −2]. Reference computed by hand from PyTorch's
// update rule: after step 1 each w moves by lr·sign(g) (m̂/√v̂ = ±1).
func TestAdamMatchesPyTorch(t *testing.T) {
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), true)
	w := b.Param("w", Constant(0), 2)
	SetFloat64(w.Value().(*tensor.Dense), []float64{1, -2})
	loss := G.Must(G.Sum(G.Must(G.Square(w))))
	tr, err := NewTrainer(b, loss, nil, TrainOptions{LR: 0.1, WeightDecay: 0.01}, Stream(1, "d"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Step(); err != nil {
		t.Fatal(err)
	}
	got := ToFloat64(w.Value().(*tensor.Dense))
	if math.Abs(got[0]-0.9) > 1e-7 || math.Abs(got[1]-(-1.9)) > 1e-7 {
		t.Fatalf("after one step w = %v, want [0.9 -1.9]", got)
	}
	if _, err := tr.Step(); err != nil {
		t.Fatal(err)
	}
	// Step 2 by hand: g = 2w + 0.01w; m, v with bias correction.
	want := []float64{1, -2}
	m, v := []float64{0, 0}, []float64{0, 0}
	for step := 1; step <= 2; step++ {
		for k := range want {
			g := 2*want[k] + 0.01*want[k]
			m[k] = 0.9*m[k] + 0.1*g
			v[k] = 0.999*v[k] + 0.001*g*g
			mh, vh := m[k]/(1-math.Pow(0.9, float64(step))), v[k]/(1-math.Pow(0.999, float64(step)))
			want[k] -= 0.1 * mh / (math.Sqrt(vh) + 1e-8)
		}
	}
	got = ToFloat64(w.Value().(*tensor.Dense))
	for k := range want {
		if math.Abs(got[k]-want[k]) > 1e-12 {
			t.Fatalf("after two steps w = %v, want %v", got, want)
		}
	}
}
