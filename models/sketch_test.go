package models

import (
	"math"
	"testing"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/engine/enginetest"
	"gorgonia.org/tensor"
)

// TestSketch: with a neighbourhood sketch in the input and Config.Sketch,
// the embedding is the model's own (same parameters) and the sketch row
// side by side, normalise([√w·ẑ | √(1−w)·k]), with --skip-alone too (ẑ
// the skip path's alone); a training graph leaves it out (the model trains
// as without it).
func TestSketch(t *testing.T) {
	const n, m, d, w = 6, 4, 3, 0.3
	sketch := enginetest.RandomValues(41, n*m)
	sketch[5*m], sketch[5*m+1], sketch[5*m+2], sketch[5*m+3] = 0, 0, 0, 0 // a node without neighbours
	for i := range n - 1 {
		var s float64
		for _, v := range sketch[i*m : (i+1)*m] {
			s += v * v
		}
		for x := range m {
			sketch[i*m+x] /= math.Sqrt(s)
		}
	}
	for _, name := range []string{"gcn", "sage", "gin"} {
		e, _ := Lookup(name)
		cfg := e.Config()
		cfg.Hidden, cfg.Out, cfg.Layers, cfg.Dropout = 4, 4, 2, 0
		in := tiny()
		in.Skip = &engine.Features{N: n, Dense: enginetest.RandomValues(33, 2*n), DenseDim: 2}
		ps := engine.NewParamStore(tensor.Float64, engine.Stream(1, "init"))
		plain := embedWith(t, e, cfg, ps, in) // Out 3
		in.Sketch, in.SketchMix = &engine.Features{N: n, Dense: sketch, DenseDim: m}, &engine.Mix{W: w}
		sk := cfg
		sk.Sketch = m
		checkSketched(t, name, embedWith(t, e, sk, ps, in), plain, sketch, d, m, w)
		// --skip-alone keeps the sketch: the skip path's embedding and the
		// sketch side by side, as the full model's are.
		alone := cfg
		alone.SkipAlone = true
		plainAlone := embedWith(t, e, alone, ps, &engine.GraphInput{Adj: in.Adj, X: in.X, Skip: in.Skip, Blocks: in.Blocks})
		alone.Sketch = m
		checkSketched(t, name+" --skip-alone", embedWith(t, e, alone, ps, in), plainAlone, sketch, d, m, w)
		b := engine.NewBuilder(ps, true)
		sk.Hidden, sk.Out = 16, d // embedWith's
		if z, err := Build(e.New(sk), b, in); err != nil {
			t.Fatal(err)
		} else if w := z.Shape()[1]; w != d {
			t.Errorf("%s: a training graph's embedding has %d columns, want the model's %d", name, w, d)
		}
	}
}

// checkSketched holds got (n rows of d+m) to normalise([√w·plain | √(1−w)·sketch])
// row by row, plain n×d and sketch n×m.
func checkSketched(t *testing.T, name string, got, plain, sketch []float64, d, m int, w float64) {
	t.Helper()
	n := len(plain) / d
	if len(got) != n*(d+m) {
		t.Fatalf("%s: %d values, want %d×%d", name, len(got), n, d+m)
	}
	for i := range n {
		want := make([]float64, d+m)
		var s float64
		for x := range d {
			want[x] = math.Sqrt(w) * plain[i*d+x]
			s += want[x] * want[x]
		}
		for x := range m {
			want[d+x] = math.Sqrt(1-w) * sketch[i*m+x]
			s += want[d+x] * want[d+x]
		}
		for x := range d + m {
			if g := got[i*(d+m)+x]; math.Abs(g-want[x]/math.Sqrt(s)) > 1e-12 {
				t.Fatalf("%s: z[%d][%d] = %v, want %v", name, i, x, g, want[x]/math.Sqrt(s))
			}
		}
	}
}
