package models

import (
	"github.com/ignn/ignn/engine"
	G "gorgonia.org/gorgonia"
)

func init() {
	Register(Entry{
		Batches:     true,
		Skip:        true,
		SkipAlone:   true,
		Name:        "gcn",
		Description: "graph convolution (Kipf & Welling), symmetric normalisation with self-loops",
		New:         NewGCN,
	})
}

// NewGCN returns GCN, Kipf & Welling's graph convolution as PyG's GCNConv defines it:
// h' = D^{-1/2}(A+I)D^{-1/2}·(h·W) + b, W Glorot, b zero. The product h·W is
// taken before aggregating, which is cheaper whenever out ≤ in.
//
// Contract: c must pass Config.Validate; the model reads the input
// features and adjacency of the engine.GraphInput it is built on and returns
// N×c.Out embeddings with unit rows (a zero row stays zero).
func NewGCN(c Config) Model {
	return stack{name: "gcn", cfg: c, layer: gcnLayer}
}

func gcnLayer(b *engine.Builder, name string, h *G.Node, x *engine.Features, adj *engine.Adjacency, in, out int) Biased {
	xw := transform(b, name, h, x, in, out)
	y := engine.SpMM(adj.GCNNorm(), xw)
	return Biased{y, name + ".b", engine.Zeros}
}
