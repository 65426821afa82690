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
	// A link run: the whole-graph recipe, one layer.
	if r.BatchSize != 0 || r.ModelConfig.Layers != 1 || r.Epochs != WholeGraphSteps || r.EvalEvery != 50 || r.RankTriples != WholeGraphTriples {
		t.Errorf("batch %d, layers %d, epochs %d every %d, triples %d; want the whole-graph recipe", r.BatchSize, r.ModelConfig.Layers, r.Epochs, r.EvalEvery, r.RankTriples)
	}
	for _, why := range []string{
		"--features identity (hop distances to 256 landmarks set the nodes apart",
		"--skip-polar auto (a skip path carries the landmark distances to the embedding)",
		"--sketch 1024 (the embedding ends with each node's neighbourhood sketch",
		"--rank-pairs=true, --rank-triples 16384 (the ranking term orders pairs by hop distance",
		"--layers 1, --batch-size 0, --batch-steps 0, --epochs 300, --eval-every 50 (up to 100000 nodes the recipe trains one layer on the whole graph at once, 300 steps",
	} {
		if !strings.Contains(r.ScaleNote, why) {
			t.Errorf("note lacks %q:\n%s", why, r.ScaleNote)
		}
	}
	// The pair task gets no sketch, and says why; it trains on mini-batches
	// (of every training positive, fewer than 512 here) at the model's depth.
	train := int(0.8 * float64(len(g.Edges)))
	pair := cli
	pair.Task = data.TaskPair
	if r := pair.applyScale(graphSize{nodes: 77, trainPositives: train}); r.ModelConfig.Sketch != 0 || !strings.Contains(r.ScaleNote, "--sketch 0 (the sketch is link evidence: link task only)") {
		t.Errorf("pair task: sketch %d, note %q", r.ModelConfig.Sketch, r.ScaleNote)
	}
	if r := pair.applyScale(graphSize{nodes: 77, trainPositives: train}).WithDefaults(); r.BatchSize != train || r.RankTriples != 512 || train >= 512 || r.ModelConfig.Layers == 1 ||
		!strings.Contains(r.ScaleNote, "--layers "+strconv.Itoa(r.ModelConfig.Layers)+", --batch-size "+strconv.Itoa(train)+", --batch-steps 50, --epochs 10, --eval-every 2 (gcn trains on mini-batches of all "+strconv.Itoa(train)+" training positives, fewer than 512; 10 epochs of 50 steps)") {
		t.Errorf("pair task: batch %d, triples %d, layers %d; want the %d training positives, the ranking term's 512 triples and gcn's depth; note %q", r.BatchSize, r.RankTriples, r.ModelConfig.Layers, train, r.ScaleNote)
	}
	// --batch-steps (or --batch-size) asks a link run for mini-batches.
	asked := cli
	asked.Explicit, asked.BatchSteps = map[string]bool{"batch-steps": true}, 50
	if r, err := asked.Resolve(ds); err != nil || r.BatchSize != train || r.ModelConfig.Layers == 1 || r.Epochs != 10 {
		t.Errorf("--batch-steps 50: batch %d, layers %d, epochs %d (%v); want mini-batches of %d at the model's depth", r.BatchSize, r.ModelConfig.Layers, r.Epochs, err, train)
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
