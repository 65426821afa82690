package run

import (
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/ignn/ignn/models"
	"github.com/ignn/ignn/objective"
)

// benchCell builds a Communities link cell for model/variant/dtype.
func benchCell(b *testing.B, model string, variant Variant, dtype DType) *Built {
	b.Helper()
	cfg := Default()
	cfg.Model, cfg.Variant, cfg.DType = model, variant, dtype
	return benchCellOf(b, cfg)
}

// benchCellOf builds the cell of cfg (resolved on its dataset).
func benchCellOf(b testing.TB, cfg Config) *Built {
	b.Helper()
	ds, err := LoadDataset(cfg)
	if err != nil {
		b.Fatal(err)
	}
	if cfg, err = cfg.Resolve(ds); err != nil {
		b.Fatal(err)
	}
	ds = UseFeatures(ds, cfg)
	p, err := Prepare(ds, cfg)
	if err != nil {
		b.Fatal(err)
	}
	c, err := Build(p, cfg)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkEpoch measures one training epoch (negative sampling, input
// binding, forward, backward, Adam) on Communities link prediction — the
// quantity PyTorch Geometric's ms/epoch is compared with.
func BenchmarkEpoch(b *testing.B) {
	for _, m := range models.Names() {
		for _, v := range []Variant{Base, Both} {
			for _, dt := range []DType{Float32, Float64} {
				if dt == Float64 && m != "gcn" {
					continue
				}
				b.Run(fmt.Sprintf("%s/%s/%s", m, v, dt), func(b *testing.B) {
					c := benchCell(b, m, v, dt)
					defer c.Close()
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if err := c.Feed(i); err != nil {
							b.Fatal(err)
						}
						if _, err := c.tr.Step(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkScaleEpoch100k: one training epoch of GCN both on the 10⁵-node
// caveman graph (5,000 cliques of 20, sampled distances: BFS rows from 64
// sources, 2²⁰ MSE pairs).
func BenchmarkScaleEpoch100k(b *testing.B) {
	cfg := Default()
	cfg.Dataset = "caveman:5000x20"
	c := benchCellOf(b, cfg)
	defer c.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.Feed(i); err != nil {
			b.Fatal(err)
		}
		if _, err := c.tr.Step(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScaleBatchStep100k: one mini-batch step of the large-graph
// defaults (GCN both, landmark:32 with the skip path, rank, 512 training
// positives) on the 10⁵-node grid: building the batch's subgraph, loading
// it, forward, backward and Adam.
func BenchmarkScaleBatchStep100k(b *testing.B) {
	cfg := Default()
	cfg.Dataset, cfg.Position, cfg.PositionSkip = "grid:316x316", position(b, "landmark:32"), true
	cfg.DistanceLoss, cfg.BatchSize, cfg.BatchSteps = objective.DistanceRank, 512, 50
	benchBatchSteps(b, cfg)
}

// benchBatchSteps times mini-batch steps of cfg's cell (epoch 0's steps,
// cycled): building each batch's subgraph, loading it, forward, backward
// and Adam. It reports the batch's node slots.
func benchBatchSteps(b *testing.B, cfg Config) {
	c := benchCellOf(b, cfg)
	defer c.Close()
	if err := c.Feed(0); err != nil {
		b.Fatal(err)
	}
	benchSteps(b, c, new(int))
}

// benchSteps times b.N mini-batch steps of c (fed): batch, then step. The
// batches are epoch 0's, cycled, from *next on (a batch is prepared while
// the step before trains, so a run of the benchmark that shares c goes on
// where the last one stopped).
func benchSteps(b *testing.B, c *Built, next *int) {
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		k := *next
		*next = (k + 1) % c.batch.Steps
		if err := c.Batch(0, k); err != nil {
			b.Fatal(err)
		}
		if _, err := c.tr.Step(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(c.batch.Slots.Sub.Slots), "slots")
}

// BenchmarkScaleDefaultStep: one mini-batch step of the defaults a user
// gets (no flag: the large-graph recipe resolved for the graph's size) on
// grids of 10⁴, 10⁵ and 10⁶ nodes — building the batch's subgraph,
// loading it, forward, backward and Adam — with the batch's node slots as
// a metric. -cpu 1,2 gives the second core's gain. Each graph's run is
// built once per process (stepCell) and shared by -count and -cpu.
func BenchmarkScaleDefaultStep(b *testing.B) {
	for _, g := range []string{"grid:100x100", "grid:316x316", "grid:1000x1000"} {
		b.Run(g, func(b *testing.B) {
			cell := stepCell(b, g)
			benchSteps(b, cell.c, &cell.next)
		})
	}
}

// BenchmarkStep10M is BenchmarkScaleDefaultStep on grid:3163x3163 (10⁷
// nodes): its setup takes minutes and ≈ 8 GB, so it is apart from the
// others (`-bench Step10M`).
func BenchmarkStep10M(b *testing.B) {
	cell := stepCell(b, "grid:3163x3163")
	benchSteps(b, cell.c, &cell.next)
}

// stepCell is the default run on graph g, fed for its first epoch, made
// once per process and shared by every run of a step benchmark (-count,
// -cpu; the steps go on training it, which does not change a step's work).
func stepCell(b *testing.B, g string) *sharedCell {
	v, _ := benchCells.LoadOrStore("step "+g, &sharedCell{})
	cell := v.(*sharedCell)
	cell.Do(func() {
		cfg := Default()
		cfg.Dataset, cfg.Explicit = g, map[string]bool{}
		c := benchCellOf(b, cfg)
		if err := c.Feed(0); err != nil {
			b.Fatal(err)
		}
		cell.c = c
	})
	if cell.c == nil {
		b.Fatalf("%s: the run's setup failed in an earlier run of the benchmark", g)
	}
	return cell
}

// BenchmarkViewInputStep: one default mini-batch step on grid:1000x1000
// with the input and skip block stored (N × K float32 each), as views of
// the landmark hop counts (rows computed as LoadRows copies them), and as
// views of hop counts spilled to a file (read back by pread, with the
// ranking sources' rows): what the views and the spill cost per step.
func BenchmarkViewInputStep(b *testing.B) {
	defer func(v int) { ViewInputNodes = v }(ViewInputNodes)
	for _, inputs := range []struct {
		name  string
		nodes int
		spill bool
	}{{"stored", math.MaxInt, false}, {"view", ChunkedInferenceNodes, false}, {"spilled", ChunkedInferenceNodes, true}} {
		b.Run("inputs="+inputs.name, func(b *testing.B) {
			ViewInputNodes = inputs.nodes
			cfg := Default()
			cfg.Dataset, cfg.Explicit = "grid:1000x1000", map[string]bool{}
			if inputs.spill {
				cfg.Spill = b.TempDir()
			}
			benchBatchSteps(b, cfg)
		})
	}
}

// BenchmarkScaleInference: one evaluation's embeddings (Built.embeddings32,
// the chunked inference of the defaults from 2¹⁸ nodes) of the untrained
// default run, after a first pass has sized the chunks: on a grid
// (chunks of 3-hop balls) and a Barabási–Albert graph (layer-wise: its
// neighbourhoods exceed the slots). Each graph's run is built once per
// process (its setup is most of a minute) and shared by -count and -cpu.
func BenchmarkScaleInference(b *testing.B) {
	for _, g := range []string{"grid:548x548", "ba:300000:4"} {
		b.Run(g, func(b *testing.B) {
			v, _ := benchCells.LoadOrStore("infer "+g, &sharedCell{})
			cell := v.(*sharedCell)
			cell.Do(func() {
				cfg := Default()
				cfg.Dataset, cfg.Explicit = g, map[string]bool{}
				cell.c = benchCellOf(b, cfg)
				if _, err := cell.c.embeddings32(); err != nil { // sizes the chunks
					b.Fatal(err)
				}
			})
			if cell.c == nil || cell.c.infer == nil {
				b.Fatal("no chunked inference")
			}
			b.ResetTimer()
			for range b.N {
				if _, err := cell.c.embeddings32(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cell.c.infer.Chunks), "chunks")
		})
	}
}

var benchCells sync.Map // "step GRAPH" or "infer GRAPH" → *sharedCell

// sharedCell is a benchmark's run, built once per process.
type sharedCell struct {
	sync.Once
	c    *Built
	next int // a step benchmark's next batch (benchSteps)
}
