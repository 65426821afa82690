package engine

import (
	"testing"

	G "gorgonia.org/gorgonia"
)

// wrongSpMM differentiates with A instead of Aᵀ: the gradient check must
// catch it on the asymmetric mean adjacency (it proves the check can fail).
type wrongSpMM struct{ spmmOp }

func (op *wrongSpMM) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	dx, err := G.ApplyOp(&spmmOp{a: op.a}, grad)
	return G.Nodes{dx}, err
}

func TestGradientCheckCatchesWrongGradient(t *testing.T) {
	m := testAdj().MeanNorm()
	err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x := b.Param("x", Glorot(1), 5, 3)
		return G.Must(G.ApplyOp(&wrongSpMM{spmmOp{a: m}}, x)), []*G.Node{x}
	}, 1e-6, 1e-7)
	if err == nil {
		t.Fatal("gradient check accepted Aᵀ replaced by A")
	}
}
