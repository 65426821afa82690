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

// arrayJob is a Slurm array job of one task per part, as compare, embed
// and prepare --slurm write it: each task runs exec, which finds its part
// with --shard auto (SLURM_ARRAY_TASK_ID).
type arrayJob struct {
	command string   // the ignn command that writes it
	does    string   // what the tasks do, after "N array tasks"
	name    string   // the job's name
	tasks   int      // array tasks, one a part
	cpus    int      // CPUs per task
	memMB   int64    // memory per task
	logs    string   // the directory of the tasks' logs
	extra   []string // extra #SBATCH lines (--slurm-arg)
	exec    string   // the command line each task runs
}

// script is the job's sbatch script.
func (j arrayJob) script() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n# Written by ignn %s --slurm: %d array tasks %s.\n", j.command, j.tasks, j.does)
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n#SBATCH --array=0-%d\n#SBATCH --cpus-per-task=%d\n#SBATCH --mem=%dM\n", j.name, j.tasks-1, j.cpus, j.memMB)
	fmt.Fprintf(&b, "#SBATCH --output=%s/%%A_%%a.out\n", j.logs)
	for _, a := range j.extra {
		fmt.Fprintf(&b, "#SBATCH %s\n", a)
	}
	fmt.Fprintf(&b, "exec %s\n", j.exec)
	return b.String()
}

// slurmScript is D/ignn.sbatch: an array job of one task per shard, each
// running this ignn binary on the stored grid with --shard auto.
func slurmScript(bin, out string, shards, workers int, memMB int64, extra []string) string {
	return arrayJob{command: "compare", does: "share the grid in " + out, name: "ignn-grid", tasks: shards, cpus: workers, memMB: memMB,
		logs: out + "/logs", extra: extra,
		exec: fmt.Sprintf("%q compare --grid %q --out %q --workers %d --shard auto --quiet", bin, filepath.Join(out, "grid.yaml"), out, workers)}.script()
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
