package engine

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	"github.com/ignn/ignn/engine/internal/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// AddRowVector returns x + b with b (1×D) added to every row of x (N×D).
// Unlike gorgonia's BroadcastAdd it does not materialise the repeated b.
// Gradients: dx = g, db = column sums of g. O(N·D).
func AddRowVector(x, b *G.Node) *G.Node {
	if x.Dims() != 2 || b.Dims() != 2 || b.Shape()[0] != 1 || b.Shape()[1] != x.Shape()[1] {
		panic(fmt.Sprintf("engine: AddRowVector: x %v, b %v", x.Shape(), b.Shape()))
	}
	return G.Must(G.ApplyOp(&bcastOp{mode: bcAdd}, x, b))
}

// ScaleRows returns x ⊙ s with s (N×1) scaling each row of x (N×D), without
// materialising the broadcast. Gradients: dx = g ⊙ s, ds_i = ⟨g_i, x_i⟩.
func ScaleRows(x, s *G.Node) *G.Node {
	if x.Dims() != 2 || s.Dims() != 2 || s.Shape()[1] != 1 || s.Shape()[0] != x.Shape()[0] {
		panic(fmt.Sprintf("engine: ScaleRows: x %v, s %v", x.Shape(), s.Shape()))
	}
	return G.Must(G.ApplyOp(&bcastOp{mode: bcScale}, x, s))
}

const (
	bcAdd    = iota // (x, b) → x + b
	bcScale         // (x, s) → x ⊙ s
	bcColSum        // (g) → column sums (1×D)
	bcRowDot        // (g, x) → row dots (N×1)
)

type bcastOp struct {
	opBase
	mode int
}

func (op *bcastOp) Arity() int {
	if op.mode == bcColSum {
		return 1
	}
	return 2
}
func (op *bcastOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	if op.mode == bcColSum {
		return hm.NewFnType(tt(2, a), tt(2, a))
	}
	return hm.NewFnType(tt(2, a), tt(2, a), tt(2, a))
}
func (op *bcastOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s := in[0].(tensor.Shape)
	switch op.mode {
	case bcColSum:
		return tensor.Shape{1, s[1]}, nil
	case bcRowDot:
		return tensor.Shape{s[0], 1}, nil
	}
	return s.Clone(), nil
}
func (op *bcastOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	x := dense(op, in[0])
	n, d := x.Shape()[0], x.Shape()[1]
	var y *tensor.Dense
	if op.mode != bcColSum {
		y = dense(op, in[1])
	}
	var out *tensor.Dense
	if op.mode == bcColSum {
		out = op.output(x.Dtype(), op.outShape(n, d)...) // sums: zeroed
	} else {
		out = op.outputRaw(x.Dtype(), op.outShape(n, d)...) // every element written
	}
	switch x.Dtype() {
	case tensor.Float64:
		xs := vals[float64](x)
		var ys []float64
		if y != nil {
			ys = vals[float64](y)
		}
		bcast(op.mode, xs, ys, vals[float64](out), n, d)
	case tensor.Float32:
		xs := vals[float32](x)
		var ys []float32
		if y != nil {
			ys = vals[float32](y)
		}
		bcast(op.mode, xs, ys, vals[float32](out), n, d)
	default:
		return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, x.Dtype())
	}
	return out, nil
}

func (op *bcastOp) outShape(n, d int) []int {
	switch op.mode {
	case bcColSum:
		return []int{1, d}
	case bcRowDot:
		return []int{n, 1}
	}
	return []int{n, d}
}

func bcast[T Float](mode int, x, y, out []T, n, d int) {
	if x32, ok := any(x).([]float32); ok && mode == bcColSum && d == 32 && n > 0 && blas.Kernels() {
		// The column sums eight lanes at a time, rows in order: the same
		// additions as the loop below. Large ones as two halves of 16
		// columns at once (a cache line of each row apiece).
		o32 := any(out).([]float32)
		if n*d < minParallelWork {
			blas.ColSum32(o32, x32, d, n)
			return
		}
		var halves [rowChunks + 1]int // [0, 16), [16, 32), then empty ranges
		for c := 1; c <= rowChunks; c++ {
			halves[c] = min(16*c, 32)
		}
		runRanges(halves, func(lo, _ int) { blas.ColSum16(o32[lo:], x32[lo:], d, n) })
		return
	}
	if mode == bcColSum || n*d < minParallelWork { // no closure: it would be allocated every call
		bcastRows(mode, x, y, out, d, 0, n)
		return
	}
	// Rows are independent outside the column sums: the fixed partition.
	parallelRanges(evenBounds(n), n*d, func(lo, hi int) { bcastRows(mode, x, y, out, d, lo, hi) })
}

func bcastRows[T Float](mode int, x, y, out []T, d, lo, hi int) {
	for i := lo; i < hi; i++ {
		xr := x[i*d : (i+1)*d]
		switch mode {
		case bcAdd:
			or := out[i*d : (i+1)*d]
			for k := range xr {
				or[k] = xr[k] + y[k]
			}
		case bcScale:
			or, s := out[i*d:(i+1)*d], y[i]
			for k := range xr {
				or[k] = xr[k] * s
			}
		case bcColSum:
			for k := range xr {
				out[k] += xr[k]
			}
		case bcRowDot:
			yr := y[i*d : (i+1)*d]
			var s T
			for k := range xr {
				s += xr[k] * yr[k]
			}
			out[i] = s
		}
	}
}

func (op *bcastOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "engine.%s", op) }
func (op *bcastOp) Hashcode() uint32      { return hashOf(op.WriteHash) }
func (op *bcastOp) String() string {
	return [...]string{"AddRowVector", "ScaleRows", "ColumnSums", "RowDots"}[op.mode]
}
func (op *bcastOp) DiffWRT(int) []bool {
	if op.mode == bcAdd || op.mode == bcScale {
		return []bool{true, true}
	}
	return []bool{false, false}
}
func (op *bcastOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	switch op.mode {
	case bcAdd:
		db, err := G.ApplyOp(&bcastOp{mode: bcColSum}, grad)
		return G.Nodes{grad, db}, err
	case bcScale:
		dx, err := G.ApplyOp(&bcastOp{mode: bcScale}, grad, in[1])
		if err != nil {
			return nil, err
		}
		ds, err := G.ApplyOp(&bcastOp{mode: bcRowDot}, grad, in[0])
		return G.Nodes{dx, ds}, err
	}
	return nil, fmt.Errorf("engine: %s is not differentiable", op)
}
