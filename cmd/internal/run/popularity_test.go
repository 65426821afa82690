package run

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
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
	base.Explicit["popularity"] = true // plain: no column (the large defaults' is chosen: TestPopularityAuto)
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

// TestPopularityAuto: the large defaults end a link run's embedding with
// the popularity column (--popularity auto), its weight chosen at every
// evaluation among models.PopularityWeights, beside the sketch's share
// (chosen from the same embeddings) and without it (chosen from the
// evaluation's own); each evaluation records its weight; the restored
// checkpoint embeds at the last one and scores as the run did; inference
// by chunks gives what whole-graph inference does. The choice's
// validation AUC and τ at each weight are those of the embeddings a
// forward pass makes at that weight (brute force), whatever weight the
// embeddings it reads were made at.
func TestPopularityAuto(t *testing.T) {
	base := Default()
	base.Dataset, base.Scale, base.Explicit, base.DType = "ba:150:3", ScaleLarge, miniBatches(), Float64
	base.Epochs, base.EvalEvery, base.BatchSize, base.BatchSteps = 2, 1, 32, 2
	base.ModelConfig.Sketch = 64
	for _, share := range []float64{0, 0.7} { // chosen with the sketch's share (chooseEnds), and alone (popularityLate)
		cfg := base
		cfg.ModelConfig.SketchShare, cfg.Save = share, t.TempDir()
		res, err := Run(context.Background(), cfg, Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Config.ModelConfig.PopularityAuto || res.Config.ModelConfig.EmbeddingWidth() != res.Config.ModelConfig.Out+64+1 {
			t.Fatalf("share %v: the large defaults gave %+v, want --popularity auto", share, res.Config.ModelConfig)
		}
		for _, m := range res.History {
			if !slices.Contains(models.PopularityWeights, float64(m.Popularity)) {
				t.Errorf("share %v: the evaluation at epoch %d used weight %v", share, m.Epoch, m.Popularity)
			}
		}
		built, _, _ := restoreSaved(t, cfg.Save)
		if got, want := built.p.popB, float64(res.Final.Popularity); got != want {
			t.Errorf("share %v: the restored run embeds at weight %v, its last evaluation used %v", share, got, want)
		}
		if share > 0 {
			bruteChoice(t, built)
		}
		scoresAsFinal(t, built, res)
	}
	whole := base
	whole.DType = Float32
	chunkedAsWhole(t, whole)
}

// bruteChoice holds the popularity choice's validation AUC and τ at each
// weight, read from embeddings made at the largest, to those of
// embeddings made at that weight; it leaves the column at the weight it
// found.
func bruteChoice(t *testing.T, c *Built) {
	t.Helper()
	was := c.p.popB
	defer c.p.setPopularity(was)
	embed := func(b float64) ([]float64, int) {
		c.p.setPopularity(b)
		z, d, err := c.Embeddings()
		if err != nil {
			t.Fatal(err)
		}
		return z, d
	}
	ws := models.PopularityWeights
	z, d := embed(ws[len(ws)-1])
	v := newValChoice(c, eval.NewMixedTail(z, d, 0, 1))
	pairAt, sampleAt := v.popularitySims(1)
	aucs := make([]float64, len(ws))
	for k, b := range ws {
		z, d := embed(b)
		dot := engine.RowDot(z, d)
		scores, labels := make([]float64, len(c.valBCE.V)), make([]bool, len(c.valBCE.V))
		for p := range scores {
			scores[p], labels[p] = dot(c.valBCE.I[p], c.valBCE.J[p]), c.valBCE.V[p] > 0.5
		}
		auc, tau := eval.AUC(scores, labels), c.scorer.SampleTauOf(dot, &c.val.Pairs)
		aucs[k] = v.auc(pairAt(b))
		if got := v.tau(sampleAt(b)); math.Abs(auc-aucs[k]) > 1e-9 || math.Abs(tau-got) > 1e-9 {
			t.Errorf("weight %v: the choice reads AUC %v τ %v, embeddings made at it give %v %v", b, aucs[k], got, auc, tau)
		}
	}
	if aucs[0] == aucs[len(ws)-1] {
		t.Errorf("AUCs %v: the weights must matter", aucs)
	}
	if ch := v.choosePopularity(1); !slices.Contains(ws, ch.Share) || ch.AUC[0] != aucs[0] {
		t.Errorf("chose %v from AUCs %v", ch.Share, ch.AUC)
	}
}
