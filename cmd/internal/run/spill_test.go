package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ignn/ignn/cmd/internal/memplan"
	"github.com/ignn/ignn/data"
)

// TestSpillRun: a run that spills (the landmark hop counts its input's
// views read, the ranking sources' BFS rows redrawn every epoch, the
// chunked evaluation's embeddings) gives the numbers of the run that holds
// them, bit for bit — every evaluation's scores and validation
// yardsticks, the final faithfulness — says what it spilled and where, and
// leaves nothing in the directory.
func TestSpillRun(t *testing.T) {
	defer func(v, c int) { ViewInputNodes, ChunkedInferenceNodes = v, c }(ViewInputNodes, ChunkedInferenceNodes)
	ViewInputNodes, ChunkedInferenceNodes = 0, 0
	cfg := shortRun("gcn")
	// No neighbourhood sketch: a spilled evaluation keeps its reference
	// share where a held one chooses (TestSketchSpilled).
	cfg.Dataset, cfg.Variant, cfg.Explicit = "caveman:30x6", Both, map[string]bool{"sketch": true}
	miniBatchRecipe(&cfg)
	cfg.Distances, cfg.DistanceLoss, cfg.RankPairs = DistSampled, "rank", true
	dir := t.TempDir() + "/spill"
	var res []*Result
	var notes []string
	for _, spill := range []string{"", dir} {
		cfg.Spill = spill
		var resolved Config
		r, err := Run(context.Background(), cfg, Hooks{Warn: func(m string) { notes = append(notes, m) }, Resolved: func(c Config) { resolved = c }})
		if err != nil {
			t.Fatal(err)
		}
		if sp := shapeOf(resolved, &data.Dataset{Graphs: []*data.Graph{{N: 180}}}).Spills(); !sp.Hops || !sp.Rank || !sp.Emb || !sp.Queries {
			t.Fatalf("the run would spill %+v: the test wants all four (%s, %s)", sp, resolved.Position, resolved.DistanceLoss)
		}
		res = append(res, r)
	}
	if res[0].Faithfulness == nil {
		t.Fatal("the run scored no faithfulness")
	}
	// %v: the shortest decimal that reads back to the same float64, and
	// NaN as NaN (which reflect.DeepEqual never equates).
	for _, part := range []struct {
		name     string
		one, two any
	}{{"history", res[0].History, res[1].History}, {"skip choice", res[0].SkipChoice, res[1].SkipChoice},
		{"faithfulness", *res[0].Faithfulness, *res[1].Faithfulness}, {"final", res[0].Final, res[1].Final}} {
		if a, b := fmt.Sprintf("%+v", part.one), fmt.Sprintf("%+v", part.two); a != b {
			t.Fatalf("held and spilled runs differ in their %s:\n%.400s\n%.400s", part.name, a, b)
		}
	}
	joined := strings.Join(notes, "\n")
	if !strings.Contains(joined, "landmark hop counts") || !strings.Contains(joined, "ranking sources' BFS rows") || !strings.Contains(joined, "evaluation embeddings") || !strings.Contains(joined, dir) {
		t.Fatalf("the spilled run's notes do not say what went where: %q", joined)
	}
	if ents, err := os.ReadDir(dir); err != nil || len(ents) != 0 {
		t.Fatalf("the spill directory holds %d entries (%v)", len(ents), err)
	}
}

// TestWarmSpills: a run whose input views read spilled hop counts keeps
// those encodings for warmSpills (asked before every epoch's steps and
// every evaluation; TestSpillRun shows the numbers unchanged), and on
// Linux, with the file far below the available memory, asks for them; a
// run holding its hop counts has none.
func TestWarmSpills(t *testing.T) {
	defer func(v, c int) { ViewInputNodes, ChunkedInferenceNodes = v, c }(ViewInputNodes, ChunkedInferenceNodes)
	ViewInputNodes, ChunkedInferenceNodes = 0, 0
	for _, spill := range []string{"", t.TempDir()} {
		cfg := shortRun("gcn")
		cfg.Dataset, cfg.Variant, cfg.Explicit = "caveman:30x6", Both, map[string]bool{}
		miniBatchRecipe(&cfg)
		cfg.Distances, cfg.DistanceLoss, cfg.RankPairs, cfg.Spill = DistSampled, "rank", true, spill
		_, _, p := prepared(t, cfg)
		if got, want := len(p.spilledHops), map[bool]int{false: 0, true: 1}[spill != ""]; got != want {
			t.Fatalf("--spill %q: %d spilled encodings kept for warmSpills, want %d", spill, got, want)
		}
		for _, e := range p.spilledHops {
			if asked := e.WillNeed(); asked != (runtime.GOOS == "linux") {
				t.Errorf("WillNeed of a small spilled encoding asked %v on %s", asked, runtime.GOOS)
			}
		}
		p.warmSpills()
	}
}

// TestSpillAutoPlan: --spill auto keeps a run in memory while it fits
// --max-memory, and spills into the temporary directory (a smaller plan,
// the directory named) when only that fits.
func TestSpillAutoPlan(t *testing.T) {
	defer func(v int) { ViewInputNodes = v }(ViewInputNodes)
	ViewInputNodes = 0
	cfg := shortRun("gcn")
	cfg.Dataset, cfg.Variant, cfg.Explicit = "grid:300x300", Both, map[string]bool{}
	cfg, ds, _ := prepared(t, cfg)
	cfg.Spill = ""
	held := PlanMemory(cfg, ds)
	cfg.Spill = t.TempDir()
	spilled := PlanMemory(cfg, ds)
	if spilled.Total >= held.Total {
		t.Fatalf("spilling does not lower the plan: %d ≥ %d", spilled.Total, held.Total)
	}
	cfg.Spill = SpillAuto
	cfg.MaxMemory = held.Total
	if p := PlanMemory(cfg, ds); p.Spill != "" || p.Total != held.Total {
		t.Fatalf("a run that fits spills (%q, %d)", p.Spill, p.Total)
	}
	cfg.MaxMemory = held.Total - 1
	p := PlanMemory(cfg, ds)
	if memplan.AutoSpillDir() == "" {
		t.Skip("the temporary directory is a tmpfs: auto never spills there")
	}
	if p.Spill != memplan.AutoSpillDir() || p.Total != spilled.Total {
		t.Fatalf("a run over the limit: spill %q, plan %d; want %q, %d", p.Spill, p.Total, memplan.AutoSpillDir(), spilled.Total)
	}
	// A graph whose spill files the directory cannot hold: refused with
	// the need and the room.
	cfg.Spill = filepath.Join(t.TempDir(), "not", "yet")
	big, small := shapeOf(cfg, ds), shapeOf(cfg, ds)
	big.Nodes, small.Nodes = 1<<50, 1000
	if err := big.CheckSpill(cfg.Spill); err == nil || !strings.Contains(err.Error(), "free") || !strings.Contains(err.Error(), cfg.Spill) {
		t.Fatalf("a spill beyond the disk: %v", err)
	}
	if err := small.CheckSpill(cfg.Spill); err != nil {
		t.Fatalf("a small spill: %v", err)
	}
}
