package engine_test

import (
	"math"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestStopGradient: forward, StopGradient is the identity; backward, a loss
// that reads x both directly and through it gets only the direct path's
// gradient: for L = Σ x ⊙ stop(x) that is x (a finite difference, which sees
// both paths, would give 2x), and a gradient check holds on a graph where the
// stopped value is not among the inputs it perturbs.
func TestStopGradient(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		b := NewBuilder(NewParamStore(dt, Stream(3, "init")), true)
		x := b.Param("x", Glorot(1), 4, 3)
		s := StopGradient(x)
		loss := G.Must(G.Sum(G.Must(G.HadamardProd(x, s))))
		if _, err := G.Grad(loss, x); err != nil {
			t.Fatal(err)
		}
		var sv G.Value
		G.Read(s, &sv)
		vm := G.NewTapeMachine(b.G, G.BindDualValues(x))
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		grad, err := x.Grad()
		if err != nil {
			t.Fatal(err)
		}
		xv, gv, stopped := x.Value().Data(), grad.Data(), sv.Data()
		for i := range 12 {
			var xi, gi, si float64
			switch dt {
			case tensor.Float64:
				xi, gi, si = xv.([]float64)[i], gv.([]float64)[i], stopped.([]float64)[i]
			default:
				xi, gi, si = float64(xv.([]float32)[i]), float64(gv.([]float32)[i]), float64(stopped.([]float32)[i])
			}
			if si != xi {
				t.Errorf("%v: forward [%d] = %v, want %v", dt, i, si, xi)
			}
			if math.Abs(gi-xi) > 1e-6 {
				t.Errorf("%v: gradient [%d] = %v, want x = %v (only the direct path)", dt, i, gi, xi)
			}
		}
		CloseMachine(vm)
	}
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x := b.Param("x", Glorot(1), 4, 3)
		y := b.Param("y", Glorot(1), 4, 3)
		return RowNormalize(Add(x, StopGradient(y))), []*G.Node{x}
	}, 1e-6, 1e-7); err != nil {
		t.Error(err)
	}
}
