package grid

import "github.com/ignn/ignn/cmd/internal/run"

// The capacity reference (CompareConfig.Capacity): per seed, a cell that
// trains the free embedding table on the ranking term alone
// (run.CapacityConfig). Its cells are ordinary cells — resumed, sharded and
// checked for staleness like the others — and its row is named as a
// reference row.

// withCapacity appends, with Capacity, one capacity cell per seed: the free
// embedding table trained on the ranking term alone (run.CapacityConfig).
func (cc CompareConfig) withCapacity(jobs []Job, repeats int) []Job {
	if !cc.Capacity {
		return jobs
	}
	for seed := uint64(1); seed <= uint64(repeats); seed++ {
		jobs = append(jobs, Job{Model: run.CapacityModel, Variant: run.MSE, Seed: seed, LR: run.CapacityLR, LambdaMSE: 1})
	}
	return jobs
}

// IsCapacity reports whether j is a capacity cell (withCapacity).
func (j Job) IsCapacity() bool {
	return j.Model == run.CapacityModel && j.Variant == run.MSE && j.LambdaBCE == 0 && j.LambdaMSE == 1
}

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
	CapacityLabel = "table, rank"
)
