package engine

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// StopGradient returns x's values with no gradient back to x: a loss
// reached through it does not train what made x (a copy forward; gorgonia
// sees the input as not differentiable). It lets one term of an objective
// read a value another term trains (models' --skip-split).
func StopGradient(x *G.Node) *G.Node { return G.Must(G.ApplyOp(&stopGradOp{}, x)) }

type stopGradOp struct{ opBase }

func (*stopGradOp) Arity() int { return 1 }
func (*stopGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(a, a)
}
func (*stopGradOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return in[0].(tensor.Shape).Clone(), nil
}
func (op *stopGradOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	x := dense(op, in[0])
	out := op.outputRaw(x.Dtype(), x.Shape()...)
	switch x.Dtype() {
	case tensor.Float64:
		copy(vals[float64](out), vals[float64](x))
	case tensor.Float32:
		copy(vals[float32](out), vals[float32](x))
	default:
		return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, x.Dtype())
	}
	return out, nil
}
func (op *stopGradOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "engine.%s", op) }
func (op *stopGradOp) Hashcode() uint32      { return hashOf(op.WriteHash) }
func (*stopGradOp) String() string           { return "StopGradient" }
func (*stopGradOp) DiffWRT(int) []bool       { return []bool{false} }
func (op *stopGradOp) SymDiff(G.Nodes, *G.Node, *G.Node) (G.Nodes, error) {
	return nil, fmt.Errorf("engine: %s has no gradient", op)
}
