package engine

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// EdgeSpMM returns Y = A(v)·X where A has a's sparsity pattern and the
// learnable values v (one per stored entry, CSR order): Y_i = Σ_{k∈row i}
// v_k·X[col k]. Gradients: dv_k = ⟨dY[row k], X[col k]⟩ and dX = A(v)ᵀ·dY
// (gathered over the cached transpose in a fixed order). O(nnz·D).
func EdgeSpMM(a *CSR, v, x *G.Node) *G.Node {
	if v.Dims() != 1 || v.Shape()[0] != a.NNZ() {
		panic(fmt.Sprintf("engine: EdgeSpMM: values have shape %v, want a vector of %d", v.Shape(), a.NNZ()))
	}
	if x.Dims() != 2 || x.Shape()[0] != a.Cols {
		panic(fmt.Sprintf("engine: EdgeSpMM: pattern is %d×%d, X has shape %v", a.Rows, a.Cols, x.Shape()))
	}
	return G.Must(G.ApplyOp(&edgeSpMMOp{a: a}, v, x))
}

// edgeSpMMOp: mode 0 forward (v, X) → Y; mode 1 (X, dY) → dv; mode 2
// (v, dY) → dX.
type edgeSpMMOp struct {
	opBase

	a    *CSR
	mode int
}

func (op *edgeSpMMOp) Arity() int { return 2 }
func (op *edgeSpMMOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	switch op.mode {
	case 1:
		return hm.NewFnType(tt(2, a), tt(2, a), tt(1, a))
	default:
		return hm.NewFnType(tt(1, a), tt(2, a), tt(2, a))
	}
}
func (op *edgeSpMMOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s := in[1].(tensor.Shape)
	switch op.mode {
	case 0:
		return tensor.Shape{op.a.Rows, s[1]}, nil
	case 1:
		return tensor.Shape{op.a.NNZ()}, nil
	default:
		return tensor.Shape{op.a.Cols, s[1]}, nil
	}
}
func (op *edgeSpMMOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	p, q := dense(op, in[0]), dense(op, in[1])
	d := q.Shape()[1]
	var out *tensor.Dense
	switch op.mode {
	case 0:
		out = op.output(q.Dtype(), op.a.Rows, d)
	case 1:
		out = op.output(q.Dtype(), op.a.NNZ())
	default:
		out = op.output(q.Dtype(), op.a.Cols, d)
	}
	switch p.Dtype() {
	case tensor.Float64:
		ps := vals[float64](p)
		edgeSpMM(op.a, op.mode, ps, vals[float64](q), vals[float64](out), d)
	case tensor.Float32:
		ps := vals[float32](p)
		edgeSpMM(op.a, op.mode, ps, vals[float32](q), vals[float32](out), d)
	default:
		return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, p.Dtype())
	}
	return out, nil
}

func edgeSpMM[T Float](a *CSR, mode int, p, q, out []T, d int) {
	if mode == 2 {
		// dX = A(v)ᵀ·dY as a gather over the transpose's rows: each dX row
		// adds its entries in ascending original row, the order of the
		// serial scatter, so it is bit-identical to it and parallel.
		t, perm := a.T(), a.TransposePerm()
		parallelRanges(nnzBounds(t), t.NNZ()*d, func(lo, hi int) {
			var w []T
			for c := lo; c < hi; c++ {
				k0, k1 := t.RowPtr[c], t.RowPtr[c+1]
				w = w[:0]
				for _, k := range perm[k0:k1] {
					w = append(w, p[k])
				}
				sparseRow(out[c*d:(c+1)*d], w, t.ColIdx[k0:k1], q, d)
			}
		})
		return
	}
	if a.NNZ()*d < minParallelWork { // no closure: it would be allocated every call
		edgeSpMMRows(a, mode, p, q, out, d, 0, a.Rows)
		return
	}
	parallelRanges(nnzBounds(a), a.NNZ()*d, func(lo, hi int) { edgeSpMMRows(a, mode, p, q, out, d, lo, hi) })
}

func edgeSpMMRows[T Float](a *CSR, mode int, p, q, out []T, d, lo, hi int) {
	if mode == 0 { // p = v, q = X
		for r := lo; r < hi; r++ {
			k0, k1 := a.RowPtr[r], a.RowPtr[r+1]
			sparseRow(out[r*d:(r+1)*d], p[k0:k1], a.ColIdx[k0:k1], q, d)
		}
		return
	}
	for r := lo; r < hi; r++ { // mode 1: p = X, q = dY
		gr := q[r*d : (r+1)*d]
		for k := a.RowPtr[r]; k < a.RowPtr[r+1]; k++ {
			c := a.ColIdx[k]
			xr := p[c*d : (c+1)*d]
			var s T
			for j := range xr {
				s += xr[j] * gr[j]
			}
			out[k] = s
		}
	}
}

func (op *edgeSpMMOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "engine.EdgeSpMM{mode=%d %d×%d nnz=%d id=%016x}", op.mode, op.a.Rows, op.a.Cols, op.a.NNZ(), op.a.ID())
}
func (op *edgeSpMMOp) Hashcode() uint32 { return hashOf(op.WriteHash) }
func (op *edgeSpMMOp) String() string {
	return fmt.Sprintf("EdgeSpMM%d[%04x]", op.mode, op.a.ID()&0xffff)
}
func (op *edgeSpMMOp) DiffWRT(int) []bool { return []bool{op.mode == 0, op.mode == 0} }
func (op *edgeSpMMOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	if op.mode != 0 {
		return nil, fmt.Errorf("engine: %s is not differentiable", op)
	}
	dv, err := G.ApplyOp(&edgeSpMMOp{a: op.a, mode: 1}, in[1], grad)
	if err != nil {
		return nil, err
	}
	dx, err := G.ApplyOp(&edgeSpMMOp{a: op.a, mode: 2}, in[0], grad)
	return G.Nodes{dv, dx}, err
}
