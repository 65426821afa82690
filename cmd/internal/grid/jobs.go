package grid

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/objective"
)

// Job is one cell of a comparison grid.
type Job struct {
	Model     string            `json:"model"`
	Variant   run.Variant       `json:"variant"`
	Position  features.Position `json:"position,omitzero"` // the positional input (zero = hash; only for hash and both)
	Seed      uint64            `json:"seed"`
	LR        float64           `json:"lr"`
	LambdaBCE float64           `json:"lambda_bce"`
	LambdaMSE float64           `json:"lambda_mse"`
	// Capacity marks the capacity reference's cells (withCapacity).
	Capacity bool `json:"capacity,omitempty"`
	// Ablation marks the ablation reference's cells (withAblation): the
	// both variant with --skip-alone; AblationSketch those of them that keep
	// the runs' neighbourhood sketch (CompareConfig.AblationSketch).
	Ablation       bool `json:"ablation,omitempty"`
	AblationSketch bool `json:"ablation_sketch,omitempty"`
	// Distance is the distance term the cell trains with as Resolve
	// decides it, when it is not the MSE ("rank": the large defaults'),
	// so that the cell's name says which term λ_MSE weighs.
	Distance string `json:"distance,omitempty"`
}

// Key names the job's result file: model, variant (with its positional
// input), learning rate and the two terms' weights, the distance term by
// its resolved name ("mse10", "rank10"), and seed.
func (j Job) Key() string {
	v := string(j.Variant)
	if !j.Position.IsHash() {
		v += "-" + strings.ReplaceAll(j.Position.String(), ":", "")
	}
	if j.Capacity {
		v += "-capacity"
	}
	if j.Ablation {
		v += "-skipalone"
	}
	if j.AblationSketch {
		v += "-sketch"
	}
	return fmt.Sprintf("%s_%s_lr%g_bce%g_%s%g_seed%d", j.Model, v, j.LR, j.LambdaBCE, cmp.Or(j.Distance, "mse"), j.LambdaMSE, j.Seed)
}

// oldKey is the name Key gave a cell before the distance term was named
// (issue 66): "mse10" whatever the term, read when a cell has no file of
// its own name (an --out made before).
func (j Job) oldKey() string {
	j.Distance = ""
	return j.Key()
}

// Label is the job's row name in tables: the variant, with its positional
// input when that is not the hash ("both[lap:16]"), and " skip alone" for
// an ablation cell, " + sketch" for one that keeps the sketch (the table
// names their rows AblationRow and AblationSketchRow).
func (j Job) Label() string {
	l := string(j.Variant)
	if !j.Position.IsHash() {
		l = fmt.Sprintf("%s[%s]", j.Variant, j.Position)
	}
	if j.Ablation {
		l += " skip alone"
	}
	if j.AblationSketch {
		l += " + sketch"
	}
	return l
}

// SubGrid is one block of a grid file: its models × variants × seeds at one
// learning rate and λ pair (zero values: the base configuration's).
type SubGrid struct {
	Models    []string      `json:"models" yaml:"models"`
	Variants  []run.Variant `json:"variants" yaml:"variants"`
	Repeats   int           `json:"repeats" yaml:"repeats"`
	LR        float64       `json:"lr,omitempty" yaml:"lr,omitempty"`
	LambdaBCE float64       `json:"lambda_bce,omitempty" yaml:"lambda-bce,omitempty"`
	LambdaMSE float64       `json:"lambda_mse,omitempty" yaml:"lambda-mse,omitempty"`
	// Positions are the positional inputs of its hash and both variants
	// (empty: the grid's).
	Positions []features.Position `json:"positions,omitempty" yaml:"positions,omitempty"`
}

// Jobs lists the grid in a fixed order: models, then variants, then
// settings, then seeds. λ_MSE is the resolved one (the model's default
// unless set; 0 for variants without the MSE). With sub-grids, their jobs
// are joined in file order (a cell named twice runs once).
func (cc CompareConfig) Jobs() []Job {
	if len(cc.Grids) == 0 {
		return cc.withAblation(cc.withCapacity(cc.gridJobs(), cc.Repeats))
	}
	var jobs []Job
	seen := map[string]bool{}
	repeats := 0
	for _, g := range cc.Grids {
		sub := cc
		sub.Grids, sub.Models, sub.Variants, sub.Repeats = nil, g.Models, g.Variants, g.Repeats
		if len(g.Positions) > 0 {
			sub.Positions = g.Positions
		}
		if g.LR != 0 {
			sub.Base.LR = g.LR
		}
		if g.LambdaBCE != 0 {
			sub.Base.LambdaBCE = g.LambdaBCE
		}
		if g.LambdaMSE != 0 {
			sub.Base.LambdaMSE = g.LambdaMSE
		}
		for _, j := range sub.gridJobs() {
			if !seen[j.Key()] {
				seen[j.Key()] = true
				jobs = append(jobs, j)
			}
		}
		repeats = max(repeats, g.Repeats)
	}
	return cc.withAblation(cc.withCapacity(jobs, repeats))
}

func (cc CompareConfig) gridJobs() []Job {
	lrs, lams := cc.LRs, cc.Lambdas
	if len(lrs) == 0 {
		lrs = []float64{1e-4, 1e-3, 1e-2}
	}
	if len(lams) == 0 {
		lams = []float64{0, 0.1, 1, 10}
	}
	var jobs []Job
	seen := map[string]bool{} // sweep grids repeat settings once λ_MSE folds to 0
	for _, m := range cc.Models {
		for _, v := range cc.Variants {
			settings := []Job{{LR: cc.Base.LR, LambdaBCE: cc.Base.LambdaBCE, LambdaMSE: cc.Base.LambdaMSE}}
			if cc.Sweep {
				settings = nil
				for _, lr := range lrs {
					if !v.MSE() {
						settings = append(settings, Job{LR: lr, LambdaBCE: cc.Base.LambdaBCE, LambdaMSE: cc.Base.LambdaMSE})
						continue
					}
					for _, lb := range lams {
						for _, lm := range lams {
							if lb != 0 || lm != 0 {
								settings = append(settings, Job{LR: lr, LambdaBCE: lb, LambdaMSE: lm})
							}
						}
					}
				}
			}
			positions := []features.Position{{}}
			if v.Hash() {
				positions = cc.positions()
			}
			for _, s := range settings {
				for _, pos := range positions {
					for seed := uint64(1); seed <= uint64(cc.Repeats); seed++ {
						j := s
						j.Model, j.Variant, j.Seed, j.Position = m, v, seed, pos
						if !v.MSE() && j.LambdaBCE == 0 {
							j.LambdaBCE = 1
						}
						j = cc.resolved(j)
						if !seen[j.Key()] {
							seen[j.Key()] = true
							jobs = append(jobs, j)
						}
					}
				}
			}
		}
	}
	return jobs
}

// resolved is j with the λ_MSE and distance term its configuration
// resolves to (the model's default λ, 0 without the MSE; the term named
// when it is not the MSE), as its cell's name states them.
func (cc CompareConfig) resolved(j Job) Job {
	c := cc.config(j)
	j.LambdaMSE = c.LambdaMSE
	if t := c.DistanceTerm(); t != objective.DistanceMSE {
		j.Distance = string(t)
	}
	return j
}

// positions is the grid's list of positional inputs: Positions, or the
// base configuration's one.
func (cc CompareConfig) positions() []features.Position {
	if len(cc.Positions) == 0 {
		return []features.Position{cc.Base.Position}
	}
	return cc.Positions
}

// config is a job's configuration, with every data-independent default
// applied (Config.withDefaults).
func (cc CompareConfig) config(j Job) run.Config {
	c := cc.Base
	c.Model, c.Variant, c.Seed, c.LR, c.LambdaBCE, c.LambdaMSE = j.Model, j.Variant, j.Seed, j.LR, j.LambdaBCE, j.LambdaMSE
	c.Position = j.Position
	if !j.Variant.Hash() { // no positional input, so no skip path: the popularity column is the hash variants' (as the recipe's sketch is)
		c.ModelConfig.Popularity, c.ModelConfig.PopularityAuto = 0, false
	}
	if j.IsCapacity() {
		c = CapacityConfig(c, cc.capacityObjective())
	}
	c.ModelConfig.SkipAlone = c.ModelConfig.SkipAlone || j.Ablation
	switch {
	case j.AblationSketch:
		c.ModelConfig.Sketch, c.EvalAtEnd = cc.AblationSketch, true
	case j.Ablation: // the skip path alone, even beside a given --sketch or --popularity (both read the edges: message passing)
		c.ModelConfig.Sketch, c.ModelConfig.Popularity, c.ModelConfig.PopularityAuto = 0, 0, false
	}
	return c.WithDefaults()
}
