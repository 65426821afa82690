package engine

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Gather returns the rows of x (R×D) picked by idx (S ints): out[s] =
// x[idx[s]], S×D. Its gradient scatter-adds g's rows back in index order,
// dx[idx[s]] += g[s] (serial: the sums do not depend on GOMAXPROCS, and
// equal gorgonia's ByIndices gradient bit for bit). Unlike ByIndices it
// writes into the op's buffer and adds rows with a plain loop instead of a
// sliced tensor call per index. O(S·D) each way.
func Gather(x, idx *G.Node) *G.Node {
	if x.Dims() != 2 || idx.Dims() != 1 {
		panic(fmt.Sprintf("engine: Gather: x %v, idx %v: want a matrix and an index vector", x.Shape(), idx.Shape()))
	}
	return G.Must(G.ApplyOp(&gatherOp{rows: x.Shape()[0]}, x, idx))
}

// gatherOp: forward (x, idx) → x[idx]; grad (g, idx) → scatter-add into rows×D.
type gatherOp struct {
	opBase
	rows int
	grad bool
}

func (*gatherOp) Arity() int { return 2 }
func (*gatherOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(tt(2, a), intVec, tt(2, a))
}
func (op *gatherOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	x, idx := in[0].(tensor.Shape), in[1].(tensor.Shape)
	if op.grad {
		return tensor.Shape{op.rows, x[1]}, nil
	}
	return tensor.Shape{idx.TotalSize(), x[1]}, nil
}
func (op *gatherOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	x, idx := dense(op, in[0]), ints(op, in[1])
	d := x.Shape()[1]
	checkIdx(op, idx, op.rows)
	var out *tensor.Dense
	if op.grad {
		out = op.output(x.Dtype(), op.rows, d)
	} else {
		out = op.outputRaw(x.Dtype(), len(idx), d) // every row is copied
	}
	switch x.Dtype() {
	case tensor.Float64:
		xs := vals[float64](x)
		gather(op.grad, xs, idx, d, vals[float64](out))
	case tensor.Float32:
		xs := vals[float32](x)
		gather(op.grad, xs, idx, d, vals[float32](out))
	default:
		return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, x.Dtype())
	}
	return out, nil
}

func gather[T Float](grad bool, x []T, idx []int, d int, out []T) {
	for s, r := range idx {
		if grad {
			o, g := out[r*d:(r+1)*d], x[s*d:(s+1)*d]
			for k := range o {
				o[k] += g[k]
			}
		} else {
			copy(out[s*d:(s+1)*d], x[r*d:(r+1)*d])
		}
	}
}

func (op *gatherOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "engine.Gather{rows=%d grad=%v}", op.rows, op.grad)
}
func (op *gatherOp) Hashcode() uint32 { return hashOf(op.WriteHash) }
func (op *gatherOp) String() string {
	if op.grad {
		return "GatherGrad"
	}
	return "Gather"
}
func (op *gatherOp) DiffWRT(int) []bool { return []bool{!op.grad, false} }
func (op *gatherOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	if op.grad {
		return nil, fmt.Errorf("engine: %s is not differentiable", op)
	}
	dx, err := G.ApplyOp(&gatherOp{rows: op.rows, grad: true}, grad, in[1])
	return G.Nodes{dx, nil}, err
}
