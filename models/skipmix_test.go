package models

import (
	"math"
	"testing"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/engine/enginetest"
	"gorgonia.org/tensor"
)

// TestSkipMix: with SkipMix w the embedding's first Out/2 columns are
// √w times the skip map of the positional block, normalised (computed here
// by hand), and the rows have unit norm, so the rest is √(1−w) times a unit
// vector: a pair's cosine is w·cos(skip) + (1−w)·cos(message passing).
// The gradients of every stack model in this mode pass central differences.
func TestSkipMix(t *testing.T) {
	const w = 0.3
	n := 8
	x, skip := enginetest.RandomValues(1, 3*n), enginetest.RandomValues(2, 2*n)
	for _, name := range []string{"gcn", "sage", "gat", "gin", "graphconv"} {
		e, _ := Lookup(name)
		cfg := e.Config()
		cfg.SkipMix = w
		ps := engine.NewParamStore(tensor.Float64, engine.Stream(1, "init"))
		z := embedWith(t, e, cfg, ps, pathInput(n, x, skip)) // Out = 3: a skip half of 1 column, 2 of message passing
		var wd []float64
		for _, p := range ps.Names() {
			if p == name+".skip.Wd" {
				wd = ps.Tensor(p).Data().([]float64) // 2 × 1
			}
		}
		if wd == nil {
			t.Fatalf("%s: no skip map among %v", name, ps.Names())
		}
		for i := range n {
			s := skip[2*i]*wd[0] + skip[2*i+1]*wd[1]
			if want := math.Sqrt(w) * s / math.Abs(s); math.Abs(z[3*i]-want) > 1e-12 {
				t.Fatalf("%s: z[%d][0] = %v, want √w·ŝ = %v", name, i, z[3*i], want)
			}
			if norm := math.Sqrt(z[3*i]*z[3*i] + z[3*i+1]*z[3*i+1] + z[3*i+2]*z[3*i+2]); math.Abs(norm-1) > 1e-12 {
				t.Fatalf("%s: row %d has norm %v", name, i, norm)
			}
		}
		cfg.Hidden, cfg.Out, cfg.Layers, cfg.Heads = 4, 4, 2, 2
		in := tiny()
		in.Skip = &engine.Features{N: 6, Dense: enginetest.RandomValues(33, 12), DenseDim: 2}
		err := checkModelGradientOn(t, e, cfg, in)
		if err != nil {
			t.Errorf("%s with --skip-mix: %v", name, err)
		}
	}
}
