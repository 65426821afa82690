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
		Name:        "sage",
		Description: "GraphSAGE, mean aggregator with a separate root weight",
		New:         NewSAGE,
	})
}

// NewSAGE returns GraphSAGE with the mean aggregator as PyG ≥ 1.5 defines SAGEConv:
// h'_i = W_root·h_i + W_rel·mean_{j∈N(i)} h_j + b, with no output
// normalisation. It is written as two products, never a Concat (gorgonia's
// Concat gradient is wrong for some offsets), and W_rel is applied before
// the mean (exact, since the mean is linear): D⁻¹A·(h·W_rel). Isolated nodes
// aggregate nothing.
//
// Contract: c must pass Config.Validate; the model reads the input
// features and adjacency of the engine.GraphInput it is built on and returns
// N×c.Out embeddings with unit rows (a zero row stays zero).
func NewSAGE(c Config) Model {
	return stack{name: "sage", cfg: c, layer: sageLayer}
}

func sageLayer(b *engine.Builder, name string, h *G.Node, x *engine.Features, adj *engine.Adjacency, in, out int) Biased {
	rel := transform(b, name+".rel", h, x, in, out)
	root := transform(b, name+".root", h, x, in, out)
	y := engine.Add(engine.SpMM(adj.MeanNorm(), rel), root)
	return Biased{y, name + ".b", engine.Zeros}
}
