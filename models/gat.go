package models

import (
	"fmt"

	"github.com/ignn/ignn/engine"
	G "gorgonia.org/gorgonia"
)

func init() {
	Register(Entry{
		Name:        "gat",
		Skip:        true,
		SkipAlone:   true,
		Description: "graph attention network, LeakyReLU(0.2) attention with self-loops, heads averaged",
		New:         NewGAT,
		Options: []Option{{Flag: "heads", Default: 1, Range: &Range{Min: 1, Max: MaxHeads}, Usage: "GAT attention heads",
			Set: func(c *Config, v any) error { c.Heads = v.(int); return nil }}},
		WholeGraph: "its attention ops are shaped by the edge count, which changes from batch to batch",
		Cost:       1.3, // measured per epoch on Communities
		Memory:     gatMemory,
	})
}

// MaxHeads bounds --heads (the memory plan counts edges × heads).
const MaxHeads = 1024

// gatPerEdgeAct is GAT's memory per edge and head: scores, LeakyReLU,
// softmax and their gradients, shared by liveness (× dtype bytes);
// calibrated against peak RSS with the rest of the memory plan.
const gatPerEdgeAct = 3

// gatMemory: activations once per head, and the attention coefficients.
func gatMemory(s MemoryShape) MemoryTerms {
	heads := int64(max(1, s.Config.Heads))
	return MemoryTerms{
		ActivationScale: heads,
		ActivationFlags: "--heads, --hidden or --layers",
		Before: []MemTerm{{"attention (edges × heads)",
			(2*s.Edges + s.Nodes) * heads * s.BytesPerValue * gatPerEdgeAct * int64(s.Config.Layers), "--heads"}},
	}
}

// NewGAT returns GAT (Veličković et al. 2018) as PyG's GATConv: per head, Wh = h·W,
// e_ij = LeakyReLU_{0.2}(a_dst·Wh_i + a_src·Wh_j) over the incoming edges of
// i plus its self-loop, α = softmax of e over each destination's edges, and
// h'_i = Σ_j α_ij·Wh_j. Heads are averaged (PyG concat=False), which keeps
// the width fixed and avoids gorgonia's Concat; then + b. No attention
// dropout. Glorot init for W and a, zero bias.
//
// Contract: c must pass Config.Validate; the model reads the input
// features and adjacency of the engine.GraphInput it is built on and returns
// N×c.Out embeddings with unit rows (a zero row stays zero).
func NewGAT(c Config) Model {
	return stack{name: "gat", cfg: c, layer: func(b *engine.Builder, name string, h *G.Node, x *engine.Features, adj *engine.Adjacency, in, out int) Biased {
		return gatLayer(b, name, h, x, adj, in, out, c.Heads)
	}}
}

func gatLayer(b *engine.Builder, name string, h *G.Node, x *engine.Features, adj *engine.Adjacency, in, out, heads int) Biased {
	a := adj.WithSelfLoops()
	var sum *G.Node
	for k := 0; k < heads; k++ {
		hn := fmt.Sprintf("%s.head%d", name, k)
		wh := transform(b, hn, h, x, in, out)
		asrc := b.Param(hn+".att_src", engine.Glorot(1), out, 1)
		adst := b.Param(hn+".att_dst", engine.Glorot(1), out, 1)
		ss := engine.MatMul(wh, asrc) // N×1
		sd := engine.MatMul(wh, adst)
		e := engine.LeakyReLU(engine.EdgeScores(a, sd, ss), 0.2)
		alpha := engine.SegmentSoftmax(a, e)
		y := engine.EdgeSpMM(a, alpha, wh)
		if sum == nil {
			sum = y
		} else {
			sum = G.Must(G.Add(sum, y))
		}
	}
	if heads > 1 {
		sum = G.Must(G.Mul(sum, b.Scalar(name+".inv_heads", 1/float64(heads))))
	}
	return Biased{sum, name + ".b", engine.Zeros}
}
