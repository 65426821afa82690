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
	// SkipAlone, with a skip path, leaves the message passing out: the
	// embedding is the skip's linear map of the positional input alone,
	// normalised — the ablation that shows what the message passing adds
	// to a recipe with a skip path. Only the layer stack (GCN, SAGE, GAT,
	// GIN, GraphConv) can leave its layers out; Output refuses it after
	// message passing that was built. A neighbourhood sketch (Sketch) stays
	// when the input has one: the skip path and the sketch are the recipe
	// without its trained layers (run's large defaults give a SkipAlone run
	// none).
	SkipAlone bool `json:",omitempty"`
	// SkipMix, in (0, 1) with a skip path, makes the embedding two unit
	// halves side by side, [√w·skip | √(1−w)·message passing] with w =
	// SkipMix: the skip's map of the positional input (Out/2 columns) and the
	// message-passing output mapped to the other Out − Out/2 columns, each
	// L2-normalised, so a pair's cosine is w·(the skip's cosine) + (1 −
	// w)·(the message passing's). Neither branch can swamp the other (the
	// added skip and gate of SkipGate let the skip's larger norm decide the
	// cosine), and each can specialise: an experiment (issue 64). 0 = off;
	// SkipGate is then not used.
	SkipMix float64 `json:",omitempty"`
	// SkipSplit, with a skip path, lets the distance term train only the
	// skip path: it reads the same embedding, but through a StopGradient on
	// the message-passing branch's share (the gated branch, or the mixed
	// half), so the link term alone trains the message passing — a division
	// of labour, so the distance term cannot pull the message passing's
	// link evidence into a second copy of the skip's distances: an
	// experiment (issue 64). The embedding, its scores and τ are unchanged.
	SkipSplit bool `json:",omitempty"`
	// SkipSmooth, β in (0, 1] with a skip path, smooths the normalised
	// embedding once over the graph before its final normalisation:
	// z = normalise((1−β)·ẑ + β·Â·ẑ), Â = D^{-1/2}(A+I)D^{-1/2}, so pairs
	// whose neighbourhoods overlap move together (common-neighbour
	// evidence the skip's map of distances cannot hold): an experiment
	// (issue 64). 0 = off. It reads one hop past the layers: a mini-batch
	// step's subgraph holds the layers' hops, so training smooths its
	// targets over rows computed on truncated neighbourhoods (an
	// approximation), and run refuses it where inference goes by chunks.
	SkipSmooth float64 `json:",omitempty"`
	// SkipSmoothSteps is the smoothing's steps K (0: one), personalised-
	// PageRank style: v ← (1−β)·ẑ + β·Â·v, K times from v = ẑ, then
	// normalised.
	SkipSmoothSteps int `json:",omitempty"`
	// Sketch, with a skip path and an input that carries the neighbourhood
	// sketch (GraphInput.Sketch, Sketch columns wide), appends it to the
	// embedding: z = normalise([√w·ẑ | √(1−w)·k]), ẑ the normalised
	// embedding (skip path and message passing), k the node's sketch row
	// (the sum of its neighbours' hash vectors, normalised:
	// features.NeighbourSketch) and w the input's share (GraphInput.SketchMix),
	// so a pair's cosine is w·(the model's) + (1−w)·(the overlap of the
	// two neighbourhoods). One hop of message passing over hash
	// identities, with no parameters (issue 64). 0 = off. The embedding is Out + Sketch
	// columns wide. Training graphs leave it out too: the model trains on
	// its own objective as without it, and the sketch joins the embedding
	// that is evaluated and written (forward-only graphs). Trained with the
	// sketch in the loss, the model gave up τ to it (docs/frontier-notes.md).
	Sketch int `json:",omitempty"`
	// SketchShare is w above, in (0, 1]; 0: chosen on the validation pairs
	// at every evaluation (run's --sketch-share 0).
	SketchShare float64 `json:",omitempty"`
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
	case !(c.SkipSmooth >= 0 && c.SkipSmooth <= 1):
		return fmt.Errorf("models: the embedding's smoothing share β (--skip-smooth) must be in [0, 1], got %g", c.SkipSmooth)
	case c.Sketch < 0:
		return fmt.Errorf("models: the neighbourhood sketch's width (--sketch) must be ≥ 0, got %d", c.Sketch)
	case !(c.SketchShare >= 0 && c.SketchShare <= 1):
		return fmt.Errorf("models: the model's share beside the neighbourhood sketch (--sketch-share) must be in (0, 1], or 0 to choose it on the validation pairs, got %g", c.SketchShare)
	case c.SkipSmoothSteps < 0 || c.SkipSmoothSteps > 0 && c.SkipSmooth == 0:
		return fmt.Errorf("models: --skip-smooth-steps %d needs --skip-smooth β > 0 (the share each step propagates)", c.SkipSmoothSteps)
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
	// sets, APPNP's K and α), each declaring its kind and accepted values:
	// the CLI adds their flags, checks and documents them, and refuses them
	// for other models, so a model with options is still one file.
	Options []Option
	// DepthFlag names the option that sets how many hops the model's
	// message passing reaches when that is not --layers (APPNP: appnp-k,
	// its propagation steps); ignn models shows it.
	DepthFlag string
	// Cost is the model's time per epoch relative to GCN's, for balancing
	// grid shards (0 means 1).
	Cost float64
	// Memory, when set, gives the model's own terms of a run's memory plan.
	Memory func(MemoryShape) MemoryTerms
	Skip   bool
	// SkipAlone declares that the model builds with Config.SkipAlone (the
	// ablation --skip-alone: its embedding the skip path's map alone): the
	// layer stack does; a model that builds its message passing before
	// Output refuses it. A compare's (skip path alone) row trains it.
	// TestSkipAlone holds every entry to it.
	SkipAlone bool
	// Batches marks models that train on mini-batches: their ops are shaped
	// by the node count only, so a graph built on an engine batch input
	// (NewBatchAdjacency, NewBatchFeatures) serves every batch, and a node's
	// embedding reads nothing beyond its Layers-hop neighbourhood (a batch
	// holds that much; TestBatchesDeclared holds every entry to it).
	Batches bool
	// WholeGraph is why a model without Batches trains on the whole graph
	// at once, as the --batch-size refusal gives it ("its attention
	// coefficients are shaped by the whole graph's edges"); required
	// without Batches (TestWholeGraphDeclared).
	WholeGraph string
}

// Depth is the entry's default depth in words: "3 (--layers)", or its
// depth option's default and flag ("10 (--appnp-k)").
func (e Entry) Depth() string {
	for _, o := range e.Options {
		if o.Flag == e.DepthFlag {
			return fmt.Sprintf("%v (--%s)", o.Default, o.Flag)
		}
	}
	return fmt.Sprintf("%d (--layers)", e.Config().Layers)
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

// Register adds an architecture; it panics on a duplicate name, an option
// declared without its kind or range (Option), or a DepthFlag that is not
// one of its options. Call it from an init function in the model's file.
func Register(e Entry) {
	if _, ok := registry[e.Name]; ok {
		panic(fmt.Sprintf("models: %q registered twice", e.Name))
	}
	for _, o := range e.Options {
		if err := o.check(); err != nil {
			panic(fmt.Sprintf("models: %s: %v", e.Name, err))
		}
	}
	if e.DepthFlag != "" && !e.Owns(e.DepthFlag) {
		panic(fmt.Sprintf("models: %s: DepthFlag --%s is not one of its options", e.Name, e.DepthFlag))
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
