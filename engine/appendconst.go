package engine

import (
	"fmt"
	"hash"
	"math"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Mix is the share W in [0, 1] of an AppendConst: the rows are
// [√W·Z | √(1−W)·K]. Its owner may change W between runs (a share chosen
// on validation pairs); the ops read it at every run.
type Mix struct{ W float64 }

func (m *Mix) ab() (float64, float64) {
	if !(m.W >= 0 && m.W <= 1) {
		panic(fmt.Sprintf("engine: mix share %v, want [0, 1]", m.W))
	}
	return math.Sqrt(m.W), math.Sqrt(1 - m.W)
}

// AppendConst returns [a·Z | b·K], a = √mix.W and b = √(1−mix.W): the rows
// of Z (N×D) scaled by a, then the rows of the constant K (N×M) scaled by
// b, side by side (N×(D+M)). K and mix are read at every run, so a
// mini-batch's staged rows and a changed share are the current ones. Only
// Z has a gradient: dZ = a·dY[:, :D]. O(N·(D+M)) each way. Models use it to
// end an embedding with constant columns (the neighbourhood sketch).
func AppendConst(z *G.Node, k *ConstMatrix, mix *Mix) *G.Node {
	if z.Dims() != 2 || z.Shape()[0] != k.Rows {
		panic(fmt.Sprintf("engine: AppendConst: Z has shape %v, K is %d×%d", z.Shape(), k.Rows, k.Cols))
	}
	return G.Must(G.ApplyOp(&appendConstOp{k: k, mix: mix}, z))
}

// appendConstOp is [a·Z | b·K] forward, dY ↦ a·dY[:, :D] when grad is set.
type appendConstOp struct {
	opBase
	k    *ConstMatrix
	mix  *Mix
	grad bool
}

func (*appendConstOp) Arity() int { return 1 }
func (*appendConstOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(tt(2, a), tt(2, a))
}
func (op *appendConstOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s := in[0].(tensor.Shape)
	if len(s) != 2 || s[0] != op.k.Rows {
		return nil, fmt.Errorf("engine: %s: input has shape %v, want %d rows", op, s, op.k.Rows)
	}
	if op.grad {
		return tensor.Shape{s[0], s[1] - op.k.Cols}, nil
	}
	return tensor.Shape{s[0], s[1] + op.k.Cols}, nil
}
func (op *appendConstOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	x := dense(op, in[0])
	n, w := x.Shape()[0], x.Shape()[1]
	m := op.k.Cols
	switch x.Dtype() {
	case tensor.Float64:
		if op.k.V == nil && !op.grad {
			return nil, fmt.Errorf("engine: AppendConst: a float32 constant in a float64 graph")
		}
		return appendConstDo(op, vals[float64](x), op.k.V, n, w, m, x.Dtype()), nil
	case tensor.Float32:
		return appendConstDo(op, vals[float32](x), op.k.v32, n, w, m, x.Dtype()), nil
	}
	return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, x.Dtype())
}

func appendConstDo[T Float](op *appendConstOp, x, k []T, n, w, m int, dt tensor.Dtype) G.Value {
	af, bf := op.mix.ab()
	a, b := T(af), T(bf)
	if op.grad { // x is dY, N×(D+M): dZ = a·dY[:, :D]
		d := w - m
		out := op.outputRaw(dt, n, d)
		o := vals[T](out)
		for r := range n {
			src, dst := x[r*w:r*w+d], o[r*d:(r+1)*d]
			for j, g := range src {
				dst[j] = a * g
			}
		}
		return out
	}
	out := op.outputRaw(dt, n, w+m)
	o := vals[T](out)
	for r := range n {
		dst := o[r*(w+m) : (r+1)*(w+m)]
		for j, v := range x[r*w : (r+1)*w] {
			dst[j] = a * v
		}
		for j, v := range k[r*m : (r+1)*m] {
			dst[w+j] = b * v
		}
	}
	return out
}

func (op *appendConstOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "engine.AppendConst{%d×%d id=%016x mix=%p grad=%v}", op.k.Rows, op.k.Cols, op.k.id, op.mix, op.grad)
}
func (op *appendConstOp) Hashcode() uint32 { return hashOf(op.WriteHash) }
func (op *appendConstOp) String() string {
	if op.grad {
		return fmt.Sprintf("AppendConstGrad[%d]", op.k.Cols)
	}
	return fmt.Sprintf("AppendConst[%d,%04x]", op.k.Cols, op.k.id&0xffff)
}
func (op *appendConstOp) DiffWRT(int) []bool { return []bool{!op.grad} }
func (op *appendConstOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	if op.grad {
		return nil, fmt.Errorf("engine: %s has no gradient", op)
	}
	dz, err := G.ApplyOp(&appendConstOp{k: op.k, mix: op.mix, grad: true}, grad)
	return G.Nodes{dz}, err
}

// AppendFeatures is AppendConst with K the dense features f (no sparse part).
func AppendFeatures(z *G.Node, f *Features, mix *Mix) *G.Node {
	if f.Sparse != nil {
		panic("engine: AppendFeatures: the features have a sparse part")
	}
	return AppendConst(z, f.constant(), mix)
}
