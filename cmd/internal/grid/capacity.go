package grid

import (
	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/objective"
)

// The capacity reference (CompareConfig.Capacity): per seed, a cell that
// trains the free embedding table on the objective of the grid's first
// model with the distance term (run.CapacityConfig, run.ObjectiveOf). Its
// cells are ordinary cells — resumed, sharded and checked for staleness
// like the others — and its row is named as a reference row.

// CapacityObjective is the objective the capacity cells train on: that of
// the grid's first model with the distance term, on the grid's graph
// (run.ObjectiveOf). It loads the graph; Compare does it once and keeps the
// result in CompareConfig.Objective.
func (cc CompareConfig) CapacityObjective() (run.Objective, error) {
	if cc.Objective != nil {
		return *cc.Objective, nil
	}
	c := cc.Base
	if len(cc.Models) > 0 {
		c.Model = cc.Models[0]
	} else if len(cc.Grids) > 0 && len(cc.Grids[0].Models) > 0 {
		c.Model = cc.Grids[0].Models[0]
	}
	ds, err := run.LoadDataset(c)
	if err != nil {
		return run.Objective{}, err
	}
	return run.ObjectiveOf(c, ds), nil
}

// capacityObjective is CapacityObjective for listing the jobs: Compare and
// the CLI set Objective first (one load of the graph); without it the graph
// is loaded here, and one that does not load leaves the zero objective (the
// run of the cell then reports the error).
func (cc CompareConfig) capacityObjective() run.Objective {
	o, _ := cc.CapacityObjective()
	return o
}

// withCapacity appends, with Capacity, one capacity cell per seed: the free
// embedding table trained on the runs' objective (capacityObjective).
func (cc CompareConfig) withCapacity(jobs []Job, repeats int) []Job {
	if !cc.Capacity {
		return jobs
	}
	o := cc.capacityObjective()
	for seed := uint64(1); seed <= uint64(repeats); seed++ {
		j := Job{Model: run.CapacityModel, Variant: run.MSE, Seed: seed, LR: run.CapacityLR, LambdaBCE: o.LambdaBCE, LambdaMSE: o.LambdaMSE, Capacity: true}
		if o.DistanceLoss != "" && o.DistanceLoss != objective.DistanceMSE { // its name says its term, as the other cells' do
			j.Distance = string(o.DistanceLoss)
		}
		jobs = append(jobs, j)
	}
	return jobs
}

// IsCapacity reports whether j is a capacity cell (withCapacity).
func (j Job) IsCapacity() bool { return j.Capacity }

// resolvedEpochs is the epoch count every cell ran (0 when they differ),
// capacity cells aside.
func resolvedEpochs(cells []CellMetrics) int {
	n := 0
	for _, x := range cells {
		if x.IsCapacity() {
			continue
		}
		if n > 0 && x.Settings.Epochs != n {
			return 0
		}
		n = x.Settings.Epochs
	}
	return n
}

// The capacity reference's row in tables (CompareConfig.Capacity).
const (
	CapacityRow   = "(capacity)"
	CapacityLabel = "table, the runs' objective"
)
