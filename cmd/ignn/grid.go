package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"

	"github.com/ignn/ignn/cmd/internal/grid"
	"github.com/ignn/ignn/cmd/internal/slurm"
	"github.com/ignn/ignn/data"
)

// gridFile is a comparison grid in YAML: settings shared by every cell (any
// train flag, without the dashes, except model, variant and seed), then one
// or more sub-grids whose cells are joined into one table.
//
//	settings:
//	  dataset: communities
//	  epochs: 100
//	grids:
//	  - models: [gcn, sage]
//	    variants: [base, both]
//	    repeats: 3
//	  - models: [gcn]
//	    variants: [both]
//	    repeats: 3
//	    lr: 0.001
type gridFile struct {
	Settings map[string]yaml.Node `yaml:"settings"`
	Grids    []grid.SubGrid       `yaml:"grids"`
}

// runControl are the compare flags that may accompany --grid: they steer
// the run, not the cells.
var runControl = map[string]bool{"grid": true, "out": true, "select": true, "workers": true, "format": true, "quiet": true,
	"fresh": true, "retry-failed": true, "dry-run": true, "data-dir": true, "max-memory": true, "spill": true,
	"shard": true, "shards": true, "status": true, "slurm": true, "slurm-arg": true, "wait": true, "capacity": true}

// applyGrid reads path and sets the command's flags from its settings;
// it returns the sub-grids. Flags that define cells may not be given
// beside --grid.
func applyGrid(c *cli.Context, path string) ([]grid.SubGrid, error) {
	for _, f := range c.Command.Flags {
		if n := f.Names()[0]; c.IsSet(n) && !runControl[n] {
			return nil, usagef("--%s cannot be combined with --grid: the grid file sets the cells (put it under settings)", n)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("--grid: %v", err)
	}
	var g gridFile
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&g); err != nil {
		return nil, usagef("--grid %s: %v", path, err)
	}
	if len(g.Grids) == 0 {
		return nil, usagef("--grid %s: no grids (want at least one block with models, variants and repeats)", path)
	}
	keys := make([]string, 0, len(g.Settings))
	for k := range g.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := g.Settings[k]
		if k == "model" || k == "variant" || k == "seed" || runControl[k] || !hasFlag(c, k) {
			return nil, usagef("--grid %s:%d: %q is not a cell setting (use a train flag name such as epochs, lr, dataset)", path, v.Line, k)
		}
		if err := c.Set(k, v.Value); err != nil {
			return nil, usagef("--grid %s:%d: %s: %v", path, v.Line, k, err)
		}
	}
	if err := checkBounds(c); err != nil { // the settings' values, as if they were flags
		return nil, usagef("--grid %s: %v", path, err)
	}
	rb := bounds["repeats"]
	for i, sg := range g.Grids {
		if len(sg.Models) == 0 || len(sg.Variants) == 0 || !rb.Contains(float64(sg.Repeats)) {
			return nil, usagef("--grid %s: grid %d needs models, variants and repeats (%s)", path, i+1, rb.Describe(true))
		}
	}
	return g.Grids, nil
}

// gridYAML writes a grid file for cc: the non-default settings of its base
// configuration and its blocks (one block for a flag-defined grid).
func gridYAML(c *cli.Context, cc grid.CompareConfig) string {
	var b strings.Builder
	b.WriteString("# ignn grid file (ignn compare --grid FILE)\nsettings:\n")
	for _, f := range gridFlags() {
		n := f.Names()[0]
		if runControl[n] || !c.IsSet(n) {
			continue
		}
		v, _ := yaml.Marshal(c.Value(n))
		fmt.Fprintf(&b, "  %s: %s", n, v)
	}
	grids := cc.Grids
	if len(grids) == 0 {
		grids = []grid.SubGrid{{Models: cc.Models, Variants: cc.Variants, Repeats: cc.Repeats, Positions: cc.Positions}}
	}
	out, _ := yaml.Marshal(map[string]any{"grids": grids})
	b.Write(out)
	return b.String()
}

// dryRun lists the cells and writes nothing but the grid file to w.
func dryRun(w io.Writer, c *cli.Context, cc grid.CompareConfig) error {
	jobs := cc.Jobs()
	for _, j := range jobs {
		fmt.Fprintln(w, j.Key())
	}
	fmt.Fprintf(w, "%d cells\n\n%s", len(jobs), gridYAML(c, cc))
	return nil
}

// saveGrid stores the resolved grid beside the results.
func saveGrid(c *cli.Context, cc grid.CompareConfig) error {
	return data.WriteFileAtomic(filepath.Join(cc.Out, "grid.yaml"), []byte(gridYAML(c, cc)))
}

// slurmScript is D/ignn.sbatch: an array job of one task per shard, each
// running this ignn binary on the stored grid with --shard auto.
func slurmScript(bin, out string, shards, workers int, memMB int64, extra []string) string {
	return slurm.ArrayJob{Command: "compare", Does: "share the grid in " + out, Name: "ignn-grid", Tasks: shards, CPUs: workers, MemMB: memMB,
		Logs: out + "/logs", Extra: extra,
		Exec: fmt.Sprintf("%q compare --grid %q --out %q --workers %d --shard auto --quiet", bin, filepath.Join(out, "grid.yaml"), out, workers)}.Script()
}

// submitSlurm writes the grid and the array job into --out and submits it
// (unless --dry-run); with --wait it blocks until the job ends.
func submitSlurm(c *cli.Context, cc grid.CompareConfig, stdout io.Writer) error {
	if cc.Out == "" {
		return usagef("--slurm needs --out on a filesystem every node shares")
	}
	shards, bin, err := arrayTasks(c)
	if err != nil {
		return err
	}
	out, err := filepath.Abs(cc.Out)
	if err != nil {
		return err
	}
	peak, err := cc.PeakMemory()
	if err != nil {
		return err
	}
	memMB := (peak*int64(cc.Workers) + 256<<20) >> 20
	if err := os.MkdirAll(filepath.Join(out, "logs"), 0o755); err != nil {
		return err
	}
	cc.Out = out
	if err := saveGrid(c, cc); err != nil {
		return err
	}
	script := filepath.Join(out, "ignn.sbatch")
	if err := data.WriteFileAtomic(script, []byte(slurmScript(bin, out, shards, cc.Workers, memMB, c.StringSlice("slurm-arg")))); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%d array tasks, %d CPUs and %d MB each)\n", script, shards, cc.Workers, memMB)
	if c.Bool("dry-run") {
		return nil
	}
	id, err := slurm.Submit(script, c.Bool("wait"))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "submitted job %s; logs in %s/logs; status: ignn compare --grid %s/grid.yaml --out %s --status\n", id, out, out, out)
	fmt.Fprintf(stdout, "when it ends, the table: ignn compare --grid %s/grid.yaml --out %s\n", out, out)
	return nil
}
