package run

import (
	"fmt"
	"math"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/models"
	"github.com/ignn/ignn/objective"
)

// Config is one run's complete configuration; the CLI binds its flags here
// and writes it beside every result. Defaults are in Default. Three fields
// may hold "decide for me" values that Resolve replaces: HashDim −1,
// LambdaMSE −1 (AutoLambdaMSE) and ModelConfig.Layers 0. A resolved Config holds
// none of them and is what is logged, stored in checkpoints and reported.
type Config struct {
	Dataset string `json:"dataset"`
	DataDir string `json:"data_dir,omitempty"`
	// Side files of a user's edge list (--dataset PATH).
	Labels     string `json:"labels,omitempty"`
	Features   string `json:"features,omitempty"`
	GraphIndex string `json:"graph_index,omitempty"`
	// How to read the edge list (data.EdgeListOptions): a header line
	// ("" = auto, "yes", "no") and the two node columns ("" = the first
	// two; names or 0-based positions).
	Header  string    `json:"header,omitempty"`
	Columns string    `json:"columns,omitempty"`
	Task    data.Task `json:"task"`
	Model   string    `json:"model"`
	Variant Variant   `json:"variant"`
	HashDim int       `json:"hash_dim"` // -1 = the paper's rule (see features.DefaultHashDim); 0 when the variant has no hash
	// Position is the positional input of the hash and both variants: the
	// zero value (the paper's hash), lap:K, rw:K or landmark:L, parsed once
	// where it enters (features.ParsePosition); the hash for the other
	// variants. Text-marshalled: JSON holds "lap:16", and leaves the hash out.
	Position features.Position `json:"position,omitzero"`
	// PositionSkip adds a linear map of the positional input to the
	// embedding before it is normalised (models whose entry declares Skip).
	PositionSkip bool `json:"position_skip,omitempty"`
	// SkipStandardise, with PositionSkip, gives the skip path the
	// positional columns standardised over the nodes (mean 0, std 1 per
	// column; the message-passing input keeps them as they are).
	SkipStandardise bool `json:"skip_standardise,omitempty"`
	// SkipPolar, with PositionSkip and a landmark position, gives the skip
	// path (features.SkipPolarOn) features.Polar's cone of the landmark columns instead: a pole
	// column and the standardised rows, unit length, scaled by the node's
	// rescaled mean landmark distance (it supersedes SkipStandardise).
	// features.SkipPolarAuto builds both blocks and keeps the one whose untrained
	// cosines rank the validation pairs better (Prepared.SkipChoice).
	SkipPolar features.SkipPolar `json:"skip_polar,omitempty"`
	// SkipIdentity, with PositionSkip and one-hot identity features, adds
	// the identity to the skip block: a free per-node vector added to the
	// embedding (an experiment of issue 36).
	SkipIdentity bool `json:"skip_identity,omitempty"`
	// SkipPrincipal, with PositionSkip, starts the skip map at the skip
	// block's principal directions (features.PrincipalMap) instead of at
	// random, so training starts from the embedding that keeps the most of
	// the block's own inner products.
	SkipPrincipal bool `json:"skip_principal,omitempty"`
	// RankPairs, with the ranking term, draws pair triples: d(i, j) <
	// d(a, k) over two anchors, a global order over pairs (what Kendall's
	// τ scores), instead of one anchor's order.
	RankPairs bool `json:"rank_pairs,omitempty"`
	// RankFixedSources, with the ranking term on the sampled path, draws
	// its BFS sources (and their rows) once for the run instead of every
	// epoch (objective.TripleSampler.FixSources).
	RankFixedSources bool `json:"rank_fixed_sources,omitempty"`
	// CapacitySampled marks the capacity reference (CapacityConfig): on sampled
	// distances its ranking sources are a pool (capacityThinning), so no checkpoint.
	CapacitySampled bool `json:"capacity_sampled,omitempty"`
	// BCESample, with whole-graph steps: the training positives of each
	// graph the link term reads a step, a uniform draw with as many fresh
	// negatives; 0: all, the paper's. The capacity reference samples.
	BCESample int     `json:"bce_sample,omitempty"`
	LambdaBCE float64 `json:"lambda_bce"`
	LambdaMSE float64 `json:"lambda_mse"` // -1 = the model's default; 0 when the variant has no MSE
	Alpha     float64 `json:"alpha"`
	Epochs    int     `json:"epochs"`
	LR        float64 `json:"lr"`
	WeightDec float64 `json:"weight_decay"`
	EvalEvery int     `json:"eval_every"`
	// EvalAtEnd evaluates at the last epoch only (and after the first, as
	// every run does): EvalEvery becomes Epochs once the defaults are resolved (compare's (skip path + sketch) cells,
	// a reference read at its final epoch: with the sketch, each evaluation
	// took 11 s of a Wiki-Vote cell, 70.6 s at every second epoch against
	// 30.4 s at the end only, the same final numbers).
	EvalAtEnd bool   `json:"eval_at_end,omitempty"`
	Seed      uint64 `json:"seed"`
	DType     DType  `json:"dtype"`
	MSEPairs  int    `json:"mse_pairs"` // cap on MSE pairs per epoch; all pairs when they fit
	// Distances picks the distance source: exact (all-pairs tables), sampled
	// (BFS rows from seeded sources), or auto (exact while the tables fit
	// ExactDistanceLimit); Resolve replaces auto.
	Distances  DistanceSource `json:"distances"`
	MSESources int            `json:"mse_sources"` // sampled: BFS sources per epoch for the MSE pairs
	// MSESampling picks the sampled path's MSE targets per BFS source:
	// "" (uniform over the source's graph: an unbiased sample of the
	// all-pairs MSE) or "stratified" (equally many per hop distance, so
	// near pairs are not drowned by the far majority).
	MSESampling MSESampling `json:"mse_sampling,omitempty"`
	// DistanceLoss is the distance term of mse and both: "" (the paper's
	// MSE) or objective.DistanceRank, a logistic ranking loss on RankTriples
	// triples per epoch at temperature RankTemp; both are 0 otherwise.
	DistanceLoss objective.DistanceLoss `json:"distance_loss,omitempty"`
	RankTemp     float64                `json:"rank_temp,omitempty"`
	RankTriples  int                    `json:"rank_triples,omitempty"`
	TauSources   int                    `json:"tau_sources"` // sampled: BFS sources of the fixed τ sample
	TauPairs     int                    `json:"tau_pairs"`   // sampled: size of the fixed τ sample
	// Patience > 0 stops training after that many evaluations without a
	// better validation AUC (0: every epoch, the paper's protocol).
	Patience int `json:"patience,omitempty"`
	// Select is the rule that picks the reported epoch ("" = eval.SelectAUC,
	// the paper's); the history holds what every rule needs.
	Select eval.SelectRule `json:"select,omitempty"`
	// Mini-batch training (BatchSize B > 0; 0 trains on the whole graph
	// every step): B training positives per step over their nodes'
	// neighbourhoods (see batch.Batcher), BatchSteps steps per epoch (0 = a full
	// pass over the training positives), BatchFanout neighbours per node and
	// hop (0 = all), BatchNodes node slots per batch (0 = sized by a probe
	// of the graph's neighbourhoods, see batch.Batcher.Allocate).
	BatchSize   int `json:"batch_size,omitempty"`
	BatchSteps  int `json:"batch_steps,omitempty"`
	BatchFanout int `json:"batch_fanout,omitempty"`
	BatchNodes  int `json:"batch_nodes,omitempty"`
	// Scale picks the defaults: "" (decided by size when resolved: the
	// paper's below LargeGraphNodes), ScalePaper, or ScaleLarge (see
	// applyScale); ScaleNote says what the large defaults chose. Explicit
	// lists the settings the user gave on the command line (flag names),
	// which the large defaults leave alone; nil for stored configurations.
	Scale     Scale           `json:"scale,omitempty"`
	ScaleNote string          `json:"scale_note,omitempty"`
	Explicit  map[string]bool `json:"-"`
	scaled    bool            // applyScale ran (the large defaults may set BatchSize)
	Workers   int             `json:"-"` // BFS goroutines; never changes results
	MaxMemory int64           `json:"-"` // refuse runs whose memory plan exceeds it (0 = no limit)
	Save      string          `json:"-"` // checkpoint directory ("" = none)
	// Stages is a folder of BFS stages computed beforehand (ignn prepare
	// --shard, StagePart): the landmark rows and the τ sample's distances
	// are read from its parts instead of computed; the same numbers.
	Stages string `json:"-"`
	// Spill is a directory where the run keeps, in unlinked files read by
	// pread (data.Spill), the two whole-run arrays of N × 64 hop counts
	// that need not be in its memory: the landmark hop counts its input's
	// views read (a view run) and the fixed ranking sources' BFS rows
	// (--rank-fixed-sources). "" keeps them in memory. The same numbers
	// either way; Spill is not part of a result.
	Spill string `json:"-"`

	ModelConfig models.Config `json:"model_config"`
}

// MSESampling is the sampled path's choice of MSE targets per BFS source
// (Config.MSESampling); a resolved Config holds "" for uniform.
type MSESampling string

// The sampled path's MSE target choices.
const (
	MSEUniform    MSESampling = "uniform"
	MSEStratified MSESampling = "stratified"
)

// DType is the element type of a run's tensors.
type DType string

// The element types.
const (
	Float32 DType = "float32"
	Float64 DType = "float64"
)

// The ranking term's defaults (--distance-loss rank): the temperature T of
// softplus((s_ik − s_ij)/T), and the triples drawn per epoch.
const (
	DefaultRankTemp    = 0.1
	DefaultRankTriples = 1 << 16
)

// AutoLambdaMSE asks Resolve for the model's default λ_MSE.
const AutoLambdaMSE = -1

// DefaultLambdaMSE is λ_MSE for models that do not register their own.
const DefaultLambdaMSE = 10

// Default returns the documented defaults: the paper's sizes (each model's
// own depth), Adam lr 0.01 with weight decay 5e-4, λ_BCE = 1, λ_MSE = the
// model's default (10; P-GNN 1), α = 1, 200 epochs evaluated every 10,
// float32.
func Default() Config {
	mc := models.DefaultConfig()
	mc.Layers = 0
	return Config{
		Dataset: "communities", Task: data.TaskLink, Model: "gcn", Variant: Both, HashDim: -1,
		LambdaBCE: 1, LambdaMSE: AutoLambdaMSE, Alpha: 1, Epochs: 200, LR: 0.01, WeightDec: 5e-4,
		EvalEvery: 10, Seed: 1, DType: Float32, MSEPairs: 1 << 20,
		Distances: DistAuto, MSESources: 64, TauSources: 512, TauPairs: 2_000_000,
		ModelConfig: mc,
	}
}

// Validate checks everything that can be checked before loading data, with
// one clear message per problem; "decide for me" values are accepted.
func (c Config) Validate() error {
	if _, err := models.Lookup(c.Model); err != nil {
		return err
	}
	return c.WithDefaults().validate()
}

// validateFeatures refuses a --features that the dataset would ignore:
// the paper's datasets have their own inputs, and a generated graph takes
// identity or constant but no file.
func (c Config) validateFeatures() error {
	switch {
	case c.Features == "" || IsPath(c.Dataset):
		return nil
	case contains(BuiltinDatasets, c.Dataset):
		return fmt.Errorf("--features %s: the paper's dataset %s has its own input (--features is for your graphs and generated ones)", c.Features, c.Dataset)
	case c.Features != data.FeaturesIdentity && c.Features != data.FeaturesConstant:
		return fmt.Errorf("--features %s: a generated graph (%s) has no node ids to key a feature file by; use identity or constant", c.Features, c.Dataset)
	}
	return nil
}

func (c Config) validate() error {
	if !contains(BuiltinDatasets, c.Dataset) && !data.IsGenerated(c.Dataset) && !IsPath(c.Dataset) {
		return unknownDataset(c.Dataset)
	}
	if err := c.validateFeatures(); err != nil {
		return err
	}
	if err := c.Variant.Validate(); err != nil {
		return err
	}
	if _, err := data.ParseTask(string(c.Task)); err != nil {
		return err
	}
	if _, err := ParseDType(string(c.DType)); err != nil {
		return err
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case c.Epochs < 1:
		return fmt.Errorf("--epochs must be ≥ 1, got %d", c.Epochs)
	case c.EvalEvery < 1:
		return fmt.Errorf("--eval-every must be ≥ 1, got %d", c.EvalEvery)
	case c.EvalEvery > c.Epochs:
		return fmt.Errorf("--eval-every (%d) exceeds --epochs (%d)", c.EvalEvery, c.Epochs)
	case !(c.LR > 0) || !finite(c.LR):
		return fmt.Errorf("--lr must be a finite number > 0, got %g", c.LR)
	case !(c.WeightDec >= 0) || !finite(c.WeightDec):
		return fmt.Errorf("--weight-decay must be a finite number ≥ 0, got %g", c.WeightDec)
	case !(c.LambdaBCE >= 0) || !finite(c.LambdaBCE):
		return fmt.Errorf("--lambda-bce must be a finite number ≥ 0, got %g", c.LambdaBCE)
	case !(c.LambdaMSE >= 0) || !finite(c.LambdaMSE):
		return fmt.Errorf("--lambda-mse must be a finite number ≥ 0 (or -1 for the model's default), got %g", c.LambdaMSE)
	case !(c.Alpha > 0) || !finite(c.Alpha):
		return fmt.Errorf("--alpha must be a finite number > 0, got %g", c.Alpha)
	case !(c.ModelConfig.Dropout >= 0 && c.ModelConfig.Dropout < 1):
		return fmt.Errorf("--dropout must be in [0, 1), got %g", c.ModelConfig.Dropout)
	case c.HashDim > 1<<20 || c.ModelConfig.Hidden > 1<<16 || c.ModelConfig.Heads > 1024 || c.ModelConfig.Layers > 64 || c.MSEPairs > 1<<30:
		return fmt.Errorf("a size flag is beyond any sensible run (limits: --hash-dim 2²⁰, --hidden 65536, --heads 1024, --layers 64, --mse-pairs 2³⁰)")
	case c.HashDim < -1:
		return fmt.Errorf("--hash-dim must be ≥ 1, or -1 for the paper's rule, got %d", c.HashDim)
	case c.HashDim == 0 && c.Variant.Hash() && c.Position.IsHash():
		return fmt.Errorf("--hash-dim 0 with variant %s: the hash variants need a dimension ≥ 1 (or -1 for the paper's rule)", c.Variant)
	case c.MSEPairs < 1:
		return fmt.Errorf("--mse-pairs must be ≥ 1, got %d", c.MSEPairs)
	case c.CapacitySampled && c.Save != "":
		return fmt.Errorf("the capacity reference is not checkpointed (--save): on sampled distances its ranking term keeps a pool of BFS rows a checkpoint does not hold")
	case c.BCESample < 0:
		return fmt.Errorf("the link term's sample of training positives must be ≥ 0 (0: all), got %d", c.BCESample)
	case c.BCESample > 0 && c.BatchSize > 0:
		return fmt.Errorf("the link term's sample of training positives is for whole-graph steps; mini-batches (--batch-size %d) draw their own", c.BatchSize)
	case c.MSESources < 1 || c.TauSources < 1:
		return fmt.Errorf("--mse-sources and --tau-sources must be ≥ 1, got %d and %d", c.MSESources, c.TauSources)
	case c.Patience < 0:
		return fmt.Errorf("--patience must be ≥ 0, got %d", c.Patience)
	case c.TauPairs < 2:
		return fmt.Errorf("--tau-pairs must be ≥ 2, got %d", c.TauPairs)
	case c.RankTriples < 0 || c.RankTriples > 1<<26:
		return fmt.Errorf("--rank-triples must be in 1…2²⁶ (0 = the default, %d), got %d", DefaultRankTriples, c.RankTriples)
	case c.BatchSize < 0 || c.BatchSteps < 0 || c.BatchFanout < 0 || c.BatchNodes < 0:
		return fmt.Errorf("--batch-size, --batch-steps, --batch-fanout and --batch-nodes must be ≥ 0")
	case c.BatchSize == 0 && c.BatchSteps+c.BatchFanout+c.BatchNodes > 0 && (c.Explicit == nil || c.scaled):
		return fmt.Errorf("--batch-steps, --batch-fanout and --batch-nodes shape mini-batches: they need --batch-size")
	case c.DistanceLoss != "" && c.DistanceLoss != objective.DistanceRank:
		return fmt.Errorf("unknown --distance-loss %q (valid: mse, rank)", c.DistanceLoss)
	}
	if c.Select != "" {
		if _, err := eval.ParseSelectRule(string(c.Select)); err != nil {
			return err
		}
	}
	if _, err := ParseDistanceSource(string(c.Distances)); err != nil {
		return err
	}
	if c.MSESampling != "" {
		if _, err := ParseMSESampling(string(c.MSESampling)); err != nil {
			return err
		}
	}
	if err := c.Objective().Validate(); err != nil {
		return err
	}
	return c.ModelConfig.Validate()
}
