package engine_test

import (
	"math"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestRowNormalize(t *testing.T) {
	xv := RandomValues(3, 4*3)
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	f, err := NewForward(b, RowNormalize(b.Constant("x", xv, 4, 3)))
	if err != nil {
		t.Fatal(err)
	}
	got, _, _ := f.Run(nil)
	for r := 0; r < 4; r++ {
		n := math.Sqrt(xv[r*3]*xv[r*3] + xv[r*3+1]*xv[r*3+1] + xv[r*3+2]*xv[r*3+2])
		for k := 0; k < 3; k++ {
			if math.Abs(got[r*3+k]-xv[r*3+k]/n) > 1e-15 {
				t.Fatalf("row %d col %d = %g", r, k, got[r*3+k])
			}
		}
	}
	err = CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x := b.Param("x", Glorot(1), 4, 3)
		return RowNormalize(x), []*G.Node{x}
	}, 1e-6, 1e-7)
	if err != nil {
		t.Error(err)
	}
}
