package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/models"
	"github.com/ignn/ignn/objective"
)

// usageError marks bad flags or arguments: exit code 2.
type usageError struct{ error }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// exitCode is 2 for a usage error (a flag, a value, a combination, also
// when the run refuses it: run.SettingError), 1 for a run that failed.
func exitCode(err error) int {
	var u usageError
	var se *run.SettingError
	if errors.As(err, &u) || errors.As(err, &se) {
		return 2
	}
	return 1
}

// execute is the whole program, testable end to end.
func execute(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	app := newApp(stdout, stderr)
	return app.RunContext(ctx, interspersed(app.Commands, args))
}

// newApp is the CLI: every command, each checking its numeric flags'
// ranges (bounds.go) before it does any work.
func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:      "ignn",
		Usage:     "train and compare Isometric Graph Neural Networks (embeddings faithful to graph distance)",
		Writer:    stdout,
		ErrWriter: stderr,
		Commands: []*cli.Command{
			trainCommand(stdout, stderr),
			compareCommand(stdout, stderr, false),
			compareCommand(stdout, stderr, true),
			embedCommand(stdout),
			prepareCommand(stdout),
			neighborsCommand(stdout, stderr),
			datasetsCommand(stdout),
			dataCommand(stdout, stderr),
			plotCommand(stdout),
			reportCommand(stdout),
			modelsCommand(stdout),
		},
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   onUsageError,
	}
	withBounds(app.Commands)
	return app
}

func onUsageError(_ *cli.Context, err error, _ bool) error { return usageError{err} }

// hasFlag reports whether the running command defines the flag.
func hasFlag(c *cli.Context, name string) bool {
	for _, f := range c.Command.Flags {
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}

// dataDirFlag is --data-dir, shared by every command that loads data.
func dataDirFlag() cli.Flag {
	return &cli.StringFlag{Name: "data-dir", EnvVars: []string{"IGNN_DATA"}, Usage: "directory holding email/ and protein/ raw files"}
}

// runFlags are the flags every training command shares, bound to a Config.
func runFlags() []cli.Flag {
	d := run.Default()
	flags := []cli.Flag{
		&cli.StringFlag{Name: "dataset", Value: d.Dataset, Usage: "communities, email, protein, a generated graph (caveman:AxB[:p], grid:RxC, rgg:N:DEGREE, ba:N:M), or a path to an edge list"},
		&cli.StringFlag{Name: "labels", Usage: "user graphs: \"node label\" file (needed by --task pair)"},
		&cli.StringFlag{Name: "features", Usage: "user and generated graphs: identity (default: a one-hot input per node, as a PyG user gives x = I), constant (input 1 for every node), or (user graphs) a \"node v1 … vF\" file"},
		&cli.StringFlag{Name: "graph-index", Usage: "user graphs: \"node graph\" file splitting the nodes into several graphs"},
		&cli.StringFlag{Name: "header", Value: data.HeaderAuto, Usage: "user edge lists: a header line — auto (a first line with no number is one when the file bears it out: integer node columns on the next line, a column of numbers under a word, or column names that name no node; a first line of two integers is a count line when they match the file's counts), yes or no"},
		&cli.StringFlag{Name: "columns", Usage: "user edge lists: the source and target columns, by header name (src,dst) or 0-based position (0,1); default the first two"},
		dataDirFlag(),
		&cli.StringFlag{Name: "task", Value: string(d.Task), Usage: "link (link prediction) or pair (pairwise node classification)"},
		&cli.StringFlag{Name: "model", Value: d.Model, Usage: "architecture: " + modelNames() + " (ignn models describes them)"},
		&cli.StringFlag{Name: "variant", Value: string(d.Variant), Usage: "base, hash, mse or both"},
		&cli.StringFlag{Name: "position", Value: "hash", Usage: "positional input of the hash and both variants: hash (the paper's), lap:K (Laplacian eigenvectors), rw:K (random-walk return probabilities) or landmark:L (1/(1+d) to L seeded landmarks)"},
		&cli.BoolFlag{Name: "position-skip", Usage: "add a linear map of the positional input to the embedding before normalising (a skip path; the models whose 'skip path' ignn models says yes)"},
		&cli.IntFlag{Name: "hash-dim", Value: d.HashDim, Usage: "hash vector dimension n (-1 = the paper's rule: input feature dimension, 32 for featureless graphs)"},
		&cli.Float64Flag{Name: "lambda-bce", Value: d.LambdaBCE, Usage: "weight of the task BCE term"},
		&cli.Float64Flag{Name: "lambda-mse", Value: d.LambdaMSE, Usage: "weight of the distance MSE term, used by mse and both (-1 = the model's default: 10, P-GNN 1)"},
		&cli.Float64Flag{Name: "alpha", Value: d.Alpha, Usage: "distance transform exponent: target 1 − 1/d^α"},
		&cli.IntFlag{Name: "epochs", Value: d.Epochs, Usage: fmt.Sprintf("training epochs: under the paper's scheme one whole-graph step each; under --scale large (auto for every graph but the paper's three datasets) --batch-steps mini-batch steps each (default 10 epochs × 50 steps), so --epochs 100 there is 5000 steps; train states the total before it starts")},
		&cli.Float64Flag{Name: "lr", Value: d.LR, Usage: "Adam learning rate"},
		&cli.Float64Flag{Name: "weight-decay", Value: d.WeightDec, Usage: "Adam L2 weight decay"},
		&cli.Float64Flag{Name: "dropout", Value: d.ModelConfig.Dropout, Usage: "dropout between layers"},
		&cli.IntFlag{Name: "hidden", Value: d.ModelConfig.Hidden, Usage: "hidden and embedding width"},
		&cli.IntFlag{Name: "layers", Value: 0, Usage: "message-passing layers (0 = the model's default, which ignn models lists)"},
	}
	flags = append(flags, modelFlags()...)
	flags = append(flags, batchFlags()...)
	return append(flags, []cli.Flag{
		&cli.IntFlag{Name: "eval-every", Value: d.EvalEvery, Usage: "evaluate every K epochs (the large-graph defaults: 2, and 5 from 5·10⁷ nodes)"},
		&cli.Uint64Flag{Name: "seed", Value: d.Seed, Usage: "random seed (split, negatives, init, dropout)"},
		&cli.StringFlag{Name: "dtype", Value: string(d.DType), Usage: "float32 or float64"},
		&cli.IntFlag{Name: "mse-pairs", Value: d.MSEPairs, Usage: "max MSE pairs per epoch (all intra-graph pairs when they fit)"},
		&cli.StringFlag{Name: "distances", Value: string(d.Distances), Usage: "distance source: exact (all-pairs tables), sampled (BFS rows from seeded sources; for large graphs), or auto (exact while Σ n² ≤ 2.5·10⁷)"},
		&cli.IntFlag{Name: "mse-sources", Value: d.MSESources, Usage: "sampled distances: BFS sources drawn per epoch for the MSE pairs"},
		&cli.StringFlag{Name: "mse-sampling", Value: "uniform", Usage: "sampled distances: each source's MSE targets uniform over its graph (an unbiased sample of the all-pairs MSE), or stratified: equally many per hop distance"},
		&cli.StringFlag{Name: "distance-loss", Value: "mse", Usage: "the distance term of mse and both: mse (the paper's: (1 − cos)/2 towards 1 − 1/d^α) or rank (a logistic ranking loss on triples i, j, k with d(i, j) < d(i, k): orders cosines by distance, far pairs included, with no target to match; weighted by --lambda-mse)"},
		&cli.Float64Flag{Name: "rank-temp", Value: 0, Usage: fmt.Sprintf("--distance-loss rank: temperature T of softplus((cos_ik − cos_ij)/T) (0 = %g)", run.DefaultRankTemp)},
		&cli.IntFlag{Name: "rank-triples", Value: 0, Usage: fmt.Sprintf("--distance-loss rank: triples drawn per epoch, or per step with --batch-size (0 = %d; with --batch-size, the batch size)", run.DefaultRankTriples)},
		&cli.BoolFlag{Name: "rank-pairs", Usage: "--distance-loss rank: each triple compares two pairs, d(i, j) < d(a, k) with two anchors drawn apart — a global order over pairs, which is what Kendall's τ scores — instead of two nodes' distances to one anchor (a large-graph default)"},
		&cli.BoolFlag{Name: "rank-fixed-sources", Usage: "--distance-loss rank on sampled distances: draw the --mse-sources BFS sources once for the run instead of every epoch (each epoch's BFS over the whole graph is what makes a large graph's epoch cost grow with N); the large-graph default from 5·10⁷ nodes"},
		&cli.IntFlag{Name: "tau-sources", Value: d.TauSources, Usage: "sampled distances: BFS sources of the fixed τ sample (more sources, a narrower test_kendall_tau_ci; the large-graph defaults take 128 from 5·10⁷ nodes)"},
		&cli.IntFlag{Name: "tau-pairs", Value: d.TauPairs, Usage: "sampled distances: pairs in the fixed τ sample"},
		&cli.IntFlag{Name: "patience", Value: 0, Usage: "stop after this many evaluations without a better validation AUC (0 = train every epoch, the paper's protocol)"},
		&cli.StringFlag{Name: "max-memory", Value: "auto", Usage: "refuse runs whose memory plan exceeds this (e.g. 8G; auto = 75% of physical memory); also the garbage collector's soft limit"},
		&cli.StringFlag{Name: "spill", Value: run.SpillAuto, Usage: "a directory for the large run's arrays that need not stay in memory (the landmark input's hop counts, the ranking sources' BFS rows, the evaluation embeddings, the τ faithfulness queries' BFS rows): kept in unlinked files read back by pread, the same numbers; auto = the temporary directory ($TMPDIR or /tmp, not a tmpfs), only when the run would not fit --max-memory otherwise; off = never"},
	}...)
}

// modelFlags are the flags of the options models register
// (models.Entry.Options): a model with its own setting needs no change here.
func modelFlags() []cli.Flag {
	var flags []cli.Flag
	for _, o := range models.Options() {
		switch v := o.Default.(type) {
		case int:
			flags = append(flags, &cli.IntFlag{Name: o.Flag, Value: v, Usage: o.Usage})
		case float64:
			flags = append(flags, &cli.Float64Flag{Name: o.Flag, Value: v, Usage: o.Usage})
		case string:
			flags = append(flags, &cli.StringFlag{Name: o.Flag, Value: v, Usage: o.Usage})
		case bool:
			flags = append(flags, &cli.BoolFlag{Name: o.Flag, Usage: o.Usage})
		default:
			panic(fmt.Sprintf("ignn: model option --%s has a default of type %T", o.Flag, o.Default))
		}
	}
	return flags
}

// setModelOptions stores every model option's flag value in mc, checked
// against what the option accepts; train refuses another model's option.
func setModelOptions(c *cli.Context, mc *models.Config) error {
	if hasFlag(c, "model") { // train and prepare; compare checks its --models
		if err := checkModelOptions(c, []string{c.String("model")}); err != nil {
			return err
		}
	}
	for _, o := range models.Options() {
		var v any
		switch o.Default.(type) {
		case int:
			v = c.Int(o.Flag)
		case float64:
			v = c.Float64(o.Flag)
		case string:
			v = c.String(o.Flag)
		case bool:
			v = c.Bool(o.Flag)
		}
		if err := o.Apply(mc, v); err != nil {
			return usagef("%v", err)
		}
	}
	return nil
}

// configFrom binds the shared flags.
func configFrom(c *cli.Context) (run.Config, error) {
	cfg := run.Default()
	cfg.Dataset = c.String("dataset")
	cfg.DataDir = c.String("data-dir")
	cfg.Labels = c.String("labels")
	cfg.Features = c.String("features")
	cfg.GraphIndex = c.String("graph-index")
	if h := c.String("header"); h != data.HeaderAuto {
		cfg.Header = h // auto stays implicit, so existing configurations are unchanged
	}
	cfg.Columns = c.String("columns")
	if err := (data.EdgeListOptions{Header: cfg.Header, Columns: cfg.Columns}).Check(); err != nil {
		return cfg, usageError{err}
	}
	var err error
	if cfg.Task, err = data.ParseTask(c.String("task")); err != nil {
		return cfg, usagef("--task: %v", err)
	}
	if hasFlag(c, "model") { // compare and sweep set these per cell
		cfg.Model = c.String("model")
		cfg.Variant = run.Variant(c.String("variant"))
		cfg.Seed = c.Uint64("seed")
	}
	if hasFlag(c, "position") { // compare sets it per cell (--positions)
		pos, err := positions("position", c.String("position"))
		switch {
		case err != nil:
			return cfg, err
		case len(pos) > 1:
			return cfg, usagef("--position takes one positional input (compare and sweep take a list with --positions), got %q", c.String("position"))
		case len(pos) == 1:
			cfg.Position = pos[0]
		}
	}
	cfg.PositionSkip = c.Bool("position-skip")
	cfg.HashDim = c.Int("hash-dim")
	cfg.LambdaBCE = c.Float64("lambda-bce")
	cfg.LambdaMSE = c.Float64("lambda-mse")
	cfg.Alpha = c.Float64("alpha")
	cfg.Epochs = c.Int("epochs")
	cfg.LR = c.Float64("lr")
	cfg.WeightDec = c.Float64("weight-decay")
	cfg.EvalEvery = c.Int("eval-every")
	if cfg.DType, err = run.ParseDType(c.String("dtype")); err != nil {
		return cfg, usagef("--dtype: %v", err)
	}
	cfg.MSEPairs = c.Int("mse-pairs")
	if cfg.Distances, err = run.ParseDistanceSource(c.String("distances")); err != nil {
		return cfg, usagef("%v", err)
	}
	cfg.MSESources = c.Int("mse-sources")
	if s := c.String("mse-sampling"); s != "" {
		if cfg.MSESampling, err = run.ParseMSESampling(s); err != nil {
			return cfg, usagef("%v", err)
		}
	}
	dl, err := objective.ParseDistanceLoss(c.String("distance-loss"))
	if err != nil {
		return cfg, usagef("%v", err)
	}
	cfg.DistanceLoss, cfg.RankTemp, cfg.RankTriples = dl, c.Float64("rank-temp"), c.Int("rank-triples")
	cfg.RankPairs = c.Bool("rank-pairs")
	cfg.RankFixedSources = c.Bool("rank-fixed-sources")
	cfg.TauSources = c.Int("tau-sources")
	cfg.TauPairs = c.Int("tau-pairs")
	cfg.Patience = c.Int("patience")
	if err := setBatch(c, &cfg); err != nil {
		return cfg, err
	}
	local, err := localFrom(c)
	if err != nil {
		return cfg, err
	}
	cfg.MaxMemory, cfg.Spill = local.MaxMemory, local.Spill
	cfg.ModelConfig.Dropout = c.Float64("dropout")
	cfg.ModelConfig.Hidden = c.Int("hidden")
	cfg.ModelConfig.Out = c.Int("hidden")
	if err := setModelOptions(c, &cfg.ModelConfig); err != nil {
		return cfg, err
	}
	cfg.ModelConfig.Layers = c.Int("layers")
	if c.Args().Len() > 0 {
		return cfg, usagef("unexpected argument %q", c.Args().First())
	}
	if err := cfg.Validate(); err != nil {
		return cfg, usageError{err}
	}
	return cfg, nil
}

// checkWritableDir creates dir if needed and proves a file can be written.
func checkWritableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".ignn-write-test*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// f3 and f4 write a metric with 3 or 4 decimals, "undefined" for NaN.
func f3(n run.Num) string { return fnum(n, 3) }
func f4(n run.Num) string { return fnum(n, 4) }

func fnum(n run.Num, decimals int) string {
	if math.IsNaN(float64(n)) {
		return "undefined"
	}
	return strings.TrimSpace(strconv.FormatFloat(float64(n), 'f', decimals, 64))
}

// localFrom reads the flags that belong to the machine a run is on, not
// to its configuration (a resumed run takes them too): --max-memory, also
// the garbage collector's soft limit, and --spill.
func localFrom(c *cli.Context) (run.Local, error) {
	mm, err := run.ParseBytes(c.String("max-memory"))
	if err != nil {
		return run.Local{}, usagef("--max-memory %q: %v", c.String("max-memory"), err)
	}
	l := run.Local{MaxMemory: mm, Spill: c.String("spill")}
	switch l.Spill {
	case "off":
		l.Spill = ""
	case "":
		return l, usagef("--spill: want a directory, auto or off")
	}
	debug.SetMemoryLimit(mm)
	return l, nil
}
