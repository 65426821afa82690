package experiment

import (
	"fmt"
	"strings"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/models"
	"github.com/ignn/ignn/objective"
)

// Variants of the IGNN prescription.
var Variants = []string{"base", "hash", "mse", "both"}

// Config is one run's complete configuration; the CLI binds its flags here
// and writes it beside every result. Defaults are in Default.
type Config struct {
	Dataset string `json:"dataset"`
	DataDir string `json:"data_dir,omitempty"`
	// Side files of a user's edge list (--dataset PATH).
	Labels     string  `json:"labels,omitempty"`
	Features   string  `json:"features,omitempty"`
	GraphIndex string  `json:"graph_index,omitempty"`
	Task       string  `json:"task"`
	Model      string  `json:"model"`
	Variant    string  `json:"variant"`
	HashDim    int     `json:"hash_dim"` // -1 = the paper's rule (see features.DefaultHashDim)
	LambdaBCE  float64 `json:"lambda_bce"`
	LambdaMSE  float64 `json:"lambda_mse"` // used by the mse and both variants
	Alpha      float64 `json:"alpha"`
	Epochs     int     `json:"epochs"`
	LR         float64 `json:"lr"`
	WeightDec  float64 `json:"weight_decay"`
	EvalEvery  int     `json:"eval_every"`
	Seed       uint64  `json:"seed"`
	DType      string  `json:"dtype"`
	MSEPairs   int     `json:"mse_pairs"` // cap on MSE pairs per epoch; all pairs when they fit
	Workers    int     `json:"-"`         // BFS goroutines; never changes results
	Save       string  `json:"-"`         // checkpoint directory ("" = none)

	Model_ models.Config `json:"model_config"`
}

// Default returns the documented defaults: the paper's sizes, Adam lr 0.01
// with weight decay 5e-4, λ_BCE = 1, λ_MSE = 10, α = 1, 200 epochs evaluated every
// 10, float32.
func Default() Config {
	return Config{
		Dataset: "communities", Task: data.TaskLink, Model: "gcn", Variant: "both", HashDim: -1,
		LambdaBCE: 1, LambdaMSE: 10, Alpha: 1, Epochs: 200, LR: 0.01, WeightDec: 5e-4,
		EvalEvery: 10, Seed: 1, DType: "float32", MSEPairs: 1 << 20,
		Model_: models.DefaultConfig(),
	}
}

// UsesHash and UsesMSE resolve the variant.
func (c Config) UsesHash() bool { return c.Variant == "hash" || c.Variant == "both" }

// UsesMSE reports whether the variant trains the distance term.
func (c Config) UsesMSE() bool { return c.Variant == "mse" || c.Variant == "both" }

// Objective is the loss configuration the variant implies.
func (c Config) Objective() objective.Config {
	o := objective.Config{LambdaBCE: c.LambdaBCE, Alpha: c.Alpha}
	if c.UsesMSE() {
		o.LambdaMSE = c.LambdaMSE
	}
	return o
}

// Validate checks everything that can be checked before any work, with one
// clear message per problem.
func (c Config) Validate() error {
	if _, err := models.Lookup(c.Model); err != nil {
		return err
	}
	if !contains(BuiltinDatasets, c.Dataset) && !strings.ContainsAny(c.Dataset, "/.\\") {
		return fmt.Errorf("unknown dataset %q (valid: %s, or a path to an edge list)", c.Dataset, strings.Join(BuiltinDatasets, ", "))
	}
	if !contains(Variants, c.Variant) {
		return fmt.Errorf("unknown variant %q (valid: %s)", c.Variant, strings.Join(Variants, ", "))
	}
	if c.Task != data.TaskLink && c.Task != data.TaskPair {
		return fmt.Errorf("unknown task %q (valid: link, pair)", c.Task)
	}
	if c.DType != "float32" && c.DType != "float64" {
		return fmt.Errorf("unknown dtype %q (valid: float32, float64)", c.DType)
	}
	switch {
	case c.Epochs < 1:
		return fmt.Errorf("--epochs must be ≥ 1, got %d", c.Epochs)
	case c.EvalEvery < 1:
		return fmt.Errorf("--eval-every must be ≥ 1, got %d", c.EvalEvery)
	case c.EvalEvery > c.Epochs:
		return fmt.Errorf("--eval-every (%d) exceeds --epochs (%d)", c.EvalEvery, c.Epochs)
	case c.LR <= 0:
		return fmt.Errorf("--lr must be > 0, got %g", c.LR)
	case c.WeightDec < 0:
		return fmt.Errorf("--weight-decay must be ≥ 0, got %g", c.WeightDec)
	case c.HashDim < -1:
		return fmt.Errorf("--hash-dim must be ≥ 1, or -1 for the paper's rule, got %d", c.HashDim)
	case c.HashDim == 0 && c.UsesHash():
		return fmt.Errorf("--hash-dim 0 with variant %s: the hash variants need a dimension ≥ 1 (or -1 for the paper's rule)", c.Variant)
	case c.MSEPairs < 1:
		return fmt.Errorf("--mse-pairs must be ≥ 1, got %d", c.MSEPairs)
	}
	if err := c.Objective().Validate(); err != nil {
		return err
	}
	return c.Model_.Validate()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
