package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/grid"
	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/cmd/internal/slurm"
	"github.com/ignn/ignn/data"
)

// prepareFlags are prepare's own flags; every other flag is train's and
// describes the run whose BFS stages it computes.
var prepareFlags = []string{"out", "shard", "shards", "slurm", "wait", "slurm-arg"}

func prepareCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name:  "prepare",
		Usage: "compute a run's whole-graph BFS stages (landmark hop counts, the fixed τ sample) as parts, e.g. Slurm array tasks; then ignn train … --prepared DIR",
		Description: "With the flags of the train run it prepares (same --dataset, --seed, --task, --position, τ sample), " +
			"ignn prepare --out DIR --shard I/N computes part I of N of the run's landmark BFS and τ-sample BFS into DIR/bfs.shard-I-of-N.npz; " +
			"--slurm --shards N writes DIR/prepare.sbatch, an array job of N such tasks, and submits it. " +
			"ignn train with the same flags and --prepared DIR then reads the parts instead of running those BFS: the same numbers, bit for bit. " +
			"Only runs with sampled distances (large graphs) have BFS stages.",
		OnUsageError: onUsageError,
		Flags: append(runFlags(),
			&cli.StringFlag{Name: "out", Required: true, Usage: "folder of the parts (a shared directory for array tasks)"},
			&cli.StringFlag{Name: "shard", Usage: "I/N: compute part I of N; auto: I and N from SLURM_ARRAY_TASK_ID/COUNT (or JOB_COMPLETION_INDEX with --shards)"},
			&cli.IntFlag{Name: "shards", Usage: "the number of parts, for --slurm (default 4) and --shard auto outside Slurm arrays"},
			&cli.BoolFlag{Name: "slurm", Usage: "compute the parts as a Slurm array job of --shards tasks (script OUT/prepare.sbatch, logs in OUT/logs/)"},
			&cli.BoolFlag{Name: "wait", Usage: "with --slurm: wait for the job and check its parts"},
			&cli.StringSliceFlag{Name: "slurm-arg", Usage: "with --slurm: an extra #SBATCH line (repeatable), e.g. --slurm-arg=--partition=big"},
		),
		Action: func(c *cli.Context) error {
			if (c.String("shard") == "") == !c.Bool("slurm") {
				return usagef("give --shard I/N (one part) or --slurm (an array job of --shards parts)")
			}
			cfg, err := configFrom(c)
			if err != nil {
				return err
			}
			ds, err := run.LoadDataset(cfg)
			if err != nil {
				return err
			}
			if cfg, err = cfg.Resolve(ds); err != nil {
				return err
			}
			ds = run.UseFeatures(ds, cfg)
			dir := c.String("out")
			if c.Bool("slurm") {
				return submitPrepare(c, stdout, cfg, ds, dir)
			}
			sh, err := grid.ParseShard(c.String("shard"), c.Int("shards"))
			if err != nil {
				return usagef("%v", err)
			}
			path, what, err := run.PrepareStagePart(ds, cfg, dir, sh.I, sh.N)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "wrote part %d of %d: %s to %s\n", sh.I, sh.N, what, path)
			return nil
		},
	}
}

// trainArgs are the train flags set on c, as arguments that give the same
// configuration (the array tasks' and the train command's).
func trainArgs(c *cli.Context) []string {
	var args []string
	for _, f := range runFlags() {
		name := f.Names()[0]
		if !c.IsSet(name) || slices.Contains(prepareFlags, name) {
			continue
		}
		args = append(args, fmt.Sprintf("--%s=%v", name, c.Value(name)))
	}
	return args
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// prepareScript is DIR/prepare.sbatch: an array job of one task per part.
func prepareScript(bin, dir string, args []string, shards int, memMB int64, extra []string) string {
	exec := shellQuote(bin) + " prepare"
	for _, a := range args {
		exec += " " + shellQuote(a)
	}
	exec += " --out " + shellQuote(dir) + " --shard auto"
	return slurm.ArrayJob{Command: "prepare", Does: "compute the BFS stage parts in " + dir, Name: "ignn-prepare", Tasks: shards, CPUs: 2, MemMB: memMB,
		Logs: dir + "/logs", Extra: extra, Exec: exec}.Script()
}

// submitPrepare writes DIR/prepare.sbatch and submits it; with --wait it
// checks the parts when the job ends.
func submitPrepare(c *cli.Context, stdout io.Writer, cfg run.Config, ds *data.Dataset, out string) error {
	shards, bin, err := arrayTasks(c)
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o755); err != nil {
		return err
	}
	args := trainArgs(c)
	memMB := (run.PlanStagePart(cfg, ds, shards) + 256<<20) >> 20
	script := filepath.Join(dir, "prepare.sbatch")
	if err := data.WriteFileAtomic(script, []byte(prepareScript(bin, dir, args, shards, memMB, c.StringSlice("slurm-arg")))); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%d array tasks, 2 CPUs and %d MB each)\n", script, shards, memMB)
	id, err := slurm.Submit(script, c.Bool("wait"))
	if err != nil {
		return err
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a)
	}
	train := fmt.Sprintf("ignn train %s --prepared %s", strings.Join(quoted, " "), shellQuote(dir))
	if !c.Bool("wait") {
		fmt.Fprintf(stdout, "submitted job %s; logs in %s/logs; when it ends: %s\n", id, dir, train)
		return nil
	}
	if err := run.CheckStages(ds, cfg, dir); err != nil {
		return fmt.Errorf("%w (logs in %s/logs)", err, dir)
	}
	fmt.Fprintf(stdout, "job %s ended; its %d parts are complete. Train on them: %s\n", id, shards, train)
	return nil
}
