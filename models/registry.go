package models

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ignn/ignn/engine"
	G "gorgonia.org/gorgonia"
)

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
