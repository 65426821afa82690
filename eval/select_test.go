package eval

import (
	"math"
	"testing"
)

// TestSelectRulesOnHandMadeHistory: the AUC rule takes the first highest
// AUC; the objective rule the first lowest objective; auc-then-objective
// the lowest objective among AUCs within one Hanley–McNeil standard error
// of the highest (here 0.0071 at AUC 0.98 with 200 + 200 pairs), the
// first on ties, and NaN objectives never win.
func TestSelectRulesOnHandMadeHistory(t *testing.T) {
	nan := math.NaN()
	// Evaluations at epochs 0, 10, …, 50: 10 has the highest AUC; 20 is
	// within one SE, the tie-break winner; 30 has 20's objective, later; 40
	// the lowest objective, its AUC outside the tolerance; 50 a NaN objective.
	epoch := []int{0, 10, 20, 30, 40, 50}
	auc := []float64{0.90, 0.980, 0.975, 0.976, 0.960, 0.980}
	obj := []float64{0.50, 0.90, 0.30, 0.30, 0.10, nan}
	se := AUCStdErr(0.98, 200, 200)
	if se < 0.007 || se > 0.0072 {
		t.Fatalf("Hanley–McNeil SE at 0.98 with 200/200: %v", se)
	}
	for _, c := range []struct {
		rule SelectRule
		want int
	}{{SelectAUC, 10}, {SelectObjective, 40}, {SelectAUCThenObjective, 20}} {
		if got := epoch[Select(auc, obj, c.rule, 200, 200)]; got != c.want {
			t.Errorf("%s chose epoch %d, want %d", c.rule, got, c.want)
		}
	}
	// With 20 + 20 pairs the tolerance (≈ 0.02) reaches epoch 40.
	if got := epoch[Select(auc, obj, SelectAUCThenObjective, 20, 20)]; got != 40 {
		t.Errorf("wide tolerance chose epoch %d, want 40", got)
	}
	// Without counts there is no tolerance: the AUC rule's epoch.
	if got := epoch[Select(auc, obj, SelectAUCThenObjective, 0, 0)]; got != 10 {
		t.Errorf("no counts chose epoch %d, want 10", got)
	}
	if Select(nil, nil, SelectAUC, 1, 1) != -1 {
		t.Error("empty history")
	}
}
