package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Builder is the context a model is built in: one expression graph, the
// shared parameter store, the mode (training graphs get dropout, evaluation
// graphs do not) and the inputs that must be refilled before every run.
//
// Every node it creates has a unique name: gorgonia merges nodes with equal
// hashes, so two same-named parameters would silently become one. Reusing a
// name panics.
type Builder struct {
	G      *G.ExprGraph
	Params *ParamStore
	Train  bool
	// DistanceView, when a model sets it, is the embedding the objective's
	// distance term reads instead of the model's output: the same values,
	// with some branch's gradient stopped (models' SkipSplit).
	DistanceView *G.Node

	names  map[string]bool
	params []*G.Node
	masks  []*dropMask
	feeds  []Feed
}

// Feed is a per-run input: Fill is called before every run of the graph with
// the run's random stream and must Let the node.
type Feed struct {
	Node *G.Node
	Fill func(rng *rand.Rand) error
}

type dropMask struct {
	p float64
	t *tensor.Dense // 0 or 1/(1−p) in the graph's dtype: what the mask op multiplies by
}

// NewBuilder starts a new graph using the store's parameters.
func NewBuilder(ps *ParamStore, train bool) *Builder {
	return &Builder{G: G.NewGraph(), Params: ps, Train: train, names: map[string]bool{}}
}

// DT is the float dtype of the graph.
func (b *Builder) DT() tensor.Dtype { return b.Params.DT }

func (b *Builder) claim(name string) {
	if name == "" {
		panic("engine: every node needs a name (gorgonia merges unnamed nodes)")
	}
	if b.names[name] {
		panic(fmt.Sprintf("engine: node name %q used twice", name))
	}
	b.names[name] = true
}

// Param returns the node for the named parameter, created in the store on
// first use and shared by every graph built from the store.
func (b *Builder) Param(name string, init Init, shape ...int) *G.Node {
	b.claim(name)
	t := b.Params.Get(name, shape, init)
	var n *G.Node
	if len(shape) == 1 {
		n = G.NewVector(b.G, b.DT(), G.WithShape(shape...), G.WithName(name), G.WithValue(t))
	} else {
		n = G.NewMatrix(b.G, b.DT(), G.WithShape(shape...), G.WithName(name), G.WithValue(t))
	}
	b.params = append(b.params, n)
	return n
}

// ParamNodes lists the parameter nodes of this graph in creation order.
func (b *Builder) ParamNodes() G.Nodes { return append(G.Nodes(nil), b.params...) }

// Input returns a float input node of the given shape (1 or 2 dims), to be
// bound with Let before runs.
func (b *Builder) Input(name string, shape ...int) *G.Node {
	b.claim(name)
	if len(shape) == 1 {
		return G.NewVector(b.G, b.DT(), G.WithShape(shape...), G.WithName(name))
	}
	return G.NewMatrix(b.G, b.DT(), G.WithShape(shape...), G.WithName(name))
}

// Scalar returns a float scalar input node holding v.
func (b *Builder) Scalar(name string, v float64) *G.Node {
	b.claim(name)
	var val G.Value
	if b.DT() == tensor.Float32 {
		val = G.NewF32(float32(v))
	} else {
		val = G.NewF64(v)
	}
	return G.NewScalar(b.G, b.DT(), G.WithName(name), G.WithValue(val))
}

// Constant returns an input node bound to the float64 values v (converted to
// the graph's dtype) with the given shape. It is an input, not a parameter:
// no gradient flows to it. Hash features enter the graph this way.
func (b *Builder) Constant(name string, v []float64, shape ...int) *G.Node {
	n := b.Input(name, shape...)
	G.Must(n, G.Let(n, FromFloat64(b.DT(), v, shape...)))
	return n
}

// IntInput returns an int vector input of length n (pair indices).
func (b *Builder) IntInput(name string, n int) *G.Node {
	b.claim(name)
	return G.NewVector(b.G, tensor.Int, G.WithShape(n), G.WithName(name))
}

// LetInts binds an int vector input.
func LetInts(n *G.Node, v []int) error {
	return G.Let(n, tensor.New(tensor.WithShape(len(v)), tensor.WithBacking(v)))
}

// LetFloats binds a float input of n's dtype and shape to v, writing into
// the tensor already bound to n when there is one (no allocation per
// epoch).
func LetFloats(n *G.Node, v []float64) error {
	if t, ok := n.Value().(*tensor.Dense); ok && t.Shape().Eq(n.Shape()) && t.Dtype() == n.Dtype() && t.Shape().TotalSize() == len(v) {
		SetFloat64(t, v)
		return nil
	}
	return G.Let(n, FromFloat64(n.Dtype(), v, n.Shape()...))
}

// AddFeed registers an input that is refilled before every run.
func (b *Builder) AddFeed(f Feed) { b.feeds = append(b.feeds, f) }

// Dropout returns x with inverted dropout of rate p in training graphs: x ⊙
// mask, mask entries 0 or 1/(1−p) drawn from the run's dropout stream before
// every step. In evaluation graphs, or for p = 0, it returns x.
func (b *Builder) Dropout(name string, x *G.Node, p float64) *G.Node {
	if !b.Train || p <= 0 {
		return x
	}
	if p >= 1 {
		panic(fmt.Sprintf("engine: dropout rate %g must be < 1", p))
	}
	b.claim(name)
	m := &dropMask{p: p, t: tensor.New(tensor.WithShape(x.Shape()...), tensor.Of(b.DT()))}
	b.masks = append(b.masks, m)
	return G.Must(G.ApplyOp(&maskOp{m: m, name: name}, x))
}

// fill draws every dropout mask and refills every feed.
// FillMasks draws every dropout mask of the graph from rng (what trainers
// do before each run; exported for test harnesses such as enginetest).
func (b *Builder) FillMasks(rng *rand.Rand) error { return b.fill(rng) }

func (b *Builder) fill(rng *rand.Rand) error {
	for _, m := range b.masks {
		switch m.t.Dtype() {
		case tensor.Float64:
			fillMask(rng, m.p, vals[float64](m.t))
		case tensor.Float32:
			fillMask(rng, m.p, vals[float32](m.t))
		}
	}
	for _, f := range b.feeds {
		if err := f.Fill(rng); err != nil {
			return err
		}
	}
	return nil
}

// parallelMask is the mask size from which fillMask draws in rowChunks
// ranges on their own streams; smaller masks (every mask of the paper's
// datasets) are drawn from rng in order, as always.
const parallelMask = 1 << 16

// fillMask draws a dropout mask: drawMask from rng for a small one; for
// one of parallelMask entries or more, one seed from rng, then each of
// rowChunks fixed ranges from its own PCG stream seeded by (seed, range),
// concurrently — the values depend on the seed alone, not on GOMAXPROCS.
func fillMask[T Float](rng *rand.Rand, p float64, d []T) {
	if len(d) < parallelMask {
		drawMask(rng, p, d)
		return
	}
	seed := rng.Uint64()
	b := evenBounds(len(d))
	keep := T(1 / (1 - p))
	cut := uint64(p * (1 << 53)) // a 53-bit draw below it is a drop (probability p)
	runRanges(b, func(lo, hi int) {
		r := rand.NewPCG(seed, uint64(slices.Index(b[:], lo)))
		switch d := any(d).(type) {
		case []float32:
			maskRange32(r, cut, float32(keep), d[lo:hi])
		case []float64:
			maskRange64(r, cut, float64(keep), d[lo:hi])
		}
	})
}

// maskRange32 and maskRange64 are fillMask's loop: 0 where the draw is
// below cut, keep elsewhere. The value is chosen on its bits, which the
// compiler selects without a branch (a float select would branch, and a
// mask of p = 0.5 mispredicts every other entry: 7.2 ns an entry, 2.6 with
// the select).
func maskRange32(r *rand.PCG, cut uint64, keep float32, d []float32) {
	kb := math.Float32bits(keep)
	for k := range d {
		var v uint32
		if r.Uint64()>>11 >= cut {
			v = kb
		}
		d[k] = math.Float32frombits(v)
	}
}

func maskRange64(r *rand.PCG, cut uint64, keep float64, d []float64) {
	kb := math.Float64bits(keep)
	for k := range d {
		var v uint64
		if r.Uint64()>>11 >= cut {
			v = kb
		}
		d[k] = math.Float64frombits(v)
	}
}

// drawMask fills d with 0 (probability p) or 1/(1−p), one draw per entry
// in order: the same stream and values (rounded once to T) as drawing in
// float64 and converting.
func drawMask[T Float](rng *rand.Rand, p float64, d []T) {
	keep := T(1 / (1 - p))
	for k := range d {
		if rng.Float64() < p {
			d[k] = 0
		} else {
			d[k] = keep
		}
	}
}

// Linear returns x·W (+ b) with W in×out named name+".W" and b name+".b",
// initialised like PyTorch's nn.Linear.
func (b *Builder) Linear(name string, x *G.Node, in, out int, bias bool) *G.Node {
	if x.Shape()[1] != in {
		panic(fmt.Sprintf("engine: %s: input has %d columns, layer expects %d", name, x.Shape()[1], in))
	}
	w := b.Param(name+".W", UniformFanIn(in), in, out)
	y := MatMul(x, w)
	if bias {
		y = b.AddBias(name+".b", y, UniformFanIn(in))
	}
	return y
}

// AddBias returns y + b broadcast over rows, b a new parameter.
func (b *Builder) AddBias(name string, y *G.Node, init Init) *G.Node {
	d := y.Shape()[1]
	bv := b.Param(name, init, 1, d)
	return AddRowVector(y, bv)
}

// AssertShape panics with the layer's name when n's shape differs.
func AssertShape(layer string, n *G.Node, shape ...int) {
	if !n.Shape().Eq(tensor.Shape(shape)) {
		panic(fmt.Sprintf("engine: %s produced shape %v, want %v", layer, n.Shape(), tensor.Shape(shape)))
	}
}
