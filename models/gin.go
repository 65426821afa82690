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
		Name:        "gin",
		Description: "graph isomorphism network, sum aggregation, 2-layer MLP, ε fixed at 0 or learned",
		New:         NewGIN,
		Options: []Option{{Flag: "gin-train-eps", Default: false, Usage: "GIN: learn ε instead of fixing it at 0",
			Set: func(c *Config, v any) error { c.TrainEps = v.(bool); return nil }}},
	})
}

// NewGIN returns GIN (Xu et al. 2019) as PyG's GINConv with a 2-layer MLP:
// h'_i = W₂·ReLU(W₁·((1+ε)·h_i + Σ_{j∈N(i)} h_j) + b₁) + b₂. ε is 0, or
// learned with TrainEps (initialised at 0). W₁ is applied before the sum
// (exact, it is linear), so aggregation runs at the hidden width.
//
// Contract: c must pass Config.Validate; the model reads the input
// features and adjacency of the engine.GraphInput it is built on and returns
// N×c.Out embeddings with unit rows (a zero row stays zero).
func NewGIN(c Config) Model {
	return stack{name: "gin", cfg: c, layer: func(b *engine.Builder, name string, h *G.Node, x *engine.Features, adj *engine.Adjacency, in, out int) Biased {
		return ginLayer(b, name, h, x, adj, in, out, c.TrainEps)
	}}
}

func ginLayer(b *engine.Builder, name string, h *G.Node, x *engine.Features, adj *engine.Adjacency, in, out int, trainEps bool) Biased {
	u := transform(b, name+".mlp.0", h, x, in, out)
	var agg *G.Node
	if trainEps {
		eps := b.Param(name+".eps", engine.Zeros, 1, 1)
		self := G.Must(G.Add(u, G.Must(G.BroadcastHadamardProd(u, eps, nil, []byte{0, 1}))))
		agg = engine.Add(engine.SpMM(adj.Sum(), u), self)
	} else {
		agg = engine.SpMM(adj.WithSelfLoops(), u)
	}
	agg = b.AddBias(name+".mlp.0.b", agg, engine.UniformFanIn(in))
	agg = engine.ReLU(agg)
	w2 := b.Param(name+".mlp.1.W", engine.UniformFanIn(out), out, out)
	y := engine.MatMul(agg, w2)
	return Biased{y, name + ".mlp.1.b", engine.UniformFanIn(out)}
}
