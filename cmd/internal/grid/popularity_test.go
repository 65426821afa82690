package grid

import (
	"testing"

	"github.com/ignn/ignn/cmd/internal/run"
)

// TestPopularityCells: a compare's --popularity reaches the cells with a
// skip path to end — the hash variants' and the (skip path + sketch) row's,
// the recipe without its trained layers — and not the base variant's, the
// free table's or the (skip path alone) row's, which leaves out what reads
// the edges (the sketch and the degrees) with the message passing.
func TestPopularityCells(t *testing.T) {
	base := run.Default()
	base.ModelConfig.Popularity = 0.1
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
		if got := cc.config(c.job).ModelConfig.Popularity; got != c.want {
			t.Errorf("%s: popularity %v, want %v", c.name, got, c.want)
		}
	}
}
