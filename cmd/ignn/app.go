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

	"github.com/ignn/ignn/cmd/internal/memplan"
	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data"
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
	mm, err := memplan.ParseBytes(c.String("max-memory"))
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
