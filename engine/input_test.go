package engine_test

import (
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
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

// TestSetColumnSigns: flipped columns reach ConstMul's product in both
// dtypes, and all-ones signs restore the original input exactly.
func TestSetColumnSigns(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		xv := RandomValues(3, 4*3)
		orig := append([]float64(nil), xv...)
		f := &Features{N: 4, Dense: xv, DenseDim: 3}
		b := NewBuilder(NewParamStore(dt, Stream(1, "init")), false)
		fw, err := NewForward(b, b.InputLinear("in", f, 2, false))
		if err != nil {
			t.Fatal(err)
		}
		before, _, _ := fw.Run(nil)
		before = append([]float64(nil), before...)
		f.SetColumnSigns(1, []float64{-1, -1})
		if f.Dense[1] != -orig[1] || f.Dense[0] != orig[0] {
			t.Fatalf("dense values after the flip: %v", f.Dense)
		}
		flipped, _, _ := fw.Run(nil)
		if flipped[0] == before[0] {
			t.Fatalf("%v: the flip did not reach the product", dt)
		}
		f.SetColumnSigns(1, []float64{1, 1})
		after, _, _ := fw.Run(nil)
		for i := range before {
			if after[i] != before[i] || f.Dense[i%len(f.Dense)] != orig[i%len(orig)] {
				t.Fatalf("%v: restoring the signs did not restore the output", dt)
			}
		}
	}
}
