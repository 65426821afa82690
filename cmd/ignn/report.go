package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/grid"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/eval"
)

func plotCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name: "plot", Usage: "draw AUC vs τ (base → both) and, for sweeps, τ vs λ_MSE, as PNG and SVG (--distance: cosine by hop distance; --curves: training curves)",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "results", Required: true, Usage: "a directory written by ignn compare --out"},
			&cli.StringFlag{Name: "out", Usage: "output directory (default: the results directory)"},
			&cli.BoolFlag{Name: "distance", Usage: "draw cosine against hop distance instead: a box per distance, base beside both, one panel per model"},
			&cli.BoolFlag{Name: "curves", Usage: "draw the training curves instead: τ and validation AUC against epoch, base beside both, one panel per model (mean over seeds)"},
		},
		Action: func(c *cli.Context) error {
			dir := c.String("results")
			cmp, err := grid.LoadComparison(dir)
			if err != nil {
				return err
			}
			out := c.String("out")
			if out == "" {
				out = dir
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			if c.Bool("curves") {
				f, err := grid.PlotCurves(dir, cmp, fmt.Sprintf("%s, %s task", cmp.Dataset, cmp.Task), out+string(os.PathSeparator))
				if err != nil {
					return err
				}
				fmt.Fprintln(stdout, "wrote", f, "(and .svg)")
				return nil
			}
			if c.Bool("distance") {
				f, err := grid.PlotDistance(cmp, fmt.Sprintf("%s, %s task", cmp.Dataset, cmp.Task), out+string(os.PathSeparator))
				if err != nil {
					return err
				}
				fmt.Fprintln(stdout, "wrote", f, "(and .svg)")
				return nil
			}
			files, err := grid.Plot(cmp, fmt.Sprintf("%s, %s task", cmp.Dataset, cmp.Task), out+string(os.PathSeparator))
			if err != nil {
				return err
			}
			if len(files) == 0 {
				return fmt.Errorf("nothing to plot: the results in %s have no model with both a base and a both variant (the AUC-vs-τ plot draws base → both), and no λ sweep", dir)
			}
			for _, f := range files {
				fmt.Fprintln(stdout, "wrote", f, "(and .svg)")
			}
			return nil
		},
	}
}

func reportCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name: "report", Usage: "write docs/results.md and plots from the reproduce run's comparisons",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "results", Required: true, Usage: "directory holding one compare output per dataset-task"},
			&cli.StringFlag{Name: "out", Value: "docs", Usage: "where results.md and plots/ go"},
			&cli.StringFlag{Name: "command", Value: "make reproduce", Usage: "the command line to cite"},
			&cli.BoolFlag{Name: "selection", Usage: "the results come from the paper's selection protocol (make reproduce-paper): say so, and show each row's chosen lr and λ_MSE"},
			&cli.StringFlag{Name: "sweep", Usage: "a directory written by ignn sweep, for the τ-vs-λ figure"},
			&cli.StringFlag{Name: "rules", Usage: "a directory with one subdirectory per selection rule (auc, objective, auc-then-objective), each laid out like --results: adds the per-rule table of the τ claim"},
		},
		Action: func(c *cli.Context) error {
			root := c.String("results")
			entries, err := os.ReadDir(root)
			if err != nil {
				return err
			}
			order := []string{"communities-link", "communities-pair", "email-link", "email-pair", "protein-link"}
			rank := func(n string) int {
				for i, o := range order {
					if o == n {
						return i
					}
				}
				return len(order)
			}
			var secs []grid.ReportSection
			for _, e := range entries {
				if !e.IsDir() {
					continue
				}
				cmp, err := grid.LoadComparison(filepath.Join(root, e.Name()))
				if err != nil {
					continue
				}
				secs = append(secs, grid.ReportSection{Name: e.Name(), C: cmp})
			}
			if len(secs) == 0 {
				return fmt.Errorf("%s: no comparison results found", root)
			}
			sort.Slice(secs, func(a, b int) bool { return rank(secs[a].Name) < rank(secs[b].Name) })
			out := c.String("out")
			plots := filepath.Join(out, "plots")
			if err := os.MkdirAll(plots, 0o755); err != nil {
				return err
			}
			for _, s := range secs {
				if _, err := grid.Plot(s.C, strings.Replace(s.Name, "-", ", ", 1)+" task", filepath.Join(plots, s.Name+"-")); err != nil {
					return err
				}
			}
			wall := 0
			if b, err := os.ReadFile(filepath.Join(root, "wall_seconds")); err == nil {
				wall, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			}
			md := grid.Report(secs, wall, c.String("command"), "plots", c.Bool("selection"))
			if sw := c.String("sweep"); sw != "" {
				cmp, err := grid.LoadComparison(sw)
				if err != nil {
					return err
				}
				name := "sweep-" + cmp.Dataset + "-" + string(cmp.Task)
				files, err := grid.Plot(cmp, cmp.Dataset+", "+string(cmp.Task)+" task", filepath.Join(plots, name+"-"))
				if err != nil {
					return err
				}
				md += grid.SweepSection(cmp, sw, "plots/"+name+"-tau-lambda.png", len(files) > 1)
			}
			if rd := c.String("rules"); rd != "" {
				var rules []grid.RuleSections
				for _, r := range eval.SelectRules {
					var rs grid.RuleSections
					rs.Rule = r
					for _, name := range order {
						if cmp, err := grid.LoadComparison(filepath.Join(rd, string(r), name)); err == nil {
							rs.Sections = append(rs.Sections, grid.ReportSection{Name: name, C: cmp})
						}
					}
					if len(rs.Sections) > 0 {
						rules = append(rules, rs)
					}
				}
				if len(rules) == 0 {
					return fmt.Errorf("--rules %s: no rule's comparisons found (want %s/RULE/DATASET-TASK/results.json)", rd, rd)
				}
				md += "\n" + grid.RulesSection(rules)
			}
			// Hand-written sections below KeepMarker survive a regeneration.
			if old, err := os.ReadFile(filepath.Join(out, "results.md")); err == nil {
				if i := strings.Index(string(old), grid.KeepMarker); i >= 0 {
					md += "\n" + string(old[i:])
				}
			}
			if err := data.WriteFileAtomic(filepath.Join(out, "results.md"), []byte(md)); err != nil {
				return err
			}
			fmt.Fprintln(stdout, "wrote", filepath.Join(out, "results.md"))
			return nil
		},
	}
}
