package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ignn/ignn/data"
)

// TestPairTaskNeedsTwoClasses: a pair task on labels of one class is
// refused before training, naming the labels file and the class; two
// classes train.
func TestPairTaskNeedsTwoClasses(t *testing.T) {
	dir := t.TempDir()
	edges, labels := filepath.Join(dir, "e.txt"), filepath.Join(dir, "l.txt")
	var e, l strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&e, "%d %d\n%d %d\n", i, (i+1)%30, i, (i+7)%30)
		fmt.Fprintf(&l, "%d 4\n", i)
	}
	os.WriteFile(edges, []byte(e.String()), 0o644)
	os.WriteFile(labels, []byte(l.String()), 0o644)
	cfg := shortRun("gcn")
	cfg.Dataset, cfg.Labels, cfg.Task, cfg.Epochs, cfg.EvalEvery = edges, labels, data.TaskPair, 2, 1
	_, err := Run(context.Background(), cfg, Hooks{})
	if err == nil || !strings.Contains(err.Error(), labels) || !strings.Contains(err.Error(), "at least two classes") || !strings.Contains(err.Error(), "label 4") {
		t.Fatalf("one class: %v", err)
	}
	two := strings.Replace(l.String(), "0 4\n", "0 5\n", 1) // node 0 in another class
	os.WriteFile(labels, []byte(two), 0o644)
	if _, err := Run(context.Background(), cfg, Hooks{}); err != nil {
		t.Fatalf("two classes: %v", err)
	}
}

// TestFeaturesOnGeneratedGraphs: --features constant gives a generated
// graph one constant input column (no N-wide identity, so no N × hidden
// input weights); a feature file there, or any --features on the paper's
// datasets, is refused rather than ignored.
func TestFeaturesOnGeneratedGraphs(t *testing.T) {
	cfg := shortRun("gcn")
	cfg.Dataset, cfg.Features = "grid:6x6", data.FeaturesConstant
	ds, err := LoadDataset(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if ds.Identity || ds.FeatureDim() != 1 || ds.Graphs[0].XRow(5)[0] != 1 || len(ds.Graphs[0].X) != 1 {
		t.Fatalf("constant: identity %v, width %d, stored values %d (want one shared row)", ds.Identity, ds.FeatureDim(), len(ds.Graphs[0].X))
	}
	cfg.Features = data.FeaturesIdentity
	if ds, _ := LoadDataset(cfg); !ds.Identity || ds.FeatureDim() != 36 {
		t.Fatalf("identity: %v, width %d", ds.Identity, ds.FeatureDim())
	}
	for _, c := range []struct{ dataset, features, want string }{
		{"grid:6x6", "x.txt", "no node ids"},
		{"email", data.FeaturesConstant, "has its own input"},
	} {
		cfg.Dataset, cfg.Features = c.dataset, c.features
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s --features %s: %v, want %q", c.dataset, c.features, err, c.want)
		}
	}
}

// TestSkipOptionsNeedSkipPath: every option that shapes the skip path
// (--skip-mix, --skip-alone, --skip-split, --skip-smooth, --sketch) is refused, as a
// SettingError naming --position-skip, on a run without one (variant base).
func TestSkipOptionsNeedSkipPath(t *testing.T) {
	ds, err := LoadDataset(Default())
	if err != nil {
		t.Fatal(err)
	}
	for name, set := range map[string]func(c *Config){
		"--skip-mix":    func(c *Config) { c.ModelConfig.SkipMix = 0.5 },
		"--skip-alone":  func(c *Config) { c.ModelConfig.SkipAlone = true },
		"--skip-split":  func(c *Config) { c.ModelConfig.SkipSplit = true },
		"--skip-smooth": func(c *Config) { c.ModelConfig.SkipSmooth = 0.5 },
		"--sketch":      func(c *Config) { c.ModelConfig.Sketch = 64 },
	} {
		c := Default()
		c.Variant = Base
		set(&c)
		_, err := c.Resolve(ds)
		var se *SettingError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "--position-skip") {
			t.Errorf("%s on a base run: %v", name, err)
		}
	}
}

// TestSkipAloneNeedsStack: --skip-alone on a model that builds its
// message passing before its output (P-GNN, APPNP) is refused before any
// work, as a SettingError naming the models that can leave it out.
func TestSkipAloneNeedsStack(t *testing.T) {
	ds, err := LoadDataset(Default())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"pgnn-f", "appnp"} {
		c := Default()
		c.Model, c.PositionSkip = m, true
		c.ModelConfig.SkipAlone = true
		_, err := c.Resolve(ds)
		var se *SettingError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "--skip-alone") || !strings.Contains(err.Error(), "gcn, gin, graphconv, sage") {
			t.Errorf("%s --skip-alone: %v", m, err)
		}
	}
}

// TestSkipSmoothRefusedChunked: --skip-smooth reads one hop past the
// model's layers, so a run whose inference goes by chunks refuses it with a
// SettingError before preparing anything; the same run without it starts.
func TestSkipSmoothRefusedChunked(t *testing.T) {
	defer func(k int) { ChunkedInferenceNodes = k }(ChunkedInferenceNodes)
	ChunkedInferenceNodes = 0 // every mini-batch run is chunked
	c := Default()
	c.Dataset, c.Scale, c.Explicit = "caveman:8x6", ScaleLarge, map[string]bool{}
	miniBatchRecipe(&c)
	c.ModelConfig.SkipSmooth = 0.5
	var se *SettingError
	if _, err := Run(context.Background(), c, Hooks{}); !errors.As(err, &se) || !strings.Contains(err.Error(), "--skip-smooth") {
		t.Fatalf("chunked run with --skip-smooth: %v", err)
	}
	c.ModelConfig.SkipSmooth, c.Epochs, c.EvalEvery = 0, 1, 1
	if _, err := Run(context.Background(), c, Hooks{}); err != nil {
		t.Fatalf("the same run without it: %v", err)
	}
}
