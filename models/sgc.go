package models

import (
	"github.com/ignn/ignn/engine"
	G "gorgonia.org/gorgonia"
)

func init() {
	Register(Entry{
		Name:        "sgc",
		Description: "SGC (Wu et al.), K = layers steps of symmetric normalised propagation, then one linear map (no nonlinearity)",
		New:         NewSGC,
		Batches:     true, // K = Layers hops: a batch holds its whole field (TestBatchesDeclared)
		Skip:        true, // ends with Output (TestSkipDeclared)
	})
}

// NewSGC returns SGC (Wu et al. 2019, "Simplifying Graph Convolutional
// Networks", PyG SGConv): z = Â^K·X·W + b with Â = D^{-1/2}(A+I)D^{-1/2}
// and K = c.Layers. The map is applied first (exact: Â^K is linear), so
// propagation runs at the output width; Hidden, Pre and Dropout are not
// used. It implements Model directly rather than through the layer stack,
// and ends with Output, which adds the skip path.
//
// Contract: c must pass Config.Validate; the model reads the input
// features and adjacency of the engine.GraphInput it is built on and returns
// N×c.Out embeddings with unit rows (a zero row stays zero).
func NewSGC(c Config) Model { return sgc{cfg: c} }

type sgc struct{ cfg Config }

func (m sgc) Forward(b *engine.Builder, in *engine.GraphInput) *G.Node {
	return forwardStages(m, b, in)
}

// Stages: the linear map (row-wise), one a propagation step, and the
// bias with Output (row-wise).
func (m sgc) Stages() int { return m.cfg.Layers + 2 }

func (m sgc) StageHops(s int) int {
	if s == 0 || s == m.Stages()-1 {
		return 0
	}
	return 1
}

func (m sgc) Stage(b *engine.Builder, in *engine.GraphInput, s int, h *G.Node) *G.Node {
	switch s {
	case 0:
		return b.InputLinear("sgc.W", in.X, m.cfg.Out, false)
	case m.Stages() - 1:
		h = b.AddBias("sgc.b", h, engine.Zeros)
		engine.AssertShape("sgc", h, in.Adj.N, m.cfg.Out)
		return Output(b, "sgc", m.cfg, h, in)
	}
	return engine.SpMM(in.Adj.GCNNorm(), h)
}
