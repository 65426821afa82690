package run

import (
	"context"
	"testing"
)

// TestCapacityReference: the capacity reference (a free table trained on
// the runs' objective) trains on the objective a run of the model with the
// distance term resolves to — the paper's BCE + 10·MSE on a paper-scale
// run, the BCE and the ranking term at their weights under the large-graph
// defaults — is the same bit for bit for one and two workers, and beats
// the same table untrained (its random initialisation) by a wide margin.
func TestCapacityReference(t *testing.T) {
	base := Default()
	base.Dataset = "caveman:8x6"
	ds, err := LoadDataset(base)
	if err != nil {
		t.Fatal(err)
	}
	large := base
	large.Scale, large.Explicit = ScaleLarge, map[string]bool{}
	for _, c := range []struct {
		cfg  Config
		want Objective
	}{
		{base, Objective{LambdaBCE: 1, LambdaMSE: DefaultLambdaMSE, Alpha: 1}},
		{large, func() Objective { // what the run itself resolves to
			r := large
			r.Variant = Both
			r, err := r.Resolve(ds)
			if err != nil {
				t.Fatal(err)
			}
			return Objective{LambdaBCE: r.LambdaBCE, LambdaMSE: r.LambdaMSE, DistanceLoss: r.DistanceLoss, RankTemp: r.RankTemp, Alpha: r.Alpha, RankTriples: r.RankTriples, RankPairs: r.RankPairs}
		}()},
	} {
		if got := ObjectiveOf(c.cfg, ds); got != c.want {
			t.Errorf("scale %q: objective %+v, want %+v", c.cfg.Scale, got, c.want)
		}
	}
	if o := ObjectiveOf(large, ds); o.DistanceLoss != "rank" || o.LambdaBCE != 1 || o.LambdaMSE <= 0 {
		t.Errorf("large-graph objective %+v: want BCE and the ranking term", o)
	}
	var taus []float64
	for _, w := range []int{1, 2} {
		cfg := CapacityConfig(base, ObjectiveOf(large, ds))
		cfg.Workers, cfg.Epochs, cfg.EvalEvery = w, 300, 300 // 300 of the 1000 steps: enough on 48 nodes
		r, err := Run(context.Background(), cfg, Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		o := ObjectiveOf(large, ds)
		if r.Model != CapacityModel || r.Config.LambdaBCE != o.LambdaBCE || r.Config.LambdaMSE != o.LambdaMSE || r.Config.DistanceLoss != o.DistanceLoss ||
			r.Config.RankTriples != min(o.RankTriples, CapacityTriples) || r.Config.BatchSize != 0 {
			t.Fatalf("capacity run: model %s, config %+v; objective %+v", r.Model, r.Config, o)
		}
		taus = append(taus, float64(r.Final.TestKendallTau))
	}
	if taus[0] != taus[1] {
		t.Errorf("capacity τ %v with one worker, %v with two", taus[0], taus[1])
	}
	random := CapacityConfig(base, ObjectiveOf(base, ds))
	random.LR, random.Epochs, random.EvalEvery = 1e-12, 1, 1 // one step that moves nothing: the random initialisation
	r, err := Run(context.Background(), random, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if rt := float64(r.Final.TestKendallTau); !(taus[0] > rt+0.3) {
		t.Errorf("capacity τ %.3f does not beat the untrained table's %.3f by 0.3", taus[0], rt)
	}
}

// TestCapacityThinning: the capacity reference's BFS draws are thinned
// only above CapacityFullNodes, and then keep to the budget of
// MSESources BFS over CapacityFullNodes nodes per epoch.
func TestCapacityThinning(t *testing.T) {
	cfg := CapacityConfig(Default(), Objective{})
	for _, c := range []struct{ n, sources, every int }{
		{CapacityFullNodes, 0, 0}, {2 * CapacityFullNodes, 32, 1}, {1_000_000, 8, 2}, {10_000_000, 8, 13},
	} {
		s, e := capacityThinning(cfg, c.n)
		if s != c.sources || e != c.every {
			t.Errorf("%d nodes: %d sources every %d epochs, want %d every %d", c.n, s, e, c.sources, c.every)
		}
		if e > 0 && int64(s)*int64(c.n) > int64(e)*int64(cfg.MSESources)*CapacityFullNodes {
			t.Errorf("%d nodes: over the BFS budget", c.n)
		}
	}
	if s, e := capacityThinning(Default(), 10_000_000); s != 0 || e != 0 {
		t.Error("a run that is not the capacity reference was thinned")
	}
}
