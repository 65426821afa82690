package slurm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScript: an array job renders as an sbatch script with its array
// size, resources, logs, extra lines in order and its command line last.
func TestScript(t *testing.T) {
	got := ArrayJob{Command: "embed", Does: "compute the parts of /s/z.npy", Name: "ignn-embed", Tasks: 3, CPUs: 2, MemMB: 555,
		Logs: "/s/z.logs", Extra: []string{"--partition=big", "--time=1:00:00"}, Exec: `"/bin/ignn" embed --shard auto`}.Script()
	want := "#!/bin/bash\n# Written by ignn embed --slurm: 3 array tasks compute the parts of /s/z.npy.\n" +
		"#SBATCH --job-name=ignn-embed\n#SBATCH --array=0-2\n#SBATCH --cpus-per-task=2\n#SBATCH --mem=555M\n" +
		"#SBATCH --output=/s/z.logs/%A_%a.out\n#SBATCH --partition=big\n#SBATCH --time=1:00:00\nexec \"/bin/ignn\" embed --shard auto\n"
	if got != want {
		t.Errorf("script:\n%s\nwant:\n%s", got, want)
	}
}

// TestSubmit runs Submit against a stand-in sbatch on PATH: the job id is
// what --parsable prints before ";", --wait is passed only when asked, and
// a failing sbatch is an error naming the script.
func TestSubmit(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "sbatch")
	script := "#!/bin/sh\necho \"$@\" > \"" + filepath.Join(dir, "args") + "\"\ncase \"$*\" in *fail*) exit 1;; esac\necho '4242;cluster'\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, wait := range []bool{false, true} {
		id, err := Submit("job.sbatch", wait)
		if err != nil || id != "4242" {
			t.Fatalf("wait %v: id %q, %v", wait, id, err)
		}
		args, _ := os.ReadFile(filepath.Join(dir, "args"))
		if strings.Contains(string(args), "--wait") != wait || !strings.HasPrefix(string(args), "--parsable") || !strings.HasSuffix(strings.TrimSpace(string(args)), " job.sbatch") {
			t.Errorf("wait %v: sbatch got %q", wait, args)
		}
	}
	if _, err := Submit("fail.sbatch", false); err == nil || !strings.Contains(err.Error(), "fail.sbatch") {
		t.Errorf("a failing sbatch: %v", err)
	}
}
