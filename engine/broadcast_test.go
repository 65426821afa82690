package engine_test

import (
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestBroadcastOps(t *testing.T) {
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x, v := b.Param("x", Glorot(1), 5, 3), b.Param("b", Glorot(1), 1, 3)
		return AddRowVector(x, v), []*G.Node{x, v}
	}, 1e-6, 1e-7); err != nil {
		t.Error("AddRowVector:", err)
	}
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x, s := b.Param("x", Glorot(1), 5, 3), b.Param("s", Glorot(1), 5, 1)
		return ScaleRows(x, s), []*G.Node{x, s}
	}, 1e-6, 1e-7); err != nil {
		t.Error("ScaleRows:", err)
	}
	xv, sv := RandomValues(40, 6), RandomValues(41, 3)
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	x, s := b.Constant("x", xv, 3, 2), b.Constant("s", sv, 3, 1)
	f, _ := NewForward(b, ScaleRows(x, s))
	got, _, _ := f.Run(nil)
	for i := 0; i < 6; i++ {
		if got[i] != xv[i]*sv[i/2] {
			t.Fatalf("ScaleRows entry %d = %g", i, got[i])
		}
	}
	if AddRowVector(x, b.Constant("r", sv[:2], 1, 2)) == ScaleRows(x, s) {
		t.Error("different broadcast ops merged")
	}
}
