package run

import (
	"context"
	"math"
	"strings"
	"testing"
)

// TestUntrainedSelectionNoted: when the highest validation AUC comes at the
// first evaluation (Communities pair: AUC 1.000 from epoch 0), the result's
// selection says the selected metrics are a nearly untrained model's; a run
// whose best epoch is later, or that has only epoch 0, says nothing.
func TestUntrainedSelectionNoted(t *testing.T) {
	cfg := Default()
	cfg.Task, cfg.Variant, cfg.Epochs, cfg.EvalEvery = "pair", Base, 20, 10
	r, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if r.BestEpoch != 0 {
		t.Fatalf("best epoch %d, want 0 (validation AUC %v)", r.BestEpoch, r.ValAUC)
	}
	if !strings.Contains(r.Selection, "nearly untrained") {
		t.Errorf("selection %q does not flag the epoch-0 choice", r.Selection)
	}
	if s := untrainedNote(10, 19); s != "" {
		t.Errorf("best epoch 10 noted: %q", s)
	}
	if s := untrainedNote(0, 0); s != "" {
		t.Errorf("a one-epoch run noted: %q", s)
	}
}

// TestSelectRulesOnHandMadeHistory: the AUC rule takes the first highest
// AUC; the objective rule the first lowest objective; auc-then-objective
// the lowest objective among AUCs within one Hanley–McNeil standard error
// of the highest (here 0.0071 at AUC 0.98 with 200 + 200 pairs), the
// first on ties, and NaN objectives never win.
func TestSelectRulesOnHandMadeHistory(t *testing.T) {
	nan := Num(math.NaN())
	h := []Metrics{
		{Epoch: 0, ValAUC: 0.90, ValObjective: 0.50},
		{Epoch: 10, ValAUC: 0.980, ValObjective: 0.90}, // the highest AUC
		{Epoch: 20, ValAUC: 0.975, ValObjective: 0.30}, // within one SE: the tie-break winner
		{Epoch: 30, ValAUC: 0.976, ValObjective: 0.30}, // same objective, later
		{Epoch: 40, ValAUC: 0.960, ValObjective: 0.10}, // lowest objective, AUC outside the tolerance
		{Epoch: 50, ValAUC: 0.980, ValObjective: nan},
	}
	se := AUCStdErr(0.98, 200, 200)
	if se < 0.007 || se > 0.0072 {
		t.Fatalf("Hanley–McNeil SE at 0.98 with 200/200: %v", se)
	}
	for _, c := range []struct {
		rule SelectRule
		want int
	}{{SelectAUC, 10}, {SelectObjective, 40}, {SelectAUCThenObjective, 20}} {
		if got := h[Select(h, c.rule, 200, 200)].Epoch; got != c.want {
			t.Errorf("%s chose epoch %d, want %d", c.rule, got, c.want)
		}
	}
	// With 20 + 20 pairs the tolerance (≈ 0.02) reaches epoch 40.
	if got := h[Select(h, SelectAUCThenObjective, 20, 20)].Epoch; got != 40 {
		t.Errorf("wide tolerance chose epoch %d, want 40", got)
	}
	// Without counts there is no tolerance: the AUC rule's epoch.
	if got := h[Select(h, SelectAUCThenObjective, 0, 0)].Epoch; got != 10 {
		t.Errorf("no counts chose epoch %d, want 10", got)
	}
	if Select(nil, SelectAUC, 1, 1) != -1 {
		t.Error("empty history")
	}
}
