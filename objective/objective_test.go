package objective

import (
	"math"
	"testing"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/engine/enginetest"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestLossValueAndGradient compares the symbolic loss with a direct
// computation of the paper's formulas, and checks its gradient through the
// row normalisation by central differences.
func TestLossValueAndGradient(t *testing.T) {
	const n, d = 6, 3
	cfg := Config{LambdaBCE: 0.7, LambdaMSE: 2.5, Alpha: 1}
	I, J := []int{0, 1, 2, 3}, []int{1, 2, 5, 4}
	y := []float64{1, 0, 1, 0}
	MI, MJ := []int{0, 0, 1, 4, 2}, []int{1, 3, 5, 5, 3}
	hops := []int{1, 3, 2, 0, 4} // 0 = unreachable here
	tgt := make([]float64, len(hops))
	for p, h := range hops {
		tgt[p] = Target(h, h > 0, cfg.Alpha)
	}
	build := func(b *engine.Builder) (*Loss, *G.Node) {
		x := b.Param("x", engine.Glorot(1), n, d)
		z := engine.RowNormalize(x)
		l, err := Build(b, z, cfg, 5, MSEInput{Slots: 6}) // one and two padding slots
		if err != nil {
			t.Fatal(err)
		}
		if err := l.BCE.Bind(&Pairs{I: I, J: J, V: y}); err != nil {
			t.Fatal(err)
		}
		if err := l.MSE.Bind(&Pairs{I: MI, J: MJ, V: tgt}); err != nil {
			t.Fatal(err)
		}
		return l, x
	}
	b := engine.NewBuilder(engine.NewParamStore(tensor.Float64, engine.Stream(1, "init")), false)
	l, x := build(b)
	f, err := engine.NewForward(b, l.Total)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := f.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	xv := engine.ToFloat64(x.Value().(*tensor.Dense))
	z := make([]float64, len(xv))
	for r := 0; r < n; r++ {
		var s float64
		for k := 0; k < d; k++ {
			s += xv[r*d+k] * xv[r*d+k]
		}
		for k := 0; k < d; k++ {
			z[r*d+k] = xv[r*d+k] / math.Sqrt(s)
		}
	}
	dot := func(i, j int) float64 {
		var s float64
		for k := 0; k < d; k++ {
			s += z[i*d+k] * z[j*d+k]
		}
		return s
	}
	var bce, mse float64
	for p := range I {
		s := dot(I[p], J[p])
		sig := 1 / (1 + math.Exp(-s))
		bce -= y[p]*math.Log(sig) + (1-y[p])*math.Log(1-sig)
	}
	bce /= float64(len(I))
	for p := range MI {
		r := (1-dot(MI[p], MJ[p]))/2 - tgt[p]
		mse += r * r
	}
	mse /= float64(len(MI))
	want := cfg.LambdaBCE*bce + cfg.LambdaMSE*mse
	if math.Abs(got[0]-want) > 1e-12 {
		t.Fatalf("loss = %.15g, direct formula %.15g", got[0], want)
	}
	err = enginetest.CheckGradient(func(b *engine.Builder) (*G.Node, []*G.Node) {
		l, x := build(b)
		return l.Total, []*G.Node{x}
	}, 1e-6, 1e-7)
	if err != nil {
		t.Error(err)
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []Config{{0, 0, 1}, {-1, 1, 1}, {1, 1, 0}} {
		if c.Validate() == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}
