package engine_test

import (
	"errors"
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

// TestAdamLargeParameter: a parameter large enough for the parallel
// ranges is updated exactly as the float32 formula gives, element by
// element, and one overflowing value is reported by name after all are
// updated.
func TestAdamLargeParameter(t *testing.T) {
	const n = 1<<17 + 3
	w0, g := make([]float32, n), make([]float32, n)
	for k := range w0 {
		w0[k], g[k] = float32(k%97)/50-1, float32(k%89)/40-1
	}
	mk := func() (*Adam, G.Nodes, G.Nodes) {
		gr := G.NewGraph()
		w := G.NewVector(gr, tensor.Float32, G.WithShape(n), G.WithName("w"),
			G.WithValue(tensor.New(tensor.WithShape(n), tensor.WithBacking(append([]float32(nil), w0...)))))
		gn := G.NewVector(gr, tensor.Float32, G.WithShape(n), G.WithName("g"),
			G.WithValue(tensor.New(tensor.WithShape(n), tensor.WithBacking(append([]float32(nil), g...)))))
		return NewAdam(0.01, 5e-4), G.Nodes{w}, G.Nodes{gn}
	}
	a, ws, gs := mk()
	if err := a.Step(ws, gs); err != nil {
		t.Fatal(err)
	}
	got := ws[0].Value().Data().([]float32)
	lr, b1, b2, eps, wd := float32(0.01), float32(0.9), float32(0.999), float32(1e-8), float32(5e-4)
	ic1, ic2 := float32(1/(1-0.9)), float32(1/(1-0.999))
	for k := range w0 {
		gk := g[k] + wd*w0[k]
		m, v := (1-b1)*gk, (1-b2)*gk*gk
		want := w0[k] - lr*(m*ic1)/(float32(math.Sqrt(float64(v*ic2)))+eps)
		if got[k] != want {
			t.Fatalf("w[%d] = %v, want %v", k, got[k], want)
		}
	}
	g[n-5] = float32(math.Inf(1))
	a, ws, gs = mk()
	err := a.Step(ws, gs)
	var d *DivergedError
	if !errors.As(err, &d) || d.Term != "parameter w" || !math.IsNaN(d.Value) && !math.IsInf(d.Value, 0) {
		t.Fatalf("an infinite gradient: %v", err)
	}
	if got := ws[0].Value().Data().([]float32); got[n-1] == w0[n-1] {
		t.Error("the values after the overflowing one were not updated")
	}
}
