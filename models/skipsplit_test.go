package models

import (
	"math"
	"strings"
	"testing"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/engine/enginetest"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestSkipSplit: with SkipSplit the training builder's DistanceView holds
// the embedding's values exactly, and a loss on it trains only the skip
// map. With a link-like loss A on the embedding z and a distance-like loss
// D: the gradient of A + D(DistanceView) equals A's alone on every
// parameter but the skip map (gated and mixed outputs), while A + D(z)
// differs there too (the test can fail). An evaluation graph has no
// DistanceView.
func TestSkipSplit(t *testing.T) {
	for _, name := range []string{"gcn", "sage", "gin"} {
		for _, mode := range []string{"gate", "mix"} {
			e, _ := Lookup(name)
			cfg := e.Config()
			cfg.Hidden, cfg.Out, cfg.Layers, cfg.Dropout, cfg.SkipSplit = 4, 4, 2, 0, true
			cfg.SkipGate, cfg.SkipMix = mode == "gate", 0
			if mode == "mix" {
				cfg.SkipMix = 0.5
			}
			in := tiny()
			in.Skip = &engine.Features{N: 6, Dense: enginetest.RandomValues(33, 12), DenseDim: 2}
			grads := map[string]map[string][]float64{}
			for _, loss := range []string{"A", "A+D(view)", "A+D(z)"} {
				b := engine.NewBuilder(engine.NewParamStore(tensor.Float64, engine.Stream(1, "init")), true)
				z, err := Build(e.New(cfg), b, in)
				if err != nil {
					t.Fatal(err)
				}
				if b.DistanceView == nil {
					t.Fatalf("%s %s: no distance view", name, mode)
				}
				moveZeros(b) // the gate starts at 0, which would stop every gradient anyway
				term := func(out *G.Node, seed uint64) *G.Node {
					r := b.Constant("r"+loss+string(rune('0'+seed)), enginetest.RandomValues(seed, 24), 6, 4)
					return G.Must(G.Sum(G.Must(G.HadamardProd(out, r))))
				}
				l := term(z, 5)
				switch loss {
				case "A+D(view)":
					l = G.Must(G.Add(l, term(b.DistanceView, 6)))
				case "A+D(z)":
					l = G.Must(G.Add(l, term(z, 6)))
				}
				var zv, dv G.Value
				G.Read(z, &zv)
				G.Read(b.DistanceView, &dv)
				if _, err := G.Grad(l, b.ParamNodes()...); err != nil {
					t.Fatal(err)
				}
				vm := G.NewTapeMachine(b.G, G.BindDualValues(b.ParamNodes()...))
				if err := vm.RunAll(); err != nil {
					t.Fatal(err)
				}
				for i, v := range zv.Data().([]float64) {
					if d := dv.Data().([]float64)[i]; d != v {
						t.Fatalf("%s %s: distance view [%d] = %v, embedding %v", name, mode, i, d, v)
					}
				}
				grads[loss] = map[string][]float64{}
				for _, p := range b.ParamNodes() {
					g, err := p.Grad()
					if err != nil {
						t.Fatal(err)
					}
					grads[loss][p.Name()] = append([]float64(nil), g.Data().([]float64)...)
				}
				engine.CloseMachine(vm)
			}
			diff := func(a, b []float64) float64 {
				var m float64
				for i := range a {
					m = math.Max(m, math.Abs(a[i]-b[i]))
				}
				return m
			}
			var reached float64 // how far D(z) moves the message passing's gradients
			for p, a := range grads["A"] {
				dView, dZ := diff(a, grads["A+D(view)"][p]), diff(a, grads["A+D(z)"][p])
				switch {
				case strings.Contains(p, ".skip") && dView == 0:
					t.Errorf("%s %s: the distance view does not train the skip map %s", name, mode, p)
				case !strings.Contains(p, ".skip") && dView > 1e-12:
					t.Errorf("%s %s: the distance view trains %s (gradient moved by %v)", name, mode, p, dView)
				case !strings.Contains(p, ".skip"):
					reached = math.Max(reached, dZ)
				}
			}
			if reached < 1e-6 {
				t.Errorf("%s %s: a loss on z does not reach the message passing either: the test proves nothing", name, mode)
			}
			b := engine.NewBuilder(engine.NewParamStore(tensor.Float64, engine.Stream(1, "init")), false)
			if _, err := Build(e.New(cfg), b, in); err != nil || b.DistanceView != nil {
				t.Errorf("%s %s: evaluation graph has a distance view (%v)", name, mode, err)
			}
		}
	}
}
