package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/grid"
	"github.com/ignn/ignn/data"
)

// slurmScript is D/ignn.sbatch: an array job of one task per shard, each
// running this ignn binary on the stored grid with --shard auto.
func slurmScript(bin, out string, shards, workers int, memMB int64, extra []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n# Written by ignn compare --slurm: %d array tasks share the grid in %s.\n", shards, out)
	fmt.Fprintf(&b, "#SBATCH --job-name=ignn-grid\n#SBATCH --array=0-%d\n#SBATCH --cpus-per-task=%d\n#SBATCH --mem=%dM\n", shards-1, workers, memMB)
	fmt.Fprintf(&b, "#SBATCH --output=%s/logs/%%A_%%a.out\n", out)
	for _, a := range extra {
		fmt.Fprintf(&b, "#SBATCH %s\n", a)
	}
	fmt.Fprintf(&b, "exec %q compare --grid %q --out %q --workers %d --shard auto --quiet\n", bin, filepath.Join(out, "grid.yaml"), out, workers)
	return b.String()
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
	id, err := sbatch(script, c.Bool("wait"))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "submitted job %s; logs in %s/logs; status: ignn compare --grid %s/grid.yaml --out %s --status\n", id, out, out, out)
	fmt.Fprintf(stdout, "when it ends, the table: ignn compare --grid %s/grid.yaml --out %s\n", out, out)
	return nil
}

// sbatch submits script and returns the job's id; with wait, it returns
// when the job has ended (sbatch --wait: an error if a task failed).
func sbatch(script string, wait bool) (string, error) {
	args := []string{"--parsable"}
	if wait {
		args = append(args, "--wait")
	}
	cmd := exec.Command("sbatch", append(args, script)...)
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	id := strings.TrimSpace(strings.Split(string(b), ";")[0])
	if err != nil {
		return id, fmt.Errorf("sbatch %s: %v (job %q)", script, err, id)
	}
	return id, nil
}

// arrayTasks is an array job's task count (--shards, default 4) and the
// binary its tasks run (this one).
func arrayTasks(c *cli.Context) (int, string, error) {
	shards := c.Int("shards")
	if shards < 1 {
		shards = 4
	}
	bin, err := os.Executable()
	return shards, bin, err
}
