package run

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/ignn/ignn/cmd/internal/memplan"
)

// TestMemoryPlanMatchesPeak runs real trainings in child processes and
// compares each one's peak RSS with its memory plan: within ±30%, as the
// plan promises. The child reads its own peak (VmHWM): the Maxrss that
// wait4 reports for a child holds the parent's peak too (the child starts
// in the parent's memory until its exec), and read 616 MB for each of
// three runs that peak at 370–450 MB, after the test binary had run
// TestSmallWorldBatches.
func TestMemoryPlanMatchesPeak(t *testing.T) {
	if spec := os.Getenv("IGNN_MEMPLAN_CHILD"); spec != "" {
		f := strings.Fields(spec)
		cfg := Default()
		cfg.Dataset, cfg.Model, cfg.Variant, cfg.Epochs, cfg.EvalEvery = f[0], f[1], Variant(f[2]), 3, 3
		r, err := Run(context.Background(), cfg, Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("ESTIMATE %d\n", r.MemoryEstimate)
		fmt.Printf("PEAK %d\n", vmHWM(t))
		return
	}
	if testing.Short() {
		t.Skip("trains three 20k-node graphs")
	}
	for _, spec := range []string{"caveman:1000x20 gcn both", "caveman:1000x20 gat base", "grid:150x150 sage both"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryPlanMatchesPeak$", "-test.count=1")
		cmd.Env = append(os.Environ(), "IGNN_MEMPLAN_CHILD="+spec)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", spec, err, out)
		}
		var est, peak int64
		for _, l := range strings.Split(string(out), "\n") {
			if v, ok := strings.CutPrefix(l, "ESTIMATE "); ok {
				est, _ = strconv.ParseInt(v, 10, 64)
			}
			if v, ok := strings.CutPrefix(l, "PEAK "); ok {
				peak, _ = strconv.ParseInt(v, 10, 64)
			}
		}
		if est == 0 || peak == 0 {
			t.Fatalf("%s: the child reported no estimate or peak:\n%s", spec, out)
		}
		ratio := float64(est) / float64(peak)
		t.Logf("%s: plan %s, peak RSS %s (ratio %.2f)", spec, memplan.FormatBytes(est), memplan.FormatBytes(peak), ratio)
		if ratio < 0.7 || ratio > 1.3 {
			t.Errorf("%s: plan %s is %.2f× the measured peak %s", spec, memplan.FormatBytes(est), ratio, memplan.FormatBytes(peak))
		}
	}
}

// TestMemoryPlanRefuses: absurd size flags are refused before any
// allocation, naming the flag that lowers the largest part.
func TestMemoryPlanRefuses(t *testing.T) {
	cfg := Default()
	cfg.Dataset, cfg.HashDim, cfg.MaxMemory = "caveman:5000x20", 100_000, 8<<30
	_, err := Run(context.Background(), cfg, Hooks{})
	if err == nil || !strings.Contains(err.Error(), "hash vectors (N × hash dim)") || !strings.Contains(err.Error(), "lower with --hash-dim") {
		t.Fatalf("error %v", err)
	}
}

// TestPlanSlots: the plan's node slots for a mini-batch run are the
// batcher's own sizing on the whole edge set — at least the slots the run
// allocates (which probe the training edges only), and not far above.
func TestPlanSlots(t *testing.T) {
	for _, g := range []string{"grid:150x150", "caveman:1000x20"} {
		cfg := shortRun("gcn")
		cfg.Dataset, cfg.Variant, cfg.Explicit = g, Both, map[string]bool{"sketch": true} // no sketch: the slots are tested
		miniBatchRecipe(&cfg)
		rc, ds, p := prepared(t, cfg)
		c, err := Build(p, rc)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := planSlotsWidest(rc, ds)
		want := int64(c.batch.Slots.Sub.Slots)
		c.Close()
		if got < want || float64(got) > 1.5*float64(want) {
			t.Errorf("%s: planned %d slots, the run allocated %d", g, got, want)
		}
	}
}

// vmHWM is this process's peak resident set (/proc/self/status, VmHWM), in
// bytes: its own, from its exec on.
func vmHWM(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM %q: %v", v, err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}
