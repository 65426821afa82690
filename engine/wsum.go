package engine

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// WeightedSum returns Σ_i w_i·t_i for scalar nodes t_i, folded left in the
// graph's dtype exactly as gorgonia's Mul and Add would compute
// ((t_0·w_0) + t_1·w_1) + …, with the gradient g·w_i for each term. One op
// instead of a Mul per term, the Adds and their gradient nodes: each
// gorgonia instruction allocates its inputs and a fresh scalar every run.
func WeightedSum(terms []*G.Node, weights []float64) *G.Node {
	if len(terms) == 0 || len(terms) != len(weights) {
		panic(fmt.Sprintf("engine: WeightedSum: %d terms, %d weights", len(terms), len(weights)))
	}
	for _, t := range terms {
		if !t.IsScalar() {
			panic(fmt.Sprintf("engine: WeightedSum: term %v has shape %v, want a scalar", t.Name(), t.Shape()))
		}
	}
	return G.Must(G.ApplyOp(&wsumOp{w: weights, grad: -1}, terms...))
}

// wsumOp: grad < 0: (t_0, …) → Σ w_i·t_i; grad = i: (g) → g·w_i.
type wsumOp struct {
	w    []float64
	grad int
	sc   scalarOut
}

func (op *wsumOp) Arity() int {
	if op.grad >= 0 {
		return 1
	}
	return len(op.w)
}
func (op *wsumOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	ts := make([]hm.Type, op.Arity()+1)
	for i := range ts {
		ts[i] = a
	}
	return hm.NewFnType(ts...)
}
func (*wsumOp) InferShape(...G.DimSizer) (tensor.Shape, error) { return tensor.ScalarShape(), nil }
func (*wsumOp) ReturnsPtr() bool                               { return false }
func (*wsumOp) CallsExtern() bool                              { return false }
func (*wsumOp) OverwritesInput() int                           { return -1 }
func (op *wsumOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	switch in[0].(type) {
	case *G.F32:
		var s float32
		for i, x := range in {
			w := float32(op.w[i])
			if op.grad >= 0 {
				w = float32(op.w[op.grad])
			}
			t := float32(*x.(*G.F32)) * w
			if i == 0 {
				s = t
			} else {
				s += t
			}
		}
		return op.sc.set32(s), nil
	case *G.F64:
		var s float64
		for i, x := range in {
			w := op.w[i]
			if op.grad >= 0 {
				w = op.w[op.grad]
			}
			t := float64(*x.(*G.F64)) * w
			if i == 0 {
				s = t
			} else {
				s += t
			}
		}
		return op.sc.set64(s), nil
	}
	return nil, fmt.Errorf("engine: %s: unsupported input %T", op, in[0])
}
func (op *wsumOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "engine.WeightedSum{%v grad=%d}", op.w, op.grad)
}
func (op *wsumOp) Hashcode() uint32 { return hashOf(op.WriteHash) }
func (op *wsumOp) String() string {
	if op.grad >= 0 {
		return fmt.Sprintf("WeightedSumGrad[%d]", op.grad)
	}
	return fmt.Sprintf("WeightedSum%v", op.w)
}
func (op *wsumOp) DiffWRT(n int) []bool {
	d := make([]bool, n)
	for i := range d {
		d[i] = op.grad < 0
	}
	return d
}
func (op *wsumOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	if op.grad >= 0 {
		return nil, fmt.Errorf("engine: %s is not differentiable", op)
	}
	ds := make(G.Nodes, len(in))
	for i := range in {
		d, err := G.ApplyOp(&wsumOp{w: op.w, grad: i}, grad)
		if err != nil {
			return nil, err
		}
		ds[i] = d
	}
	return ds, nil
}
