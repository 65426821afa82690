package engine_test

import (
	"math"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestSpMMForwardAndGradient(t *testing.T) {
	a := testAdj()
	for _, m := range []*CSR{a.GCNNorm(), a.MeanNorm(), a.Sum()} {
		xv := RandomValues(1, 5*3)
		// Forward against the dense product.
		b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
		x := b.Constant("x", xv, 5, 3)
		y := SpMM(m, x)
		f, err := NewForward(b, y)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := f.Run(nil)
		if err != nil {
			t.Fatal(err)
		}
		d := m.Dense()
		for r := 0; r < 5; r++ {
			for j := 0; j < 3; j++ {
				var want float64
				for c := 0; c < 5; c++ {
					want += d[r*5+c] * xv[c*3+j]
				}
				if math.Abs(got[r*3+j]-want) > 1e-14 {
					t.Fatalf("SpMM(%d,%d) = %g, want %g", r, j, got[r*3+j], want)
				}
			}
		}
		err = CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
			x := b.Param("x", Glorot(1), 5, 3)
			return SpMM(m, x), []*G.Node{x}
		}, 1e-6, 1e-7)
		if err != nil {
			t.Error(err)
		}
	}
}
