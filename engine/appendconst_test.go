package engine_test

import (
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestAppendConst: the forward pass is [a·Z | b·K] in both dtypes, and a
// finite-difference check holds for Z through a normalisation of the whole
// row (so the constant columns shape the gradient).
func TestAppendConst(t *testing.T) {
	k := []float64{1, -2, 0.5, 3, -1, 2, 0, 4}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		b := NewBuilder(NewParamStore(dt, Stream(3, "init")), true)
		z := b.Param("z", Glorot(1), 4, 3)
		var km *ConstMatrix
		if dt == tensor.Float64 {
			km = NewConstMatrix(4, 2, k)
		} else {
			k32 := make([]float32, len(k))
			for i, v := range k {
				k32[i] = float32(v)
			}
			km = NewConstMatrix32(4, 2, k32)
		}
		y := AppendConst(z, km, 0.5, 2)
		vm := G.NewTapeMachine(b.G)
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		if s := y.Shape(); s[0] != 4 || s[1] != 5 {
			t.Fatalf("%v: shape %v, want (4, 5)", dt, s)
		}
		zv, yv := toF64(z.Value().Data()), toF64(y.Value().Data())
		for r := range 4 {
			for j := range 3 {
				if got, want := yv[r*5+j], 0.5*zv[r*3+j]; got != want {
					t.Errorf("%v: y[%d,%d] = %v, want %v", dt, r, j, got, want)
				}
			}
			for j := range 2 {
				if got, want := yv[r*5+3+j], 2*k[r*2+j]; got != want {
					t.Errorf("%v: y[%d,%d] = %v, want %v", dt, r, 3+j, got, want)
				}
			}
		}
		CloseMachine(vm)
	}
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		z := b.Param("z", Glorot(1), 4, 3)
		return RowNormalize(AppendConst(z, NewConstMatrix(4, 2, k), 0.7, 0.4)), []*G.Node{z}
	}, 1e-6, 1e-7); err != nil {
		t.Error(err)
	}
}

func toF64(v any) []float64 {
	switch v := v.(type) {
	case []float64:
		return v
	case []float32:
		o := make([]float64, len(v))
		for i, x := range v {
			o[i] = float64(x)
		}
		return o
	}
	panic("toF64")
}
