package grid

import (
	"slices"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/models"
	"github.com/ignn/ignn/objective"
)

// The ablation reference (CompareConfig.Ablation): per seed and positional
// input, a cell that trains the runs' both variant with --skip-alone — the
// embedding the skip path's map of the positional input alone, no message
// passing — so that every row of a compare under the large-graph recipe
// can be read against what its message passing adds (issue 64, goal 3).
// The skip path alone is the same for every model of the layer stack (it
// has one parameter, the skip map, started the same way: GCN, SAGE and GIN
// give the same numbers bit for bit, TestAblationReference), so one cell per
// seed serves the grid, at about a fifth of a recipe cell's time (Email,
// three seeds: 3.9 s against 17.7 s; Wiki-Vote 14.9 s against 71.7 s).

// The ablation reference's row in tables.
const AblationRow = "(skip path alone)"

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
// recipe, or with --position-skip), "" otherwise.
func AblationFor(c run.Config, names []string, variants []run.Variant, nodes int) string {
	if !slices.Contains(variants, run.Both) || !run.RecipeSkip(c, nodes) {
		return ""
	}
	return AblationModel(names)
}

// withAblation appends, with Ablation set, one ablation cell per seed and
// positional input: the both variant of the model Ablation names with
// --skip-alone, at the grid's rate and weights.
func (cc CompareConfig) withAblation(jobs []Job, repeats int) []Job {
	if cc.Ablation == "" {
		return jobs
	}
	for _, pos := range cc.positions() {
		for seed := uint64(1); seed <= uint64(repeats); seed++ {
			j := Job{Model: cc.Ablation, Variant: run.Both, Position: pos, Seed: seed, LR: cc.Base.LR, LambdaBCE: cc.Base.LambdaBCE,
				LambdaMSE: cc.Base.LambdaMSE, Ablation: true}
			c := cc.config(j)
			j.LambdaMSE = c.LambdaMSE
			if t := c.DistanceTerm(); t != objective.DistanceMSE {
				j.Distance = string(t)
			}
			jobs = append(jobs, j)
		}
	}
	return jobs
}

// IsAblation reports whether j is an ablation cell (withAblation).
func (j Job) IsAblation() bool { return j.Ablation }

// IsReference reports whether j is a reference row's cell (capacity or
// ablation): never the best τ, no settings in the heading, no paired
// difference from a base row.
func (j Job) IsReference() bool { return j.Capacity || j.Ablation }
