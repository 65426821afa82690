package grid

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/ignn/ignn/cmd/internal/run"
)

func smallGrid(out string, workers int) CompareConfig {
	base := run.Default()
	base.Epochs, base.EvalEvery = 12, 4
	return CompareConfig{Base: base, Models: []string{"gcn", "sage"}, Variants: []run.Variant{run.Base, run.Both},
		Repeats: 2, Workers: workers, Out: out}
}

func runGrid(t *testing.T, cc CompareConfig, cancelAfter int) (ran int, err error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err = Compare(ctx, cc, CompareHooks{Done: func(Job, *run.Result) {
		ran++
		if ran == cancelAfter {
			cancel()
		}
	}})
	if err == nil {
		res, _ := Compare(context.Background(), cc, CompareHooks{})
		if werr := res.Write(cc.Out); werr != nil {
			t.Fatal(werr)
		}
	}
	return ran, err
}

// TestCompareResumeAndWorkers: an interrupted comparison resumes without
// redoing finished cells, and 1 or 2 workers, interrupted or not, give
// byte-identical results.json.
func TestCompareResumeAndWorkers(t *testing.T) {
	dir := t.TempDir()
	one, two, killed := filepath.Join(dir, "w1"), filepath.Join(dir, "w2"), filepath.Join(dir, "killed")
	if n, err := runGrid(t, smallGrid(one, 1), 0); err != nil || n != 8 {
		t.Fatalf("uninterrupted: ran %d, %v", n, err)
	}
	if _, err := runGrid(t, smallGrid(two, 2), 0); err != nil {
		t.Fatal(err)
	}
	n, err := runGrid(t, smallGrid(killed, 1), 3)
	if err == nil {
		t.Fatal("interrupted comparison reported success")
	}
	cells, _ := filepath.Glob(filepath.Join(killed, "cells", "*.json"))
	if len(cells) != n {
		t.Fatalf("%d cells finished but %d files kept", n, len(cells))
	}
	again, err := runGrid(t, smallGrid(killed, 1), 0)
	if err != nil {
		t.Fatal(err)
	}
	if again != 8-n {
		t.Errorf("resume ran %d cells, want %d", again, 8-n)
	}
	a, _ := os.ReadFile(filepath.Join(one, "results.json"))
	b, _ := os.ReadFile(filepath.Join(two, "results.json"))
	c, _ := os.ReadFile(filepath.Join(killed, "results.json"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Error("results.json differs between --workers 1 and 2")
	}
	if !bytes.Equal(a, c) {
		t.Error("results.json of the resumed comparison differs from the uninterrupted one")
	}
}

func TestSweepGrid(t *testing.T) {
	cc := smallGrid("", 1)
	cc.Sweep, cc.Models, cc.Variants, cc.Repeats = true, []string{"gcn"}, []run.Variant{run.Base, run.Both}, 1
	jobs := cc.Jobs()
	// base: 3 lrs; both: 3 lrs × 15 (λ_BCE, λ_MSE) pairs.
	if len(jobs) != 3+45 {
		t.Fatalf("%d jobs, want 48", len(jobs))
	}
}

// TestRunsReleaseMemory: finished runs must not keep their tensors alive
// (gorgonia's TapeMachine finalizer made every graph uncollectable; a
// protein comparison grew by ≈0.9 GB per P-GNN cell until the OOM killer
// stopped it).
func TestRunsReleaseMemory(t *testing.T) {
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	cfg := run.Default()
	cfg.Model, cfg.ModelConfig.Layers, cfg.LambdaMSE, cfg.Epochs, cfg.EvalEvery = "pgnn-e", 2, 1, 2, 2
	var after []uint64
	for seed := uint64(1); seed <= 4; seed++ {
		cfg.Seed = seed
		if _, err := run.Run(context.Background(), cfg, run.Hooks{}); err != nil {
			t.Fatal(err)
		}
		after = append(after, heap())
	}
	if grow := int64(after[3]) - int64(after[0]); grow > 16<<20 {
		t.Errorf("heap grew by %d MB over 3 finished runs (%v)", grow>>20, after)
	}
}

// TestReusedOutRefused (issue 11): a rerun into the same --out with another
// task or epoch count used to reuse the old cells. It is refused, naming
// what differs; more seeds of the same grid reuse the finished cells; and
// Fresh starts over.
func TestReusedOutRefused(t *testing.T) {
	out := t.TempDir()
	cc := smallGrid(out, 2)
	cc.Models, cc.Repeats = []string{"gcn"}, 1
	if _, err := Compare(context.Background(), cc, CompareHooks{}); err != nil {
		t.Fatal(err)
	}
	other := cc
	other.Base.Task, other.Base.Epochs = "pair", 16
	_, err := Compare(context.Background(), other, CompareHooks{})
	var stale *StaleOutError
	if !errors.As(err, &stale) || !strings.Contains(err.Error(), "epochs 12 → 16") || !strings.Contains(err.Error(), "task link → pair") {
		t.Fatalf("error %v, want a refusal naming epochs and task", err)
	}
	more := cc
	more.Repeats = 2
	ran := 0
	if _, err := Compare(context.Background(), more, CompareHooks{Done: func(Job, *run.Result) { ran++ }}); err != nil {
		t.Fatal(err)
	}
	if ran != 2 {
		t.Errorf("adding a seed ran %d cells, want 2 (the finished ones are reused)", ran)
	}
	if err := Fresh(out); err != nil {
		t.Fatal(err)
	}
	if _, err := Compare(context.Background(), other, CompareHooks{}); err != nil {
		t.Fatalf("after Fresh: %v", err)
	}
}

// TestInterruptedCompareKeepsCells: the interruption message of a grid says
// its finished cells are kept (issue 11: a cell's own "nothing kept" won).
func TestInterruptedCompareKeepsCells(t *testing.T) {
	out := t.TempDir()
	_, err := runGrid(t, smallGrid(out, 1), 1)
	if err == nil || !strings.Contains(err.Error(), "finished cells are kept under "+out) || strings.Contains(err.Error(), "nothing kept") {
		t.Fatalf("error %v", err)
	}
}

// TestTooSmallGraphSkipped: one tiny graph in a graph index no longer
// blocks the run; it is skipped with a warning.
func TestTooSmallGraphSkipped(t *testing.T) {
	dir := t.TempDir()
	var e, g strings.Builder
	for i := 0; i < 12; i++ { // graph 0: a 12-cycle with chords
		fmt.Fprintf(&e, "%d %d\n%d %d\n", i, (i+1)%12, i, (i+3)%12)
		fmt.Fprintf(&g, "%d 0\n", i)
	}
	e.WriteString("100 101\n") // graph 1: one edge
	g.WriteString("100 1\n101 1\n")
	edges, index := filepath.Join(dir, "e.txt"), filepath.Join(dir, "g.txt")
	os.WriteFile(edges, []byte(e.String()), 0o644)
	os.WriteFile(index, []byte(g.String()), 0o644)
	cfg := run.Default()
	cfg.Dataset, cfg.GraphIndex, cfg.Epochs, cfg.EvalEvery = edges, index, 4, 2
	r, err := run.Run(context.Background(), cfg, run.Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Graphs != 1 || len(r.Warnings) == 0 || !strings.Contains(strings.Join(r.Warnings, "\n"), "skipped") {
		t.Errorf("graphs %d, warnings %q", r.Graphs, r.Warnings)
	}
}

// TestSampledPathAgreesWithExact: on Communities the sampled path (MSE
// pairs from per-epoch BFS rows, τ over a fixed sample) trains to the same
// picture as the exact path: τ within a few interval half-widths of the
// exact run's, AUC within 0.02, the same numbers for any worker count, and
// the JSON says which path ran and over how many pairs.
func TestSampledPathAgreesWithExact(t *testing.T) {
	cfg := run.Default()
	cfg.Epochs, cfg.EvalEvery = 40, 10
	exact, err := run.Run(context.Background(), cfg, run.Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Distances, cfg.MSEPairs, cfg.MSESources, cfg.TauPairs, cfg.TauSources = run.DistSampled, 40_000, 16, 50_000, 64
	var runs []*run.Result
	for _, w := range []int{1, 3} {
		cfg.Workers = w
		r, err := run.Run(context.Background(), cfg, run.Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	s := runs[0]
	if !reflect.DeepEqual(runs[0].Final, runs[1].Final) {
		t.Errorf("workers 1 and 3 differ: %+v vs %+v", runs[0].Final, runs[1].Final)
	}
	if s.Distances != run.DistSampled || s.TauPairCount != 64*399 || len(s.Final.TauCI) != 2 || exact.Distances != "" {
		t.Fatalf("sampled run reports distances %q, %d τ pairs, CI %v", s.Distances, s.TauPairCount, s.Final.TauCI)
	}
	half := float64(s.Final.TauCI[1]-s.Final.TauCI[0]) / 2
	if d := math.Abs(float64(s.Final.TestKendallTau - exact.Final.TestKendallTau)); d > 4*half+0.05 {
		t.Errorf("final τ sampled %.3f ± %.3f, exact %.3f", s.Final.TestKendallTau, half, exact.Final.TestKendallTau)
	}
	if d := math.Abs(float64(s.Final.TestAUC - exact.Final.TestAUC)); d > 0.02 {
		t.Errorf("final AUC sampled %.3f, exact %.3f", s.Final.TestAUC, exact.Final.TestAUC)
	}
}

// TestFailedCellsListed: a cell that fails (here: refused by the memory
// plan) does not stop the grid; it is listed with its reason, kept as
// failed on a rerun, and run again with RetryFailed.
func TestFailedCellsListed(t *testing.T) {
	out := t.TempDir()
	cc := smallGrid(out, 1)
	cc.Models, cc.Variants, cc.Repeats = []string{"gcn", "pgnn-e"}, []run.Variant{run.Both}, 1
	ds, _ := run.LoadDataset(cc.Base)
	small, _ := cc.config(cc.Jobs()[0]).Resolve(ds)
	big, _ := cc.config(cc.Jobs()[1]).Resolve(ds)
	if run.PlanMemory(big, ds).Total <= run.PlanMemory(small, ds).Total {
		t.Fatal("test premise: P-GNN-E plans more memory than GCN")
	}
	cc.Base.MaxMemory = run.PlanMemory(small, ds).Total
	res, err := Compare(context.Background(), cc, CompareHooks{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 1 || len(res.Failures) != 1 || res.Failures[0].Job.Model != "pgnn-e" || !strings.Contains(res.Failures[0].Error, "--max-memory") {
		t.Fatalf("cells %d, failures %+v", len(res.Cells), res.Failures)
	}
	ran := 0
	again, err := Compare(context.Background(), cc, CompareHooks{Done: func(Job, *run.Result) { ran++ }})
	if err != nil || ran != 0 || len(again.Failures) != 1 {
		t.Fatalf("rerun: ran %d, failures %d, %v", ran, len(again.Failures), err)
	}
	cc.Base.MaxMemory, cc.RetryFailed = 0, true
	retried, err := Compare(context.Background(), cc, CompareHooks{Done: func(Job, *run.Result) { ran++ }})
	if err != nil || ran != 1 || len(retried.Failures) != 0 || len(retried.Cells) != 2 {
		t.Fatalf("retry: ran %d, failures %+v, cells %d, %v", ran, retried.Failures, len(retried.Cells), err)
	}
}

// TestShards: shards 0/3, 2/3 and 1/3 run one after another, each only its
// cells and never another's; then a plain run on the same --out runs
// nothing and gives the results.json of one plain run. The cost ordering
// deals P-GNN cells round-robin; Status tells finished, stale and missing.
func TestShards(t *testing.T) {
	plain, sharded := t.TempDir(), t.TempDir()
	grid := func(out string) CompareConfig {
		cc := smallGrid(out, 2)
		cc.Models = []string{"gcn", "sage", "pgnn-e"}
		return cc
	}
	if _, err := runGrid(t, grid(plain), 0); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, i := range []int{0, 2, 1} {
		cc := grid(sharded)
		cc.Shard = Shard{I: i, N: 3}
		var ran []string
		res, err := Compare(context.Background(), cc, CompareHooks{Done: func(j Job, _ *run.Result) { ran = append(ran, j.Key()) }})
		if err != nil {
			t.Fatal(err)
		}
		if res.ShardCells != 4 || res.ShardDone != 4 || len(ran) != 4 {
			t.Errorf("shard %d/3: %d of %d done, ran %d", i, res.ShardDone, res.ShardCells, len(ran))
		}
		pgnn := 0
		for _, k := range ran {
			seen[k]++
			if strings.HasPrefix(k, "pgnn") {
				pgnn++
			}
		}
		if pgnn < 1 || pgnn > 2 {
			t.Errorf("shard %d/3 got %d of the 4 P-GNN cells; round robin over cost should give 1 or 2", i, pgnn)
		}
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("cell %s ran %d times", k, n)
		}
	}
	ran, err := runGrid(t, grid(sharded), 0)
	if err != nil || ran != 0 {
		t.Fatalf("plain run after the shards ran %d cells (%v)", ran, err)
	}
	a, _ := os.ReadFile(filepath.Join(plain, "results.json"))
	b, _ := os.ReadFile(filepath.Join(sharded, "results.json"))
	if !bytes.Equal(a, b) {
		t.Error("results.json of the sharded grid differs from the plain one")
	}
	// A marker left by a dead process is stale; a removed cell is missing.
	cc := grid(sharded)
	j := cc.Jobs()[0]
	os.Remove(cc.cellPath(j))
	host, _ := os.Hostname()
	WriteJSON(cc.markerPath(j), marker{Host: host, PID: 1 << 30})
	st, err := cc.Status()
	if err != nil || st[0].State != "stale" || st[1].State != "finished" {
		t.Errorf("status %+v (%v)", st[:2], err)
	}
	for _, bad := range []string{"3/3", "-1/2", "x", "1/0"} {
		if _, err := ParseShard(bad, 0); err == nil {
			t.Errorf("--shard %s accepted", bad)
		}
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "7")
	t.Setenv("SLURM_ARRAY_TASK_MIN", "5")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "4")
	if s, err := ParseShard("auto", 0); err != nil || s != (Shard{2, 4}) {
		t.Errorf("auto from Slurm: %+v %v", s, err)
	}
}

// TestProvenanceFlagsMixedBuilds: a table whose cells come from two
// revisions says so in its footer.
func TestProvenanceFlagsMixedBuilds(t *testing.T) {
	a, b := run.CurrentProvenance(), run.CurrentProvenance()
	a.Revision, b.Revision = "1111111111111111", "2222222222222222"
	one := gridProvenance([]*run.Result{{Provenance: a}, {Provenance: a}})
	two := gridProvenance([]*run.Result{{Provenance: a}, {Provenance: b}})
	if strings.Contains(one.Footer(), "WARNING") || !strings.Contains(one.Footer(), "build 111111111111 on") {
		t.Errorf("one build: %q", one.Footer())
	}
	if f := two.Footer(); !strings.Contains(f, "WARNING: cells come from 2 builds") || len(two.Builds) != 2 {
		t.Errorf("two builds: %q", f)
	}
}
