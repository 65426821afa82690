package models

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/engine/enginetest"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestStagesEqualForward: a staged model's stages, each run as a graph of
// its own on the previous stage's rows bound to an input node (what
// layer-wise inference does), give Forward's embeddings bit for bit (and a
// stage declared row-wise the same rows on a graph without edges), with
// a skip path and the gate, in float32 and float64; every model that
// trains on mini-batches is staged (the layer-wise inference serves them).
func TestStagesEqualForward(t *testing.T) {
	staged := NamesWhere(func(e Entry) bool { _, ok := e.New(e.Config()).(Staged); return ok })
	for _, name := range NamesWhere(func(e Entry) bool { return e.Batches }) {
		if !slices.Contains(staged, name) {
			t.Errorf("%s trains on mini-batches but has no stages (models.Staged)", name)
		}
	}
	for _, name := range staged {
		for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
			e, _ := Lookup(name)
			cfg := e.Config()
			cfg.Hidden, cfg.Out, cfg.Heads, cfg.SkipGate = 5, 3, 2, true
			in := tiny()
			in.Skip = &engine.Features{N: 6, Dense: enginetest.RandomValues(33, 12), DenseDim: 2}
			ps := engine.NewParamStore(dt, engine.Stream(5, "init"))
			m := e.New(cfg).(Staged)
			b := engine.NewBuilder(ps, false)
			z, err := Build(m, b, in)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range b.ParamNodes() { // zero-initialised parameters (biases, the gate) would hide a stage's part
				v := p.Value().(*tensor.Dense)
				vals := engine.ToFloat64(v)
				for k := range vals {
					if vals[k] == 0 {
						vals[k] = 0.3 * enginetest.RandomValues(uint64(k+7), len(vals))[k]
					}
				}
				engine.SetFloat64(v, vals)
			}
			want := run(t, b, z)
			var prev []float64
			var width int
			for s := range m.Stages() {
				b := engine.NewBuilder(ps, false)
				var h *G.Node
				if s > 0 {
					h = b.Input(fmt.Sprintf("stage%d.in", s), 6, width)
					if err := G.Let(h, engine.FromFloat64(dt, prev, 6, width)); err != nil {
						t.Fatal(err)
					}
				}
				z, err := BuildStage(m, b, in, s, h)
				if err != nil {
					t.Fatal(err)
				}
				rows := run(t, b, z)
				if m.StageHops(s) == 0 { // row-wise: the same rows without a single edge
					alone := *in
					alone.Adj = engine.NewAdjacency(6, nil)
					b := engine.NewBuilder(ps, false)
					var h *G.Node
					if s > 0 {
						h = b.Input(fmt.Sprintf("stage%d.in", s), 6, width)
						G.Must(h, G.Let(h, engine.FromFloat64(dt, prev, 6, width)))
					}
					z, err := BuildStage(m, b, &alone, s, h)
					if err != nil {
						t.Fatal(err)
					}
					if got := run(t, b, z); !slices.Equal(got, rows) {
						t.Errorf("%s %v: stage %d is declared row-wise, but its rows change without the edges", name, dt, s)
					}
				}
				prev, width = rows, z.Shape()[1]
			}
			if !slices.Equal(prev, want) {
				t.Errorf("%s %v: the stages give\n%v\nForward\n%v", name, dt, prev, want)
			}
		}
	}
	if len(staged) < 6 {
		t.Errorf("staged models: %v", staged)
	}
}

func run(t *testing.T, b *engine.Builder, z *G.Node) []float64 {
	f, err := engine.NewForward(b, z)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, _, err := f.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
