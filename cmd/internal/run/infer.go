package run

import (
	"math"
	"math/rand/v2"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/models"
)

// inferer computes every node's embedding chunk by chunk: the chunk's
// nodes are the seeds of a subgraph with their whole L-hop neighbourhood
// (every neighbour, whole-graph degrees), so each seed's embedding is the
// one the whole-graph forward pass gives it (up to the order of the
// neighbour sums), in a forward-only graph of a fixed number of node
// slots. Chunks are balls grown over the nodes no chunk holds yet (grower),
// so that a chunk is a connected region whose neighbourhood adds a thin
// rim, whatever order the node ids come in. The first pass sizes the
// chunks: a chunk whose neighbourhood does not fit shrinks by a quarter,
// and after one that fits the next is sized so that its neighbourhood
// would fill 95% of the slots at the same rim ratio (every forward pass
// computes all the slots); later passes reuse the chunks it found, so
// every pass sums in the same order and the chunking depends only on the
// graph: deterministic. Where a single node's neighbourhood does not fit,
// a staged model switches to layer-wise inference (layerwise.go).
type inferer struct {
	p       *Prepared
	layers  int
	hops    int // a chunk's neighbourhood: layers, or 1 layer-wise
	chunk   int
	sub     engine.Subgraph
	adj     *engine.Adjacency
	x, skip *engine.Features
	fwd     *engine.Forward
	order   []int32 // the breadth-first order of the nodes; after the first pass, the chunks' nodes
	bounds  []int   // chunk k is order[bounds[k]:bounds[k+1]], after the first pass
	Chunks  int     // forward passes of the last Embeddings
	ahead   int     // chunks prepared while the chunk before ran (runChunks), in all passes
	passes  int     // whole-graph passes so far
	// Layer-wise inference (layerwise.go): the model and what its stage
	// graphs are built on (staged nil: the model has no stages), the
	// stages once switched, the stage a pass runs and the rows of every
	// node the stage before it gave.
	staged models.Staged
	ps     *engine.ParamStore
	in     *engine.GraphInput
	stages []stageGraph
	stage  int
	prev   *nodeRows
}

// newInferer builds the forward-only graph of model over slots node slots
// on the parameters in ps.
func newInferer(p *Prepared, model models.Model, ps *engine.ParamStore, layers, slots int) (*inferer, error) {
	slots = min(slots, p.Union.N)
	f := &inferer{p: p, layers: layers, hops: layers, chunk: firstChunk(slots, p.Union.N), order: bfsOrder(p.Input.Adj.Links()), ps: ps}
	f.staged, _ = model.(models.Staged)
	f.sub = engine.NewSubgraph(p.Input.Adj, slots)
	f.adj = engine.NewBatchAdjacency(slots)
	f.x = engine.NewBatchFeatures(p.Input.X, slots)
	if p.Input.Skip != nil {
		f.skip = engine.NewBatchFeatures(p.Input.Skip, slots)
	}
	in := &engine.GraphInput{Adj: f.adj, X: f.x, Skip: f.skip, SkipInit: p.Input.SkipInit}
	f.in = in
	b := engine.NewBuilder(ps, false)
	z, err := models.Build(model, b, in)
	if err != nil {
		return nil, err
	}
	if f.fwd, err = engine.NewForward(b, z); err != nil {
		return nil, err
	}
	return f, nil
}

// firstChunk is the size of the first chunk tried in slots node slots on
// n nodes: half the slots, or every node when the slots hold the graph (a
// small-world graph's batches often do): one forward pass, where half
// would have run two or three over all the slots.
func firstChunk(slots, n int) int {
	if slots >= n {
		return n
	}
	return max(1, slots/2)
}

// Embeddings returns the N × D embeddings, row-major.
func (f *inferer) Embeddings(rng *rand.Rand) ([]float64, int, error) {
	var out []float64
	d, err := f.pass(rng, func(d int) { out = make([]float64, f.p.Union.N*d) }, func(v int, row []float64) {
		copy(out[v*len(row):(v+1)*len(row)], row)
	})
	return out, d, err
}

// Embeddings32 is Embeddings stored in float32: a float32 run's values
// exactly (its graph computes in float32), in half the memory (1.3 GB
// fewer at 10⁷ nodes × 32).
func (f *inferer) Embeddings32(rng *rand.Rand) ([]float32, int, error) {
	var out []float32
	d, err := f.pass(rng, func(d int) { out = make([]float32, f.p.Union.N*d) }, func(v int, row []float64) {
		for j, x := range row {
			out[v*len(row)+j] = float32(x)
		}
	})
	return out, d, err
}

// EmbeddingsSpilled is Embeddings32 written to a spill file in dir, a row
// at a time as the chunks produce them, instead of held (N × D × 4 B,
// 12.8 GB at 10⁸ nodes × 32). A non-finite value is an error, as
// evaluate's check of held embeddings makes it.
func (f *inferer) EmbeddingsSpilled(rng *rand.Rand, dir string) (*data.Spill[float32], int, error) {
	var s *data.Spill[float32]
	var w *rowWriter
	var werr error
	d, err := f.pass(rng, func(d int) {
		s, werr = data.NewSpill[float32](dir, f.p.Union.N, d)
		w = &rowWriter{s: s, d: d}
	}, func(v int, row []float64) {
		if werr != nil {
			return
		}
		row32 := w.next(v)
		for j, x := range row {
			row32[j] = float32(x)
			if y := float64(row32[j]); math.IsNaN(y) || math.IsInf(y, 0) { // float32's range: the held check's
				werr = divergedError(row32[j])
				return
			}
		}
		if w.full() {
			werr = w.flush()
		}
	})
	if err == nil && werr == nil && w != nil {
		werr = w.flush()
	}
	if err == nil {
		err = werr
	}
	if err != nil {
		if s != nil {
			s.Close()
		}
		return nil, 0, err
	}
	return s, d, nil
}

// pass runs the forward graph chunk by chunk: alloc(d) once the width is
// known, then put(v, row) for every node v's row of d values.
func (f *inferer) pass(rng *rand.Rand, alloc func(d int), put func(v int, row []float64)) (int, error) {
	f.passes++
	return f.run(rng, 0, -1, alloc, put)
}

// sizeChunks finds the chunks the first pass would (without running the
// forward graph) unless a pass has: what a shard needs to run its own
// chunks exactly as one process runs them.
func (f *inferer) sizeChunks() error {
	if f.bounds != nil {
		return nil
	}
	_, err := f.run(nil, 0, -1, nil, nil)
	return err
}

// chunks runs chunks k0 … k1−1 of the sized chunks (k1 < 0: every chunk,
// sizing them first if no pass has), handing rows to put as pass does;
// put == nil only sizes the chunks. Sized chunks run pipelined
// (runChunks); the sizing pass runs one chunk at a time, each sized from
// the one before.
func (f *inferer) chunks(rng *rand.Rand, k0, k1 int, alloc func(d int), put func(v int, row []float64)) (int, error) {
	if f.bounds != nil && put != nil {
		if k1 < 0 {
			k1 = len(f.bounds) - 1
		}
		return f.runChunks(rng, k0, k1, f.hops, func(k int) []int32 { return f.order[f.bounds[k]:f.bounds[k+1]] }, alloc, put)
	}
	n := f.p.Union.N
	d := 0
	f.Chunks = 0
	sized := f.bounds != nil
	var g *grower
	if !sized {
		f.bounds = []int{0}
		g = newGrower(f.p.Input.Adj.Links(), f.order)
	}
	lo := 0
	if sized {
		lo = f.bounds[k0]
	}
	for k := k0; lo < n && k != k1; k++ {
		var hi int
		order := f.order
		if sized {
			hi = f.bounds[k+1]
		} else {
			hi = g.grow(f.chunk)
			order = g.chunks
		}
		seeds := order[lo:hi]
		cut, err := f.sub.Build(seeds, f.hops, 0, nil)
		if err == nil && cut > 0 {
			f.sub.Clear()
		}
		if err != nil || cut > 0 {
			if sized || hi-lo == 1 {
				if !sized {
					f.bounds = nil // a later pass sizes again, not from a partial list
				}
				return 0, &noFitError{f.hops, hi - lo, int(order[lo]), f.sub.Slots}
			}
			g.undo(lo)
			f.chunk = min(f.chunk, hi-lo) * 3 / 4
			k--
			continue
		}
		used := len(f.sub.Nodes)
		if put == nil {
			f.sub.Clear()
		} else {
			f.stageChunk()
			f.useChunk()
			dd, err := f.forward(rng, seeds, alloc, put)
			if err != nil {
				if !sized {
					f.bounds = nil // partial, and over the grower's order, not f.order: a later pass sizes again
				}
				return 0, err
			}
			d = dd
		}
		if !sized { // aim the next chunk's neighbourhood at 95% of the slots: every forward pass runs on all of them
			f.bounds = append(f.bounds, hi)
			f.chunk = max(1, min(f.sub.Slots, int(float64(hi-lo)*0.95*float64(f.sub.Slots)/float64(used))))
		}
		lo = hi
	}
	if !sized {
		f.order = g.chunks // the roots are no longer needed
	}
	return d, nil
}

// Shard computes the embeddings of shard i of n: the nodes of chunks
// [i·C/n, (i+1)·C/n) of the C chunks one process runs (sized first), each
// run as one process runs it, so every row is that process's bit for bit.
// rows are the nodes' global rows, z their rows of width d (float32
// values: what the graph computes in a float32 run).
func (f *inferer) Shard(rng *rand.Rand, i, n int) (rows []int, z []float32, d int, err error) {
	if err := f.sizeChunks(); err != nil {
		return nil, nil, 0, err
	}
	c := f.lastChunks()
	k0, k1 := i*c/n, (i+1)*c/n
	if k0 == k1 {
		return nil, nil, 0, nil
	}
	d, err = f.run(rng, k0, k1, func(d int) {}, func(v int, row []float64) {
		rows = append(rows, v)
		for _, x := range row {
			z = append(z, float32(x))
		}
	})
	return rows, z, d, err
}

// Close releases the machines.
func (f *inferer) Close() {
	if f.fwd != nil {
		f.fwd.Close()
	}
	for _, st := range f.stages {
		st.fwd.Close()
	}
}
