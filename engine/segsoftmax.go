package engine

import (
	"fmt"
	"hash"
	"math"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// SegmentSoftmax returns the softmax of e (one value per stored entry of a,
// in CSR order) within each row of a: α_k = exp(e_k − m_r)/Σ_{k'∈r}
// exp(e_k' − m_r), m_r the row max. Gradient per row: α ⊙ (g − Σ_row α⊙g).
// O(nnz).
func SegmentSoftmax(a *CSR, e *G.Node) *G.Node {
	if e.Dims() != 1 || e.Shape()[0] != a.NNZ() {
		panic(fmt.Sprintf("engine: SegmentSoftmax: input has shape %v, want a vector of %d", e.Shape(), a.NNZ()))
	}
	return G.Must(G.ApplyOp(&segSoftmaxOp{a: a}, e))
}

type segSoftmaxOp struct {
	opBase

	a    *CSR
	grad bool // inputs (α, g) → dS
}

func (op *segSoftmaxOp) Arity() int {
	if op.grad {
		return 2
	}
	return 1
}
func (op *segSoftmaxOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	if op.grad {
		return hm.NewFnType(tt(1, a), tt(1, a), tt(1, a))
	}
	return hm.NewFnType(tt(1, a), tt(1, a))
}
func (op *segSoftmaxOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.a.NNZ()}, nil
}
func (op *segSoftmaxOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	x := dense(op, in[0])
	out := op.output(x.Dtype(), op.a.NNZ())
	switch x.Dtype() {
	case tensor.Float64:
		xs := vals[float64](x)
		var g []float64
		if op.grad {
			g = vals[float64](dense(op, in[1]))
		}
		segSoftmax(op.a, xs, g, vals[float64](out))
	case tensor.Float32:
		xs := vals[float32](x)
		var g []float32
		if op.grad {
			g = vals[float32](dense(op, in[1]))
		}
		segSoftmax(op.a, xs, g, vals[float32](out))
	default:
		return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, x.Dtype())
	}
	return out, nil
}

// segSoftmax writes the row softmax of x, or (g non-nil, x = α) its
// gradient.
func segSoftmax[T Float](a *CSR, x, g, out []T) {
	for r := 0; r < a.Rows; r++ {
		lo, hi := a.RowPtr[r], a.RowPtr[r+1]
		if lo == hi {
			continue
		}
		if g != nil {
			var s float64
			for k := lo; k < hi; k++ {
				s += float64(x[k]) * float64(g[k])
			}
			for k := lo; k < hi; k++ {
				out[k] = T(float64(x[k]) * (float64(g[k]) - s))
			}
			continue
		}
		m := math.Inf(-1)
		for k := lo; k < hi; k++ {
			m = math.Max(m, float64(x[k]))
		}
		var s float64
		for k := lo; k < hi; k++ {
			e := math.Exp(float64(x[k]) - m)
			out[k] = T(e)
			s += e
		}
		for k := lo; k < hi; k++ {
			out[k] = T(float64(out[k]) / s)
		}
	}
}

func (op *segSoftmaxOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "engine.SegmentSoftmax{grad=%v %d×%d nnz=%d id=%016x}", op.grad, op.a.Rows, op.a.Cols, op.a.NNZ(), op.a.ID())
}
func (op *segSoftmaxOp) Hashcode() uint32 { return hashOf(op.WriteHash) }
func (op *segSoftmaxOp) String() string {
	if op.grad {
		return fmt.Sprintf("SegmentSoftmaxGrad[%04x]", op.a.ID()&0xffff)
	}
	return fmt.Sprintf("SegmentSoftmax[%04x]", op.a.ID()&0xffff)
}
func (op *segSoftmaxOp) DiffWRT(int) []bool { return []bool{!op.grad} }
func (op *segSoftmaxOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	if op.grad {
		return nil, fmt.Errorf("engine: %s is not differentiable", op)
	}
	d, err := G.ApplyOp(&segSoftmaxOp{a: op.a, grad: true}, out, grad)
	return G.Nodes{d}, err
}
