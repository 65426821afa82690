package run

import (
	"context"
	"math"
	"testing"
)

// TestFullBatchGolden pins a whole-graph run on Communities (GCN both,
// float64, 6 epochs): its final metrics as 295fb92 — the code before
// mini-batches, the validation sample and --scale — computed them. Any
// change to what full-batch training computes moves them far beyond the
// tolerance, which only absorbs float64 rounding differences between CPUs.
func TestFullBatchGolden(t *testing.T) {
	cfg := Default()
	cfg.Epochs, cfg.EvalEvery, cfg.DType = 6, 3, Float64
	r, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"final test AUC", float64(r.Final.TestAUC), 0.99460526315789477},
		{"final τ", float64(r.Final.TestKendallTau), 0.19202129365904561},
		{"final validation AUC", float64(r.Final.ValAUC), 0.98751385041551243},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s %.17g, want %.17g (295fb92)", c.name, c.got, c.want)
		}
	}
}
