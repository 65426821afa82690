package engine_test

import (
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestReLU(t *testing.T) {
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x := b.Param("x", Glorot(2), 5, 3)
		return ReLU(x), []*G.Node{x}
	}, 1e-6, 1e-7); err != nil {
		t.Error(err)
	}
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	f, _ := NewForward(b, ReLU(b.Constant("x", []float64{-1, 0, 2, -0.5}, 2, 2)))
	got, _, _ := f.Run(nil)
	if got[0] != 0 || got[1] != 0 || got[2] != 2 || got[3] != 0 {
		t.Errorf("ReLU = %v", got)
	}
}
