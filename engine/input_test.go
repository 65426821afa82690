package engine

import (
	"testing"

	G "gorgonia.org/gorgonia"
)

func TestDropoutGradient(t *testing.T) {
	err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x := b.Param("x", Glorot(1), 5, 4)
		return b.Dropout("drop", x, 0.5), []*G.Node{x}
	}, 1e-6, 1e-7)
	if err != nil {
		t.Error(err)
	}
}
