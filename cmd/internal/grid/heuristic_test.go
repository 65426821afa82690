package grid

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
)

// TestHeuristicRowsOnTheRunsPairs: the heuristic rows score the pairs a run
// of the same seed is scored on (its test positives and negatives, its
// message-passing edges), and a link compare's table carries them —
// (common neighbours) and (adamic-adar), τ blank — in every format.
func TestHeuristicRowsOnTheRunsPairs(t *testing.T) {
	cfg := run.Default()
	cfg.Dataset, cfg.Seed = "caveman:12x8", 2
	ds, err := run.LoadDataset(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := cfg.Resolve(ds)
	if err != nil {
		t.Fatal(err)
	}
	p, err := run.Prepare(ds, rc)
	if err != nil {
		t.Fatal(err)
	}
	splits, _, _, err := data.NewSplits(ds, cfg.Task, engine.Stream(cfg.Seed, "split"))
	if err != nil {
		t.Fatal(err)
	}
	for g, s := range p.Splits {
		if !reflect.DeepEqual(s.Test, splits[g].Test) || !reflect.DeepEqual(s.TestNeg, splits[g].TestNeg) {
			t.Fatalf("graph %d: the reference's test pairs are not the run's", g)
		}
	}
	got, err := HeuristicReference(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for k, h := range eval.Heuristics {
		want := eval.HeuristicMetrics(h, splits)
		if g := got[k]; g.TestAUC != want.TestAUC || g.ValAUC != want.ValAUC || g.TestAP != want.TestAP || g.TestHits20 != want.TestHits20 || !math.IsNaN(g.Tau) {
			t.Errorf("%s: %+v, want %+v", h, got[k], want)
		}
	}

	base := run.Default()
	base.Dataset, base.Epochs, base.EvalEvery = "caveman:12x8", 4, 4
	cc := CompareConfig{Base: base, Models: []string{"gcn"}, Variants: []run.Variant{run.Base}, Repeats: 2, Workers: 1, Heuristics: true}
	c, err := Compare(context.Background(), cc, CompareHooks{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Heuristics) != 3 || c.Heuristics[0].Heuristic != string(eval.CommonNeighbours) || c.Heuristics[1].Heuristic != string(eval.AdamicAdar) ||
		c.Heuristics[2].Heuristic != string(eval.PreferentialAttachment) {
		t.Fatalf("heuristic rows %+v", c.Heuristics)
	}
	seed2, err := HeuristicReference(cfg) // cfg is seed 2 of the same graph
	if err != nil {
		t.Fatal(err)
	}
	if a := c.Heuristics[1].AUCBySeed; len(a) != 2 || float64(a[1]) != seed2[1].TestAUC {
		t.Errorf("adamic-adar by seed %v, seed 2 alone %v", a, seed2[1].TestAUC)
	}
	var names []string
	for _, r := range c.TableRows() {
		names = append(names, r.Model)
		if r.Model == "(adamic-adar)" && !math.IsNaN(r.Tau.Mean) {
			t.Errorf("adamic-adar row has τ %v", r.Tau.Mean)
		}
	}
	if !reflect.DeepEqual(names[len(names)-3:], []string{"(common neighbours)", "(adamic-adar)", "(preferential attachment)"}) {
		t.Errorf("table rows %v", names)
	}
	cc.Base.Task = data.TaskPair
	cc.Base.Dataset = "communities"
	if c, err = Compare(context.Background(), cc, CompareHooks{}); err != nil || len(c.Heuristics) != 0 {
		t.Errorf("pair task: heuristic rows %v, %v", c.Heuristics, err)
	}
}
