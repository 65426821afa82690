package grid

import (
	"testing"

	"github.com/ignn/ignn/cmd/internal/run"
)

// TestPopularityCells: a compare's --popularity reaches the cells with a
// skip path to end — the hash variants' and the (skip path + sketch) row's,
// the recipe without its trained layers — and not the base variant's, the
// free table's or the (skip path alone) row's, which leaves out what reads
// the edges (the sketch and the degrees) with the message passing; the
// same for a weight chosen on validation (--popularity auto).
func TestPopularityCells(t *testing.T) {
	for _, auto := range []bool{false, true} {
		popularityCells(t, auto)
	}
}

func popularityCells(t *testing.T, auto bool) {
	base := run.Default()
	base.ModelConfig.Popularity = 0.1
	if auto {
		base.ModelConfig.Popularity, base.ModelConfig.PopularityAuto = 0, true
	}
	cc := CompareConfig{Base: base, Models: []string{"gcn"}, Repeats: 1, AblationSketch: 64,
		Objective: &run.Objective{LambdaBCE: 1, LambdaMSE: 10, Alpha: 1}}
	for _, c := range []struct {
		name string
		job  Job
		want float64
	}{
		{"both", Job{Model: "gcn", Variant: run.Both, Seed: 1}, 0.1},
		{"hash", Job{Model: "gcn", Variant: run.Hash, Seed: 1}, 0.1},
		{"base", Job{Model: "gcn", Variant: run.Base, Seed: 1}, 0},
		{"mse", Job{Model: "gcn", Variant: run.MSE, Seed: 1}, 0},
		{"(capacity)", Job{Model: CapacityModel, Variant: run.MSE, Seed: 1, Capacity: true}, 0},
		{"(skip path alone)", Job{Model: "gcn", Variant: run.Both, Seed: 1, Ablation: true}, 0},
		{"(skip path + sketch)", Job{Model: "gcn", Variant: run.Both, Seed: 1, Ablation: true, AblationSketch: true}, 0.1},
	} {
		mc := cc.config(c.job).ModelConfig
		if got := mc.Popularity; !auto && got != c.want || auto && (got != 0 || mc.PopularityAuto != (c.want > 0)) {
			t.Errorf("%s: popularity %v (auto %v), want %v (auto %v)", c.name, got, mc.PopularityAuto, c.want, auto)
		}
	}
}
