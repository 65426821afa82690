package grid

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/features"
)

// TestAblationReference: a compare under the large-graph recipe gets one
// (skip path alone) cell per seed — the both variant with --skip-alone, at
// the runs' rate, weights and distance term — whose row is a reference
// row (no paired difference, never the best τ) with the numbers of a run
// of that configuration made by hand; those numbers are the same bit for
// bit whichever model of the layer stack builds it, and the same for one
// and two workers; its cost for shards and ETAs is AblationCost of its
// model's cell. Runs with a neighbourhood sketch get a (skip path +
// sketch) cell beside each, the same with the sketch kept (AblationSketchCost), equal to a
// --skip-alone --sketch M run by hand. A paper-scale run (no skip path), a
// grid without the both variant and a grid of models that cannot leave
// their message passing out get no row.
func TestAblationReference(t *testing.T) {
	base := run.Default()
	base.Dataset, base.Epochs, base.EvalEvery, base.BatchSteps = "caveman:8x6", 2, 1, 10
	large := base
	large.Scale, large.Explicit = run.ScaleLarge, map[string]bool{"epochs": true, "eval-every": true, "batch-steps": true}
	for _, c := range []struct {
		cfg      run.Config
		models   []string
		variants []run.Variant
		want     string
	}{
		{large, []string{"gcn", "sage"}, []run.Variant{run.Base, run.Both}, "gcn"},
		{large, []string{"pgnn-f", "sage"}, []run.Variant{run.Both}, "sage"},
		{large, []string{"pgnn-f", "appnp"}, []run.Variant{run.Both}, ""},
		{large, []string{"gcn"}, []run.Variant{run.Base, run.MSE}, ""},
		{base, []string{"gcn"}, []run.Variant{run.Base, run.Both}, ""}, // the paper's scale: no skip path
	} {
		if got := AblationFor(c.cfg, c.models, c.variants, 48); got != c.want {
			t.Errorf("scale %q, models %v, variants %v: ablation model %q, want %q", c.cfg.Scale, c.models, c.variants, got, c.want)
		}
	}
	// A grid file's blocks: one ablation cell per seed and setting of their both cells.
	lm, err := features.ParsePosition("landmark:4")
	if err != nil {
		t.Fatal(err)
	}
	blocks := CompareConfig{Base: large, Ablation: "gcn", Grids: []SubGrid{
		{Models: []string{"gcn"}, Variants: []run.Variant{run.Both}, Repeats: 2, Positions: []features.Position{lm}},
		{Models: []string{"sage", "gin"}, Variants: []run.Variant{run.Base, run.Both}, Repeats: 1, LR: 0.003},
	}}
	var keys []string
	for _, j := range blocks.Jobs() {
		if j.IsAblation() {
			keys = append(keys, j.Key())
		}
	}
	if want := []string{"gcn_both-landmark4-skipalone_lr0.01_bce1_rank10_seed1", "gcn_both-landmark4-skipalone_lr0.01_bce1_rank10_seed2",
		"gcn_both-skipalone_lr0.003_bce1_rank10_seed1"}; !slices.Equal(keys, want) {
		t.Errorf("a grid file's ablation cells %v, want %v", keys, want)
	}
	// The runs' sketch: the large defaults' below 50,000 nodes on a link
	// task, none without a skip path.
	sketch := run.RecipeSketch(large, 48)
	if sketch != run.SketchWidth(48) || run.RecipeSketch(base, 48) != 0 {
		t.Fatalf("the runs' sketch: %d under the large defaults (want %d), %d at the paper's scale (want 0)", sketch, run.SketchWidth(48), run.RecipeSketch(base, 48))
	}
	var finals [][4]float64
	for _, w := range []int{1, 2} {
		cc := CompareConfig{Base: large, Models: []string{"gcn", "sage"}, Variants: []run.Variant{run.Base, run.Both}, Repeats: 2, Workers: w, Ablation: "gcn", AblationSketch: sketch}
		var abl, withSketch []Job
		for _, j := range cc.Jobs() {
			switch {
			case j.AblationSketch:
				withSketch = append(withSketch, j)
			case j.IsAblation():
				abl = append(abl, j)
			}
		}
		if len(abl) != 2 || !strings.HasSuffix(abl[0].Key(), "_seed1") || !strings.Contains(abl[0].Key(), "-skipalone") || abl[0].Distance != "rank" {
			t.Fatalf("ablation jobs %+v: want one per seed, named, on the ranking term", abl)
		}
		if len(withSketch) != 2 || !withSketch[0].IsAblation() || withSketch[0].Key() != strings.Replace(abl[0].Key(), "-skipalone", "-skipalone-sketch", 1) {
			t.Fatalf("ablation jobs keeping the sketch %+v: want one per seed beside %+v", withSketch, abl)
		}
		if c := cc.config(abl[0]); c.ModelConfig.Sketch != 0 || c.EvalAtEnd {
			t.Errorf("the skip path alone's cell has a sketch of %d columns (evaluated at the end only: %v)", c.ModelConfig.Sketch, c.EvalAtEnd)
		}
		if c := cc.config(withSketch[0]); c.ModelConfig.Sketch != sketch || !c.EvalAtEnd {
			t.Errorf("the cell keeping the sketch has one of %d columns (want %d), evaluated at the end only: %v", c.ModelConfig.Sketch, sketch, c.EvalAtEnd)
		}
		full := abl[0]
		full.Ablation = false
		if a, m := cc.ETACost(abl[0]), cc.ETACost(full); a != m*AblationCost {
			t.Errorf("ablation cell's cost %v, its model's cell %v: want %g of it", a, m, AblationCost)
		}
		if a, m := cc.ETACost(withSketch[0]), cc.ETACost(full); a != m*AblationSketchCost {
			t.Errorf("the cost of an ablation cell keeping the sketch %v, its model's cell %v: want %g of it", a, m, AblationSketchCost)
		}
		res, err := Compare(context.Background(), cc, CompareHooks{})
		if err != nil {
			t.Fatal(err)
		}
		var row, rowSketch *RowJSON
		for i, r := range res.Rows {
			switch r.Model {
			case AblationRow:
				row = &res.Rows[i]
			case AblationSketchRow:
				rowSketch = &res.Rows[i]
			}
		}
		if row == nil || row.Variant != "both" || row.Runs != 2 || row.VsBase != nil || row.BestTau {
			t.Fatalf("ablation row %+v in %+v", row, res.Rows)
		}
		if rowSketch == nil || rowSketch.Variant != "both" || rowSketch.Runs != 2 || rowSketch.VsBase != nil || rowSketch.BestTau {
			t.Fatalf("ablation row keeping the sketch %+v in %+v", rowSketch, res.Rows)
		}
		finals = append(finals, [4]float64{float64(row.FAUCMean), float64(row.FTauMean), float64(rowSketch.FAUCMean), float64(rowSketch.FTauMean)})
		if w == 2 {
			continue
		}
		// Seed 1 by hand, built by another model of the stack.
		hand := large
		hand.Model, hand.Variant, hand.Seed = "sage", run.Both, 1
		hand.ModelConfig.SkipAlone = true
		r, err := run.Run(context.Background(), hand, run.Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		var cell *CellMetrics
		for i, x := range res.Cells {
			if x.IsAblation() && !x.AblationSketch && x.Seed == 1 {
				cell = &res.Cells[i]
			}
		}
		if cell == nil || cell.Final.TestAUC != r.Final.TestAUC || cell.Final.TestKendallTau != r.Final.TestKendallTau {
			t.Errorf("ablation cell %+v; sage --skip-alone by hand: AUC %v, τ %v", cell, r.Final.TestAUC, r.Final.TestKendallTau)
		}
		// The same, keeping the sketch: sage --skip-alone --sketch M.
		hand.ModelConfig.Sketch = sketch
		r, err = run.Run(context.Background(), hand, run.Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		cell = nil
		for i, x := range res.Cells {
			if x.AblationSketch && x.Seed == 1 {
				cell = &res.Cells[i]
			}
		}
		if cell == nil || cell.Final.TestAUC != r.Final.TestAUC || cell.Final.TestKendallTau != r.Final.TestKendallTau {
			t.Errorf("ablation cell keeping the sketch %+v; sage --skip-alone --sketch %d by hand: AUC %v, τ %v", cell, sketch, r.Final.TestAUC, r.Final.TestKendallTau)
		}
	}
	if finals[0] != finals[1] {
		t.Errorf("ablation row %v with one worker, %v with two", finals[0], finals[1])
	}
}
