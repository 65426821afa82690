package run

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/ignn/ignn/models"
)

// TestPopularityRun: a run with --popularity b on a user-style graph (the
// large defaults: a skip path, mini-batches, a sketch whose share is chosen
// on validation) ends its embeddings with the popularity column, one more
// than --hidden + the sketch's; the share is chosen as without the column
// (the same training, the same choice); embedding the saved checkpoint
// gives the last evaluation's numbers; inference by chunks stages the
// column's rows and gives what whole-graph inference does; a run without a
// skip path refuses the flag.
func TestPopularityRun(t *testing.T) {
	base := Default()
	base.Dataset, base.Scale, base.Explicit = "ba:150:3", ScaleLarge, miniBatches()
	base.Epochs, base.EvalEvery, base.BatchSize, base.BatchSteps = 1, 1, 32, 2
	base.ModelConfig.Sketch = 64
	plain, err := Run(context.Background(), base, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := base
	cfg.ModelConfig.Popularity, cfg.Save = 0.1, t.TempDir()
	res, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Final.SketchShare != plain.Final.SketchShare {
		t.Errorf("the sketch's share %v with the column, %v without: the choice must not see it", res.Final.SketchShare, plain.Final.SketchShare)
	}
	if res.Final.TestAUC == plain.Final.TestAUC {
		t.Errorf("test AUC %v with the column and without: it changed nothing", res.Final.TestAUC)
	}
	built, z, d := restoreSaved(t, cfg.Save)
	if want := res.Config.ModelConfig.Out + 64 + 1; d != want || res.Config.ModelConfig.EmbeddingWidth() != want {
		t.Fatalf("embeddings %d wide (EmbeddingWidth %d), want %d", d, res.Config.ModelConfig.EmbeddingWidth(), want)
	}
	deg := built.p.Input.Adj.Degree()
	for i := range len(z) / d { // the last column is A·(1 + b·ln(1 + deg)) over the row's norm (float32 rows)
		var s float64
		for _, v := range z[i*d : (i+1)*d-1] {
			s += v * v
		}
		a := models.PopularityScale * (1 + 0.1*math.Log1p(float64(deg[i])))
		if got := z[(i+1)*d-1] / math.Sqrt(s); math.Abs(got-a) > 1e-5*a {
			t.Fatalf("node %d (degree %d): column / rest %v, want %v", i, deg[i], got, a)
		}
	}
	scoresAsFinal(t, built, res)
	whole := base // inference by chunks stages the column's rows
	whole.ModelConfig.SketchShare, whole.ModelConfig.Popularity = 0.7, 0.1
	chunkedAsWhole(t, whole)
	noskip := base
	noskip.Variant, noskip.ModelConfig.Popularity = Base, 0.1
	noskip.Explicit, noskip.ModelConfig.Sketch = map[string]bool{}, 0
	if _, err := Run(context.Background(), noskip, Hooks{}); err == nil || !strings.Contains(err.Error(), "--popularity") {
		t.Errorf("a run without a skip path: %v, want a --popularity error", err)
	}
}
