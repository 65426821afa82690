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
		Name:        "graphconv",
		Description: "GraphConv (Morris et al.), sum aggregation with a separate root weight (extension example)",
		New:         NewGraphConv,
	})
}

// NewGraphConv returns GraphConv (Morris et al. 2019, "Weisfeiler and Leman Go Neural", PyG
// GraphConv with sum aggregation): h'_i = W_root·h_i + W_rel·Σ_{j∈N(i)} h_j
// + b. It is the worked example of docs/extending.md: one file, one
// Register call.
//
// Contract: c must pass Config.Validate; the model reads the input
// features and adjacency of the engine.GraphInput it is built on and returns
// N×c.Out embeddings with unit rows (a zero row stays zero).
func NewGraphConv(c Config) Model {
	return stack{name: "graphconv", cfg: c, layer: graphConvLayer}
}

func graphConvLayer(b *engine.Builder, name string, h *G.Node, x *engine.Features, adj *engine.Adjacency, in, out int) Biased {
	rel := transform(b, name+".rel", h, x, in, out)   // h·W_rel (X·W_rel on the first layer)
	root := transform(b, name+".root", h, x, in, out) // h·W_root
	y := engine.Add(engine.SpMM(adj.Sum(), rel), root)
	return Biased{y, name + ".b", engine.Zeros}
}
