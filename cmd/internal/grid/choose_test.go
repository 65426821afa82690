package grid

import (
	"testing"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/eval"
)

// TestChooseSetting: a sweep keeps the first setting with the highest mean
// validation AUC under auc, the lowest mean yardstick under objective, and
// under auc-then-objective the lowest yardstick among the settings within
// one Hanley–McNeil standard error of the highest AUC (≈ 0.0071 here).
func TestChooseSetting(t *testing.T) {
	g := func(lr float64, auc, yard run.Num) *group {
		return &group{setting: Job{LR: lr}, cells: []CellMetrics{{ValAUC: auc, ValYardstick: yard, valPos: 200, valNeg: 200}}}
	}
	gs := []*group{g(1e-4, 0.975, 0.5), g(1e-3, 0.980, 0.9), g(1e-2, 0.960, 0.1), g(1e-1, 0.980, 0.2)}
	for _, c := range []struct {
		rule eval.SelectRule
		want float64
	}{{eval.SelectAUC, 1e-3}, {eval.SelectObjective, 1e-2}, {eval.SelectAUCThenObjective, 1e-1}} {
		if got := chooseSetting(gs, c.rule).setting.LR; got != c.want {
			t.Errorf("%s kept lr %g, want %g", c.rule, got, c.want)
		}
	}
}
