package engine_test

import (
	"fmt"
	"math"
	"strings"
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

// TestInputLinearInit: the dense weights start at the given values (one
// forward equals X·W by hand), and Values refuses a wrong length.
func TestInputLinearInit(t *testing.T) {
	const n, k, out = 4, 3, 2
	x := &Features{N: n, DenseDim: k, Dense: RandomValues(3, n*k)}
	w := []float64{1, 0, 0, 1, 0.5, -0.5}
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	f, err := NewForward(b, b.InputLinearInit("skip", x, out, false, Values(w)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, _, err := f.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	for r := 0; r < n; r++ {
		for c := 0; c < out; c++ {
			var want float64
			for a := 0; a < k; a++ {
				want += x.Dense[r*k+a] * w[a*out+c]
			}
			if math.Abs(got[r*out+c]-want) > 1e-12 {
				t.Fatalf("row %d col %d: %v, want %v", r, c, got[r*out+c], want)
			}
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "5 values for a parameter of 6") {
			t.Errorf("wrong length: panic %v", r)
		}
	}()
	Values(w[:5])(nil, make([]float64, 6), k, out)
}
