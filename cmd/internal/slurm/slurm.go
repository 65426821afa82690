package slurm

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// ArrayJob is a Slurm array job of one task per part, as compare, embed
// and prepare --slurm write it: each task runs Exec, which finds its part
// with --shard auto (SLURM_ARRAY_TASK_ID).
type ArrayJob struct {
	Command string   // the ignn command that writes it
	Does    string   // what the tasks do, after "N array tasks"
	Name    string   // the job's name
	Tasks   int      // array tasks, one a part
	CPUs    int      // CPUs per task
	MemMB   int64    // memory per task
	Logs    string   // the directory of the tasks' logs
	Extra   []string // extra #SBATCH lines (--slurm-arg)
	Exec    string   // the command line each task runs
}

// Script is the job's sbatch script.
func (j ArrayJob) Script() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n# Written by ignn %s --slurm: %d array tasks %s.\n", j.Command, j.Tasks, j.Does)
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n#SBATCH --array=0-%d\n#SBATCH --cpus-per-task=%d\n#SBATCH --mem=%dM\n", j.Name, j.Tasks-1, j.CPUs, j.MemMB)
	fmt.Fprintf(&b, "#SBATCH --output=%s/%%A_%%a.out\n", j.Logs)
	for _, a := range j.Extra {
		fmt.Fprintf(&b, "#SBATCH %s\n", a)
	}
	fmt.Fprintf(&b, "exec %s\n", j.Exec)
	return b.String()
}

// Submit submits script and returns the job's id; with wait, it returns
// when the job has ended (sbatch --wait: an error if a task failed).
func Submit(script string, wait bool) (string, error) {
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
