package engine

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// LeakyReLU returns x where x ≥ 0 and α·x elsewhere, elementwise, into the
// op's own buffer; its gradient is g where x ≥ 0 and α·g elsewhere. It
// equals gorgonia's LeakyRelu (x⊙[x≥0] + (x⊙[x<0])·α) for every finite x —
// the same products, and the sums it adds are exact zeros — in one op
// instead of six elementwise ones, each allocating a fresh tensor every run,
// plus their gradients. (For x = +Inf gorgonia's form gives NaN, this +Inf.)
func LeakyReLU(x *G.Node, alpha float64) *G.Node {
	return G.Must(G.ApplyOp(&leakyOp{alpha: alpha}, x))
}

// leakyOp: forward (x) → leaky(x); grad (x, g) → g·leaky'(x).
type leakyOp struct {
	opBase
	alpha float64
	grad  bool
}

func (op *leakyOp) Arity() int {
	if op.grad {
		return 2
	}
	return 1
}
func (op *leakyOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	if op.grad {
		return hm.NewFnType(a, a, a)
	}
	return hm.NewFnType(a, a)
}
func (*leakyOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return in[0].(tensor.Shape).Clone(), nil
}
func (op *leakyOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	x := dense(op, in[0])
	out := op.outputRaw(x.Dtype(), x.Shape()...) // every element is written
	var g *tensor.Dense
	if op.grad {
		g = dense(op, in[1])
	}
	switch x.Dtype() {
	case tensor.Float64:
		leaky(vals[float64](x), g, op.alpha, vals[float64](out))
	case tensor.Float32:
		leaky(vals[float32](x), g, op.alpha, vals[float32](out))
	default:
		return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, x.Dtype())
	}
	return out, nil
}

func leaky[T Float](x []T, gd *tensor.Dense, alpha float64, out []T) {
	a := T(alpha)
	src := x
	if gd != nil {
		src = vals[T](gd)
	}
	parallelRanges(evenBounds(len(x)), len(x), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if x[i] >= 0 {
				out[i] = src[i]
			} else {
				out[i] = src[i] * a
			}
		}
	})
}

func (op *leakyOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "engine.LeakyReLU{%v grad=%v}", op.alpha, op.grad)
}
func (op *leakyOp) Hashcode() uint32 { return hashOf(op.WriteHash) }
func (op *leakyOp) String() string {
	if op.grad {
		return fmt.Sprintf("LeakyReLUGrad{%v}", op.alpha)
	}
	return fmt.Sprintf("LeakyReLU{%v}", op.alpha)
}
func (op *leakyOp) DiffWRT(n int) []bool {
	if op.grad {
		return []bool{false, false}
	}
	return []bool{true}
}
func (op *leakyOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	if op.grad {
		return nil, fmt.Errorf("engine: %s is not differentiable", op)
	}
	d, err := G.ApplyOp(&leakyOp{alpha: op.alpha, grad: true}, in[0], grad)
	return G.Nodes{d}, err
}
