package models

import (
	"math"
	"testing"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/engine/enginetest"
	"gorgonia.org/tensor"
)

// TestSkipSmooth: with SkipSmooth β and K steps the embedding is the
// unsmoothed one (same parameters) propagated by hand, v ← (1−β)·z + β·Â·v
// K times from v = z with Â = D^{-1/2}(A+I)D^{-1/2}, then normalised; and
// the gradients of the stack models in this mode pass central differences.
func TestSkipSmooth(t *testing.T) {
	for _, name := range []string{"gcn", "sage", "gin"} {
		for _, k := range []int{1, 3} {
			e, _ := Lookup(name)
			cfg := e.Config()
			cfg.Hidden, cfg.Out, cfg.Layers, cfg.Dropout = 4, 4, 2, 0
			in := tiny()
			in.Skip = &engine.Features{N: 6, Dense: enginetest.RandomValues(33, 12), DenseDim: 2}
			ps := engine.NewParamStore(tensor.Float64, engine.Stream(1, "init"))
			plain := embedWith(t, e, cfg, ps, in) // Out 3
			smoothCfg := cfg
			smoothCfg.SkipSmooth, smoothCfg.SkipSmoothSteps = 0.4, k
			got := embedWith(t, e, smoothCfg, ps, in)
			const d, beta = 3, 0.4
			a := in.Adj.GCNNorm()
			v := append([]float64(nil), plain...)
			for range k {
				next := make([]float64, len(v))
				for i := range 6 {
					for x := range d {
						next[i*d+x] = (1 - beta) * plain[i*d+x]
					}
					for p := a.RowPtr[i]; p < a.RowPtr[i+1]; p++ {
						j := a.ColIdx[p]
						for x := range d {
							next[i*d+x] += beta * a.Val[p] * v[j*d+x]
						}
					}
				}
				v = next
			}
			for i := range 6 {
				var n float64
				for x := range d {
					n += v[i*d+x] * v[i*d+x]
				}
				for x := range d {
					if want := v[i*d+x] / math.Sqrt(n); math.Abs(got[i*d+x]-want) > 1e-12 {
						t.Fatalf("%s K=%d: z[%d][%d] = %v, want %v", name, k, i, x, got[i*d+x], want)
					}
				}
			}
			smoothCfg.Hidden, smoothCfg.Out = 4, 4
			if err := checkModelGradientOn(t, e, smoothCfg, in); err != nil {
				t.Errorf("%s with --skip-smooth, K=%d: %v", name, k, err)
			}
		}
	}
}
