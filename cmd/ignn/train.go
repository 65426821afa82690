package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/memplan"
	"github.com/ignn/ignn/cmd/internal/run"
)

func trainCommand(stdout, stderr io.Writer) *cli.Command {
	return &cli.Command{
		Name:         "train",
		Usage:        "train one model variant and report AUC and Kendall τ",
		OnUsageError: onUsageError,
		Flags: append(runFlags(),
			&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object on stdout"},
			&cli.BoolFlag{Name: "plan", Usage: "print the run's memory plan — every part, when it is live (the whole run, preparation, training), the flag that lowers it — and exit without training; the graph is built to size it (with --json: one JSON object)"},
			&cli.StringFlag{Name: "save", Usage: "checkpoint directory, written atomically after every evaluation and on interrupt"},
			&cli.StringFlag{Name: "resume", Usage: "continue the run checkpointed in this directory (its saved configuration is used)"},
			&cli.StringFlag{Name: "prepared", Usage: "read the landmark and τ-sample BFS from the parts ignn prepare --out DIR wrote for this run (same flags) instead of running them: the same numbers"},
			&cli.BoolFlag{Name: "quiet", Usage: "no progress or notes on stderr (warnings stay)"},
			&cli.BoolFlag{Name: "verbose", Usage: "print the effective configuration (every default resolved) before training"},
			&cli.StringFlag{Name: "cpuprofile", Usage: "write a Go CPU profile of the run to this file (read it with go tool pprof)"},
			&cli.StringFlag{Name: "memprofile", Usage: "write a Go heap profile to this file after every evaluation, while the model and its buffers are live (go tool pprof)"},
		),
		Action: func(c *cli.Context) error {
			var cfg run.Config
			var err error
			resume := c.String("resume")
			if resume != "" {
				for _, f := range runFlags() {
					if n := f.Names()[0]; c.IsSet(n) && n != "data-dir" && n != "max-memory" && n != "spill" {
						return usagef("--resume uses the checkpoint's configuration; --%s cannot be combined with it", n)
					}
				}
				ck, err := run.LoadCheckpoint(resume)
				if err != nil {
					return err
				}
				cfg = ck.Config
			} else if cfg, err = configFrom(c); err != nil {
				return err
			}
			if s := c.String("save"); s != "" {
				if _, err := os.Stat(s); os.IsNotExist(err) {
					// A run that fails before its first checkpoint leaves no
					// empty folder behind.
					defer os.Remove(s) // removes only an empty directory
				}
				if err := checkWritableDir(s); err != nil {
					return usagef("--save %s is not writable: %v", s, err)
				}
				cfg.Save = s
			}
			cfg.Stages = c.String("prepared")
			// Warnings are kept under --quiet, which silences progress and notes.
			warnings := newWarnings(stderr, "warning")
			warn := func(msg string) { warnings.print(msg, "", nil) }
			stopProfile, err := startCPUProfile(c.String("cpuprofile"))
			if err != nil {
				return err
			}
			defer stopProfile()
			start := time.Now()
			epochs := cfg.Epochs // the resolved count, once known (--scale, --resume)
			var clock epochClock // times the epochs for the ETA
			evalEvery := cfg.EvalEvery
			firstEpoch := -1 // the first epoch this process trains (a resume starts later)
			runFn := func(h run.Hooks) (*run.Result, error) { return run.Run(c.Context, cfg, h) }
			if resume != "" {
				local, err := localFrom(c)
				if err != nil {
					return err
				}
				runFn = func(h run.Hooks) (*run.Result, error) { return run.ResumeOn(c.Context, resume, local, h) }
			}
			var maxMemory int64 // the resolved --max-memory
			var planErr error
			res, err := runFn(run.Hooks{
				Plan: func(p memplan.Plan, nodes, edges int) bool {
					if c.Bool("plan") {
						planErr = writePlan(stdout, p, maxMemory, nodes, edges, c.Bool("json"))
					}
					return c.Bool("plan")
				},
				Epoch: func(epoch int, loss float64, m *run.Metrics) {
					if m != nil && c.String("memprofile") != "" {
						if err := writeHeapProfile(c.String("memprofile")); err != nil {
							warn(fmt.Sprintf("heap profile not written: %v", err))
						}
					}
					first := firstEpoch < 0
					if first {
						firstEpoch = epoch
					}
					clock.tick(time.Now(), m != nil)
					if c.Bool("quiet") || (m == nil && !first) {
						return
					}
					// The ETA adds this process's steps and evaluations to come (setup left out).
					eta := "–"
					if left, ok := clock.eta(epoch, epochs, evalEvery); ok {
						eta = left.Round(100 * time.Millisecond).String()
					}
					if m == nil {
						fmt.Fprintf(stderr, "epoch %4d/%d  loss %.4f  (evaluated every %d epochs)  ETA %s\n",
							epoch, epochs, loss, evalEvery, eta)
						return
					}
					fmt.Fprintf(stderr, "epoch %4d/%d  loss %.4f  val AUC %s  test AUC %s  τ %s  ETA %s\n",
						epoch, epochs, loss, f4(m.ValAUC), f4(m.TestAUC), f4(m.TestKendallTau), eta)
				},
				Warn: warn,
				Note: func(msg string) {
					if !c.Bool("quiet") {
						fmt.Fprintf(stderr, "note: %s\n", msg)
					}
				},
				Stage: func(msg string) {
					if !c.Bool("quiet") {
						fmt.Fprintf(stderr, "[%6.1fs] %s\n", time.Since(start).Seconds(), msg)
					}
				},
				Start: func() { clock.start(time.Now()) },
				Resolved: func(eff run.Config) {
					epochs, evalEvery, maxMemory = eff.Epochs, eff.EvalEvery, eff.MaxMemory
					if eff.ScaleNote != "" && !c.Bool("quiet") {
						fmt.Fprintf(stderr, "note: %s\n", eff.ScaleNote)
					}
					if !c.Bool("quiet") {
						fmt.Fprintf(stderr, "training: %s\n", eff.Settings().Schedule())
					}
					if c.Bool("verbose") && !c.Bool("quiet") {
						b, _ := json.MarshalIndent(eff, "", "  ")
						fmt.Fprintf(stderr, "effective configuration:\n%s\n", b)
					}
				},
			})
			if errors.Is(err, run.ErrPlanOnly) {
				return planErr
			}
			if err != nil {
				return err
			}
			if cfg.Save != "" && !c.Bool("quiet") {
				fmt.Fprintf(stderr, "wrote %s\n", filepath.Join(cfg.Save, run.CheckpointFile))
			}
			if c.Bool("json") {
				enc := json.NewEncoder(stdout)
				return enc.Encode(res)
			}
			fmt.Fprintf(stdout, "%s %s %s %s seed %d: best epoch %d  val AUC %s  test AUC %s  Kendall τ %s  (final epoch %d: AUC %s, τ %s)  %.1f ms/epoch\n",
				res.Dataset, res.Task, res.Model, res.Variant, res.Seed, res.BestEpoch, f3(res.ValAUC), f3(res.TestAUC), f3(res.TestKendallTau),
				res.Final.Epoch, f3(res.Final.TestAUC), f3(res.Final.TestKendallTau), res.MsPerEpoch)
			if note := choicesNote(res); note != "" && !c.Bool("quiet") {
				fmt.Fprintln(stderr, note)
			}
			if res.BestEpoch == 0 && res.Final.Epoch > 0 && !c.Bool("quiet") {
				fmt.Fprintln(stderr, "note: the highest validation AUC came at epoch 0, after one training step; the best-epoch metrics describe a nearly untrained model — compare variants by the final epoch")
			}
			return nil
		},
	}
}

// choicesNote says what the final evaluation chose on the validation pairs
// (--sketch-share 0, --popularity auto), "" when nothing was chosen.
func choicesNote(res *run.Result) string {
	mc := res.Config.ModelConfig
	var parts []string
	if mc.Sketch > 0 && mc.SketchShare == 0 {
		parts = append(parts, fmt.Sprintf("the model's share beside the neighbourhood sketch %g (1: the sketch unused)", float64(res.Final.SketchShare)))
	}
	if mc.PopularityAuto {
		parts = append(parts, fmt.Sprintf("the popularity column's weight %g (0: the column unused)", float64(res.Final.Popularity)))
	}
	if len(parts) == 0 {
		return ""
	}
	return "note: chosen on the validation pairs at the final evaluation: " + strings.Join(parts, "; ")
}
