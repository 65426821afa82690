package engine

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// SpMM returns the node A·X for a constant sparse A (rows×cols) and a dense
// matrix node X (cols×d). The adjacency is part of the op (not an input), so
// no gradient is computed for it; dX = Aᵀ·dY uses A's cached transpose.
// Cost O(nnz(A)·d) forward and backward.
//
// It panics if X is not a matrix with A.Cols rows.
func SpMM(a *CSR, x *G.Node) *G.Node {
	if x.Dims() != 2 || x.Shape()[0] != a.Cols {
		panic(fmt.Sprintf("engine: SpMM: sparse matrix is %d×%d, dense input has shape %v", a.Rows, a.Cols, x.Shape()))
	}
	return G.Must(G.ApplyOp(&spmmOp{a: a}, x))
}

type spmmOp struct {
	opBase
	a *CSR
}

func (op *spmmOp) Arity() int { return 1 }
func (op *spmmOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(tt(2, a), tt(2, a))
}
func (op *spmmOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s := in[0].(tensor.Shape)
	if len(s) != 2 || s[0] != op.a.Cols {
		return nil, fmt.Errorf("engine: SpMM: CSR has %d columns, X has shape %v", op.a.Cols, s)
	}
	return tensor.Shape{op.a.Rows, s[1]}, nil
}
func (op *spmmOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	x := dense("SpMM", in[0])
	d := x.Shape()[1]
	out := op.outputRaw(x.Dtype(), op.a.Rows, d) // spmmRows clears each row
	switch x.Dtype() {
	case tensor.Float64:
		xs := vals[float64](x)
		spmm(op.a, op.a.Val, xs, vals[float64](out), d)
	case tensor.Float32:
		xs := vals[float32](x)
		spmm(op.a, op.a.Val32(), xs, vals[float32](out), d)
	default:
		return nil, fmt.Errorf("engine: SpMM: unsupported dtype %v", x.Dtype())
	}
	return out, nil
}

// spmm computes y = A·x for row-major x (cols×d) and y (rows×d), over
// fixed row ranges of equal non-zeros in parallel (see rowChunks).
func spmm[T Float](a *CSR, val []T, x, y []T, d int) {
	if a.NNZ()*d < minParallelWork { // no closure: it would be allocated every call
		spmmRows(a, val, x, y, d, 0, a.Rows)
		return
	}
	parallelRanges(nnzBounds(a), a.NNZ()*d, func(lo, hi int) { spmmRows(a, val, x, y, d, lo, hi) })
}

func spmmRows[T Float](a *CSR, val []T, x, y []T, d, lo, hi int) {
	for r := lo; r < hi; r++ {
		k0, k1 := a.RowPtr[r], a.RowPtr[r+1]
		clear(y[r*d : (r+1)*d]) // here, in the row's own chunk, not serially before
		sparseRow(y[r*d:(r+1)*d], val[k0:k1], a.ColIdx[k0:k1], x, d)
	}
}

func (op *spmmOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "engine.SpMM{%d×%d nnz=%d id=%016x}", op.a.Rows, op.a.Cols, op.a.NNZ(), op.a.ID())
}
func (op *spmmOp) Hashcode() uint32 { return hashOf(op.WriteHash) }
func (op *spmmOp) String() string {
	return fmt.Sprintf("SpMM[%d×%d,nnz=%d,%04x]", op.a.Rows, op.a.Cols, op.a.NNZ(), op.a.ID()&0xffff)
}
func (op *spmmOp) DiffWRT(int) []bool { return []bool{true} }
func (op *spmmOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	dx, err := G.ApplyOp(&spmmOp{a: op.a.T()}, grad)
	return G.Nodes{dx}, err
}
