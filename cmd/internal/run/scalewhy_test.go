package run

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ignn/ignn/data"
)

// TestDefaultsExplained (issue 66): on a 77-node graph of one's own with
// 254 edges (≈ Les Misérables), the note says why each setting the
// large-graph defaults chose, and the batch holds the graph's 203 training
// positives (80% of 254), not 512 — a batch larger than them repeats
// positives within a step — while the ranking term keeps its 512 triples
// a step. The neighbourhood sketch comes with a link run below 50,000
// nodes, and the note says why (and why not, on the pair task).
func TestDefaultsExplained(t *testing.T) {
	var edges [][2]int32
	for i := int32(0); len(edges) < 254; i++ {
		edges = append(edges, [2]int32{i % 77, (i*7 + 1) % 77})
	}
	g, err := data.NewGraph("g", 77, edges)
	if err != nil {
		t.Fatal(err)
	}
	ds := &data.Dataset{Name: "lesmis.csv", Graphs: []*data.Graph{g}}
	cli := Default()
	cli.Dataset, cli.Explicit = "lesmis.csv", map[string]bool{}
	r, err := cli.Resolve(ds)
	if err != nil {
		t.Fatal(err)
	}
	train := int(0.8 * float64(len(g.Edges)))
	if r.BatchSize != train || r.RankTriples != 512 || train >= 512 {
		t.Errorf("batch %d, triples %d; want the %d training positives and the ranking term's 512 triples", r.BatchSize, r.RankTriples, train)
	}
	for _, why := range []string{
		"--features identity (hop distances to 256 landmarks set the nodes apart",
		"--skip-polar auto (a skip path carries the landmark distances to the embedding)",
		"--sketch 1024 (the embedding ends with each node's neighbourhood sketch",
		"--rank-pairs=true (the ranking term orders pairs by hop distance",
		"--eval-every 2 (gcn trains on mini-batches of all " + strconv.Itoa(train) + " training positives, fewer than 512; 10 epochs of 50 steps)",
	} {
		if !strings.Contains(r.ScaleNote, why) {
			t.Errorf("note lacks %q:\n%s", why, r.ScaleNote)
		}
	}
	// The pair task gets no sketch, and says why.
	pair := cli
	pair.Task = data.TaskPair
	if r := pair.applyScale(graphSize{nodes: 77, trainPositives: train}); r.ModelConfig.Sketch != 0 || !strings.Contains(r.ScaleNote, "--sketch 0 (the sketch is link evidence: link task only)") {
		t.Errorf("pair task: sketch %d, note %q", r.ModelConfig.Sketch, r.ScaleNote)
	}
	// From 50,000 nodes, none.
	if w := SketchWidth(LargeGraphNodes); w != 0 || SketchWidth(LargeGraphNodes-1) != SketchColumns {
		t.Errorf("sketch widths %d at %d nodes, %d below", w, LargeGraphNodes, SketchWidth(LargeGraphNodes-1))
	}
	// A model that cannot batch: the note says so instead.
	cli.Model = "gat"
	if r, err = cli.Resolve(ds); err != nil || !strings.Contains(r.ScaleNote, "--eval-every 10 (gat trains on the whole graph at once)") {
		t.Errorf("gat: %v, note %q", err, r.ScaleNote)
	}
}
