package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/grid"
	"github.com/ignn/ignn/cmd/internal/report"
	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/models"
)

func compareCommand(stdout, stderr io.Writer, sweep bool) *cli.Command {
	name, usage := "compare", "run models × variants × seeds and print the paper-style table"
	if sweep {
		name, usage = "sweep", "compare with the paper's selection protocol: lr ∈ {1e-4,1e-3,1e-2}, λ ∈ {0,0.1,1,10}², chosen by validation AUC"
	}
	return &cli.Command{
		Name: name, Usage: usage, OnUsageError: onUsageError,
		Flags: append(gridFlags(), compareFlags()...),
		Action: func(c *cli.Context) error {
			cc, format, err := compareConfigFrom(c, sweep)
			if err != nil {
				return err
			}
			if c.Bool("slurm") {
				if err := submitSlurm(c, cc, stdout); err != nil || !c.Bool("wait") || c.Bool("dry-run") {
					return err
				}
				cc.Out, _ = filepath.Abs(cc.Out) // the job has ended: build the table below
			} else if c.Bool("dry-run") {
				return dryRun(stdout, c, cc)
			}
			if c.Bool("status") {
				return printStatus(stdout, cc)
			}
			quiet := c.Bool("quiet")
			if cc.Out != "" {
				if c.Bool("fresh") {
					if err := grid.Fresh(cc.Out); err != nil {
						return err
					}
				}
			}
			var bar *progress
			warnings := newWarnings(stderr, "warning") // once per compare, not once per cell
			notes := newWarnings(stderr, "note")
			var work float64 // the cells to run, weighed for the ETA
			hooks := grid.CompareHooks{
				Todo: func(jobs []grid.Job) {
					for _, j := range jobs {
						work += cc.ETACost(j)
					}
				},
				Start: func(total, done int) {
					if quiet {
						return
					}
					if done > 0 {
						fmt.Fprintf(stderr, "resuming: %d of %d cells already done in %s\n", done, total, cc.Out)
					}
					bar = newProgress(stderr, "cells", total, done)
					bar.weigh(work)
				},
				Done: func(j grid.Job, r *run.Result) {
					if bar != nil {
						bar.add(1, cc.ETACost(j))
					}
				},
				Note: func(j grid.Job, msg string) { // the graph's, the same in every cell: once
					if !quiet {
						notes.print(msg, "", nil)
					}
				},
				Warn: func(j grid.Job, msg string) { // kept under --quiet
					warnings.print(msg, fmt.Sprintf(" (from cell %s; printed once per compare)", j.Key()), func() {
						if bar.live() { // off the bar's line
							fmt.Fprintln(stderr)
						}
					})
				},
			}
			res, err := grid.Compare(c.Context, cc, hooks)
			if bar != nil {
				bar.finish()
			}
			if err != nil {
				return err
			}
			// Machine formats (json, csv) keep stdout to the format alone: the
			// heading (its facts are fields of the JSON: dataset, task, epochs,
			// repeats), shard status and failures go to stderr.
			text := stdout
			if format == "json" || format == "csv" {
				text = stderr
			}
			if cc.Shard.N > 0 {
				fmt.Fprintf(text, "shard %d/%d: %d of its %d cells finished in %s/cells; when every shard is done, the same compare without --shard prints the table\n",
					cc.Shard.I, cc.Shard.N, res.ShardDone, res.ShardCells, cc.Out)
				for _, f := range res.Failures {
					fmt.Fprintf(text, "FAILED %s: %s\n", f.Job.Key(), f.Error)
				}
				return nil
			}
			fmt.Fprintln(text, res.Heading(fmt.Sprintf("seeds 1..%d (τ = Kendall τ-b; * = best τ per model)", cc.Repeats)))
			if err := printTable(stdout, res, format); err != nil {
				return err
			}
			if format == "table" || format == "markdown" {
				fmt.Fprintf(stdout, "\n%s\n%s\n", report.Legend, res.Provenance.Footer())
			}
			if notes := res.NotesText(); notes != "" { // in the JSON's "notes" too
				fmt.Fprint(text, "\n"+strings.TrimSuffix(notes, "\n"))
			}
			for _, f := range res.Failures {
				fmt.Fprintf(text, "FAILED %s: %s\n", f.Job.Key(), f.Error)
			}
			if cc.Out != "" {
				if err := res.Write(cc.Out); err != nil {
					return err
				}
				files := "results.json,results.csv,results.md,config.json"
				if !cc.InputsOnly { // a grid file names cells to train: none here
					if err := saveGrid(c, cc); err != nil {
						return err
					}
					files += ",grid.yaml"
				}
				if !quiet {
					fmt.Fprintf(stderr, "wrote %s/{%s} and %d cell files in %s/cells\n", cc.Out, files, len(res.Cells), cc.Out)
				}
			}
			if cc.Out == "" && !quiet {
				fmt.Fprintln(stderr, "note: no --out, so nothing was kept: the same command with --out DIR keeps the table and every cell (it resumes when run again; ignn plot --results DIR draws them)")
			}
			if n := len(res.Failures); n > 0 {
				return fmt.Errorf("%d of %d cells failed (listed above); the rest are in the table — fix the cause and rerun with --retry-failed", n, n+len(res.Cells))
			}
			return nil
		},
	}
}

func printTable(w io.Writer, res *grid.Comparison, format string) error {
	switch format {
	case "table":
		_, err := io.WriteString(w, report.Text(res.TableRows()))
		return err
	case "markdown":
		_, err := io.WriteString(w, report.Markdown(res.TableRows()))
		return err
	case "csv":
		_, err := io.WriteString(w, report.CSV(res.TableRows()))
		return err
	case "json":
		e := json.NewEncoder(w)
		e.SetIndent("", "  ")
		return e.Encode(res)
	}
	return usagef("unknown format %q (valid: table, markdown, csv, json)", format)
}

func compareConfigFrom(c *cli.Context, sweep bool) (grid.CompareConfig, string, error) {
	var grids []grid.SubGrid
	if path := c.String("grid"); path != "" {
		var err error
		if grids, err = applyGrid(c, path); err != nil {
			return grid.CompareConfig{}, "", err
		}
	}
	// Validate the shared flags against the first model.
	base, err := configFrom(c)
	if err != nil {
		return grid.CompareConfig{}, "", err
	}
	cc := grid.CompareConfig{Base: base, Models: splitList(c.String("models")),
		Repeats: c.Int("repeats"), Workers: capWorkers(c.Int("workers"), func(s string) { fmt.Fprintln(c.App.ErrWriter, s) }), Out: c.String("out"), Sweep: sweep || c.Bool("sweep"),
		RetryFailed: c.Bool("retry-failed"), Select: base.Select, InputsOnly: c.Bool("inputs-only")}
	// The graph's node count, read once (a user's edge list is loaded for it).
	var nodes struct {
		n   int
		err error
		ok  bool
	}
	graphNodes := func() (int, error) {
		if !nodes.ok {
			nodes.n, nodes.err = run.DatasetNodes(base)
			nodes.ok = true
		}
		return nodes.n, nodes.err
	}
	cc.Capacity = c.Bool("capacity") && !cc.Sweep && !cc.InputsOnly
	cc.Heuristics = c.Bool("heuristics") && !cc.Sweep
	if cc.Capacity && !c.IsSet("capacity") {
		if n, err := graphNodes(); err == nil && n > run.CapacityFullNodes {
			cc.Capacity = false
			t, f := grid.CapacityTriples, run.CapacityFullNodes
			fmt.Fprintf(c.App.ErrWriter, "note: no (capacity) row on a graph of %d nodes (above %d): a free table trained for %d steps of at most %d ranking triples is far from its capacity there (%.2f triples a node a step, where %d nodes get %.1f); --capacity forces it\n", n, f, grid.CapacityEpochs, t, float64(t)/float64(n), f, float64(t)/float64(f))
		}
	}
	cc.Base.Select = "" // applied to the cells' histories, not part of a cell
	for _, v := range splitList(c.String("variants")) {
		cc.Variants = append(cc.Variants, run.Variant(v))
	}
	if cc.Positions, err = positions("positions", c.String("positions")); err != nil {
		return cc, "", err
	}
	if cc.InputsOnly && (c.String("shard") != "" || c.Bool("slurm") || c.Bool("sweep") || sweep) {
		return cc, "", usagef("--inputs-only trains nothing, so there is nothing to shard, submit or sweep: run it alone")
	}
	if sh := c.String("shard"); sh != "" {
		if cc.Out == "" {
			return cc, "", usagef("--shard needs --out (a directory every shard shares)")
		}
		if cc.Shard, err = grid.ParseShard(sh, c.Int("shards")); err != nil {
			return cc, "", usageError{err}
		}
	}
	if len(grids) > 0 {
		cc.Grids, cc.Models, cc.Variants, cc.Repeats = grids, nil, nil, 0
		for _, g := range grids {
			cc.Models, cc.Variants = append(cc.Models, g.Models...), append(cc.Variants, g.Variants...)
			cc.Repeats = max(cc.Repeats, g.Repeats)
		}
	}
	format := c.String("format")
	switch {
	case len(cc.Models) == 0:
		return cc, "", usagef("--models is empty")
	case len(cc.Variants) == 0:
		return cc, "", usagef("--variants is empty")
	case cc.Repeats < 1:
		return cc, "", usagef("--repeats must be ≥ 1, got %d", cc.Repeats)
	case cc.Workers < 1:
		return cc, "", usagef("--workers must be ≥ 1, got %d", cc.Workers)
	case format != "table" && format != "markdown" && format != "csv" && format != "json":
		return cc, "", usagef("unknown format %q (valid: table, markdown, csv, json)", format)
	}
	for _, m := range cc.Models {
		if _, err := models.Lookup(m); err != nil {
			return cc, "", usageError{err}
		}
	}
	if err := checkModelOptions(c, cc.Models); err != nil {
		return cc, "", err
	}
	for _, v := range cc.Variants {
		cfg := base
		cfg.Variant = v
		if err := cfg.Validate(); err != nil {
			return cc, "", usageError{err}
		}
	}
	if cc.Out != "" {
		if err := os.MkdirAll(cc.Out, 0o755); err != nil {
			return cc, "", usagef("--out %s is not writable: %v", cc.Out, err)
		}
		probe := filepath.Join(cc.Out, ".ignn-write-test")
		if err := os.WriteFile(probe, nil, 0o644); err != nil {
			return cc, "", usagef("--out %s is not writable: %v", cc.Out, err)
		}
		os.Remove(probe)
	}
	if c.Bool("ablation") && !cc.Sweep && !cc.InputsOnly {
		n, err := graphNodes()
		if err != nil {
			return cc, "", err
		}
		names, variants := cc.Models, cc.Variants
		for _, g := range cc.Grids { // a grid file: every block's
			names, variants = append(names, g.Models...), append(variants, g.Variants...)
		}
		cc.Ablation = grid.AblationFor(base, names, variants, n)
		if cc.Ablation != "" {
			cc.AblationSketch = run.RecipeSketch(base, n)
		}
		// Said when asked for, or when only the models stand in the way.
		if why := grid.NoAblation(base, names, variants, n); why != "" && (c.IsSet("ablation") || slices.Contains(variants, run.Both) && run.RecipeSkip(base, n)) {
			fmt.Fprintf(c.App.ErrWriter, "note: no %s row: %s\n", grid.AblationRow, why)
		}
	}
	if cc.Capacity { // once: listing, sharding and running the grid all read it
		o, err := cc.CapacityObjective()
		if err != nil {
			return cc, "", err
		}
		cc.Objective = &o
	}
	return cc, format, nil
}

func printStatus(w io.Writer, cc grid.CompareConfig) error {
	st, err := cc.Status()
	if err != nil {
		return usageError{err}
	}
	count := map[string]int{}
	for _, s := range st {
		count[s.State]++
		line := fmt.Sprintf("%-9s %s", s.State, s.Key)
		if s.Note != "" {
			line += "  (" + s.Note + ")"
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "%d cells: %d finished, %d corrupt, %d running, %d stale, %d failed, %d missing\n",
		len(st), count["finished"], count["corrupt"], count["running"], count["stale"], count["failed"], count["missing"])
	return nil
}
