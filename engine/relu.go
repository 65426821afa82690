package engine

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	"github.com/ignn/ignn/engine/internal/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// ReLU returns max(x, 0) elementwise in one pass (gorgonia's Rectify builds
// a comparison, a cast and a product, each allocating). Gradient: g where
// the output is positive, else 0 (0 at x = 0, as PyTorch).
func ReLU(x *G.Node) *G.Node { return G.Must(G.ApplyOp(&reluOp{}, x)) }

// reluOp: forward (x) → max(x,0); grad mode (y, g) → g·[y>0].
type reluOp struct {
	opBase
	grad bool
}

func (op *reluOp) Arity() int {
	if op.grad {
		return 2
	}
	return 1
}
func (op *reluOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	if op.grad {
		return hm.NewFnType(a, a, a)
	}
	return hm.NewFnType(a, a)
}
func (*reluOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return in[0].(tensor.Shape).Clone(), nil
}
func (op *reluOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	x := dense(op, in[0])
	out := op.outputRaw(x.Dtype(), x.Shape()...) // relu writes every element
	switch x.Dtype() {
	case tensor.Float64:
		xs := vals[float64](x)
		var g []float64
		if op.grad {
			g = vals[float64](dense(op, in[1]))
		}
		relu(xs, g, vals[float64](out))
	case tensor.Float32:
		xs := vals[float32](x)
		var g []float32
		if op.grad {
			g = vals[float32](dense(op, in[1]))
		}
		relu(xs, g, vals[float32](out))
	default:
		return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, x.Dtype())
	}
	return out, nil
}

func relu[T Float](x, g, out []T) {
	if len(x) < minParallelWork { // no closure: it would be allocated every call
		reluRange(x, g, out)
		return
	}
	parallelRanges(evenBounds(len(x)), len(x), func(lo, hi int) {
		var gs []T
		if g != nil {
			gs = g[lo:hi]
		}
		reluRange(x[lo:hi], gs, out[lo:hi])
	})
}

func reluRange[T Float](x, g, out []T) {
	if x32, ok := any(x).([]float32); ok && blas.Kernels() {
		// The loop below, branch-free in AVX2 over the multiple-of-8 head
		// (g = x for the forward pass).
		o32, g32 := any(out).([]float32), any(g).([]float32)
		if g32 == nil {
			g32 = x32
		}
		blas.ReluMask(o32, x32, g32)
		return
	}
	for i, v := range x {
		switch {
		case !(v > 0):
			out[i] = 0
		case g != nil:
			out[i] = g[i]
		default:
			out[i] = v
		}
	}
}

func (op *reluOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "engine.%s", op) }
func (op *reluOp) Hashcode() uint32      { return hashOf(op.WriteHash) }
func (op *reluOp) String() string {
	if op.grad {
		return "ReLUGrad"
	}
	return "ReLU"
}
func (op *reluOp) DiffWRT(int) []bool { return []bool{!op.grad} }
func (op *reluOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	d, err := G.ApplyOp(&reluOp{grad: true}, out, grad)
	return G.Nodes{d}, err
}
