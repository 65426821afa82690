package engine

import (
	"encoding/binary"
	"fmt"
	"hash"
	"hash/fnv"
	"math"

	"github.com/chewxy/hm"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// ConstMatrix is a constant dense N×F matrix (input features) held by value
// in ops, identified by a content hash.
type ConstMatrix struct {
	Rows, Cols int
	V          []float64
	v32        []float32
	id         uint64
}

// NewConstMatrix wraps row-major values.
func NewConstMatrix(rows, cols int, v []float64) *ConstMatrix {
	if len(v) != rows*cols {
		panic(fmt.Sprintf("engine: constant matrix %d×%d has %d values", rows, cols, len(v)))
	}
	m := &ConstMatrix{Rows: rows, Cols: cols, V: v, v32: make([]float32, len(v))}
	for i, x := range v {
		m.v32[i] = float32(x)
	}
	m.id = contentID(rows, cols, len(v), func(i int) float64 { return v[i] })
	return m
}

// contentID is FNV-1a of the shape and the n values' float64 bits.
func contentID(rows, cols, n int, at func(int) float64) uint64 {
	h := fnv.New64a()
	buf := make([]byte, 0, 4096)
	buf = binary.LittleEndian.AppendUint64(buf, uint64(rows))
	buf = binary.LittleEndian.AppendUint64(buf, uint64(cols))
	for i := range n {
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(at(i)))
		if len(buf) == cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	h.Write(buf)
	return h.Sum64()
}

// NewConstMatrix32 wraps row-major float32 values without copying them:
// a constant for float32 graphs only (a float64 graph's ConstMul on it
// fails).
func NewConstMatrix32(rows, cols int, v []float32) *ConstMatrix {
	if len(v) != rows*cols {
		panic(fmt.Sprintf("engine: constant matrix %d×%d has %d values", rows, cols, len(v)))
	}
	m := &ConstMatrix{Rows: rows, Cols: cols, v32: v}
	m.id = contentID(rows, cols, len(v), func(i int) float64 { return float64(v[i]) })
	return m
}

// ConstMul returns X·W for a constant X (N×F) and a matrix node W (F×D).
// Unlike gorgonia's Mul on an input node, the backward pass computes only
// dW = Xᵀ·dY (gonum BLAS), never the unused dX. O(N·F·D) each way.
func ConstMul(x *ConstMatrix, w *G.Node) *G.Node {
	if w.Dims() != 2 || w.Shape()[0] != x.Cols {
		panic(fmt.Sprintf("engine: ConstMul: X is %d×%d, W has shape %v", x.Rows, x.Cols, w.Shape()))
	}
	return G.Must(G.ApplyOp(&constMulOp{x: x}, w))
}

// constMulOp computes X·W, or Xᵀ·G when trans is set.
type constMulOp struct {
	opBase

	x     *ConstMatrix
	trans bool
}

func (op *constMulOp) Arity() int { return 1 }
func (op *constMulOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(tt(2, a), tt(2, a))
}
func (op *constMulOp) dims() (rows, inner int) {
	if op.trans {
		return op.x.Cols, op.x.Rows
	}
	return op.x.Rows, op.x.Cols
}
func (op *constMulOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s := in[0].(tensor.Shape)
	r, k := op.dims()
	if len(s) != 2 || s[0] != k {
		return nil, fmt.Errorf("engine: %s: input has shape %v, want %d rows", op, s, k)
	}
	return tensor.Shape{r, s[1]}, nil
}
func (op *constMulOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	w := dense(op, in[0])
	r, k := op.dims()
	d := w.Shape()[1]
	out := op.outputRaw(w.Dtype(), r, d) // Gemm with beta 0 clears C
	tA := blas.NoTrans
	if op.trans {
		tA = blas.Trans
	}
	switch w.Dtype() {
	case tensor.Float64:
		if op.x.V == nil {
			return nil, fmt.Errorf("engine: ConstMul: a float32 constant (compacted features) in a float64 graph")
		}
		ws := vals[float64](w)
		blas64.Gemm(tA, blas.NoTrans, 1,
			blas64.General{Rows: op.x.Rows, Cols: op.x.Cols, Stride: op.x.Cols, Data: op.x.V},
			blas64.General{Rows: k, Cols: d, Stride: d, Data: ws}, 0,
			blas64.General{Rows: r, Cols: d, Stride: d, Data: vals[float64](out)})
	case tensor.Float32:
		ws := vals[float32](w)
		blas32.Gemm(tA, blas.NoTrans, 1,
			blas32.General{Rows: op.x.Rows, Cols: op.x.Cols, Stride: op.x.Cols, Data: op.x.v32},
			blas32.General{Rows: k, Cols: d, Stride: d, Data: ws}, 0,
			blas32.General{Rows: r, Cols: d, Stride: d, Data: vals[float32](out)})
	default:
		return nil, fmt.Errorf("engine: ConstMul: unsupported dtype %v", w.Dtype())
	}
	return out, nil
}
func (op *constMulOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "engine.ConstMul{%d×%d id=%016x trans=%v}", op.x.Rows, op.x.Cols, op.x.id, op.trans)
}
func (op *constMulOp) Hashcode() uint32 { return hashOf(op.WriteHash) }
func (op *constMulOp) String() string {
	t := ""
	if op.trans {
		t = "ᵀ"
	}
	return fmt.Sprintf("ConstMul[X%s %d×%d,%04x]", t, op.x.Rows, op.x.Cols, op.x.id&0xffff)
}
func (op *constMulOp) DiffWRT(int) []bool { return []bool{true} }
func (op *constMulOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	dw, err := G.ApplyOp(&constMulOp{x: op.x, trans: !op.trans}, grad)
	return G.Nodes{dw}, err
}
