package run

import (
	"github.com/ignn/ignn/features"
	"reflect"
	"strings"
	"testing"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/objective"
)

func graphOfN(n int) *data.Dataset {
	return &data.Dataset{Name: "g", Graphs: []*data.Graph{{Name: "g", N: n}}}
}

// TestScaleDefaults: a command-line configuration of a graph of more than
// WholeGraphNodes nodes gets the large defaults except where the user gave
// the flag, says so, and resolves to itself; a smaller graph, --scale
// paper, and a stored configuration (no Explicit) keep the paper's.
func TestScaleDefaults(t *testing.T) {
	cli := Default()
	cli.Explicit = map[string]bool{"epochs": true}
	cli.Epochs = 30
	small, err := cli.Resolve(graphOfN(LargeGraphNodes - 1))
	if err != nil {
		t.Fatal(err)
	}
	if small.Scale != "" || small.BatchSize != 0 || !small.Position.IsHash() || small.DistanceLoss != "" || small.ScaleNote != "" {
		t.Fatalf("small graph: %+v", small)
	}
	large, err := cli.Resolve(graphOfN(WholeGraphNodes + 1))
	if err != nil {
		t.Fatal(err)
	}
	// From LargeGraphNodes to WholeGraphNodes the link recipe trains one
	// layer on the whole graph, with the large graphs' input (64
	// landmarks, no sketch).
	whole, err := cli.Resolve(graphOfN(LargeGraphNodes))
	if err != nil || whole.BatchSize != 0 || whole.ModelConfig.Layers != 1 || whole.RankTriples != WholeGraphTriples || whole.Position.String() != "landmark:64" || whole.ModelConfig.Sketch != 0 ||
		!strings.Contains(whole.ScaleNote, "up to 100000 nodes the recipe trains one layer on the whole graph at once") {
		t.Fatalf("a graph of %d nodes: %v %+v", LargeGraphNodes, err, whole)
	}
	if large.Scale != ScaleLarge || large.BatchSize != 512 || large.BatchSteps != 50 || large.Position.String() != "landmark:64" ||
		!large.PositionSkip || !large.ModelConfig.SkipGate || !large.SkipStandardise || large.SkipPolar != features.SkipPolarAuto || large.DistanceLoss != objective.DistanceRank || large.RankTriples != 512 || large.Epochs != 30 || large.EvalEvery != 2 {
		t.Fatalf("large graph: %+v", large)
	}
	if large.Features != "" { // the paper's datasets keep their input
		t.Fatalf("large communities: --features %q", large.Features)
	}
	user := cli
	user.Dataset = "grid:224x224"
	if u, err := user.Resolve(graphOfN(LargeGraphNodes)); err != nil || u.Features != data.FeaturesConstant || !strings.Contains(u.ScaleNote, "--features constant") {
		t.Fatalf("a large graph of one's own: %v, --features %q, note %q", err, u.Features, u.ScaleNote)
	}
	if u, err := user.Resolve(graphOfN(LargeGraphNodes - 1)); err != nil || u.Features != "" || !strings.Contains(u.ScaleNote, "--features identity") {
		t.Fatalf("a small graph of one's own: %v, --features %q", err, u.Features)
	}
	user.Variant = Base
	if u, err := user.Resolve(graphOfN(LargeGraphNodes)); err != nil || u.Features != "" {
		t.Fatalf("base (no positional input) on a large graph of one's own: %v, --features %q", err, u.Features)
	}
	if !strings.Contains(large.ScaleNote, "--batch-size 512") || strings.Contains(large.ScaleNote, "--epochs") {
		t.Fatalf("note %q", large.ScaleNote)
	}
	again, err := large.Resolve(graphOfN(WholeGraphNodes + 1))
	if err != nil || !reflect.DeepEqual(again, large) {
		t.Fatalf("resolving twice changed the configuration: %v\n%+v\n%+v", err, again, large)
	}
	paper := cli
	paper.Scale = ScalePaper
	if p, err := paper.Resolve(graphOfN(LargeGraphNodes)); err != nil || p.BatchSize != 0 || p.Scale != ScalePaper {
		t.Fatalf("--scale paper: %v %+v", err, p)
	}
	stored := cli
	stored.Explicit = nil
	if s, err := stored.Resolve(graphOfN(LargeGraphNodes)); err != nil || s.BatchSize != 0 || s.Scale != "" {
		t.Fatalf("stored configuration re-decided: %v %+v", err, s)
	}
	for _, m := range []string{"gat", "pgnn-f"} {
		w := cli
		w.Model = m
		r, err := w.Resolve(graphOfN(LargeGraphNodes))
		if err != nil || r.BatchSize != 0 || r.BatchSteps != 0 || r.PositionSkip != (m == "gat") {
			t.Fatalf("%s on a large graph: %v %+v", m, err, r)
		}
		// Without --epochs, a model that cannot batch keeps its whole-graph
		// epochs: 10 of them would be 10 optimiser steps.
		w.Explicit = map[string]bool{}
		w.Epochs, w.EvalEvery = Default().Epochs, Default().EvalEvery
		if r, err := w.Resolve(graphOfN(LargeGraphNodes)); err != nil || r.Epochs != Default().Epochs || r.EvalEvery != Default().EvalEvery {
			t.Fatalf("%s on a large graph, no --epochs: %v, %d epochs, eval every %d", m, err, r.Epochs, r.EvalEvery)
		}
	}
	base := cli
	base.Variant = Base
	if b, err := base.Resolve(graphOfN(LargeGraphNodes)); err != nil || !b.Position.IsHash() || b.PositionSkip || b.DistanceLoss != "" || b.BatchSize != 512 || b.ModelConfig.HasPopularity() {
		t.Fatalf("base on a large graph: %v %+v", err, b)
	}
	// The popularity column, chosen on validation: the recipe's, and the
	// skip path's with a sketch (the recipe without its trained layers), not
	// the skip path alone's, and not the paper's.
	if !large.ModelConfig.PopularityAuto || !strings.Contains(large.ScaleNote, "--popularity auto") || small.ModelConfig.HasPopularity() {
		t.Fatalf("popularity: large %+v (note %q), small %+v", large.ModelConfig, large.ScaleNote, small.ModelConfig)
	}
	for _, sketch := range []int{0, 64} {
		alone := cli
		alone.ModelConfig.SkipAlone, alone.ModelConfig.Sketch = true, sketch
		if sketch > 0 {
			alone.Explicit = map[string]bool{"epochs": true, "sketch": true}
		}
		if a, err := alone.Resolve(graphOfN(LargeGraphNodes)); err != nil || a.ModelConfig.PopularityAuto != (sketch > 0) {
			t.Fatalf("--skip-alone, sketch %d: %v, popularity auto %v", sketch, err, a.ModelConfig.PopularityAuto)
		}
	}
	given := cli
	given.Explicit = map[string]bool{"epochs": true, "popularity": true}
	if g, err := given.Resolve(graphOfN(LargeGraphNodes)); err != nil || g.ModelConfig.HasPopularity() {
		t.Fatalf("--popularity off given: %v %+v", err, g.ModelConfig)
	}
}

// TestHugeGraphDefaults: from HugeGraphNodes on, the large defaults also
// take 128 τ sources, fixed ranking sources and an evaluation every 5
// epochs, each unless given, and say so; one node fewer changes nothing.
func TestHugeGraphDefaults(t *testing.T) {
	cli := Default()
	cli.Dataset, cli.Explicit = "grid:10000x10000", map[string]bool{}
	below, err := cli.Resolve(graphOfN(HugeGraphNodes - 1))
	if err != nil {
		t.Fatal(err)
	}
	if below.TauSources != Default().TauSources || below.RankFixedSources || below.EvalEvery != 2 ||
		strings.Contains(below.ScaleNote, "--tau-sources") || strings.Contains(below.ScaleNote, "--rank-fixed-sources") {
		t.Fatalf("below HugeGraphNodes: %d τ sources, fixed %v, eval every %d, note %q", below.TauSources, below.RankFixedSources, below.EvalEvery, below.ScaleNote)
	}
	huge, err := cli.Resolve(graphOfN(HugeGraphNodes))
	if err != nil {
		t.Fatal(err)
	}
	if huge.TauSources != 128 || !huge.RankFixedSources || huge.EvalEvery != 5 || huge.Epochs != 10 {
		t.Fatalf("from HugeGraphNodes: %d τ sources, fixed %v, eval every %d of %d epochs", huge.TauSources, huge.RankFixedSources, huge.EvalEvery, huge.Epochs)
	}
	for _, w := range []string{"--tau-sources 128", "--rank-fixed-sources=true", "--eval-every 5"} {
		if !strings.Contains(huge.ScaleNote, w) {
			t.Fatalf("note %q lacks %q", huge.ScaleNote, w)
		}
	}
	if again, err := huge.Resolve(graphOfN(HugeGraphNodes)); err != nil || !reflect.DeepEqual(again, huge) {
		t.Fatalf("resolving twice changed the configuration: %v", err)
	}
	given := cli
	given.Explicit = map[string]bool{"tau-sources": true, "rank-fixed-sources": true, "eval-every": true}
	given.TauSources, given.EvalEvery = 512, 1
	g, err := given.Resolve(graphOfN(HugeGraphNodes))
	if err != nil || g.TauSources != 512 || g.RankFixedSources || g.EvalEvery != 1 {
		t.Fatalf("flags given: %v, %d τ sources, fixed %v, eval every %d", err, g.TauSources, g.RankFixedSources, g.EvalEvery)
	}
	base := cli
	base.Variant = Base
	if b, err := base.Resolve(graphOfN(HugeGraphNodes)); err != nil || b.RankFixedSources || b.TauSources != 128 {
		t.Fatalf("base (no distance term) on a huge graph: %v, fixed %v, %d τ sources", err, b.RankFixedSources, b.TauSources)
	}
}
