package engine

import (
	"fmt"
	"hash"
	"hash/fnv"
	"unsafe"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Float is the element type of every tensor ops compute on.
type Float interface{ float32 | float64 }

var intVec = G.TensorType{Dims: 1, Of: tensor.Int}

func tt(dims int, of hm.Type) G.TensorType { return G.TensorType{Dims: dims, Of: of} }

func hashOf(w func(h hash.Hash)) uint32 {
	h := fnv.New32a()
	w(h)
	return h.Sum32()
}

// dense unwraps a gorgonia Value into a *tensor.Dense. op names the op in
// the panic message (a string or the op itself: formatted only on error).
func dense(op any, v G.Value) *tensor.Dense {
	d, ok := v.(*tensor.Dense)
	if !ok {
		panic(fmt.Sprintf("engine: %v: expected *tensor.Dense input, got %T", op, v))
	}
	return d
}

func ints(op any, v G.Value) []int {
	d := dense(op, v)
	if d.Dtype() != tensor.Int {
		panic(fmt.Sprintf("engine: %v: index input has dtype %v, want int", op, d.Dtype()))
	}
	return d.Ints()
}

func newDense(dt tensor.Dtype, shape ...int) *tensor.Dense {
	return tensor.New(tensor.WithShape(shape...), tensor.Of(dt))
}

// recoverOp turns a panic inside Do into an error gorgonia can report.
func recoverOp(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%v", r)
	}
}

// opBase holds the gorgonia Op methods every op of ours answers the same
// way (values computed in Go, never overwriting inputs) and the op's output
// buffer: each op instance (one per graph node) writes every run into the
// same zeroed tensor instead of a fresh one, which removes most of an
// epoch's allocations and, on large graphs, its page faults.
//
// When planBuffers has given the op an arena buffer (buf), the output is a
// view of that shared memory instead (see bufplan.go).
type opBase struct {
	out       *tensor.Dense
	buf       *arenaBuf // shared memory assigned by planBuffers; nil = private
	gen       int       // buf.gen that out views
	viewOfBuf bool      // out views buf's memory
}

// output returns the op's zeroed output buffer of the given dtype and
// shape, allocating it on first use (or if the shape changed).
func (b *opBase) output(dt tensor.Dtype, shape ...int) *tensor.Dense {
	out := b.outputRaw(dt, shape...)
	zero(out)
	return out
}

// zero clears t, a large one in the fixed chunks at once.
func zero(t *tensor.Dense) {
	switch n := t.Shape().TotalSize(); {
	case n < minParallelWork:
		t.Zero()
	case t.Dtype() == tensor.Float32:
		clearChunks(vals[float32](t))
	case t.Dtype() == tensor.Float64:
		clearChunks(vals[float64](t))
	default:
		t.Zero()
	}
}

func clearChunks[T Float](v []T) { runRanges(evenBounds(len(v)), func(lo, hi int) { clear(v[lo:hi]) }) }

// outputRaw is output without the zeroing, for ops that write every
// element (its contents are the last run's, or another op's).
func (b *opBase) outputRaw(dt tensor.Dtype, shape ...int) *tensor.Dense {
	if b.buf != nil && b.buf.dt == dt {
		if size := tensor.Shape(shape).TotalSize(); size <= b.buf.size {
			return b.sharedOutput(dt, size, shape)
		}
	}
	if b.out == nil || b.viewOfBuf || b.out.Dtype() != dt || !b.out.Shape().Eq(tensor.Shape(shape)) {
		b.out, b.viewOfBuf = newDense(dt, shape...), false
	}
	return b.out
}

func (opBase) ReturnsPtr() bool     { return false }
func (opBase) CallsExtern() bool    { return false }
func (opBase) OverwritesInput() int { return -1 }

// vals returns d's elements as []T without the two allocations Dense.Data
// makes (it goes through reflection) — ops call it several times per run.
// d's dtype must be T's.
func vals[T Float](d *tensor.Dense) []T {
	var z T
	if _, ok := any(z).(float32); ok {
		if d.Dtype() != tensor.Float32 {
			panic(fmt.Sprintf("engine: tensor of dtype %v read as float32", d.Dtype()))
		}
		s := d.Float32s()
		return *(*[]T)(unsafe.Pointer(&s))
	}
	if d.Dtype() != tensor.Float64 {
		panic(fmt.Sprintf("engine: tensor of dtype %v read as float64", d.Dtype()))
	}
	s := d.Float64s()
	return *(*[]T)(unsafe.Pointer(&s))
}

// scalarOut is a scalar op's output, reused every run (G.NewF32 would
// allocate one per run).
type scalarOut struct {
	f32 *G.F32
	f64 *G.F64
}

func (o *scalarOut) set32(v float32) *G.F32 {
	if o.f32 == nil {
		o.f32 = G.NewF32(0)
	}
	*o.f32 = G.F32(v)
	return o.f32
}

func (o *scalarOut) set64(v float64) *G.F64 {
	if o.f64 == nil {
		o.f64 = G.NewF64(0)
	}
	*o.f64 = G.F64(v)
	return o.f64
}

// RowDot returns the dot product of rows i and j of the row-major n × d
// matrix z (float32 values widened), summed in column order in float64 (as the ops' forward passes
// sum): the similarity every forward-only score reads.
func RowDot[T Float](z []T, d int) func(i, j int) float64 {
	return func(i, j int) float64 { return dot64(z[i*d:(i+1)*d], z[j*d:(j+1)*d]) }
}

// Dot64 is RowDot's product of two rows a and b: float64 products summed
// in order (for rows read from elsewhere, the same value).
func Dot64[T Float](a, b []T) float64 { return dot64(a, b) }
