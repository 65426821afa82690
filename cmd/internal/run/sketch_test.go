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
	base.Dataset, base.Scale, base.Explicit = "caveman:10x8", ScaleLarge, miniBatches()
	base.Epochs, base.EvalEvery, base.BatchSize, base.BatchSteps = 2, 1, 32, 2
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
		built, _, d := restoreSaved(t, cfg.Save)
		if want := res.Config.ModelConfig.Out + 64 + 1; d != want || !res.Config.ModelConfig.PopularityAuto { // and the large defaults' popularity column
			t.Fatalf("share %v: embeddings %d wide, want %d", share, d, want)
		}
		if got, want := built.p.Input.SketchMix.W, float64(res.Final.SketchShare); got != want {
			t.Errorf("share %v: the restored run embeds at share %v, its last evaluation used %v", share, got, want)
		}
		scoresAsFinal(t, built, res) // the restored embeddings score as the last evaluation did
	}
	// Inference by chunks stages the sketch's rows with the skip block's.
	whole := base
	whole.ModelConfig.SketchShare = 0.7
	chunkedAsWhole(t, whole)
	alone := base
	alone.ModelConfig.SkipAlone = true
	res, err := Run(context.Background(), alone, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if w := float64(res.Final.SketchShare); !slices.Contains(sketchShares, w) {
		t.Errorf("--skip-alone with --sketch: the sketch's share %v recorded, want one of %v", w, sketchShares)
	}
	alone.Explicit, alone.ModelConfig.Sketch = map[string]bool{"batch-size": true, "batch-steps": true, "epochs": true, "eval-every": true}, 0
	if res, err = Run(context.Background(), alone, Hooks{}); err != nil {
		t.Fatal(err)
	}
	if w := res.Final.SketchShare; w != 0 || res.Config.ModelConfig.Sketch != 0 {
		t.Errorf("--skip-alone under the large defaults: a sketch of %d columns, share %v; want none", res.Config.ModelConfig.Sketch, w)
	}
}

// TestSketchSpilled: a run whose evaluation embeddings spill keeps the
// sketch at its reference share and the popularity column at its weight,
// and its warnings say so.
func TestSketchSpilled(t *testing.T) {
	defer func(v, c int) { ViewInputNodes, ChunkedInferenceNodes = v, c }(ViewInputNodes, ChunkedInferenceNodes)
	ViewInputNodes, ChunkedInferenceNodes = 0, 0
	cfg := shortRun("gcn")
	cfg.Dataset, cfg.Variant, cfg.Explicit = "caveman:30x6", Both, map[string]bool{"sketch": true}
	miniBatchRecipe(&cfg)
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
	// The popularity column (the large defaults') keeps its weight, 0.
	if !res.Config.ModelConfig.PopularityAuto || res.Final.Popularity != 0 || !strings.Contains(strings.Join(warns, "\n"), "(--popularity auto) needs the embeddings in memory") {
		t.Errorf("spilled: popularity auto %v, weight %v, warnings %q", res.Config.ModelConfig.PopularityAuto, res.Final.Popularity, warns)
	}
}

// TestEvalAtEnd: a run with EvalAtEnd evaluates at its last epoch only
// (and after its first, as every run does), whatever --eval-every the flags
// or the defaults gave, with the numbers
// the same run evaluated more often ends at; its configuration resolves
// to itself.
func TestEvalAtEnd(t *testing.T) {
	c := Default()
	c.Dataset, c.Scale, c.Epochs, c.EvalEvery = "caveman:8x6", ScaleLarge, 4, 1
	c.Explicit = map[string]bool{"epochs": true, "eval-every": true}
	every, err := Run(context.Background(), c, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	c.EvalAtEnd = true
	end, err := Run(context.Background(), c, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if len(every.History) != 4 || !slices.Equal(epochs(end.History), []int{0, 3}) || end.Config.EvalEvery != 4 {
		t.Fatalf("evaluations at epochs %v with --eval-every 1, %v with EvalAtEnd (eval every %d); want 4, then the first and the last", epochs(every.History), epochs(end.History), end.Config.EvalEvery)
	}
	if end.Final.TestAUC != every.Final.TestAUC || end.Final.TestKendallTau != every.Final.TestKendallTau {
		t.Errorf("final AUC %v τ %v evaluated at the end only, %v %v evaluated every epoch", end.Final.TestAUC, end.Final.TestKendallTau, every.Final.TestAUC, every.Final.TestKendallTau)
	}
	ds, err := LoadDataset(end.Config)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := end.Config.Resolve(ds); err != nil || again.EvalEvery != 4 {
		t.Errorf("the resolved configuration resolves to eval every %d (%v), want 4", again.EvalEvery, err)
	}
}

func epochs(h []Metrics) []int {
	var e []int
	for _, m := range h {
		e = append(e, m.Epoch)
	}
	return e
}

// restoreSaved restores the checkpoint a run saved in dir and makes its
// embeddings (N × d).
func restoreSaved(t *testing.T, dir string) (*Built, []float64, int) {
	t.Helper()
	ck, err := LoadCheckpoint(dir)
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
	return built, z, d
}

// scoresAsFinal holds a restored run's evaluation to the run's final
// numbers, and closes it.
func scoresAsFinal(t *testing.T, built *Built, res *Result) {
	t.Helper()
	sc, _, err := built.Evaluate()
	built.Close()
	if err != nil {
		t.Fatal(err)
	}
	if sc.TestAUC != float64(res.Final.TestAUC) || sc.Tau != float64(res.Final.TestKendallTau) {
		t.Errorf("restored AUC %v τ %v, the run's final %v %v", sc.TestAUC, sc.Tau, res.Final.TestAUC, res.Final.TestKendallTau)
	}
}

// miniBatches is the Explicit of a test run under the large defaults that
// keeps its own --sketch, mini-batch size and steps, epochs and evaluation
// period: short, and in mini-batches, so that its inference can go by
// chunks (the recipe up to WholeGraphNodes trains on the whole graph, 300
// steps).
func miniBatches() map[string]bool {
	return map[string]bool{"sketch": true, "batch-size": true, "batch-steps": true, "epochs": true, "eval-every": true}
}

// chunkedAsWhole runs cfg (a mini-batch run) with whole-graph inference,
// then by chunks of every node slot (ChunkedInferenceNodes 0), and holds
// the final numbers equal; it leaves ChunkedInferenceNodes as it found it.
func chunkedAsWhole(t *testing.T, cfg Config) {
	t.Helper()
	defer func(k int) { ChunkedInferenceNodes = k }(ChunkedInferenceNodes)
	want, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if want.Config.BatchSize == 0 {
		t.Fatal("the run trains on the whole graph, so its inference never goes by chunks: the check would be empty")
	}
	ChunkedInferenceNodes = 0
	got, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(float64(got.Final.TestAUC-want.Final.TestAUC)) > 1e-6 || math.Abs(float64(got.Final.TestKendallTau-want.Final.TestKendallTau)) > 1e-6 {
		t.Errorf("by chunks: AUC %v τ %v, whole-graph inference %v %v", got.Final.TestAUC, got.Final.TestKendallTau, want.Final.TestAUC, want.Final.TestKendallTau)
	}
}
