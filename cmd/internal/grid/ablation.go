package grid

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/models"
)

// The ablation reference (CompareConfig.Ablation): per seed and setting of
// the grid's both cells (its positional input, rate and weights), a cell
// that trains the runs' both variant with --skip-alone — the
// embedding the skip path's map of the positional input alone, no message
// passing — so that every row of a compare under the large-graph recipe
// can be read against what its message passing adds (issue 64, goal 3).
// The skip path alone is the same for every model of the layer stack (it
// has one parameter, the skip map, started the same way: GCN, SAGE and GIN
// give the same numbers bit for bit, TestAblationReference), so one cell per
// seed serves the grid, at a fifth to a sixth of a recipe cell's time (Email,
// three seeds: 3.9 s against 17.7 s; Wiki-Vote 14.9 s against 71.7 s).

// The ablation reference's rows in tables: the skip path alone, and, when
// the runs have a neighbourhood sketch, the skip path and the sketch (the
// recipe without its trained layers: the parameter-free hop stays). The
// second splits what the message passing adds between the sketch and the
// layers: three seeds, final test AUC, GCN recipe / skip path + sketch /
// skip path alone: Email (user graph) 0.931 / 0.922 / 0.905,
// plc:20000:4:0.5 0.730 / 0.730 / 0.670, Wiki-Vote 0.927 / 0.924 / 0.922
// (docs/frontier-notes.md, sixth session).
const (
	AblationRow       = "(skip path alone)"
	AblationSketchRow = "(skip path + sketch)"
)

// AblationCost is an ablation cell's cost relative to a cell of its model
// (shards, ETAs): no message passing, so about a sixth of the time (0.2
// rounds it up). Three seeds, mean seconds a cell: Email (user graph) 4.5
// against the recipe's 26.8–31.2; ba:100000:4 40.5 against 229.5–283.3 (a
// shared machine).
const AblationCost = 0.2

// AblationSketchCost is the same for a cell that keeps the sketch, which
// builds it and evaluates with it at the end only (run.Config.EvalAtEnd:
// an evaluation with the sketch took 11 s of a Wiki-Vote cell). Wiki-Vote,
// seed 1, one run each: skip path alone 14.9 s, + sketch evaluated every
// second epoch 70.6 s, at the end only 30.4 s.
const AblationSketchCost = 0.4

// AblationModel is the model whose skip path alone the ablation cells
// train: the first of models whose entry declares SkipAlone (the layer
// stack's), "" when none does.
func AblationModel(names []string) string {
	for _, m := range names {
		if e, err := models.Lookup(m); err == nil && e.SkipAlone {
			return m
		}
	}
	return ""
}

// AblationFor is the model of c's ablation cells on a graph of nodes
// nodes: AblationModel(names) when the grid trains the both variant and
// its runs have a skip path there (run.RecipeSkip: under the large-graph
// recipe, or with --position-skip), "" otherwise. A grid file's names and
// variants are those of all its blocks.
func AblationFor(c run.Config, names []string, variants []run.Variant, nodes int) string {
	if NoAblation(c, names, variants, nodes) != "" {
		return ""
	}
	return AblationModel(names)
}

// NoAblation says why a grid of names × variants on a graph of nodes nodes
// has no ablation row ("" when it has one): no both variant, runs without
// a skip path, or no model that can leave its message passing out.
func NoAblation(c run.Config, names []string, variants []run.Variant, nodes int) string {
	switch {
	case !slices.Contains(variants, run.Both):
		return "the variants do not include both"
	case !run.RecipeSkip(c, nodes):
		return "these runs have no skip path (the paper's scale, or --position-skip=false)"
	case AblationModel(names) == "":
		return fmt.Sprintf("none of %s can leave its message passing out (the models that can: %s)", strings.Join(names, ", "),
			strings.Join(models.NamesWhere(func(e models.Entry) bool { return e.SkipAlone }), ", "))
	}
	return ""
}

// withAblation appends, with Ablation set, the ablation cells: for each
// both cell of the grid, the both variant of the model Ablation names with
// --skip-alone at the cell's positional input, rate, weights and seed,
// once per distinct setting and seed (the skip path alone is the same for
// every model of the layer stack); with AblationSketch, each followed by
// the same cell keeping the sketch.
func (cc CompareConfig) withAblation(jobs []Job) []Job {
	if cc.Ablation == "" {
		return jobs
	}
	seen := map[string]bool{}
	var out []Job
	for _, j := range jobs {
		if j.Variant != run.Both || j.IsReference() {
			continue
		}
		a := cc.resolved(Job{Model: cc.Ablation, Variant: run.Both, Position: j.Position, Seed: j.Seed, LR: j.LR, LambdaBCE: j.LambdaBCE, LambdaMSE: j.LambdaMSE, Ablation: true})
		if seen[a.Key()] {
			continue
		}
		seen[a.Key()] = true
		out = append(out, a)
		if cc.AblationSketch > 0 {
			a.AblationSketch = true
			out = append(out, a)
		}
	}
	return append(jobs, out...)
}

// IsAblation reports whether j is an ablation cell (withAblation).
func (j Job) IsAblation() bool { return j.Ablation }

// IsReference reports whether j is a reference row's cell (capacity or
// ablation): never the best τ, no settings in the heading, no paired
// difference from a base row.
func (j Job) IsReference() bool { return j.Capacity || j.Ablation }
