package run

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
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
		t.Logf("%s: plan %s, peak RSS %s (ratio %.2f)", spec, FormatBytes(est), FormatBytes(peak), ratio)
		if ratio < 0.7 || ratio > 1.3 {
			t.Errorf("%s: plan %s is %.2f× the measured peak %s", spec, FormatBytes(est), ratio, FormatBytes(peak))
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
	if _, err := ParseBytes("12G"); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"12X", "-1G", "NaN"} {
		if _, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q) accepted", bad)
		}
	}
}

// TestPlanSlots: the plan's node slots for a mini-batch run are the
// batcher's own sizing on the whole edge set — at least the slots the run
// allocates (which probe the training edges only), and not far above.
func TestPlanSlots(t *testing.T) {
	for _, g := range []string{"grid:150x150", "caveman:1000x20"} {
		cfg := shortRun("gcn")
		cfg.Dataset, cfg.Variant, cfg.Explicit = g, Both, map[string]bool{}
		rc, ds, p := prepared(t, cfg)
		c, err := Build(p, rc)
		if err != nil {
			t.Fatal(err)
		}
		got, want := planSlots(rc, ds), int64(c.batch.sub.Slots)
		c.Close()
		if got < want || float64(got) > 1.5*float64(want) {
			t.Errorf("%s: planned %d slots, the run allocated %d", g, got, want)
		}
	}
}

// TestPlanSteps: a phase's peak is its whole-phase parts plus its largest
// step (steps of a phase never overlap), the plan's the whole-run parts
// plus the larger phase.
func TestPlanSteps(t *testing.T) {
	p := MemoryPlan{Parts: []MemPart{
		{What: "graph", Bytes: 100},
		{What: "encode rows", Bytes: 30, Phase: PhasePrepare, step: "encode"},
		{What: "τ rows", Bytes: 20, Phase: PhasePrepare, step: "tau"},
		{What: "τ scratch", Bytes: 15, Phase: PhasePrepare, step: "tau"},
		{What: "batch", Bytes: 10, Phase: PhaseTrain},
		{What: "rank rows", Bytes: 25, Phase: PhaseTrain, step: "rank"},
		{What: "products", Bytes: 28, Phase: PhaseTrain, step: "evaluate"},
	}}
	if got, want := p.total(), int64(100+10+28); got != want { // prepare max(30, 35) = 35 < train 10 + max(25, 28)
		t.Fatalf("total %d, want %d", got, want)
	}
	p.Parts[2].Bytes = 40 // τ step 55 > train 38
	if got, want := p.total(), int64(100+55); got != want {
		t.Fatalf("total %d, want %d", got, want)
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

// TestPlanLayerwiseSteps: where the evaluations' inference runs layer-wise,
// its two stages' rows of every node and the held embeddings with their
// pair tape are steps of the training phase that do not overlap (the
// stages' rows are garbage once the last stage has put every row), so the
// plan counts the larger of them, not both.
func TestPlanLayerwiseSteps(t *testing.T) {
	defer func(c, k int) { BatchSlotCap, ChunkedInferenceNodes = c, k }(BatchSlotCap, ChunkedInferenceNodes)
	BatchSlotCap, ChunkedInferenceNodes = 1200, 0
	cfg := shortRun("gcn")
	cfg.Dataset, cfg.Variant, cfg.BatchSize = "ba:2000:3", Both, 64
	cfg.Explicit = map[string]bool{"batch-size": true}
	ds, err := LoadDataset(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err = cfg.Resolve(ds); err != nil {
		t.Fatal(err)
	}
	p := planMemory(cfg, ds)
	steps := map[string]int64{}
	var whole, common, all int64
	for _, q := range p.Parts {
		all += q.Bytes
		switch {
		case q.Phase == "":
			whole += q.Bytes
		case q.Phase == PhaseTrain && q.step == "":
			common += q.Bytes
		case q.Phase == PhaseTrain:
			steps[q.step] += q.Bytes
		}
		for prefix, step := range map[string]string{"layer-wise inference": "layerwise", "evaluation embeddings": "evaluate", "evaluation pairs and products": "evaluate"} {
			if strings.HasPrefix(q.What, prefix) && (q.Phase != PhaseTrain || q.step != step) {
				t.Errorf("%q: phase %q step %q, want %q %q", q.What, q.Phase, q.step, PhaseTrain, step)
			}
		}
	}
	if steps["layerwise"] == 0 || steps["evaluate"] == 0 {
		t.Fatalf("steps %v: want layerwise and evaluate", steps)
	}
	if want := whole + common + max(steps["layerwise"], steps["evaluate"]); p.Total != want {
		t.Errorf("total %d, want %d (whole %d, training %d, steps %v)", p.Total, want, whole, common, steps)
	}
}
