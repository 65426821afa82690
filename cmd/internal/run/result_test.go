package run

import (
	"context"
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
