package engine_test

import (
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
)

func TestGradientCheckCatchesWrongGradient(t *testing.T) {
	m := testAdj().MeanNorm()
	err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x := b.Param("x", Glorot(1), 5, 3)
		return WrongSpMM(m, x), []*G.Node{x}
	}, 1e-6, 1e-7)
	if err == nil {
		t.Fatal("gradient check accepted Aᵀ replaced by A")
	}
}
