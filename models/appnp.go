package models

import (
	"fmt"

	"github.com/ignn/ignn/engine"
	G "gorgonia.org/gorgonia"
)

// APPNP's own options: declared once here, with their kind and range, and
// read back from Config.Own by appnpK.Int and appnpAlpha.Float.
var (
	appnpK = Option{Flag: "appnp-k", Default: 10, Range: &Range{Min: 1, Max: 1024},
		Usage: "APPNP: propagation steps K, the hops its embedding reads (Klicpera et al.: 10)"}
	appnpAlpha = Option{Flag: "appnp-alpha", Default: 0.1, Range: &Range{Min: 0, Max: 1},
		Usage: "APPNP: teleport probability α, the share of the MLP's output every step keeps (Klicpera et al.: 0.1)"}
)

func init() {
	Register(Entry{
		Name:        "appnp",
		Description: "APPNP (Klicpera et al.), an MLP of --layers linear maps, then K = --appnp-k steps of personalised-PageRank propagation with teleport α = --appnp-alpha",
		New:         NewAPPNP,
		Layers:      2, // the MLP's maps (PyG's example: two); the depth is K
		Options:     []Option{appnpK, appnpAlpha},
		DepthFlag:   "appnp-k",
		Skip:        true, // ends with Output (TestSkipDeclared)
		WholeGraph:  "its receptive field is --appnp-k hops, 10 by default, not the --layers hops a batch holds",
		Memory:      appnpMemory,
	})
}

// appnpPerStep is APPNP's memory per propagation step, node and output
// unit: the step's product, scaled product and sum, and their gradients
// (× dtype bytes). An estimate from the graph's ops, not calibrated
// against peak RSS.
const appnpPerStep = 6

// appnpMemory: the K propagation steps' N × out activations.
func appnpMemory(s MemoryShape) MemoryTerms {
	k := int64(appnpK.Int(s.Config))
	return MemoryTerms{After: []MemTerm{{"APPNP propagation (K steps × N × out)",
		k * s.Nodes * int64(s.Config.Out) * s.BytesPerValue * appnpPerStep, "--appnp-k or --hidden"}}}
}

// NewAPPNP returns APPNP (Klicpera et al. 2019, "Predict then Propagate",
// PyG's APPNP example): an MLP of c.Layers linear maps (in → Hidden → … →
// Out, ReLU and dropout between, biases) gives H⁰, then K steps of
// personalised-PageRank propagation
//
//	H^{k+1} = (1−α)·Â·H^k + α·H⁰,  Â = D^{-1/2}(A+I)D^{-1/2},
//
// with K = --appnp-k and α = --appnp-alpha (Config.Own), then Output. The
// propagation has no parameters, so the embedding of a node reads its
// K-hop neighbourhood whatever c.Layers is: the model trains on the whole
// graph (no Batches). Pre is not used (the MLP's first map reads the
// input). O(K·(E + N)·Out) per forward pass beyond the MLP.
//
// Contract: c must pass Config.Validate; the model reads the input
// features and adjacency of the engine.GraphInput it is built on and
// returns N×c.Out embeddings with unit rows (a zero row stays zero).
func NewAPPNP(c Config) Model { return appnp{cfg: c} }

type appnp struct{ cfg Config }

func (m appnp) Forward(b *engine.Builder, in *engine.GraphInput) *G.Node {
	var h *G.Node
	width := in.X.Dim()
	for l := range m.cfg.Layers {
		out := m.cfg.Hidden
		if l == m.cfg.Layers-1 {
			out = m.cfg.Out
		}
		name := fmt.Sprintf("appnp.mlp.%d", l)
		y := transform(b, name, h, in.X, width, out)
		if l < m.cfg.Layers-1 {
			h = b.BiasReLUDropout(name+".b", y, engine.Zeros, name+".dropout", m.cfg.Dropout)
		} else {
			h = b.AddBias(name+".b", y, engine.Zeros)
		}
		width = out
	}
	engine.AssertShape("appnp.mlp", h, in.Adj.N, m.cfg.Out)
	alpha := appnpAlpha.Float(m.cfg)
	a := in.Adj.GCNNorm()
	teleport := G.Must(G.Mul(h, b.Scalar("appnp.alpha", alpha))) // α·H⁰, once
	keep := b.Scalar("appnp.keep", 1-alpha)
	for range appnpK.Int(m.cfg) {
		h = engine.Add(G.Must(G.Mul(engine.SpMM(a, h), keep)), teleport)
	}
	return Output(b, "appnp", m.cfg, h, in)
}
