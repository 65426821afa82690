package infer

import (
	"fmt"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/models"
)

// Input is what an Inferer reads: the whole graph's input, the model and
// its parameters, and the node slots of its forward-only graph.
type Input struct {
	Graph  *engine.GraphInput // the whole graph's adjacency, input rows and skip block
	Model  models.Model
	Params *engine.ParamStore
	Layers int // the model's message-passing layers: a chunk's neighbourhood
	Slots  int // node slots (at most the graph's nodes are used)
}

// Inferer computes every node's embedding chunk by chunk: the chunk's
// nodes are the seeds of a subgraph with their whole L-hop neighbourhood
// (every neighbour, whole-graph degrees), so each seed's embedding is the
// one the whole-graph forward pass gives it (up to the order of the
// neighbour sums), in a forward-only graph of a fixed number of node
// slots. Chunks are balls grown over the nodes no chunk holds yet (grower),
// so that a chunk is a connected region whose neighbourhood adds a thin
// rim, whatever order the node ids come in. The first pass sizes the
// chunks: a chunk whose neighbourhood does not fit shrinks by a quarter,
// and after one that fits the next is sized so that its neighbourhood
// would fill 95% of the slots at the same rim ratio (every forward pass
// computes all the slots); later passes reuse the chunks it found, so
// every pass sums in the same order and the chunking depends only on the
// graph: deterministic. Where a single node's neighbourhood does not fit,
// a staged model switches to layer-wise inference (layerwise.go).
type Inferer struct {
	n      int                // the graph's nodes
	whole  *engine.GraphInput // the whole graph's input
	layers int
	hops   int // a chunk's neighbourhood: layers, or 1 layer-wise
	chunk  int
	slots  *engine.SlotInput // the chunk's subgraph, adjacency and rows
	fwd    *engine.Forward
	order  []int32 // the breadth-first order of the nodes; after the first pass, the chunks' nodes
	bounds []int   // chunk k is order[bounds[k]:bounds[k+1]], after the first pass
	Chunks int     // forward passes of the last Embeddings
	ahead  int     // chunks prepared while the chunk before ran (runChunks), in all passes
	passes int     // whole-graph passes so far
	// Layer-wise inference (layerwise.go): the model and what its stage
	// graphs are built on (staged nil: the model has no stages), the
	// stages once switched, the stage a pass runs and the rows of every
	// node the stage before it gave.
	staged models.Staged
	ps     *engine.ParamStore
	in     *engine.GraphInput
	stages []stageGraph
	stage  int
	prev   *nodeRows
}

// New builds the forward-only graph of in.Model over in.Slots node slots
// on the parameters in in.Params.
func New(in Input) (*Inferer, error) {
	n := in.Graph.Adj.Links().Nodes()
	slots := min(in.Slots, n)
	f := &Inferer{n: n, whole: in.Graph, layers: in.Layers, hops: in.Layers, chunk: firstChunk(slots, n), order: bfsOrder(in.Graph.Adj.Links()), ps: in.Params}
	f.staged, _ = in.Model.(models.Staged)
	f.slots = engine.NewSlotInput(in.Graph, slots)
	f.in = f.slots.Input()
	b := engine.NewBuilder(in.Params, false)
	z, err := models.Build(in.Model, b, f.in)
	if err != nil {
		return nil, err
	}
	if f.fwd, err = engine.NewForward(b, z); err != nil {
		return nil, err
	}
	return f, nil
}

// firstChunk is the size of the first chunk tried in slots node slots on
// n nodes: half the slots, or every node when the slots hold the graph (a
// small-world graph's batches often do): one forward pass, where half
// would have run two or three over all the slots.
func firstChunk(slots, n int) int {
	if slots >= n {
		return n
	}
	return max(1, slots/2)
}

// Slots is the node slots of the forward-only graph.
func (f *Inferer) Slots() int { return f.slots.Sub.Slots }

// Layerwise reports whether the inference has switched to layer-wise.
func (f *Inferer) Layerwise() bool { return f.stages != nil }

// Passes is the whole-graph passes run so far.
func (f *Inferer) Passes() int { return f.passes }

// Ahead is the chunks prepared while the chunk before ran, in all passes.
func (f *Inferer) Ahead() int { return f.ahead }

// Bounds are the sized chunks' bounds in the chunk order (chunk k is
// bounds[k] … bounds[k+1]−1), nil before a pass has sized them.
func (f *Inferer) Bounds() []int { return f.bounds }

// Close releases the machines.
func (f *Inferer) Close() {
	if f.fwd != nil {
		f.fwd.Close()
	}
	for _, st := range f.stages {
		st.fwd.Close()
	}
}

// noFitError: one node's neighbourhood has more nodes than the slots.
type noFitError struct{ hops, nodes, from, slots int }

func (e *noFitError) Error() string {
	return fmt.Sprintf("inference: the %d-hop neighbourhood of %d nodes from node %d has more than %d nodes, the inference's node slots", e.hops, e.nodes, e.from, e.slots)
}

// DivergedError is the error of embeddings holding the non-finite v.
func DivergedError[T engine.Float](v T) error {
	return fmt.Errorf("training diverged: the embeddings contain %v (lower --lr or the λ weights)", v)
}
