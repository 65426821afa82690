package engine

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	"gonum.org/v1/gonum/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// MatMul returns a·b for matrix nodes (m×k times k×n) with the engine's BLAS
// (float32: the AVX2+FMA Gemm), writing every run into the op's own buffer:
// unlike gorgonia's Mul, the tape allocates nothing for it per run.
// Gradients: dA = G·Bᵀ, dB = Aᵀ·G, as MatMul ops with transposed operands.
func MatMul(a, b *G.Node) *G.Node {
	if a.Dims() != 2 || b.Dims() != 2 || a.Shape()[1] != b.Shape()[0] {
		panic(fmt.Sprintf("engine: MatMul: shapes %v and %v", a.Shape(), b.Shape()))
	}
	return G.Must(G.ApplyOp(&matMulOp{}, a, b))
}

// matMulOp computes op(A)·op(B), op transposing when tA/tB is set.
type matMulOp struct {
	opBase
	tA, tB bool
}

func (*matMulOp) Arity() int { return 2 }
func (*matMulOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(tt(2, a), tt(2, a), tt(2, a))
}

// dims returns m, k of op(A) and n of op(B).
func (op *matMulOp) dims(sa, sb tensor.Shape) (m, k, kb, n int) {
	m, k = sa[0], sa[1]
	if op.tA {
		m, k = k, m
	}
	kb, n = sb[0], sb[1]
	if op.tB {
		kb, n = n, kb
	}
	return m, k, kb, n
}
func (op *matMulOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	sa, sb := in[0].(tensor.Shape), in[1].(tensor.Shape)
	if len(sa) != 2 || len(sb) != 2 {
		return nil, fmt.Errorf("engine: %s: shapes %v and %v", op, sa, sb)
	}
	m, k, kb, n := op.dims(sa, sb)
	if k != kb {
		return nil, fmt.Errorf("engine: %s: inner dimensions %d and %d differ", op, k, kb)
	}
	return tensor.Shape{m, n}, nil
}
func (op *matMulOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	a, b := dense(op, in[0]), dense(op, in[1])
	m, k, _, n := op.dims(a.Shape(), b.Shape())
	// Gemm with β = 0 sets every element of C (gonum's and ours clear C
	// first, NaN included): no zeroing here.
	out := op.outputRaw(a.Dtype(), m, n)
	tA, tB := blas.NoTrans, blas.NoTrans
	if op.tA {
		tA = blas.Trans
	}
	if op.tB {
		tB = blas.Trans
	}
	lda, ldb := a.Shape()[1], b.Shape()[1]
	switch a.Dtype() {
	case tensor.Float64:
		as := vals[float64](a)
		gemm(tA, tB, m, n, k, 1, as, lda, vals[float64](b), ldb, 0, vals[float64](out), n)
	case tensor.Float32:
		as := vals[float32](a)
		gemm(tA, tB, m, n, k, 1, as, lda, vals[float32](b), ldb, 0, vals[float32](out), n)
	default:
		return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, a.Dtype())
	}
	return out, nil
}
func (op *matMulOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "engine.MatMul{%v %v}", op.tA, op.tB) }
func (op *matMulOp) Hashcode() uint32      { return hashOf(op.WriteHash) }
func (op *matMulOp) String() string {
	t := func(b bool) string {
		if b {
			return "ᵀ"
		}
		return ""
	}
	return fmt.Sprintf("MatMul[A%s·B%s]", t(op.tA), t(op.tB))
}
func (op *matMulOp) DiffWRT(int) []bool { return []bool{true, true} }
func (op *matMulOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	a, b := in[0], in[1]
	var da, db *G.Node
	var err error
	// C = op(A)·op(B): d op(A) = G·op(B)ᵀ, d op(B) = op(A)ᵀ·G, transposed
	// back when the operand itself was transposed.
	if !op.tA {
		da, err = G.ApplyOp(&matMulOp{tB: !op.tB}, grad, b)
	} else {
		da, err = G.ApplyOp(&matMulOp{tA: op.tB, tB: true}, b, grad)
	}
	if err != nil {
		return nil, err
	}
	if !op.tB {
		db, err = G.ApplyOp(&matMulOp{tA: !op.tA}, a, grad)
	} else {
		db, err = G.ApplyOp(&matMulOp{tA: true, tB: op.tA}, grad, a)
	}
	return G.Nodes{da, db}, err
}
