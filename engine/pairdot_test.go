package engine_test

import (
	"math"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestPairDotForwardAndGradient(t *testing.T) {
	zv := RandomValues(2, 6*4)
	I := []int{0, 1, 2, 5, 3, 0}
	J := []int{1, 1, 4, 0, 2, 5}
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	z := b.Constant("z", zv, 6, 4)
	in, jn := b.IntInput("i", len(I)), b.IntInput("j", len(J))
	if err := LetInts(in, I); err != nil {
		t.Fatal(err)
	}
	if err := LetInts(jn, J); err != nil {
		t.Fatal(err)
	}
	f, err := NewForward(b, PairDot(z, in, jn))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := f.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	for p := range I {
		var want float64
		for k := 0; k < 4; k++ {
			want += zv[I[p]*4+k] * zv[J[p]*4+k]
		}
		if math.Abs(got[p]-want) > 1e-14 {
			t.Errorf("pair %d = %g, want %g", p, got[p], want)
		}
	}
	err = CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		z := b.Param("z", Glorot(1), 6, 4)
		in, jn := b.IntInput("i", len(I)), b.IntInput("j", len(J))
		G.Must(in, LetInts(in, I))
		G.Must(jn, LetInts(jn, J))
		return PairDot(z, in, jn), []*G.Node{z}
	}, 1e-6, 1e-7)
	if err != nil {
		t.Error(err)
	}
}
