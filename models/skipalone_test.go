package models

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/engine/enginetest"
	"gorgonia.org/tensor"
)

// TestSkipAlone: the ablation builds the same model minus its
// message-passing branch — its only parameter is the full model's skip map
// (the same name), its embedding is that map of the skip block, normalised
// (computed here by hand), and it reads neither the features nor the
// edges; a model that builds its message passing before Output refuses it
// with an error naming the models that can.
func TestSkipAlone(t *testing.T) {
	n := 8
	x, skip := enginetest.RandomValues(1, 3*n), enginetest.RandomValues(2, 2*n)
	stackModels := []string{"gcn", "sage", "gat", "gin", "graphconv"}
	for _, name := range NamesWhere(func(e Entry) bool { return e.Skip }) {
		e, _ := Lookup(name)
		cfg := e.Config()
		cfg.SkipAlone = true
		if e.SkipAlone != slices.Contains(stackModels, name) {
			t.Errorf("%s: Entry.SkipAlone %v, but the layer stack's models are %v", name, e.SkipAlone, stackModels)
		}
		if !slices.Contains(stackModels, name) {
			cfg.Hidden, cfg.Out = 16, 3
			_, err := Build(e.New(cfg), engine.NewBuilder(engine.NewParamStore(tensor.Float64, engine.Stream(1, "init")), false), pathInput(n, x, skip))
			if err == nil || !strings.Contains(err.Error(), "--skip-alone") || !strings.Contains(err.Error(), "gcn, sage, gat, gin, graphconv") {
				t.Errorf("%s with --skip-alone: %v, want a refusal naming the stack's models", name, err)
			}
			continue
		}
		full := engine.NewParamStore(tensor.Float64, engine.Stream(1, "init"))
		embed(t, e, full, pathInput(n, x, skip))
		ps := engine.NewParamStore(tensor.Float64, engine.Stream(1, "init"))
		z := embedWith(t, e, cfg, ps, pathInput(n, x, skip))
		names := ps.Names()
		if len(names) != 1 || !strings.Contains(names[0], ".skip") || !slices.Contains(full.Names(), names[0]) {
			t.Fatalf("%s ablation parameters %v; the full model's %v", name, names, full.Names())
		}
		w := ps.Tensor(names[0]).Data().([]float64) // 2 × 3
		for i := range n {
			var row [3]float64
			var sq float64
			for k := range 3 {
				row[k] = skip[2*i]*w[k] + skip[2*i+1]*w[3+k]
				sq += row[k] * row[k]
			}
			for k := range 3 {
				if want := row[k] / math.Sqrt(sq); math.Abs(z[3*i+k]-want) > 1e-12 {
					t.Fatalf("%s ablation z[%d][%d] = %v, want %v (the skip map, normalised)", name, i, k, z[3*i+k], want)
				}
			}
		}
		other := embedWith(t, e, cfg, ps, pathInput(n, enginetest.RandomValues(9, 3*n), skip))
		if !slices.Equal(z, other) {
			t.Errorf("%s ablation reads the features", name)
		}
	}
}
