package run

import (
	"context"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/models"
	"github.com/ignn/ignn/objective"
)

func batchRun(model string) Config {
	cfg := shortRun(model)
	cfg.Dataset, cfg.Epochs, cfg.EvalEvery = "grid:12x12", 4, 2
	cfg.BatchSize, cfg.BatchSteps = 8, 3
	cfg.DistanceLoss = objective.DistanceRank
	return cfg
}

// TestBatchSeedsSeeWholeGraph: with every neighbour and no cut, the
// embeddings a batch graph computes for its seeds are the whole graph's,
// for each model that trains on mini-batches (float64; the sums run in
// another order, so equal to rounding).
func TestBatchSeedsSeeWholeGraph(t *testing.T) {
	defer func(p bool) { engine.Prefetch = p }(engine.Prefetch)
	engine.Prefetch = false // the test reads the batch's pairs and slots, which a batch prepared ahead would be rewriting
	for _, model := range models.NamesWhere(func(e models.Entry) bool { return e.Batches }) {
		cfg := batchRun(model)
		cfg.DType, cfg.Position, cfg.PositionSkip = Float64, position(t, "landmark:4"), true
		cfg, _, p := prepared(t, cfg)
		c, err := Build(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Feed(0); err != nil {
			t.Fatal(err)
		}
		if err := c.Batch(0, 1); err != nil {
			t.Fatal(err)
		}
		e, _ := models.Lookup(cfg.Model)
		bb := engine.NewBuilder(c.ps, false)
		zb, err := models.Build(e.New(cfg.ModelConfig), bb, c.batch.Input())
		if err != nil {
			t.Fatal(err)
		}
		fb, err := engine.NewForward(bb, zb)
		if err != nil {
			t.Fatal(err)
		}
		batchZ, _, err := fb.Run(nil)
		if err != nil {
			t.Fatal(err)
		}
		fb.Close()
		full, d, err := c.Embeddings()
		if err != nil {
			t.Fatal(err)
		}
		seeds := 0
		for _, k := range append(c.bce.I, c.bce.J...) {
			seeds = max(seeds, k+1) // pairs hold slots now; seeds take the first slots
		}
		if seeds < 2 || len(c.batch.Slots.Sub.Nodes) <= seeds || c.batch.Cut > 0 {
			t.Fatalf("%s: %d seeds in %d slots, %d cut", model, seeds, len(c.batch.Slots.Sub.Nodes), c.batch.Cut)
		}
		for s := 0; s < seeds; s++ {
			g := c.batch.Slots.Sub.Nodes[s]
			for k := 0; k < d; k++ {
				if diff := math.Abs(batchZ[s*d+k] - full[g*d+k]); diff > 1e-12 {
					t.Fatalf("%s: seed slot %d (node %d) column %d: batch %v, whole graph %v", model, s, g, k, batchZ[s*d+k], full[g*d+k])
				}
			}
		}
		c.Close()
	}
}

// TestBatchRunsDeterministic: a mini-batch run gives the same numbers for
// one and two workers, a fanout run too, one with its ranking sources
// fixed for the run too, and an interrupted run resumed from its
// checkpoint ends as the uninterrupted one.
func TestBatchRunsDeterministic(t *testing.T) {
	for _, c := range []struct {
		fanout int
		fixed  bool
	}{{0, false}, {2, false}, {0, true}} {
		fanout := c.fanout
		cfg := batchRun("sage")
		cfg.Distances, cfg.BatchFanout, cfg.Epochs, cfg.RankFixedSources = DistSampled, fanout, 6, c.fixed
		var res []*Result
		for _, w := range []int{1, 2} {
			cfg.Workers = w
			r, err := Run(context.Background(), cfg, Hooks{})
			if err != nil {
				t.Fatal(err)
			}
			res = append(res, r)
		}
		if !reflect.DeepEqual(res[0].History, res[1].History) || len(res[0].History) != 4 {
			t.Fatalf("fanout %d: workers 1 and 2 differ:\n%+v\n%+v", fanout, res[0].History, res[1].History)
		}
		cfg.Save = t.TempDir()
		interruptAfter(t, cfg, 2)
		resumed, err := Resume(context.Background(), cfg.Save, Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res[0].History, resumed.History) {
			t.Fatalf("fanout %d: resumed run differs:\nfull    %+v\nresumed %+v", fanout, res[0].History, resumed.History)
		}
	}
}

// TestBatchRefusals: models whose ops depend on the whole graph's edges,
// batch shapes without a batch size, and seeds beyond the slots are
// refused with the flag to change.
func TestBatchRefusals(t *testing.T) {
	cfg := batchRun("gat")
	if _, err := Run(context.Background(), cfg, Hooks{}); err == nil || !strings.Contains(err.Error(), "mini-batches") {
		t.Fatalf("gat with --batch-size: %v", err)
	}
	cfg = batchRun("gcn")
	cfg.BatchSize = 0
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "need --batch-size") {
		t.Fatalf("--batch-steps without --batch-size: %v", err)
	}
	cfg = batchRun("gcn")
	cfg.BatchNodes = 20
	if _, err := Run(context.Background(), cfg, Hooks{}); err == nil || !strings.Contains(err.Error(), "--batch-nodes") {
		t.Fatalf("seeds beyond the slots: %v", err)
	}
}

// TestBatchPrefetchSameNumbers: preparing each step's batch ahead, while
// the step before trains (engine.Prefetch), gives the numbers preparing it
// in turn gives, bit for bit, under GOMAXPROCS 2 — the large-graph defaults
// (identity and landmark inputs, the skip block, the ranking term) and a
// fanout run — and the batches did come from ahead.
func TestBatchPrefetchSameNumbers(t *testing.T) {
	defer func(p bool) { engine.Prefetch = p }(engine.Prefetch)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	defaults := Default()
	defaults.Dataset, defaults.Explicit = "grid:30x30", map[string]bool{"batch-steps": true, "sketch": true} // no sketch: it widens every evaluation, and prefetching is what is tested
	defaults.Epochs, defaults.EvalEvery, defaults.BatchSteps = 2, 1, 8
	fanout := batchRun("sage")
	fanout.BatchFanout, fanout.Distances = 2, DistSampled
	for name, cfg := range map[string]Config{"defaults": defaults, "fanout": fanout} {
		// The losses of every step, by hand, and a whole run's history.
		steps := func(prefetch bool) ([]float64, int) {
			engine.Prefetch = prefetch
			rc, _, p := prepared(t, cfg)
			c, err := Build(p, rc)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			var losses []float64
			for epoch := range 2 {
				if err := c.Feed(epoch); err != nil {
					t.Fatal(err)
				}
				for s := range c.batch.Steps {
					if err := c.Batch(epoch, s); err != nil {
						t.Fatal(err)
					}
					st, err := c.tr.Step()
					if err != nil {
						t.Fatal(err)
					}
					losses = append(losses, st.Loss)
				}
			}
			return losses, c.ahead
		}
		want, none := steps(false)
		got, ahead := steps(true)
		if none != 0 || ahead != len(want)-2 {
			t.Fatalf("%s: %d and %d batches prepared ahead of %d steps in 2 epochs, want 0 and %d", name, none, ahead, len(want), len(want)-2)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the losses differ with batches prepared ahead:\n%v\n%v", name, got, want)
		}
		var res []*Result
		for _, prefetch := range []bool{false, true} {
			engine.Prefetch = prefetch
			r, err := Run(context.Background(), cfg, Hooks{})
			if err != nil {
				t.Fatal(err)
			}
			res = append(res, r)
		}
		if !reflect.DeepEqual(res[0].History, res[1].History) || !reflect.DeepEqual(res[0].Final, res[1].Final) {
			t.Fatalf("%s: the runs differ with batches prepared ahead:\n%+v\n%+v", name, res[0].History, res[1].History)
		}
	}
}

// TestSmallWorldBatches: on a small world (a Barabási–Albert graph, whose
// batches' 3-hop neighbourhoods are the whole graph) a probed batch's
// estimate exceeds engine.SlotCap, so it gets the cap's slots, the plan
// says so and counts the layer-wise
// inference it leads to, the run's inference goes layer-wise, and the run
// says how much its steps cut instead of warning (the cut is the cap's
// design, not a setting to mend).
func TestSmallWorldBatches(t *testing.T) {
	defer func(c, k int) { engine.SlotCap, ChunkedInferenceNodes = c, k }(engine.SlotCap, ChunkedInferenceNodes)
	engine.SlotCap, ChunkedInferenceNodes = 1200, 0
	cfg := shortRun("gcn")
	cfg.Dataset, cfg.Variant, cfg.Epochs, cfg.EvalEvery, cfg.BatchSize = "ba:2000:3", Both, 2, 2, 64
	cfg.Explicit = map[string]bool{"epochs": true, "eval-every": true, "batch-size": true, "sketch": true} // no sketch: the slots are tested
	rc, ds, p := prepared(t, cfg)
	if got, _ := planSlotsWidest(rc, ds); got != 1200 {
		t.Errorf("planned %d slots, want engine.SlotCap 1200", got)
	}
	set := rc
	set.BatchNodes = 1536 // the user's slots: no probe, the hub's reach alone
	for _, c := range []Config{rc, set} {
		layerwise := false
		for _, part := range PlanMemory(c, ds).Parts {
			layerwise = layerwise || strings.HasPrefix(part.What, "layer-wise inference")
		}
		if !layerwise {
			t.Errorf("--batch-nodes %d: the plan has no layer-wise inference", c.BatchNodes)
		}
	}
	c, err := Build(p, rc)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Embeddings(); err != nil || c.batch.Slots.Sub.Slots != 1200 || !c.batch.Capped || !c.infer.Layerwise() {
		t.Errorf("%v: %d slots, capped %v, layer-wise %v", err, c.batch.Slots.Sub.Slots, c.batch.Capped, c.infer.Layerwise())
	}
	c.Close()
	res, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Batches, "in 1200 node slots (capped") || !strings.Contains(res.Batches, "links to nodes beyond the slots each on average") || len(res.Warnings) > 0 {
		t.Errorf("batches %q, warnings %q", res.Batches, res.Warnings)
	}
	if !(res.Final.TestAUC > 0.5) {
		t.Errorf("test AUC %v", res.Final.TestAUC)
	}
}
