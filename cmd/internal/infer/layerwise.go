package infer

import (
	"fmt"

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
	next *tensor.Dense // the next chunk's, staged while a chunk runs (Inferer.stageChunk); useChunk swaps them
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
func (f *Inferer) layerwise() error {
	m, ps, in := f.staged, f.ps, f.in
	f.fwd.Close()
	f.fwd = nil
	f.hops, f.bounds, f.chunk = 1, nil, firstChunk(f.slots.Sub.Slots, f.n)
	var h *G.Node
	for s := range m.Stages() {
		b := engine.NewBuilder(ps, false)
		var st stageGraph
		if s > 0 {
			d := h.Shape()[1]
			h = b.Input(fmt.Sprintf("stage%d.in", s), f.slots.Sub.Slots, d)
			st.h = tensor.New(tensor.WithShape(f.slots.Sub.Slots, d), tensor.Of(ps.DT))
			st.next = tensor.New(tensor.WithShape(f.slots.Sub.Slots, d), tensor.Of(ps.DT))
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
