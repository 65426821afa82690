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
	for _, c := range []Config{{LambdaBCE: 0, LambdaMSE: 0, Alpha: 1}, {LambdaBCE: -1, LambdaMSE: 1, Alpha: 1},
		{LambdaBCE: 1, LambdaMSE: 1, Alpha: 0}, {LambdaBCE: 1, LambdaMSE: 1, Alpha: 1, Distance: DistanceRank},
		{LambdaBCE: 1, LambdaMSE: 1, Alpha: 1, Distance: DistanceRank, RankTemp: math.Inf(1)}} {
		if c.Validate() == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// TestRankObjective: with --distance-loss rank the loss is λ_BCE·BCE +
// λ·mean softplus((s_ik − s_ij)/T) over the bound triples (direct formula
// on the normalised rows), no MSE term is built, and the gradient through
// the row normalisation matches central differences.
func TestRankObjective(t *testing.T) {
	const n, d = 6, 3
	cfg := Config{LambdaBCE: 0.7, LambdaMSE: 2.5, Alpha: 1, Distance: DistanceRank, RankTemp: 0.2}
	I, J := []int{0, 1, 2, 3}, []int{1, 2, 5, 4}
	y := []float64{1, 0, 1, 0}
	tr := &Triples{I: []int{0, 1, 4, 2, 5}, J: []int{1, 3, 5, 3, 0}, K: []int{2, 5, 0, 4, 3}}
	build := func(b *engine.Builder) (*Loss, *G.Node) {
		x := b.Param("x", engine.Glorot(1), n, d)
		l, err := Build(b, engine.RowNormalize(x), cfg, 5, MSEInput{Triples: 7})
		if err != nil {
			t.Fatal(err)
		}
		if l.MSE != nil || l.Terms["mse"] != nil || l.Rank == nil {
			t.Fatalf("rank objective built %+v", l)
		}
		if err := l.BCE.Bind(&Pairs{I: I, J: J, V: y}); err != nil {
			t.Fatal(err)
		}
		if err := l.Rank.Bind(tr); err != nil {
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
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	xv := engine.ToFloat64(x.Value().(*tensor.Dense))
	dot := func(i, j int) float64 {
		var s, ni, nj float64
		for k := 0; k < d; k++ {
			s, ni, nj = s+xv[i*d+k]*xv[j*d+k], ni+xv[i*d+k]*xv[i*d+k], nj+xv[j*d+k]*xv[j*d+k]
		}
		return s / math.Sqrt(ni*nj)
	}
	var bce, rank float64
	for p := range I {
		sig := 1 / (1 + math.Exp(-dot(I[p], J[p])))
		bce -= y[p]*math.Log(sig) + (1-y[p])*math.Log(1-sig)
	}
	for p := range tr.I {
		rank += math.Log1p(math.Exp((dot(tr.I[p], tr.K[p]) - dot(tr.I[p], tr.J[p])) / cfg.RankTemp))
	}
	want := cfg.LambdaBCE*bce/float64(len(I)) + cfg.LambdaMSE*rank/float64(tr.Len())
	if math.Abs(got[0]-want) > 1e-12 {
		t.Fatalf("loss = %.15g, direct formula %.15g", got[0], want)
	}
	if err := enginetest.CheckGradient(func(b *engine.Builder) (*G.Node, []*G.Node) {
		l, x := build(b)
		return l.Total, []*G.Node{x}
	}, 1e-6, 1e-7); err != nil {
		t.Error(err)
	}
	if err := (&TripleTerm{Slots: 2}).Bind(tr); err == nil {
		t.Error("5 triples bound to 2 slots")
	}
}
