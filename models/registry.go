package models

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ignn/ignn/engine"
	G "gorgonia.org/gorgonia"
)

// Config holds the architecture settings shared by every model. The zero
// value is not useful: start from DefaultConfig.
type Config struct {
	Hidden   int     // hidden width (32)
	Out      int     // embedding width (32)
	Layers   int     // message-passing layers (3; P-GNN uses 2)
	Dropout  float64 // dropout between layers in training (0.5)
	Pre      bool    // linear pre-layer input→Hidden, no activation (true)
	Heads    int     // GAT attention heads (1)
	TrainEps bool    // GIN: learn ε (false: ε = 0)
	// SkipGate, with a skip path (GraphInput.Skip), L2-normalises the
	// message-passing output and passes it through a learned Out×Out map
	// initialised at 0 before adding the skip: the untrained embedding is
	// the skip's linear map of the positional input (keeping its geometry),
	// training brings the message passing in from there, and the map alone
	// sets its share (GIN's summed messages would otherwise swamp the skip).
	SkipGate bool `json:",omitempty"`
	// AnchorIndex is P-GNN's closest-anchor semantics: AnchorFixed ("" or
	// "fixed", the reference code since its fix 9c1553d) or AnchorOriginal
	// (before it: the anchor's position in its set used as a node id).
	AnchorIndex string `json:",omitempty"`
	// AnchorDraw is when P-GNN draws its anchor sets in training:
	// AnchorEveryStep ("" or "step", the reference code) or AnchorOnce (one
	// draw kept for the whole run; an experiment, issue 14).
	AnchorDraw string `json:",omitempty"`
	// AnchorEval is which anchor sets P-GNN evaluates with: AnchorLast (""
	// or "last": the last training draw, the reference code) or AnchorFresh
	// (a new draw at every evaluation, from the evaluation stream).
	AnchorEval string `json:",omitempty"`
	// AnchorCopies is c of P-GNN's anchor sets (the reference code's
	// get_random_anchorset(n, c)): for each of the m = ⌊log₂ n⌋ set sizes
	// n/2, n/4, …, max(1, ⌊c·m⌋) random sets, m·max(1, ⌊c·m⌋) in all. 0
	// means 1, the reference's default and the paper's m² sets. Memory and
	// time grow with the set count (N × sets × hidden messages), so c < 1
	// is what lets P-GNN run on 10⁵-node graphs.
	AnchorCopies float64 `json:",omitempty"`
	// Own holds the settings of models registered after these fields were
	// fixed, by flag name (Option.Flag): a model's own option needs no
	// field here (SetOwn, OwnInt, OwnFloat, OwnString, OwnBool). Only
	// values other than the option's default are stored, so configurations
	// that keep the defaults are unchanged. JSON numbers read back as
	// float64; the typed accessors convert.
	Own map[string]any `json:",omitempty"`
}

// When P-GNN draws anchors (Config.AnchorDraw, Config.AnchorEval).
const (
	AnchorEveryStep = "step"
	AnchorOnce      = "once"
	AnchorLast      = "last"
	AnchorFresh     = "fresh"
)

// The P-GNN anchor-index semantics.
const (
	AnchorFixed    = "fixed"
	AnchorOriginal = "original"
)

// DefaultConfig is the paper's setting for GCN/SAGE/GAT/GIN.
func DefaultConfig() Config {
	return Config{Hidden: 32, Out: 32, Layers: 3, Dropout: 0.5, Pre: true, Heads: 1}
}

// Validate rejects non-positive sizes.
func (c Config) Validate() error {
	switch {
	case c.Hidden < 1:
		return fmt.Errorf("models: hidden width must be ≥ 1, got %d", c.Hidden)
	case c.Out < 1:
		return fmt.Errorf("models: output width must be ≥ 1, got %d", c.Out)
	case c.Layers < 1:
		return fmt.Errorf("models: layers must be ≥ 1, got %d", c.Layers)
	case !(c.Dropout >= 0 && c.Dropout < 1):
		return fmt.Errorf("models: dropout must be in [0, 1), got %g", c.Dropout)
	case c.Heads < 1:
		return fmt.Errorf("models: heads must be ≥ 1, got %d", c.Heads)
	case c.AnchorIndex != "" && c.AnchorIndex != AnchorFixed && c.AnchorIndex != AnchorOriginal:
		return fmt.Errorf("models: unknown P-GNN anchor index %q (valid: fixed, original)", c.AnchorIndex)
	case c.AnchorDraw != "" && c.AnchorDraw != AnchorEveryStep && c.AnchorDraw != AnchorOnce:
		return fmt.Errorf("models: unknown P-GNN anchor draw %q (valid: step, once)", c.AnchorDraw)
	case c.AnchorEval != "" && c.AnchorEval != AnchorLast && c.AnchorEval != AnchorFresh:
		return fmt.Errorf("models: unknown P-GNN evaluation anchors %q (valid: last, fresh)", c.AnchorEval)
	case !(c.AnchorCopies >= 0 && c.AnchorCopies <= 64):
		return fmt.Errorf("models: P-GNN anchor copies c (--pgnn-anchor-copies) must be in [0, 64], got %g", c.AnchorCopies)
	}
	return nil
}

// Model builds node embeddings.
type Model interface {
	// Forward adds the model to b's graph and returns the N×D embeddings,
	// rows L2-normalised. It may panic on a programming error; Build
	// recovers it.
	Forward(b *engine.Builder, in *engine.GraphInput) *G.Node
}

// Entry is one registered architecture.
type Entry struct {
	Name        string
	Description string
	// NeedsHops marks models that use hop distances (P-GNN's anchors):
	// from Block.Hops when a caller supplies them, otherwise by BFS on the
	// adjacency, truncated at MaxHops. The memory plan and the skip-path
	// check read it.
	NeedsHops bool
	MaxHops   int // 0 = exact
	// Layers is the model's default depth (0: DefaultConfig's 3; P-GNN 2):
	// the one architecture default an entry declares, because it is the one
	// a run takes from it (Entry.Config gives tests and runs the same model).
	Layers int
	// Skip declares that the model adds the skip input (GraphInput.Skip,
	// --position-skip) to its embedding: the stack does; a model that
	// implements Model directly ends with Output. Without it a run refuses
	// --position-skip. TestSkipDeclared holds every entry to it.
	// LambdaMSE, when > 0, replaces the global default λ_MSE for this model
	// unless the user sets --lambda-mse (P-GNN: 1; its K-dimensional
	// position embedding loses AUC under λ_MSE = 10).
	LambdaMSE float64
	New       func(Config) Model
	// Options are the model's own settings (GAT's heads, P-GNN's anchor
	// sets): the CLI adds their flags, so a model with an option is still
	// one file.
	Options []Option
	// Cost is the model's time per epoch relative to GCN's, for balancing
	// grid shards (0 means 1).
	Cost float64
	// Memory, when set, gives the model's own terms of a run's memory plan.
	Memory func(MemoryShape) MemoryTerms
	Skip   bool
	// Batches marks models that train on mini-batches: their ops are shaped
	// by the node count only, so a graph built on an engine batch input
	// (NewBatchAdjacency, NewBatchFeatures) serves every batch, and a node's
	// embedding reads nothing beyond its Layers-hop neighbourhood (a batch
	// holds that much; TestBatchesDeclared holds every entry to it).
	Batches bool
}

// Config is DefaultConfig with the entry's depth: the configuration runs
// resolve to (with the user's settings on top) and tests build with.
func (e Entry) Config() Config {
	c := DefaultConfig()
	if e.Layers > 0 {
		c.Layers = e.Layers
	}
	return c
}

var registry = map[string]Entry{}

// Register adds an architecture; it panics on a duplicate name. Call it from
// an init function in the model's file.
func Register(e Entry) {
	if _, ok := registry[e.Name]; ok {
		panic(fmt.Sprintf("models: %q registered twice", e.Name))
	}
	registry[e.Name] = e
}

// Names lists the registered models, sorted.
func Names() []string {
	var n []string
	for k := range registry {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// NamesWhere lists the registered models whose entry keep accepts, sorted:
// every list of models in help, errors and tests comes from here.
func NamesWhere(keep func(Entry) bool) []string {
	var n []string
	for _, k := range Names() {
		if keep(registry[k]) {
			n = append(n, k)
		}
	}
	return n
}

// Lookup finds a model by name; the error lists the valid names.
func Lookup(name string) (Entry, error) {
	e, ok := registry[name]
	if !ok {
		return Entry{}, fmt.Errorf("unknown model %q (valid: %s)", name, strings.Join(Names(), ", "))
	}
	return e, nil
}

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

// Build runs m.Forward, turning a panic into an error, and checks the output
// shape is N×anything with N the input's node count.
func Build(m Model, b *engine.Builder, in *engine.GraphInput) (z *G.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("models: building the graph: %v", r)
		}
	}()
	z = m.Forward(b, in)
	if z.Dims() != 2 || z.Shape()[0] != in.Adj.N {
		return nil, fmt.Errorf("models: embeddings have shape %v, want %d rows", z.Shape(), in.Adj.N)
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
// and Output (row-wise).
func (s stack) Stages() int { return s.pre() + s.cfg.Layers + 1 }

func (s stack) pre() int {
	if s.cfg.Pre {
		return 1
	}
	return 0
}

func (s stack) StageHops(st int) int {
	if st < s.pre() || st == s.Stages()-1 {
		return 0
	}
	return 1
}

// Stage adds the pre-layer, layer l = st − pre (h is layer l−1's output,
// ReLU'd and dropped out, or the pre-layer's) or Output.
func (s stack) Stage(b *engine.Builder, gi *engine.GraphInput, st int, h *G.Node) *G.Node {
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
// random otherwise. Every
// model that declares Entry.Skip ends with it.
func Output(b *engine.Builder, name string, c Config, h *G.Node, gi *engine.GraphInput) *G.Node {
	if gi.Skip != nil {
		if c.SkipGate { // the message-passing branch, normalised, through an Out×Out map that starts at 0
			h = engine.MatMul(engine.RowNormalize(h), b.Param(name+".gate", engine.Zeros, c.Out, c.Out))
		}
		var init engine.Init
		if gi.SkipInit != nil {
			init = engine.Values(gi.SkipInit)
		}
		h = engine.Add(h, b.InputLinearInit(name+".skip", gi.Skip, c.Out, false, init))
	}
	return engine.RowNormalize(h)
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
