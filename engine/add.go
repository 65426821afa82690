package engine

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Add returns a + b for equal-shaped nodes into the op's own buffer
// (gorgonia's Add allocates a fresh output every run). Gradients: g, g.
func Add(a, b *G.Node) *G.Node {
	if !a.Shape().Eq(b.Shape()) {
		panic(fmt.Sprintf("engine: Add: shapes %v and %v", a.Shape(), b.Shape()))
	}
	return G.Must(G.ApplyOp(&addOp{}, a, b))
}

type addOp struct{ opBase }

func (*addOp) Arity() int { return 2 }
func (*addOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(a, a, a)
}
func (*addOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return in[0].(tensor.Shape).Clone(), nil
}
func (op *addOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	x, y := dense(op, in[0]), dense(op, in[1])
	out := op.output(x.Dtype(), x.Shape()...)
	switch x.Dtype() {
	case tensor.Float64:
		xs := vals[float64](x)
		addInto(xs, vals[float64](y), vals[float64](out))
	case tensor.Float32:
		xs := vals[float32](x)
		addInto(xs, vals[float32](y), vals[float32](out))
	default:
		return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, x.Dtype())
	}
	return out, nil
}

// addInto sets out = x + y, over the fixed row partition in parallel when
// large (each entry alone: the same sums whatever the split).
func addInto[T Float](x, y, out []T) {
	if len(x) < minParallelWork { // no closure: it would be allocated every call
		addRange(x, y, out)
		return
	}
	parallelRanges(evenBounds(len(x)), len(x), func(lo, hi int) { addRange(x[lo:hi], y[lo:hi], out[lo:hi]) })
}

func addRange[T Float](x, y, out []T) {
	y, out = y[:len(x)], out[:len(x)]
	for i, v := range x {
		out[i] = v + y[i]
	}
}

func (*addOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "engine.Add") }
func (op *addOp) Hashcode() uint32   { return hashOf(op.WriteHash) }
func (*addOp) String() string        { return "Add" }
func (*addOp) DiffWRT(int) []bool    { return []bool{true, true} }
func (*addOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	return G.Nodes{grad, grad}, nil
}
