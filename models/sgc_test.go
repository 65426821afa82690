package models

import (
	"math"
	"testing"

	"gorgonia.org/tensor"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/engine/enginetest"
)

// TestSGC checks SGC against its formula with explicit loops: z = Â^K·X·W
// + b, Â = D^{-1/2}(A+I)D^{-1/2} (degrees counting the self-loop), rows
// then L2-normalised; K = 2 on a 6-node graph. Its gradient is checked by
// TestModelGradients, its skip path and receptive field by
// TestSkipDeclared and TestBatchesDeclared, like every registered model.
func TestSGC(t *testing.T) {
	in := tiny()
	in.X = &engine.Features{N: 6, Dense: enginetest.RandomValues(71, 18), DenseDim: 3}
	e, _ := Lookup("sgc")
	cfg := e.Config()
	cfg.Out, cfg.Layers = 2, 2
	ps := engine.NewParamStore(tensor.Float64, engine.Stream(5, "init"))
	b := engine.NewBuilder(ps, false)
	z, err := Build(e.New(cfg), b, in)
	if err != nil {
		t.Fatal(err)
	}
	engine.SetFloat64(ps.Tensor("sgc.b"), []float64{0.3, -0.2}) // a zero bias would hide a wrong add
	f, err := engine.NewForward(b, z)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := f.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 6
	deg := make([]float64, n)
	for i := 0; i < n; i++ {
		deg[i] = float64(len(neighbours(in.Adj, i)) + 1)
	}
	h := matmul(mat{n, 3, in.X.Dense}, param(ps, "sgc.W.Wd", 3, 2))
	for k := 0; k < 2; k++ {
		next := mat{n, 2, make([]float64, 2*n)}
		for i := 0; i < n; i++ {
			for _, j := range append([]int{i}, neighbours(in.Adj, i)...) {
				w := 1 / math.Sqrt(deg[i]*deg[j])
				for c := 0; c < 2; c++ {
					next.v[i*2+c] += w * h.at(j, c)
				}
			}
		}
		h = next
	}
	bias := param(ps, "sgc.b", 1, 2)
	for i := 0; i < n; i++ {
		r := []float64{h.at(i, 0) + bias.v[0], h.at(i, 1) + bias.v[1]}
		norm := math.Hypot(r[0], r[1])
		h.v[i*2], h.v[i*2+1] = r[0]/norm, r[1]/norm
	}
	near(t, "sgc", got, h)
}
