package run

import (
	"fmt"

	"github.com/ignn/ignn/data"
)

// What the large defaults choose by a graph's size, and the reasons they
// give (ScaleNote); the table of defaults is in scale.go.

// LandmarkCount is the large defaults' number of landmarks for a graph of
// n nodes: SmallGraphLandmarks below LargeGraphNodes, where more landmarks
// made the trained embedding more faithful (issue 36, docs/faithful-users.md:
// 64 → 256 landmarks, GCN, seed 1, test τ Email 0.676 → 0.714,
// caveman:500x20 0.605 → 0.675, Wiki-Vote 0.636 → 0.681, grid:30x30
// 0.935 → 0.923, with the principal skip start and pair triples), and 64
// from there on, where the N × L landmark columns and their copies are the
// largest inputs (issue 37) and 64 already gave τ 0.89–0.91 on 10⁵–10⁶-node
// graphs.
func LandmarkCount(n int) int {
	if n < LargeGraphNodes {
		return SmallGraphLandmarks
	}
	return 64
}

// SketchWidth is the large defaults' neighbourhood sketch width (--sketch)
// on a link task's graph of n nodes: SketchColumns below LargeGraphNodes,
// none from there (measured below it only: docs/frontier.md; a larger graph
// may still ask for one). The sketch's share is chosen on the validation
// pairs at every evaluation (--sketch-share 0), so on graphs where
// neighbourhood overlap says nothing about links (a grid, a tree) it is
// left unused.
func SketchWidth(n int) int {
	if n >= LargeGraphNodes {
		return 0
	}
	return SketchColumns
}

// SketchColumns is SketchWidth below LargeGraphNodes. 256 columns lost
// 0.001–0.026 of test AUC against 1024 (GCN, seed 1: Email 0.921 against
// 0.925, plc:20000:4:0.5 0.700 against 0.726, Wiki-Vote 0.927 against
// 0.928) for a train of 33 s instead of 82 s on Wiki-Vote.
const SketchColumns = 1024

// SmallGraphLandmarks is LandmarkCount below LargeGraphNodes.
const SmallGraphLandmarks = 256

// WholeGraphNodes is the largest graph the recipe trains on the whole
// graph at once (wholeGraphRecipe): 10⁵ nodes, as large as measured. It
// was LargeGraphNodes until the thirteenth session; at 10⁵ nodes, three
// seeds, GCN (SAGE and GIN within 0.002), final test AUC / τ against the
// mini-batch recipe: caveman:5000x20 0.991 / 0.451 against 0.991 / 0.432,
// grid:316x316 0.983 / 0.942 against 0.984 / 0.925, ba:100000:4 0.591 /
// 0.561 against 0.590 / 0.547. It costs time: GCN, seed 1, alone on two
// cores, 67 → 233 s on caveman:5000x20 (half of it the ranking term's 64
// BFS a step over a graph of diameter in the thousands), 59 → 92 s on
// grid:316x316, 70 → 102 s on ba:100000:4, at 0.54–0.83 GB peak RSS
// (docs/frontier-notes.md, thirteenth session). Larger graphs keep
// mini-batches: a whole-graph step grows with the edges and its memory
// with N.
const WholeGraphNodes = 100_000

// WholeGraphSteps is the epochs (each one optimiser step) of the
// whole-graph recipe.
const WholeGraphSteps = 300

// WholeGraphTriples is the ranking triples a step of the whole-graph
// recipe draws. friends.csv (999 nodes), GCN, seed 1: 65,536 triples 84.6
// ms a step for test AUC 0.970 / τ 0.880, 16,384 29.3 ms for 0.970 /
// 0.884, 4,096 14.7 ms for 0.970 / 0.879.
const WholeGraphTriples = 1 << 14

// wholeGraphRecipe reports whether the large defaults train c on the whole
// graph at once with one layer: a link run of a model that would take
// mini-batches and has the skip path, on a graph of at most
// WholeGraphNodes nodes.
// Against the mini-batch recipe (10 epochs of 50 steps of 512 positives,
// the model's depth), three seeds, GCN (SAGE and GIN within 0.001), final
// test AUC / τ: Email read as a user graph 0.933 / 0.746 against 0.931 /
// 0.736, Wiki-Vote 0.932 / 0.709 against 0.927 / 0.685, caveman:500x20
// 0.991 / 0.721 against 0.991 / 0.681, grid:30x30 0.975 / 0.951 against
// 0.976 / 0.931 (docs/frontier-notes.md, seventh session, with
// plc:20000:4:0.5). Every node's row of the first layer is trained at
// every step, as a free table's are. Above WholeGraphNodes a step of the
// whole graph is not measured, and mini-batches are what fit in memory.
func wholeGraphRecipe(c *Config, g graphSize) bool {
	// --batch-size N, or a flag that shapes mini-batches: the mini-batch recipe
	askedBatches := (c.Explicit["batch-size"] && c.BatchSize > 0) || (c.Explicit["batch-steps"] && c.BatchSteps > 0) || c.BatchFanout > 0 || c.BatchNodes > 0
	return c.PositionSkip && c.Task == data.TaskLink && g.nodes <= WholeGraphNodes && entryOf(c).Batches && !askedBatches
}

// graphSize is what the large defaults read of a graph: its nodes and its
// training positives (TrainPositives).
type graphSize struct{ nodes, trainPositives int }

// The reasons of the large defaults, in a few words each.
func whyInput(c Config, g graphSize) string {
	if !c.Variant.Hash() {
		return fmt.Sprintf("variant %s has no positional input", c.Variant)
	}
	s := fmt.Sprintf("hop distances to %d landmarks set the nodes apart: %d below %d nodes, 64 above", LandmarkCount(g.nodes), SmallGraphLandmarks, LargeGraphNodes)
	if c.Features == data.FeaturesConstant {
		s += "; no one-hot identity beside them on a featureless graph this size"
	}
	return s
}

func whySkip(c Config, _ graphSize) string {
	if !c.PositionSkip {
		return fmt.Sprintf("no skip path: %s or variant %s takes none", c.Model, c.Variant)
	}
	return "a skip path carries the landmark distances to the embedding"
}

func whySketch(c Config, _ graphSize) string {
	switch {
	case c.ModelConfig.Sketch > 0:
		return "the embedding ends with each node's neighbourhood sketch, at a share chosen on the validation pairs: the common-neighbour evidence landmark distances do not hold (docs/frontier.md)"
	case c.ModelConfig.SkipAlone:
		return "--skip-alone: the skip path alone, no sketch either (--sketch M keeps one: the recipe without its trained layers)"
	case c.Task != data.TaskLink:
		return "the sketch is link evidence: link task only"
	case !c.PositionSkip:
		return "no skip path: the sketch joins one"
	}
	return fmt.Sprintf("no sketch from %d nodes (at 10⁵ nodes, caveman:5000x20, it gained 0.002 AUC, lost 0.005 of τ and took 3.7 GB of peak memory; --sketch M adds one)", LargeGraphNodes)
}

func whyPopularity(c Config, _ graphSize) string {
	switch {
	case c.ModelConfig.PopularityAuto:
		return "the embedding ends with a popularity column, b·ln(1 + degree) added to a pair's cosine, b chosen on the validation pairs among 0, 0.03, 0.1 and 0.3: the preferential-attachment evidence the cosine of unit rows drops (docs/frontier-notes.md, tenth session)"
	case c.ModelConfig.SkipAlone:
		return "--skip-alone: the skip path alone, no popularity column either"
	case c.Task != data.TaskLink:
		return "the popularity column is link evidence: link task only"
	}
	return "no skip path: the popularity column joins one"
}

func whyDistance(c Config, _ graphSize) string {
	if !c.Variant.MSE() {
		return fmt.Sprintf("variant %s has no distance term", c.Variant)
	}
	return "the ranking term orders pairs by hop distance, docs/results.md"
}

func whyBatch(c Config, g graphSize) string {
	if c.BatchSize == 0 {
		if wholeGraphRecipe(&c, g) {
			return fmt.Sprintf("up to %d nodes the recipe trains one layer on the whole graph at once, %d steps: higher τ than mini-batches on every graph measured (docs/frontier-notes.md, seventh and thirteenth sessions)", WholeGraphNodes, WholeGraphSteps)
		}
		return fmt.Sprintf("%s trains on the whole graph at once", c.Model)
	}
	s := fmt.Sprintf("%s trains on mini-batches", c.Model)
	if c.BatchSize < 512 {
		s += fmt.Sprintf(" of all %d training positives, fewer than 512", g.trainPositives)
	}
	return s + "; 10 epochs of 50 steps"
}
