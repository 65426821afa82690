package engine

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// maskOp multiplies its input elementwise by a dropout mask the builder
// redraws before every run (x ⊙ m, m ∈ {0, 1/(1−p)}); its gradient is the
// same op on the incoming gradient (g ⊙ m). The mask is op state, not a
// graph input: nothing is bound or allocated per run.
type maskOp struct {
	opBase
	m    *dropMask
	name string
}

func (*maskOp) Arity() int { return 1 }
func (*maskOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(a, a)
}
func (*maskOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return in[0].(tensor.Shape).Clone(), nil
}
func (op *maskOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	x := dense(op, in[0])
	if x.Dtype() != op.m.t.Dtype() || x.Shape().TotalSize() != op.m.t.Shape().TotalSize() {
		return nil, fmt.Errorf("engine: %s: input %v %v, mask %v %v", op, x.Dtype(), x.Shape(), op.m.t.Dtype(), op.m.t.Shape())
	}
	out := op.output(x.Dtype(), x.Shape()...)
	switch x.Dtype() {
	case tensor.Float64:
		xs := vals[float64](x)
		maskMul(xs, vals[float64](op.m.t), vals[float64](out))
	case tensor.Float32:
		xs := vals[float32](x)
		maskMul(xs, vals[float32](op.m.t), vals[float32](out))
	default:
		return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, x.Dtype())
	}
	return out, nil
}

func maskMul[T Float](x, m, out []T) {
	for i, v := range x {
		out[i] = v * m[i]
	}
}

func (op *maskOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "engine.Dropout{%s %p}", op.name, op.m) }
func (op *maskOp) Hashcode() uint32      { return hashOf(op.WriteHash) }
func (op *maskOp) String() string        { return "Dropout[" + op.name + "]" }
func (op *maskOp) DiffWRT(int) []bool    { return []bool{true} }
func (op *maskOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	d, err := G.ApplyOp(&maskOp{m: op.m, name: op.name + ".grad"}, grad)
	return G.Nodes{d}, err
}
