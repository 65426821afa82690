package engine

import (
	"fmt"
	"math/rand/v2"
	"sync"

	G "gorgonia.org/gorgonia"
)

// Features describes the input features of N nodes as the column
// concatenation [Sparse | Dense]: an optional sparse part (a one-hot identity
// is a permutation matrix, so X·W is a row lookup, O(N·d)) and an optional
// dense row-major part (given attributes and hash vectors).
type Features struct {
	N        int
	Sparse   *CSR
	Dense    []float64
	DenseDim int
	// Dense32 holds the dense part instead of Dense in a float32 run's
	// inputs (features.Build, the skip blocks): half the memory, and the
	// float32 constant shares it rather than copying. Such features feed
	// float32 graphs only.
	Dense32 []float32
	// View, set instead of Dense and Dense32, computes the dense part row
	// by row from other storage instead of holding N × DenseDim values
	// (features.Build's and features.SkipBlocks's rows made from landmark
	// hop counts, 2 bytes an entry, when the run copies rows into batches):
	// Row(r, dst, scratch) writes row r's DenseDim values as float32 into
	// dst, with scratch (ViewScratch float64s) its own. Calls with
	// distinct scratch may run concurrently. Mini-batch graphs copy the rows
	// they need (LoadRows); a whole-graph constant stores the rows once
	// (Materialise). Such features feed float32 graphs only.
	View        func(r int, dst []float32, scratch []float64)
	ViewScratch int
	// ViewInOrder says View reads its source a block of rows at a time
	// (landmark hop counts in a spill file): LoadRows then computes a
	// batch's rows in increasing row order, so neighbouring rows share
	// a read (a sort a batch, not worth it for a source in memory).
	ViewInOrder bool
	// ViewAhead, when set, asks the memory for what View(r) will read
	// (a prefetch: it changes no value); the row loaders call it for the
	// row viewAhead places ahead of the one they compute, so a batch's
	// scattered source rows arrive while earlier ones are computed.
	ViewAhead func(r int)

	once   sync.Once
	dense  *ConstMatrix
	orig   []float64 // SetColumnSigns's reference columns
	staged stagedRows
}

func (f *Features) constant() *ConstMatrix {
	f.once.Do(func() {
		f.Materialise()
		if f.Dense32 != nil {
			f.dense = NewConstMatrix32(f.N, f.DenseDim, f.Dense32)
			return
		}
		f.dense = NewConstMatrix(f.N, f.DenseDim, f.Dense)
	})
	return f.dense
}

// Materialise stores a View's rows in Dense32 and drops the view (the
// values are the ones the view computes, so nothing downstream changes); a
// stored part is left as it is. O(N·DenseDim).
func (f *Features) Materialise() {
	if f.View == nil {
		return
	}
	d := f.DenseDim
	v := make([]float32, f.N*d)
	scratch := make([]float64, f.ViewScratch)
	for r := range f.N {
		f.View(r, v[r*d:(r+1)*d], scratch)
	}
	f.Dense32, f.View = v, nil
}

// Rows returns a reader of the dense part's rows, widened to float64 from
// whichever storage holds them (a view's rows computed as read); each
// reader has its own scratch, so one reader serves one goroutine.
func (f *Features) Rows() func(r int, dst []float64) {
	d := f.DenseDim
	switch {
	case f.View != nil:
		row, scratch := make([]float32, d), make([]float64, f.ViewScratch)
		return func(r int, dst []float64) {
			f.View(r, row, scratch)
			for j, x := range row {
				dst[j] = float64(x)
			}
		}
	case f.Dense32 != nil:
		return func(r int, dst []float64) {
			for j, x := range f.Dense32[r*d : (r+1)*d] {
				dst[j] = float64(x)
			}
		}
	}
	return func(r int, dst []float64) { copy(dst[:d], f.Dense[r*d:(r+1)*d]) }
}

// At is dense entry i (row-major), from whichever storage holds it (a
// view computes the entry's whole row: read many entries with Rows).
func (f *Features) At(i int) float64 {
	if f.View != nil {
		row := make([]float64, f.DenseDim)
		f.Rows()(i/f.DenseDim, row)
		return row[i%f.DenseDim]
	}
	if f.Dense32 != nil {
		return float64(f.Dense32[i])
	}
	return f.Dense[i]
}

// DenseFloat64 is the dense part as float64: Dense itself, or a widened
// copy of Dense32.
func (f *Features) DenseFloat64() []float64 {
	if f.View != nil {
		v, read := make([]float64, f.N*f.DenseDim), f.Rows()
		for r := range f.N {
			read(r, v[r*f.DenseDim:(r+1)*f.DenseDim])
		}
		return v
	}
	if f.Dense32 == nil {
		return f.Dense
	}
	v := make([]float64, len(f.Dense32))
	for i, x := range f.Dense32 {
		v[i] = float64(x)
	}
	return v
}

// SetRow sets dense row r to row (DenseDim values), rounded to float32
// in compacted storage.
func (f *Features) SetRow(r int, row []float64) {
	d := f.DenseDim
	if f.View != nil {
		panic("engine: SetRow on features whose dense part is a view")
	}
	if f.Dense32 != nil {
		for j, v := range row[:d] {
			f.Dense32[r*d+j] = float32(v)
		}
		return
	}
	copy(f.Dense[r*d:(r+1)*d], row[:d])
}

// Dim is the total feature width.
func (f *Features) Dim() int {
	d := f.DenseDim
	if f.Sparse != nil {
		d += f.Sparse.Cols
	}
	return d
}

// Block is one graph of a disjoint union: nodes Off..Off+N-1, with its
// all-pairs hop distances on the message-passing graph (row-major N×N,
// HopUnreachable when there is no path) when a model needs them.
type Block struct {
	Off, N int
	Hops   []uint16
}

// HopUnreachable marks an unreachable pair in Block.Hops.
const HopUnreachable = ^uint16(0)

// GraphInput is what a model sees: the message-passing adjacency of the
// (union) graph, the input features and the graph blocks.
type GraphInput struct {
	Adj    *Adjacency
	X      *Features
	Blocks []Block
	// Skip, when set, is a positional block that models add linearly to
	// their output before normalising (a skip path from the input's
	// positional columns to the embedding).
	Skip *Features
	// SkipInit, when set, is the skip map's initial value (Skip's width ×
	// the output width, row-major) instead of a random one.
	SkipInit []float64
	// Sketch, when set, is a dense block of constant columns that models
	// with a skip path append to their embedding (the neighbourhood
	// sketch: features.NeighbourSketch). It travels with Skip: a batch
	// stages both or neither. SketchMix is its share (engine.Mix), which
	// its owner may change between runs.
	Sketch    *Features
	SketchMix *Mix
	// Popularity, when set, is the one-column block that models with a skip
	// path append last (features.Popularity), at the share PopularityMix
	// (1/(1 + A²) for the column's scale A). It travels with Skip as the
	// sketch does.
	Popularity    *Features
	PopularityMix *Mix
}

// Values initialises a parameter to a copy of v (its length must match).
func Values(v []float64) Init {
	return func(_ *rand.Rand, data []float64, _, _ int) {
		if len(v) != len(data) {
			panic(fmt.Sprintf("engine: Values: %d values for a parameter of %d", len(v), len(data)))
		}
		copy(data, v)
	}
}

// InputLinear applies one linear map to the features: X·W + b with W
// (Dim×out) stored as name+".Ws" (sparse rows) and name+".Wd" (dense rows),
// initialised like one nn.Linear(Dim, out). The sparse part uses SpMM, so no
// N×Dim dense product is formed; the dense features enter as a constant input
// input held by a ConstMul op (no unused dX is computed).
func (b *Builder) InputLinear(name string, x *Features, out int, bias bool) *G.Node {
	return b.InputLinearInit(name, x, out, bias, nil)
}

// InputLinearInit is InputLinear with the dense part's weights initialised
// by dense instead (nil: as InputLinear does).
func (b *Builder) InputLinearInit(name string, x *Features, out int, bias bool, dense Init) *G.Node {
	in := x.Dim()
	if in == 0 {
		panic(fmt.Sprintf("engine: %s: the input has no features", name))
	}
	var y *G.Node
	if x.Sparse != nil {
		ws := b.Param(name+".Ws", UniformFanIn(in), x.Sparse.Cols, out)
		y = SpMM(x.Sparse, ws)
	}
	if x.DenseDim > 0 {
		if dense == nil {
			dense = UniformFanIn(in)
		}
		wd := b.Param(name+".Wd", dense, x.DenseDim, out)
		yd := ConstMul(x.constant(), wd)
		if y == nil {
			y = yd
		} else {
			y = Add(y, yd)
		}
	}
	if bias {
		y = b.AddBias(name+".b", y, UniformFanIn(in))
	}
	AssertShape(name, y, x.N, out)
	return y
}
