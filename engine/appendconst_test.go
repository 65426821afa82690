package engine_test

import (
	"math"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestAppendConst: the forward pass is [√W·Z | √(1−W)·K] in both dtypes,
// a changed share is read at the next run, and a
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
		mix := &Mix{W: 0.64}
		y := AppendConst(z, km, mix)
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
				if got, want := yv[r*5+j], 0.8*zv[r*3+j]; math.Abs(got-want) > 1e-6 {
					t.Errorf("%v: y[%d,%d] = %v, want %v", dt, r, j, got, want)
				}
			}
			for j := range 2 {
				if got, want := yv[r*5+3+j], 0.6*k[r*2+j]; math.Abs(got-want) > 1e-6 {
					t.Errorf("%v: y[%d,%d] = %v, want %v", dt, r, 3+j, got, want)
				}
			}
		}
		mix.W = 1 // read at the next run: the constant columns vanish
		vm.Reset()
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		yv = toF64(y.Value().Data())
		for r := range 4 {
			if yv[r*5] != zv[r*3] || yv[r*5+3] != 0 || yv[r*5+4] != 0 {
				t.Errorf("%v: with W = 1, row %d = %v, want %v then zeros", dt, r, yv[r*5:r*5+5], zv[r*3:r*3+3])
			}
		}
		CloseMachine(vm)
	}
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		z := b.Param("z", Glorot(1), 4, 3)
		return RowNormalize(AppendConst(z, NewConstMatrix(4, 2, k), &Mix{W: 0.7})), []*G.Node{z}
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
