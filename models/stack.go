package models

import (
	"fmt"
	"math"

	"github.com/ignn/ignn/engine"
	G "gorgonia.org/gorgonia"
)

// The structure models share: stages (what layer-wise inference runs one
// at a time), the stack of message-passing layers GCN, SAGE, GAT, GIN and
// GraphConv are, and Output, with which every model ends.

// Staged is a model whose forward pass is a chain of stages, each reading
// the previous stage's rows (stage 0: the input features) of a node alone
// (a row-wise stage: a pre-layer, the output map) or of the node and its
// one-hop neighbours (a message-passing layer), the last giving Forward's
// embeddings. Layer-wise inference runs them one at a time over the whole
// graph, in chunks of nodes — with their one-hop rim for a message-passing
// stage — where a node's whole L-hop neighbourhood would not fit in memory
// (a small world's reaches most of the graph in three hops; issue 37).
// Forward must be forwardStages, so both paths compute the same thing.
type Staged interface {
	Model
	Stages() int
	// StageHops is 0 when stage s computes a node's row from the node's
	// own row alone, 1 when from its neighbours' too.
	StageHops(s int) int
	// Stage adds stage s to b's graph on in and returns its N × width
	// rows; h is stage s−1's rows (nil for s = 0), an input node when the
	// stages run apart. Only stage 0 reads in.X and only the last reads
	// in.Skip; a row-wise stage reads no adjacency.
	Stage(b *engine.Builder, in *engine.GraphInput, s int, h *G.Node) *G.Node
}

// forwardStages is a staged model's Forward: its stages chained in one graph.
func forwardStages(m Staged, b *engine.Builder, in *engine.GraphInput) *G.Node {
	var h *G.Node
	for s := range m.Stages() {
		h = m.Stage(b, in, s, h)
	}
	return h
}

// BuildStage is Build for stage s of a staged model.
func BuildStage(m Staged, b *engine.Builder, in *engine.GraphInput, s int, h *G.Node) (z *G.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("models: building stage %d: %v", s, r)
		}
	}()
	z = m.Stage(b, in, s, h)
	if z.Dims() != 2 || z.Shape()[0] != in.Adj.N {
		return nil, fmt.Errorf("models: stage %d has shape %v, want %d rows", s, z.Shape(), in.Adj.N)
	}
	return z, nil
}

// stack is the structure shared by GCN, SAGE, GAT and GIN: optional linear
// pre-layer, Layers message-passing layers with ReLU and dropout between
// them, and L2-normalised output. layer(b, name, h, in, out) builds one
// layer up to its bias; on the first layer without a pre-layer h is nil and
// the layer must read the features itself (see transform).
type stack struct {
	name  string
	cfg   Config
	layer func(b *engine.Builder, name string, h *G.Node, x *engine.Features, adj *engine.Adjacency, in, out int) Biased
}

// Biased is a layer's output before its bias: the stack adds the bias
// parameter Name (initialised by Init), fused with the ReLU and dropout
// between layers (engine.Builder.BiasReLUDropout), plain on the last layer.
type Biased struct {
	Y    *G.Node
	Name string
	Init engine.Init
}

func (s stack) Forward(b *engine.Builder, gi *engine.GraphInput) *G.Node {
	return forwardStages(s, b, gi)
}

// Stages: the pre-layer (row-wise, when Pre), one a message-passing layer,
// and Output (row-wise); Output alone with SkipAlone.
func (s stack) Stages() int {
	if s.cfg.SkipAlone {
		return 1
	}
	return s.pre() + s.cfg.Layers + 1
}

func (s stack) pre() int {
	if s.cfg.Pre {
		return 1
	}
	return 0
}

func (s stack) StageHops(st int) int {
	if s.cfg.SkipAlone || st < s.pre() || st == s.Stages()-1 {
		return 0
	}
	return 1
}

// Stage adds the pre-layer, layer l = st − pre (h is layer l−1's output,
// ReLU'd and dropped out, or the pre-layer's) or Output.
func (s stack) Stage(b *engine.Builder, gi *engine.GraphInput, st int, h *G.Node) *G.Node {
	if s.cfg.SkipAlone {
		return Output(b, s.name, s.cfg, nil, gi)
	}
	switch l := st - s.pre(); {
	case l < 0:
		return b.InputLinear(s.name+".pre", gi.X, s.cfg.Hidden, true)
	case l == s.cfg.Layers:
		return Output(b, s.name, s.cfg, h, gi)
	default:
		in := s.cfg.Hidden
		if l == 0 && !s.cfg.Pre {
			in = gi.X.Dim()
		}
		out := s.cfg.Hidden
		if l == s.cfg.Layers-1 {
			out = s.cfg.Out
		}
		name := fmt.Sprintf("%s.%d", s.name, l)
		o := s.layer(b, name, h, gi.X, gi.Adj, in, out)
		engine.AssertShape(name, o.Y, gi.Adj.N, out)
		if l < s.cfg.Layers-1 {
			return b.BiasReLUDropout(o.Name, o.Y, o.Init, name+".dropout", s.cfg.Dropout)
		}
		return b.AddBias(o.Name, o.Y, o.Init)
	}
}

// Output ends a model: h (N × c.Out, the message-passing result) plus, when
// the input has a skip block (gi.Skip), its linear map (parameter
// NAME.skip), with c.SkipGate first passing h, normalised, through an
// Out×Out map started at 0 (NAME.gate); then rows L2-normalised. The skip
// map starts at gi.SkipInit when it is set (run's --skip-principal), at
// random otherwise. With c.SkipAlone, h must be nil and the embedding is
// the skip's map alone. When the input carries a neighbourhood sketch
// (gi.Sketch; c.Sketch), the embedding ends with its columns (Config.Sketch),
// with c.SkipAlone too (the skip path and the sketch: the recipe without its
// trained layers), but not in a training graph; then, when the input has a
// popularity column (gi.Popularity; c.Popularity), with it, at
// PopularityScale. Every model that declares Entry.Skip ends with it.
func Output(b *engine.Builder, name string, c Config, h *G.Node, gi *engine.GraphInput) *G.Node {
	z := smoothed(b, name, c, h, gi)
	if b.Train { // trained without them: the sketch and the popularity column join the embedding after training
		return z
	}
	if gi.Sketch != nil {
		if gi.SketchMix == nil {
			panic("models: the input has a neighbourhood sketch and no share for it (GraphInput.SketchMix)")
		}
		z = engine.RowNormalize(engine.AppendFeatures(z, gi.Sketch, gi.SketchMix))
	}
	if gi.Popularity != nil {
		if gi.PopularityMix == nil {
			panic("models: the input has a popularity column and no share for it (GraphInput.PopularityMix)")
		}
		z = engine.RowNormalize(engine.AppendFeatures(z, gi.Popularity, gi.PopularityMix))
	}
	return z
}

// smoothed is Output before the sketch.
func smoothed(b *engine.Builder, name string, c Config, h *G.Node, gi *engine.GraphInput) *G.Node {
	z := output(b, name, c, h, gi)
	if gi.Skip == nil || !(c.SkipSmooth > 0) {
		return z
	}
	if c.SkipSmooth > 1 {
		panic(fmt.Sprintf("models: skip smoothing %v: want β in (0, 1]", c.SkipSmooth))
	}
	keep, beta, a := b.Scalar(name+".smooth.keep", 1-c.SkipSmooth), b.Scalar(name+".smooth.beta", c.SkipSmooth), gi.Adj.GCNNorm()
	smooth := func(v *G.Node) *G.Node {
		teleport, h := G.Must(G.Mul(v, keep)), v
		for range max(1, c.SkipSmoothSteps) {
			h = engine.Add(teleport, G.Must(G.Mul(engine.SpMM(a, h), beta)))
		}
		return engine.RowNormalize(h)
	}
	if c.SkipSplit && b.Train && b.DistanceView != nil {
		b.DistanceView = smooth(b.DistanceView)
	}
	return smooth(z)
}

// output is Output before SkipSmooth.
func output(b *engine.Builder, name string, c Config, h *G.Node, gi *engine.GraphInput) *G.Node {
	if c.SkipAlone {
		switch {
		case gi.Skip == nil:
			panic("models: --skip-alone leaves only the skip path, and the input has no skip block (--position-skip)")
		case h != nil:
			panic(fmt.Sprintf("models: --skip-alone: %s builds its message passing before its output; only the layer stack (gcn, sage, gat, gin, graphconv) leaves it out", name))
		}
		return engine.RowNormalize(b.InputLinearInit(name+".skip", gi.Skip, c.Out, false, skipInit(gi)))
	}
	if gi.Skip != nil && c.SkipMix > 0 {
		return skipMix(b, name, c, h, gi)
	}
	if gi.Skip != nil {
		if c.SkipGate { // the message-passing branch, normalised, through an Out×Out map that starts at 0
			h = engine.MatMul(engine.RowNormalize(h), b.Param(name+".gate", engine.Zeros, c.Out, c.Out))
		}
		s := b.InputLinearInit(name+".skip", gi.Skip, c.Out, false, skipInit(gi))
		if c.SkipSplit && b.Train {
			b.DistanceView = engine.RowNormalize(engine.Add(engine.StopGradient(h), s))
		}
		h = engine.Add(h, s)
	}
	return engine.RowNormalize(h)
}

// skipMix is Output with c.SkipMix = w: [√w·ŝ | √(1−w)·m̂], ŝ the skip map
// of the positional block to Out/2 columns and m̂ the message-passing output
// mapped (NAME.mix) to the other Out − Out/2, each row-normalised, side by
// side through two constant placement matrices (NAME.mix.left/right): the
// rows have unit norm and a cosine w·cos(ŝ) + (1−w)·cos(m̂). The skip map
// starts at random (a principal start is Out columns wide).
func skipMix(b *engine.Builder, name string, c Config, h *G.Node, gi *engine.GraphInput) *G.Node {
	if !(c.SkipMix > 0 && c.SkipMix < 1) {
		panic(fmt.Sprintf("models: skip mix %v: want a share in (0, 1)", c.SkipMix))
	}
	hs := c.Out / 2
	hm := c.Out - hs
	if hs < 1 {
		panic(fmt.Sprintf("models: --skip-mix needs an output of at least 2 columns, got %d", c.Out))
	}
	place := func(rows, at int, scale float64) []float64 {
		v := make([]float64, rows*c.Out)
		for r := range rows {
			v[r*c.Out+at+r] = scale
		}
		return v
	}
	s := engine.RowNormalize(b.InputLinearInit(name+".skip", gi.Skip, hs, false, nil))
	m := engine.RowNormalize(engine.MatMul(h, b.Param(name+".mix", engine.Glorot(1), h.Shape()[1], hm)))
	left := b.Constant(name+".mix.left", place(hs, 0, math.Sqrt(c.SkipMix)), hs, c.Out)
	right := b.Constant(name+".mix.right", place(hm, hs, math.Sqrt(1-c.SkipMix)), hm, c.Out)
	if c.SkipSplit && b.Train {
		b.DistanceView = engine.RowNormalize(engine.Add(engine.MatMul(s, left), engine.MatMul(engine.StopGradient(m), right)))
	}
	return engine.RowNormalize(engine.Add(engine.MatMul(s, left), engine.MatMul(m, right)))
}

// skipInit is the skip map's start: gi.SkipInit when set (run's
// --skip-principal), random (nil) otherwise.
func skipInit(gi *engine.GraphInput) engine.Init {
	if gi.SkipInit != nil {
		return engine.Values(gi.SkipInit)
	}
	return nil
}

// transform returns h·W (no bias) for a layer, or X·W through the sparse-aware
// input map when h is nil (first layer without a pre-layer).
func transform(b *engine.Builder, name string, h *G.Node, x *engine.Features, in, out int) *G.Node {
	if h == nil {
		return b.InputLinear(name, x, out, false)
	}
	w := b.Param(name+".W", engine.Glorot(1), in, out)
	return engine.MatMul(h, w)
}
