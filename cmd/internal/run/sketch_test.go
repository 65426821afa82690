package run

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestSketchRun: a run with --sketch M on a user-style graph (the large
// defaults: a skip path, mini-batches) records the sketch's share at every
// evaluation — one of the auto shares, or the one given — and its
// embeddings are --hidden + M wide; embedding the saved checkpoint gives
// the last evaluation's embeddings at the share it chose; inference by
// chunks gives what whole-graph
// inference does; --skip-alone keeps a sketch it is given (the recipe
// without its trained layers), and the large defaults give it none.
func TestSketchRun(t *testing.T) {
	base := Default()
	base.Dataset, base.Scale, base.Explicit = "caveman:10x8", ScaleLarge, map[string]bool{"sketch": true}
	base.Epochs, base.EvalEvery = 2, 1
	base.ModelConfig.Sketch = 64
	for _, share := range []float64{0, 0.7} {
		cfg := base
		cfg.ModelConfig.SketchShare, cfg.Save = share, t.TempDir()
		res, err := Run(context.Background(), cfg, Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range res.History {
			w := float64(m.SketchShare)
			if share == 0 && !slices.Contains(sketchShares, w) || share > 0 && w != share {
				t.Errorf("share %v: evaluation at epoch %d used %v", share, m.Epoch, w)
			}
		}
		ck, err := LoadCheckpoint(cfg.Save)
		if err != nil {
			t.Fatal(err)
		}
		ds, _ := LoadDataset(ck.Config)
		built, err := restored(ck, ds, false)
		if err != nil {
			t.Fatal(err)
		}
		z, d, err := built.Embeddings()
		if err != nil {
			t.Fatal(err)
		}
		if want := res.Config.ModelConfig.Out + 64; d != want {
			t.Fatalf("share %v: embeddings %d wide, want %d", share, d, want)
		}
		if got, want := built.p.Input.SketchMix.W, float64(res.Final.SketchShare); got != want {
			t.Errorf("share %v: the restored run embeds at share %v, its last evaluation used %v", share, got, want)
		}
		// The restored embeddings score as the last evaluation did.
		sc, _, err := built.Evaluate()
		built.Close()
		if err != nil {
			t.Fatal(err)
		}
		if sc.TestAUC != float64(res.Final.TestAUC) || sc.Tau != float64(res.Final.TestKendallTau) {
			t.Errorf("share %v: restored AUC %v τ %v, the run's final %v %v", share, sc.TestAUC, sc.Tau, res.Final.TestAUC, res.Final.TestKendallTau)
		}
		_ = z
	}
	// Inference by chunks stages the sketch's rows with the skip block's.
	defer func(k int) { ChunkedInferenceNodes = k }(ChunkedInferenceNodes)
	whole := base
	whole.ModelConfig.SketchShare = 0.7
	want, err := Run(context.Background(), whole, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	ChunkedInferenceNodes = 0
	got, err := Run(context.Background(), whole, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(float64(got.Final.TestAUC-want.Final.TestAUC)) > 1e-6 || math.Abs(float64(got.Final.TestKendallTau-want.Final.TestKendallTau)) > 1e-6 {
		t.Errorf("by chunks: AUC %v τ %v, whole-graph inference %v %v", got.Final.TestAUC, got.Final.TestKendallTau, want.Final.TestAUC, want.Final.TestKendallTau)
	}
	ChunkedInferenceNodes = 1 << 30
	alone := base
	alone.ModelConfig.SkipAlone = true
	res, err := Run(context.Background(), alone, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if w := float64(res.Final.SketchShare); !slices.Contains(sketchShares, w) {
		t.Errorf("--skip-alone with --sketch: the sketch's share %v recorded, want one of %v", w, sketchShares)
	}
	alone.Explicit, alone.ModelConfig.Sketch = map[string]bool{}, 0
	if res, err = Run(context.Background(), alone, Hooks{}); err != nil {
		t.Fatal(err)
	}
	if w := res.Final.SketchShare; w != 0 || res.Config.ModelConfig.Sketch != 0 {
		t.Errorf("--skip-alone under the large defaults: a sketch of %d columns, share %v; want none", res.Config.ModelConfig.Sketch, w)
	}
}

// TestSketchSpilled: a run whose evaluation embeddings spill keeps the
// sketch at its reference share, and its warning says so.
func TestSketchSpilled(t *testing.T) {
	defer func(v, c int) { ViewInputNodes, ChunkedInferenceNodes = v, c }(ViewInputNodes, ChunkedInferenceNodes)
	ViewInputNodes, ChunkedInferenceNodes = 0, 0
	cfg := shortRun("gcn")
	cfg.Dataset, cfg.Variant, cfg.Explicit = "caveman:30x6", Both, map[string]bool{"sketch": true}
	cfg.Distances, cfg.Spill, cfg.Epochs, cfg.EvalEvery = DistSampled, t.TempDir(), 1, 1
	cfg.ModelConfig.Sketch = 64
	var warns []string
	res, err := Run(context.Background(), cfg, Hooks{Warn: func(m string) { warns = append(warns, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if w := float64(res.Final.SketchShare); w != SketchReferenceShare {
		t.Errorf("spilled: the sketch's share %v, want the reference %v", w, SketchReferenceShare)
	}
	if !strings.Contains(strings.Join(warns, "\n"), "(--sketch-share 0) needs the embeddings in memory") {
		t.Errorf("no warning that the share was not chosen: %q", warns)
	}
}
