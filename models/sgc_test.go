package models

import (
	"testing"

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
	got, ps := forwardModel(t, e, cfg, in, map[string][]float64{"sgc.b": {0.3, -0.2}})
	n := 6
	h := matmul(mat{n, 3, in.X.Dense}, param(ps, "sgc.W.Wd", 3, 2))
	for k := 0; k < 2; k++ {
		h = gcnPropagate(in.Adj, h)
	}
	bias := param(ps, "sgc.b", 1, 2)
	for i := range h.v {
		h.v[i] += bias.v[i%2]
	}
	normalizeRows(h)
	near(t, "sgc", got, h)
}
