package run

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/objective"
)

// Scale is the family of defaults a run resolves with (Config.Scale).
type Scale string

// The scales. The zero value decides by size when the run resolves and
// stays zero for the paper's settings (so configurations of small graphs
// are what they were before scales existed).
const (
	ScaleAuto  Scale = "auto"  // the flag's value; resolves to "" or ScaleLarge
	ScalePaper Scale = "paper" // the paper's defaults whatever the size
	ScaleLarge Scale = "large" // LargeDefaults for the settings not given
)

// LargeGraphNodes is where --scale auto switches to the large-graph
// defaults. The paper's datasets have at most 17,997 nodes (PROTEINS),
// so their results never change.
const LargeGraphNodes = 50_000

// ParseScale reads --scale.
func ParseScale(s string) (Scale, error) {
	switch sc := Scale(s); sc {
	case ScaleAuto, ScalePaper, ScaleLarge:
		return sc, nil
	}
	return "", fmt.Errorf("unknown --scale %q (valid: auto, paper, large)", s)
}

// The large-graph defaults (issue 25, measured in docs/results.md; issue
// 36 for the principal skip start, pair triples and the landmark count):
// a landmark input with a skip path to the embedding, the ranking distance
// term, and mini-batch steps. apply gets the graph's size; why says in a
// few words why the setting (consecutive settings with the same reason
// share it in ScaleNote).
var largeDefaults = []struct {
	setting string // the CLI flag that overrides it
	apply   func(c *Config, g graphSize)
	says    func(Config) string
	why     func(Config, graphSize) string
}{
	{"position", func(c *Config, g graphSize) {
		if c.Variant.Hash() {
			c.Position = features.Position{Kind: features.PosLandmark, K: LandmarkCount(g.nodes)}
		}
	}, func(c Config) string { return "--position " + c.Position.String() }, whyInput},
	// Above LargeGraphNodes a featureless graph's positional input is what
	// tells its nodes apart, and the one-hot identity beside it costs an
	// N × hidden input table with its gradient and Adam's two moments (at
	// 10⁶ nodes 0.5 GB and 15% of the training time; issue 37) for no
	// measured gain: with a constant input instead, GCN, seed 1,
	// grid:316x316 AUC 0.983 / τ 0.928 (identity 0.982 / 0.932),
	// caveman:5000x20 0.990 / 0.437 (0.990 / 0.436).
	{"features", func(c *Config, g graphSize) {
		if g.nodes >= LargeGraphNodes && c.Features == "" && c.Variant.Hash() && !c.Position.IsHash() && !slices.Contains(BuiltinDatasets, c.Dataset) {
			c.Features = data.FeaturesConstant
		}
	}, func(c Config) string { return "--features " + cmp.Or(c.Features, data.FeaturesIdentity) }, whyInput},
	{"position-skip", func(c *Config, _ graphSize) { c.PositionSkip = c.Variant.Hash() && entryOf(c).Skip }, func(c Config) string { return fmt.Sprintf("--position-skip=%v", c.PositionSkip) }, whySkip},
	{"skip-gate", func(c *Config, _ graphSize) { c.ModelConfig.SkipGate = c.PositionSkip }, func(c Config) string { return fmt.Sprintf("--skip-gate=%v", c.ModelConfig.SkipGate) }, whySkip},
	{"skip-standardise", func(c *Config, _ graphSize) { c.SkipStandardise = c.PositionSkip }, func(c Config) string {
		return fmt.Sprintf("--skip-standardise=%v", c.SkipStandardise)
	}, whySkip},
	{"skip-principal", func(c *Config, _ graphSize) { c.SkipPrincipal = c.PositionSkip }, func(c Config) string {
		return fmt.Sprintf("--skip-principal=%v", c.SkipPrincipal)
	}, whySkip},
	{"skip-polar", func(c *Config, _ graphSize) {
		if c.PositionSkip && c.Position.Kind == features.PosLandmark {
			c.SkipPolar = features.SkipPolarAuto
		}
	}, func(c Config) string {
		return "--skip-polar " + c.SkipPolar.String()
	}, whySkip},
	{"sketch", func(c *Config, g graphSize) {
		if c.PositionSkip && c.Task == data.TaskLink && !c.ModelConfig.SkipAlone {
			c.ModelConfig.Sketch = SketchWidth(g.nodes)
		}
	}, func(c Config) string { return fmt.Sprintf("--sketch %d", c.ModelConfig.Sketch) }, whySketch},
	// The popularity column beside the sketch, at every size: it reads
	// degrees, which a graph of any size has. The skip path alone has none
	// (the ablation leaves out what reads the edges); the skip path with a
	// sketch (the recipe without its trained layers) keeps it.
	{"popularity", func(c *Config, _ graphSize) {
		if c.PositionSkip && c.Task == data.TaskLink && (!c.ModelConfig.SkipAlone || c.ModelConfig.Sketch > 0) && c.ModelConfig.Popularity == 0 {
			c.ModelConfig.PopularityAuto = true
		}
	}, func(c Config) string { return "--popularity " + c.ModelConfig.PopularityString() }, whyPopularity},
	{"distance-loss", func(c *Config, _ graphSize) {
		if c.Variant.MSE() {
			c.DistanceLoss = objective.DistanceRank
		}
	}, func(c Config) string {
		return "--distance-loss " + string(cmp.Or(c.DistanceLoss, objective.DistanceMSE))
	}, whyDistance},
	{"rank-pairs", func(c *Config, _ graphSize) {
		c.RankPairs = c.DistanceLoss == objective.DistanceRank && c.Variant.MSE()
	}, func(c Config) string {
		return fmt.Sprintf("--rank-pairs=%v", c.RankPairs)
	}, whyDistance},
	// The whole-graph recipe's ranking triples a step: fewer than a
	// whole-graph run's DefaultRankTriples, as many as a capacity step's.
	{"rank-triples", func(c *Config, g graphSize) {
		if wholeGraphRecipe(c, g) && c.DistanceLoss == objective.DistanceRank {
			c.RankTriples = WholeGraphTriples
		}
	}, func(c Config) string { return fmt.Sprintf("--rank-triples %d", c.WithDefaults().RankTriples) }, whyDistance},
	// One message-passing layer for the whole-graph recipe up to
	// WholeGraphNodes (wholeGraphRecipe); other runs keep the model's depth.
	{"layers", func(c *Config, g graphSize) {
		if wholeGraphRecipe(c, g) {
			c.ModelConfig.Layers = 1
		}
	}, func(c Config) string {
		return fmt.Sprintf("--layers %d", cmp.Or(c.ModelConfig.Layers, entryOf(&c).Config().Layers))
	}, whyBatch},
	// 512 positives a step, or every training positive when the graph has
	// fewer (a larger batch would repeat positives within a step); the
	// whole graph a step for the recipe up to WholeGraphNodes.
	{"batch-size", func(c *Config, g graphSize) {
		if entryOf(c).Batches && !wholeGraphRecipe(c, g) {
			c.BatchSize = 512
			if g.trainPositives > 0 && g.trainPositives < c.BatchSize {
				c.BatchSize = g.trainPositives
				if c.RankTriples == 0 { // the ranking term's 512 triples a step, as before
					c.RankTriples = 512
				}
			}
		}
	}, func(c Config) string { return fmt.Sprintf("--batch-size %d", c.BatchSize) }, whyBatch},
	{"batch-steps", func(c *Config, _ graphSize) {
		if c.BatchSize > 0 {
			c.BatchSteps = 50
		}
	}, func(c Config) string { return fmt.Sprintf("--batch-steps %d", c.BatchSteps) }, whyBatch},
	// 10 epochs of mini-batch steps; a model that cannot batch keeps its
	// whole-graph epochs (10 of them would be 10 optimiser steps).
	{"epochs", func(c *Config, g graphSize) {
		switch {
		case c.BatchSize > 0:
			c.Epochs = 10
		case wholeGraphRecipe(c, g):
			c.Epochs = WholeGraphSteps
		}
	}, func(c Config) string { return fmt.Sprintf("--epochs %d", c.Epochs) }, whyBatch},
	{"eval-every", func(c *Config, g graphSize) {
		switch {
		case c.BatchSize > 0:
			c.EvalEvery = min(2, c.Epochs)
			if g.nodes >= HugeGraphNodes {
				c.EvalEvery = min(5, c.Epochs)
			}
		case wholeGraphRecipe(c, g):
			c.EvalEvery = min(50, c.Epochs)
		}
	}, func(c Config) string { return fmt.Sprintf("--eval-every %d", c.EvalEvery) }, whyBatch},
}

// HugeGraphNodes is where the large-graph defaults also trim the stages
// whose cost is sources × edges or an evaluation of every node (issue 37,
// docs/scale.md): --tau-sources 128 (the τ sample keeps its --tau-pairs,
// drawn from 128 BFS instead of 512), --rank-fixed-sources (the ranking
// term's 64 BFS made once, not every epoch) and --eval-every 5. Measured
// at 10⁸ nodes (grid:10000x10000, GCN): 512 τ sources cost ≈ 36 minutes
// of BFS against 9 for 128, the per-epoch ranking BFS ≈ 45 minutes over
// the run, an evaluation ≈ 18 minutes; with the three the run took 1 h 40
// min for test AUC 0.985 and τ 0.929 [0.925, 0.933]. At 10⁶ fixed sources
// cost τ 0.0005–0.009. Below this size (a 10⁷-node run takes ≤ 45 min with
// the large defaults, 4·10⁷ 81 min spilled) nothing changes.
const HugeGraphNodes = 50_000_000

// hugeDefaults are the large defaults that apply only from HugeGraphNodes
// on; the note names them only there.
var hugeDefaults = []struct {
	setting string
	apply   func(c *Config)
	says    func(Config) string
}{
	{"tau-sources", func(c *Config) { c.TauSources = 128 }, func(c Config) string { return fmt.Sprintf("--tau-sources %d", c.TauSources) }},
	{"rank-fixed-sources", func(c *Config) { c.RankFixedSources = c.Variant.MSE() && c.DistanceLoss == objective.DistanceRank }, func(c Config) string {
		return fmt.Sprintf("--rank-fixed-sources=%v", c.RankFixedSources)
	}},
}

// LargeDefaultSettings are the flags the large-graph defaults set when
// not given (Config.Explicit records which were), in their order; those
// set only from HugeGraphNodes nodes on come last.
func LargeDefaultSettings() []string {
	var names []string
	for _, d := range largeDefaults {
		names = append(names, d.setting)
	}
	for _, d := range hugeDefaults {
		names = append(names, d.setting)
	}
	return names
}

// applyScale decides the scale of a run on a graph of g's size (n nodes;
// its training positives bound the default batch) for a configuration
// made from the command line (Explicit not nil; a stored configuration is
// already decided and left as it is): the large defaults when Scale is
// ScaleLarge, or when it is "" or ScaleAuto and the graph is a user's (any
// graph but the paper's three datasets, whatever its size: issue 36) or
// has n ≥ LargeGraphNodes. The paper's datasets below that size keep the
// paper's recipe bit for bit. The defaults replace only settings not in
// c.Explicit (the flags the user gave), and ScaleNote says what they chose
// and why.
func (c Config) applyScale(g graphSize) Config {
	n := g.nodes
	if c.Explicit == nil {
		return c
	}
	c.scaled = true
	paperData := slices.Contains(BuiltinDatasets, c.Dataset)
	if c.Scale == ScalePaper || (c.Scale != ScaleLarge && n < LargeGraphNodes && paperData) {
		if c.Scale == ScaleAuto {
			c.Scale = ""
		}
		return c
	}
	c.Scale = ScaleLarge
	var applied []int // the large defaults applied, by index
	for i, d := range largeDefaults {
		if !c.Explicit[d.setting] {
			d.apply(&c, g)
			applied = append(applied, i)
		}
	}
	// Settings and reasons are said of the configuration they make together
	// (the input's reason names a constant feature chosen after it), so
	// that resolving twice says the same.
	var chose, whys []string // settings, and the reason after each group of them
	for _, i := range applied {
		chose = append(chose, largeDefaults[i].says(c))
		whys = append(whys, largeDefaults[i].why(c, g))
	}
	for _, d := range hugeDefaults {
		if n >= HugeGraphNodes && !c.Explicit[d.setting] {
			d.apply(&c)
			chose = append(chose, d.says(c))
			whys = append(whys, fmt.Sprintf("≥ %d nodes: fewer BFS sources", HugeGraphNodes))
		}
	}
	var said strings.Builder
	for i, s := range chose {
		said.WriteString(s)
		switch {
		case i+1 == len(chose) || whys[i+1] != whys[i]:
			fmt.Fprintf(&said, " (%s)", whys[i])
			if i+1 < len(chose) {
				said.WriteString("; ")
			}
		default:
			said.WriteString(", ")
		}
	}
	why := fmt.Sprintf("a graph of %d nodes (≥ %d)", n, LargeGraphNodes)
	switch { // from the graph alone, so that resolving twice changes nothing
	case n < LargeGraphNodes && paperData:
		why = fmt.Sprintf("--scale large (a graph of %d nodes)", n)
	case n < LargeGraphNodes:
		why = fmt.Sprintf("a graph of your own (%d nodes; the paper's datasets keep its recipe)", n)
	}
	c.ScaleNote = fmt.Sprintf("%s: the large-graph defaults chose %s; --scale paper keeps the paper's recipe", why, said.String())
	return c
}
