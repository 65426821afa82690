package engine_test

import (
	"math"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestConstMul(t *testing.T) {
	xv := RandomValues(5, 5*4)
	x := NewConstMatrix(5, 4, xv)
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	wv := RandomValues(6, 4*3)
	w := b.Constant("w", wv, 4, 3)
	f, err := NewForward(b, ConstMul(x, w))
	if err != nil {
		t.Fatal(err)
	}
	got, _, _ := f.Run(nil)
	for r := 0; r < 5; r++ {
		for j := 0; j < 3; j++ {
			var want float64
			for k := 0; k < 4; k++ {
				want += xv[r*4+k] * wv[k*3+j]
			}
			if math.Abs(got[r*3+j]-want) > 1e-14 {
				t.Fatalf("(%d,%d) = %g, want %g", r, j, got[r*3+j], want)
			}
		}
	}
	err = CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		w := b.Param("w", Glorot(1), 4, 3)
		return ConstMul(x, w), []*G.Node{w}
	}, 1e-6, 1e-7)
	if err != nil {
		t.Error(err)
	}
	// Different constants stay different nodes.
	y := NewConstMatrix(5, 4, RandomValues(7, 20))
	if ConstMul(x, w) == ConstMul(y, w) {
		t.Error("ConstMul over different matrices merged")
	}
}
