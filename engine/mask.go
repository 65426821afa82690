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
	switch xs := x.Data().(type) {
	case []float64:
		maskMul(xs, op.m.t.Data().([]float64), out.Data().([]float64))
	case []float32:
		maskMul(xs, op.m.t.Data().([]float32), out.Data().([]float32))
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
	switch xs := x.Data().(type) {
	case []float64:
		addInto(xs, y.Data().([]float64), out.Data().([]float64))
	case []float32:
		addInto(xs, y.Data().([]float32), out.Data().([]float32))
	default:
		return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, x.Dtype())
	}
	return out, nil
}

func addInto[T Float](x, y, out []T) {
	y = y[:len(x)]
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
