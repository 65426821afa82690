package run

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/models"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Layer-wise inference: where one node's whole L-hop neighbourhood does not
// fit in the inference's node slots — a small world's (a Barabási–Albert
// graph's three hops reach most of it) — a staged model (models.Staged)
// computes the embeddings one stage (layer) at a time over the whole
// graph: every stage runs the chunks, each with its one-hop rim, on the
// previous stage's rows of every node, kept in memory (N × width, in the
// graph's float type, two stages at a time). Each node's rows are the
// whole-graph forward pass's up to the order of the neighbour sums, as the
// L-hop chunks' are.

// stageGraph is one stage's forward-only graph over the inference's slots.
type stageGraph struct {
	fwd  *engine.Forward
	in   *G.Node       // the graph's input of the previous stage's rows (nil for stage 0)
	h    *tensor.Dense // those rows of the slots, bound to in
	next *tensor.Dense // the next chunk's, staged while a chunk runs (inferer.stageChunk); useChunk swaps them
}

// nodeRows is one stage's rows of every node: N × d values in the graph's
// float type (v32 or v64).
type nodeRows struct {
	v32 []float32
	v64 []float64
	d   int
}

func newNodeRows(dt tensor.Dtype, n, d int) *nodeRows {
	r := &nodeRows{d: d}
	if dt == tensor.Float32 {
		r.v32 = make([]float32, n*d)
	} else {
		r.v64 = make([]float64, n*d)
	}
	return r
}

func (r *nodeRows) set(v int, row []float64) {
	if r.v32 != nil {
		for j, x := range row {
			r.v32[v*r.d+j] = float32(x)
		}
		return
	}
	copy(r.v64[v*r.d:(v+1)*r.d], row)
}

// gather writes rows nodes[k] into row k of t (slots × d) and zeroes the
// rows after them.
func (r *nodeRows) gather(t *tensor.Dense, nodes []int) {
	d := r.d
	switch data := t.Data().(type) {
	case []float32:
		for k, v := range nodes {
			copy(data[k*d:(k+1)*d], r.v32[v*d:(v+1)*d])
		}
		clear(data[len(nodes)*d:])
	case []float64:
		for k, v := range nodes {
			copy(data[k*d:(k+1)*d], r.v64[v*d:(v+1)*d])
		}
		clear(data[len(nodes)*d:])
	}
}

// layerwise switches f to layer-wise inference for m: one-hop chunks, sized
// anew, and a forward graph per stage on the same slots and inputs.
func (f *inferer) layerwise() error {
	m, ps, in := f.staged, f.ps, f.in
	f.fwd.Close()
	f.fwd = nil
	f.hops, f.bounds, f.chunk = 1, nil, firstChunk(f.sub.Slots, f.p.Union.N)
	var h *G.Node
	for s := range m.Stages() {
		b := engine.NewBuilder(ps, false)
		var st stageGraph
		if s > 0 {
			d := h.Shape()[1]
			h = b.Input(fmt.Sprintf("stage%d.in", s), f.sub.Slots, d)
			st.h = tensor.New(tensor.WithShape(f.sub.Slots, d), tensor.Of(ps.DT))
			st.next = tensor.New(tensor.WithShape(f.sub.Slots, d), tensor.Of(ps.DT))
			st.in = h
			if err := G.Let(h, st.h); err != nil {
				return err
			}
		}
		z, err := models.BuildStage(m, b, in, s, h)
		if err != nil {
			return err
		}
		if st.fwd, err = engine.NewForward(b, z); err != nil {
			return err
		}
		f.stages = append(f.stages, st)
		h = z
	}
	return nil
}

// noFitError: one node's neighbourhood has more nodes than the slots.
type noFitError struct{ hops, nodes, from, slots int }

func (e *noFitError) Error() string {
	return fmt.Sprintf("inference: the %d-hop neighbourhood of %d nodes from node %d has more than %d nodes, the inference's node slots", e.hops, e.nodes, e.from, e.slots)
}

// run runs chunks k0 … k1−1 (k1 < 0: every chunk) of the embeddings,
// handing rows to put as pass does (put == nil only sizes the chunks): the
// whole model's chunks, or layer-wise every chunk of the stages before the
// last, then the last stage's k0 … k1−1. A staged model whose chunks do not
// fit switches to layer-wise inference and starts again (rows put before
// are put again; alloc runs once).
func (f *inferer) run(rng *rand.Rand, k0, k1 int, alloc func(d int), put func(v int, row []float64)) (int, error) {
	if alloc != nil {
		once := alloc
		alloc = func(d int) {
			if once != nil {
				once(d)
				once = nil
			}
		}
	}
	if f.stages == nil {
		d, err := f.chunks(rng, k0, k1, alloc, put)
		var nf *noFitError
		if !errors.As(err, &nf) || f.staged == nil {
			return d, err
		}
		if err := f.layerwise(); err != nil {
			return 0, err
		}
		if put == nil || k1 >= 0 { // sizing (a shard sizes first): the one-hop chunks, then the shard's
			if _, err := f.chunks(nil, 0, -1, nil, nil); err != nil || put == nil {
				return 0, err
			}
		}
	}
	if put == nil {
		return f.chunks(nil, 0, -1, nil, nil)
	}
	defer func() { f.prev, f.stage = nil, 0 }()
	for s := range f.stages {
		f.stage = s
		runStage := f.chunks
		if f.staged.StageHops(s) == 0 {
			runStage = f.rowChunks
		}
		if s == len(f.stages)-1 {
			return runStage(rng, k0, k1, alloc, put)
		}
		var next *nodeRows
		if _, err := runStage(rng, 0, -1, func(d int) { next = newNodeRows(f.ps.DT, f.p.Union.N, d) }, func(v int, row []float64) { next.set(v, row) }); err != nil {
			return 0, err
		}
		f.prev = next
	}
	return 0, nil
}

// rowChunks is chunks for a row-wise stage (StageHops 0): chunk k is the
// nodes k·S … (k+1)·S − 1 of the S slots, no rim, every slot used.
func (f *inferer) rowChunks(rng *rand.Rand, k0, k1 int, alloc func(d int), put func(v int, row []float64)) (int, error) {
	n, slots := f.p.Union.N, f.sub.Slots
	if k1 < 0 {
		k1 = f.rowChunkCount()
	}
	var bufs [2][]int32 // chunk k's seeds in bufs[k%2]: the next chunk's are listed while a chunk runs
	return f.runChunks(rng, k0, k1, 0, func(k int) []int32 {
		b := bufs[k%2][:0]
		for v := k * slots; v < min(n, (k+1)*slots); v++ {
			b = append(b, int32(v))
		}
		bufs[k%2] = b
		return b
	}, alloc, put)
}

func (f *inferer) rowChunkCount() int { return (f.p.Union.N + f.sub.Slots - 1) / f.sub.Slots }

// lastChunks is how many chunks the embeddings' last pass runs, the
// chunks a shard takes its share of: the sized chunks, or layer-wise the
// last stage's.
func (f *inferer) lastChunks() int {
	if f.stages != nil && f.staged.StageHops(len(f.stages)-1) == 0 {
		return f.rowChunkCount()
	}
	return len(f.bounds) - 1
}
