package run

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/ignn/ignn/cmd/internal/report"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/models"
	"github.com/ignn/ignn/objective"
)

// Variant is one of the IGNN prescription's four variants.
type Variant string

// The variants: neither change, the hash input, the distance MSE, both.
const (
	Base Variant = "base"
	Hash Variant = "hash"
	MSE  Variant = "mse"
	Both Variant = "both"
)

// Variants lists them in table order.
var Variants = []Variant{Base, Hash, MSE, Both}

// Hash reports whether the variant concatenates hash vectors to the input.
func (v Variant) Hash() bool { return v == Hash || v == Both }

// MSE reports whether the variant trains the distance term.
func (v Variant) MSE() bool { return v == MSE || v == Both }

// Validate rejects unknown names, listing the valid ones.
func (v Variant) Validate() error {
	for _, x := range Variants {
		if v == x {
			return nil
		}
	}
	names := make([]string, len(Variants))
	for i, x := range Variants {
		names[i] = string(x)
	}
	return fmt.Errorf("unknown variant %q (valid: %s)", v, strings.Join(names, ", "))
}

// withDefaults applies every data-independent decision, once: the model's
// depth when Layers is 0, other models' options at their defaults, the
// model's λ_MSE when LambdaMSE is AutoLambdaMSE, and λ_MSE = 0 for
// variants without the MSE. An unknown model is left for validate to
// report.
func (c Config) WithDefaults() Config {
	e, err := models.Lookup(c.Model)
	if err != nil {
		return c
	}
	if c.ModelConfig.Layers == 0 {
		c.ModelConfig.Layers = e.Config().Layers
	}
	c.ModelConfig = e.Strip(c.ModelConfig) // another model's options stay at their defaults
	if c.LambdaMSE == AutoLambdaMSE {
		c.LambdaMSE = DefaultLambdaMSE
		if e.LambdaMSE > 0 {
			c.LambdaMSE = e.LambdaMSE
		}
	}
	if !c.Variant.MSE() {
		c.LambdaMSE = 0
	}
	if c.DistanceLoss == objective.DistanceMSE || !c.Variant.MSE() {
		c.DistanceLoss = ""
	}
	if c.DistanceLoss == objective.DistanceRank {
		c.RankTemp = cmp.Or(c.RankTemp, DefaultRankTemp)
		if c.RankTriples == 0 && c.BatchSize > 0 {
			c.RankTriples = c.BatchSize // per step in mini-batches
		}
		c.RankTriples = cmp.Or(c.RankTriples, DefaultRankTriples)
	} else {
		c.RankTemp, c.RankTriples = 0, 0
	}
	// Settings added after version 1 of the checkpoint format: zero means
	// "not set" in configurations written before they existed.
	d := Default()
	if c.Distances == "" {
		c.Distances = d.Distances
	}
	if c.MSESources == 0 {
		c.MSESources = d.MSESources
	}
	if c.TauSources == 0 {
		c.TauSources = d.TauSources
	}
	if c.TauPairs == 0 {
		c.TauPairs = d.TauPairs
	}
	return c
}

// Resolve returns the effective configuration of a run on ds: the
// data-independent defaults (see Default) plus the input rule — HashDim −1
// becomes the paper's n (features.DefaultHashDim); variants without a
// positional input, and runs whose input is a graph encoding
// (Position lap/rw/landmark), get HashDim 0; the Position of variants
// without the input becomes the zero Position. It is idempotent, so a stored configuration resolves to
// itself, and it validates the result: its errors are SettingErrors.
func (c Config) Resolve(ds *data.Dataset) (Config, error) {
	r, err := c.resolve(ds)
	if err != nil {
		return r, &SettingError{err}
	}
	return r, nil
}

// SettingError is a configuration a run refuses before any work: a flag,
// a value or a combination of them (the CLI exits with status 2, as for
// any usage error).
type SettingError struct{ Err error }

func (e *SettingError) Error() string { return e.Err.Error() }
func (e *SettingError) Unwrap() error { return e.Err }

func (c Config) resolve(ds *data.Dataset) (Config, error) {
	e, err := models.Lookup(c.Model)
	if err != nil {
		return c, err
	}
	if c.ModelConfig.SkipAlone && !e.SkipAlone {
		return c, fmt.Errorf("--skip-alone: %s builds its message passing before its output, so it cannot leave it out; the models that can: %s", c.Model,
			strings.Join(models.NamesWhere(func(e models.Entry) bool { return e.SkipAlone }), ", "))
	}
	c = c.applyScale(graphSize{ds.NumNodes(), TrainPositives(ds, c.Task)}).WithDefaults()
	if c.EvalAtEnd {
		c.EvalEvery = c.Epochs
	}
	if c.Position.IsHash() || !c.Variant.Hash() {
		c.Position = features.Position{}
	}
	if !c.Variant.Hash() {
		c.PositionSkip = false
	}
	if !c.PositionSkip {
		mc := c.ModelConfig
		for _, o := range []struct {
			set  bool
			what string
		}{
			{mc.SkipMix > 0, "--skip-mix shares the embedding between the skip path and the message passing, and this run has no skip path"},
			{mc.SkipSmooth > 0, "--skip-smooth smooths the embedding of a run with a skip path, and this run has none"},
			{mc.Sketch > 0, "--sketch appends the neighbourhood sketch to the embedding of a run with a skip path, and this run has none"},
			{mc.HasPopularity(), "--popularity appends the popularity column to the embedding of a run with a skip path, and this run has none"},
			{mc.SkipSplit, "--skip-split divides the training between the skip path and the message passing, and this run has no skip path"},
			{mc.SkipAlone, "--skip-alone leaves only the skip path, and this run has none"},
		} {
			if o.set {
				return c, fmt.Errorf("%s: it needs --position-skip and a positional input (--variant hash or both)", o.what)
			}
		}
		c.ModelConfig.SkipGate, c.SkipStandardise, c.SkipPolar, c.SkipPrincipal = false, false, features.SkipPolarOff, false
	}
	if c.DistanceLoss != objective.DistanceRank || c.LambdaMSE == 0 {
		c.RankPairs = false
	}
	switch c.SkipPolar {
	case features.SkipPolarOff, features.SkipPolarOn, features.SkipPolarAuto:
	default:
		return c, fmt.Errorf("Config.SkipPolar %q: want %q, %q or %q (ParseSkipPolar reads the flag)", c.SkipPolar, features.SkipPolarOff, features.SkipPolarOn, features.SkipPolarAuto)
	}
	if c.SkipPolar != features.SkipPolarOff && c.Position.Kind != features.PosLandmark {
		return c, fmt.Errorf("--skip-polar reads distances to landmarks: it needs --position landmark:L, not %s", c.Position)
	}
	switch {
	case !c.Variant.Hash() || !c.Position.IsHash():
		c.HashDim = 0
	case c.HashDim == -1:
		c.HashDim = features.DefaultHashDim(ds)
	}
	if c.Distances == DistAuto || c.Distances == "" {
		c.Distances = DistExact
		if exactEntries(ds) > ExactDistanceLimit {
			c.Distances = DistSampled
		}
	}
	if c.BatchSize > 0 {
		if e, _ := models.Lookup(c.Model); !e.Batches {
			return c, fmt.Errorf("--batch-size: %s trains on the whole graph at once (%s); %s train on mini-batches", c.Model, e.WholeGraph, strings.Join(models.NamesWhere(func(e models.Entry) bool { return e.Batches }), ", "))
		}
	}
	if c.MSESampling == MSEUniform || !c.Variant.MSE() {
		c.MSESampling = ""
	}
	if c.MSESampling == MSEStratified && c.Distances != DistSampled {
		return c, fmt.Errorf("--mse-sampling stratified draws from BFS rows: it needs --distances sampled (this run resolved to %s)", c.Distances)
	}
	return c, c.validate()
}

// DistanceSource is where a run's hop distances come from (Config.Distances).
type DistanceSource string

// The distance sources.
const (
	DistAuto    DistanceSource = "auto"
	DistExact   DistanceSource = "exact"   // all-pairs hop tables per graph; τ over every pair
	DistSampled DistanceSource = "sampled" // BFS rows from seeded sources; τ over a fixed sample
)

// ParseDistanceSource reads --distances.
func ParseDistanceSource(s string) (DistanceSource, error) {
	switch d := DistanceSource(s); d {
	case DistAuto, DistExact, DistSampled:
		return d, nil
	}
	return "", fmt.Errorf("unknown --distances %q (valid: auto, exact, sampled)", s)
}

// ParseMSESampling reads --mse-sampling.
func ParseMSESampling(s string) (MSESampling, error) {
	switch m := MSESampling(s); m {
	case MSEUniform, MSEStratified:
		return m, nil
	}
	return "", fmt.Errorf("unknown --mse-sampling %q (valid: uniform, stratified)", s)
}

// ParseDType reads --dtype.
func ParseDType(s string) (DType, error) {
	switch d := DType(s); d {
	case Float32, Float64:
		return d, nil
	}
	return "", fmt.Errorf("unknown dtype %q (valid: float32, float64)", s)
}

// ExactDistanceLimit is the largest Σ n_g² (table entries, 2 bytes each:
// 50 MB) auto resolves to exact distances; the paper's datasets (Σ n_g² ≤
// 1.8·10⁶) are far below it.
const ExactDistanceLimit = 25_000_000

func exactEntries(ds *data.Dataset) int64 {
	var s int64
	for _, g := range ds.Graphs {
		s += int64(g.N) * int64(g.N)
	}
	return s
}

// DistanceTerm is the distance term c's runs train with as Resolve
// decides it (the MSE for variants without one, and when c is not
// scaled): the large defaults' choice depends on the graph's size only for
// the paper's datasets, all below LargeGraphNodes, so no graph is loaded.
func (c Config) DistanceTerm() objective.DistanceLoss {
	if !c.Variant.MSE() {
		return objective.DistanceMSE
	}
	return cmp.Or(c.applyScale(graphSize{nodes: 1}).DistanceLoss, objective.DistanceMSE)
}

// Objective is what a run minimises: λ_BCE·BCE + λ_MSE·D with its distance
// term D (the paper's MSE or the ranking loss, its temperature, α, its
// triples per step).
type Objective struct {
	LambdaBCE, LambdaMSE float64
	DistanceLoss         objective.DistanceLoss
	RankTemp, Alpha      float64
	RankTriples          int
	RankPairs            bool
	Nodes                int // the graph's: the capacity reference's triples a step grow with it
}

// RecipeSkip reports whether a run of c's both variant on a graph of
// nodes nodes has a skip path as Resolve decides it (the large-graph
// defaults add one; --position-skip does), so that a compare can add the
// skip path alone beside it (its (skip path alone) row). No graph is read:
// the skip path depends on the graph's size and name only.
func RecipeSkip(c Config, nodes int) bool { return recipeBoth(c, nodes).PositionSkip }

// RecipeSketch is the neighbourhood sketch width (--sketch) of c's both
// runs on a graph of nodes nodes, as Resolve decides it: the large
// defaults' on a link task with a skip path below LargeGraphNodes, or a
// given --sketch; 0 for runs without a skip path (they have none).
func RecipeSketch(c Config, nodes int) int {
	if r := recipeBoth(c, nodes); r.PositionSkip {
		return r.ModelConfig.Sketch
	}
	return 0
}

// recipeBoth is c's both variant with the defaults of a graph of nodes nodes.
func recipeBoth(c Config, nodes int) Config {
	c.Variant = Both
	return c.applyScale(graphSize{nodes: nodes}).WithDefaults()
}

// ObjectiveOf is the objective of a run of c's model with the distance
// term (variant both) on ds, as Resolve decides it (the large-graph
// defaults by ds's size included).
func ObjectiveOf(c Config, ds *data.Dataset) Objective {
	c.Variant = Both
	r := c.applyScale(graphSize{ds.NumNodes(), TrainPositives(ds, c.Task)}).WithDefaults()
	if r.DistanceLoss != objective.DistanceRank || r.LambdaMSE == 0 {
		r.RankPairs = false
	}
	return Objective{LambdaBCE: r.LambdaBCE, LambdaMSE: r.LambdaMSE, DistanceLoss: r.DistanceLoss, RankTemp: r.RankTemp,
		Alpha: r.Alpha, RankTriples: r.RankTriples, RankPairs: r.RankPairs, Nodes: ds.NumNodes()}
}

// Settings returns what c trains with; c must be resolved.
func (c Config) Settings() report.Settings {
	s := report.Settings{Epochs: c.Epochs, Steps: "1 whole-graph step", Input: "features", Distance: "none"}
	switch {
	case c.BatchSize > 0 && c.BatchSteps > 0:
		s.Steps = fmt.Sprintf("%d mini-batch steps of %d positives", c.BatchSteps, c.BatchSize)
	case c.BatchSize > 0:
		s.Steps = fmt.Sprintf("a pass over the training positives in mini-batches of %d", c.BatchSize)
	}
	if c.Variant.Hash() {
		s.Input += " + " + c.Position.String()
		if c.PositionSkip {
			s.Input += " + skip"
		}
	}
	if c.Variant.MSE() {
		s.Distance = string(cmp.Or(c.DistanceLoss, objective.DistanceMSE))
	}
	return s
}

// entryOf is c's model's registry entry (the zero Entry for an unknown
// model, which validation reports).
func entryOf(c *Config) models.Entry {
	e, _ := models.Lookup(c.Model)
	return e
}
