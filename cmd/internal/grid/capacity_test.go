package grid

import (
	"context"
	"testing"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/objective"
)

// TestCapacityReference: the capacity reference (a free table trained on
// the runs' objective) trains on the objective a run of the model with the
// distance term resolves to — the paper's BCE + 10·MSE on a paper-scale
// run, the BCE and the ranking term at their weights under the large-graph
// defaults — is the same bit for bit for one and two workers, and beats
// the same table untrained (its random initialisation) by a wide margin.
func TestCapacityReference(t *testing.T) {
	base := run.Default()
	base.Dataset = "caveman:8x6"
	ds, err := run.LoadDataset(base)
	if err != nil {
		t.Fatal(err)
	}
	large := base
	large.Scale, large.Explicit = run.ScaleLarge, map[string]bool{}
	for _, c := range []struct {
		cfg  run.Config
		want run.Objective
	}{
		{base, run.Objective{LambdaBCE: 1, LambdaMSE: run.DefaultLambdaMSE, Alpha: 1, Nodes: 48}},
		{large, func() run.Objective { // what the run itself resolves to
			r := large
			r.Variant = run.Both
			r, err := r.Resolve(ds)
			if err != nil {
				t.Fatal(err)
			}
			return run.Objective{LambdaBCE: r.LambdaBCE, LambdaMSE: r.LambdaMSE, DistanceLoss: r.DistanceLoss, RankTemp: r.RankTemp, Alpha: r.Alpha, RankTriples: r.RankTriples, RankPairs: r.RankPairs, Nodes: 48}
		}()},
	} {
		if got := run.ObjectiveOf(c.cfg, ds); got != c.want {
			t.Errorf("scale %q: objective %+v, want %+v", c.cfg.Scale, got, c.want)
		}
	}
	if o := run.ObjectiveOf(large, ds); o.DistanceLoss != "rank" || o.LambdaBCE != 1 || o.LambdaMSE <= 0 {
		t.Errorf("large-graph objective %+v: want BCE and the ranking term", o)
	}
	var taus []float64
	for _, w := range []int{1, 2} {
		cfg := CapacityConfig(base, run.ObjectiveOf(large, ds))
		cfg.Workers, cfg.Epochs, cfg.EvalEvery = w, 300, 300 // 300 of the 1000 steps: enough on 48 nodes
		r, err := run.Run(context.Background(), cfg, run.Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		o := run.ObjectiveOf(large, ds)
		if r.Model != CapacityModel || r.Config.LambdaBCE != o.LambdaBCE || r.Config.LambdaMSE != o.LambdaMSE || r.Config.DistanceLoss != o.DistanceLoss ||
			r.Config.RankTriples != capacityTriples(o) || r.Config.BCESample != min(r.Config.RankTriples, CapacityBCESample) || r.Config.BatchSize != 0 {
			t.Fatalf("capacity run: model %s, config %+v; objective %+v", r.Model, r.Config, o)
		}
		taus = append(taus, float64(r.Final.TestKendallTau))
	}
	if taus[0] != taus[1] {
		t.Errorf("capacity τ %v with one worker, %v with two", taus[0], taus[1])
	}
	random := CapacityConfig(base, run.ObjectiveOf(base, ds))
	random.LR, random.Epochs, random.EvalEvery = 1e-12, 1, 1 // one step that moves nothing: the random initialisation
	r, err := run.Run(context.Background(), random, run.Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if rt := float64(r.Final.TestKendallTau); !(taus[0] > rt+0.3) {
		t.Errorf("capacity τ %.3f does not beat the untrained table's %.3f by 0.3", taus[0], rt)
	}
}

// TestCapacityTriples: a capacity step draws two ranking triples per node,
// at least CapacityMinTriples and at most CapacityTriples, whatever the
// runs' own count.
func TestCapacityTriples(t *testing.T) {
	for _, c := range []struct{ runs, nodes, want int }{
		{512, 77, 512}, {512, 400, 800}, {512, 7115, 14230}, {512, 60_000, 120_000}, {512, 100_000, CapacityTriples}, {0, 10, 512}, {0, 0, 512}, {20000, 100, 512},
		{run.WholeGraphTriples, 999, 1998}, {65536, 7115, 14230},
	} {
		if got := capacityTriples(run.Objective{RankTriples: c.runs, Nodes: c.nodes}); got != c.want {
			t.Errorf("%d triples a run's step, %d nodes: %d, want %d", c.runs, c.nodes, got, c.want)
		}
	}
}

// TestCapacityBCESample: a capacity step's link term reads as many training
// positives as the step draws triples, at most CapacityBCESample: a graph
// of 10⁵ nodes draws CapacityTriples triples and CapacityBCESample
// positives, one of 7,115 (Wiki-Vote) as many positives as triples; the
// paper's MSE keeps every positive (0).
func TestCapacityBCESample(t *testing.T) {
	for _, c := range []struct{ nodes, triples, bce int }{
		{100_000, CapacityTriples, CapacityBCESample}, {7115, 14230, 14230}, {CapacityBCESample / 2, CapacityBCESample, CapacityBCESample}, {CapacityBCESample/2 + 1, CapacityBCESample + 2, CapacityBCESample},
	} {
		o := run.Objective{DistanceLoss: objective.DistanceRank, RankTriples: 512, Nodes: c.nodes, LambdaBCE: 1, LambdaMSE: 10}
		cfg := CapacityConfig(run.Default(), o)
		if cfg.RankTriples != c.triples || cfg.BCESample != c.bce {
			t.Errorf("%d nodes: %d triples and %d positives a step, want %d and %d", c.nodes, cfg.RankTriples, cfg.BCESample, c.triples, c.bce)
		}
	}
	o := run.Objective{DistanceLoss: objective.DistanceMSE, Nodes: 100_000, LambdaBCE: 1, LambdaMSE: 1}
	if cfg := CapacityConfig(run.Default(), o); cfg.BCESample != 0 {
		t.Errorf("the paper's MSE: a sample of %d positives, want every one", cfg.BCESample)
	}
}
