package run

import (
	"fmt"
	"math/rand/v2"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/models"
)

// ChunkedInferenceNodes is the graph size from which a mini-batch run
// computes its evaluation embeddings in chunks of nodes (inferer) rather
// than with one forward pass over the whole graph, whose N × hidden
// buffers per layer are the largest part of a 10⁷-node run (issue 37).
const ChunkedInferenceNodes = 1 << 18

// inferer computes every node's embedding chunk by chunk: the chunk's
// nodes are the seeds of a subgraph with their whole L-hop neighbourhood
// (every neighbour, whole-graph degrees), so each seed's embedding is the
// one the whole-graph forward pass gives it (up to the order of the
// neighbour sums), in a forward-only graph of a fixed number of node
// slots. Chunks are consecutive node ids; a chunk whose neighbourhood does
// not fit is halved (and the smaller size kept), so the chunking depends
// only on the graph: deterministic.
type inferer struct {
	p       *Prepared
	layers  int
	chunk   int
	sub     engine.Subgraph
	adj     *engine.Adjacency
	x, skip *engine.Features
	fwd     *engine.Forward
	Chunks  int // forward passes of the last Embeddings
}

// newInferer builds the forward-only graph of model over slots node slots
// on the parameters in ps.
func newInferer(p *Prepared, model models.Model, ps *engine.ParamStore, layers, slots int) (*inferer, error) {
	slots = min(slots, p.Union.N)
	f := &inferer{p: p, layers: layers, chunk: max(1, slots/2)}
	f.sub = engine.NewSubgraph(p.Input.Adj, slots)
	f.adj = engine.NewBatchAdjacency(slots)
	f.x = engine.NewBatchFeatures(p.Input.X, slots)
	if p.Input.Skip != nil {
		f.skip = engine.NewBatchFeatures(p.Input.Skip, slots)
	}
	in := &engine.GraphInput{Adj: f.adj, X: f.x, Skip: f.skip, SkipInit: p.Input.SkipInit}
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

// Embeddings returns the N × D embeddings, row-major.
func (f *inferer) Embeddings(rng *rand.Rand) ([]float64, int, error) {
	n := f.p.Union.N
	var out []float64
	d := 0
	seeds := make([]int32, 0, f.chunk)
	f.Chunks = 0
	for lo := 0; lo < n; {
		hi := min(n, lo+f.chunk)
		seeds = seeds[:0]
		for v := lo; v < hi; v++ {
			seeds = append(seeds, int32(v))
		}
		cut, err := f.sub.Build(seeds, f.layers, 0, nil)
		if err == nil && cut > 0 {
			f.sub.Clear()
		}
		if err != nil || cut > 0 {
			if f.chunk == 1 {
				return nil, 0, fmt.Errorf("inference: the %d-hop neighbourhood of node %d has more than %d nodes, the inference's node slots", f.layers, lo, f.sub.Slots)
			}
			f.chunk /= 2
			continue
		}
		f.sub.Load(f.adj, true)
		f.x.LoadRows(f.p.Input.X, f.sub.Nodes)
		if f.skip != nil {
			f.skip.LoadRows(f.p.Input.Skip, f.sub.Nodes)
		}
		f.sub.Clear()
		z, shape, err := f.fwd.Run(rng)
		if err != nil {
			return nil, 0, err
		}
		if out == nil {
			d = shape[1]
			out = make([]float64, n*d)
		}
		copy(out[lo*d:hi*d], z[:(hi-lo)*d])
		f.Chunks++
		lo = hi
	}
	return out, d, nil
}

// Close releases the machine.
func (f *inferer) Close() { f.fwd.Close() }
