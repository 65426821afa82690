package run

import (
	"context"
	"testing"
)

// TestCapacityReference: the capacity reference (a free table trained on
// the ranking term alone) is the same bit for bit for one and two workers,
// and beats the same table untrained (its random initialisation) by a wide
// margin.
func TestCapacityReference(t *testing.T) {
	base := Default()
	base.Dataset = "caveman:8x6"
	var taus []float64
	for _, w := range []int{1, 2} {
		cfg := CapacityConfig(base)
		cfg.Workers, cfg.Epochs, cfg.EvalEvery = w, 100, 100 // 100 of the 500 steps: enough on 48 nodes
		r, err := Run(context.Background(), cfg, Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Model != CapacityModel || r.Config.LambdaBCE != 0 || r.Config.DistanceLoss != "rank" || r.Config.BatchSize != 0 {
			t.Fatalf("capacity run: model %s, %d epochs, config %+v", r.Model, r.Epochs, r.Config)
		}
		taus = append(taus, float64(r.Final.TestKendallTau))
	}
	if taus[0] != taus[1] {
		t.Errorf("capacity τ %v with one worker, %v with two", taus[0], taus[1])
	}
	random := CapacityConfig(base)
	random.LR, random.Epochs, random.EvalEvery = 1e-12, 1, 1 // one step that moves nothing: the random initialisation
	r, err := Run(context.Background(), random, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if rt := float64(r.Final.TestKendallTau); !(taus[0] > rt+0.3) {
		t.Errorf("capacity τ %.3f does not beat the untrained table's %.3f by 0.3", taus[0], rt)
	}
}
