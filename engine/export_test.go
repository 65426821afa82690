package engine

import G "gorgonia.org/gorgonia"

// wrongSpMM differentiates with A instead of Aᵀ: the gradient check must
// catch it on the asymmetric mean adjacency (it proves the check can fail).
type wrongSpMM struct{ spmmOp }

func (op *wrongSpMM) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	dx, err := G.ApplyOp(&spmmOp{a: op.a}, grad)
	return G.Nodes{dx}, err
}

// WrongSpMM is SpMM with a deliberately wrong gradient, for the external
// test of the gradient check.
func WrongSpMM(a *CSR, x *G.Node) *G.Node { return G.Must(G.ApplyOp(&wrongSpMM{spmmOp{a: a}}, x)) }

// MatMulT is the MatMul op with transposed operands, for the external
// gradient checks of every combination the gradients use.
func MatMulT(a, b *G.Node, tA, tB bool) *G.Node {
	return G.Must(G.ApplyOp(&matMulOp{tA: tA, tB: tB}, a, b))
}

// ConstantValues is the float32 values of f's dense constant, the ones a
// float32 graph's ConstMul reads.
func ConstantValues(f *Features) []float32 { return f.constant().v32 }

// ViewAheadRows and ViewRowsPerWorker are loadViewRows' prefetch distance
// and least rows a worker, for the external test of its calls.
const ViewAheadRows, ViewRowsPerWorker = viewAhead, viewRowsPerWorker
