package engine_test

import (
	"math"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestAnchorMessage(t *testing.T) {
	arg := []int{0, 2, 2, 4, 1, 3, 0}
	self := []int{0, 0, 1, 1, 2, 3, 4}
	err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		hm, hs := b.Param("hm", Glorot(1), 5, 3), b.Param("hs", Glorot(1), 5, 3)
		f, bias := b.Param("f", Glorot(1), len(arg), 1), b.Param("b", Glorot(1), 1, 3)
		an, sn := b.IntInput("arg", len(arg)), b.IntInput("self", len(self))
		G.Must(an, LetInts(an, arg))
		G.Must(sn, LetInts(sn, self))
		return AnchorMessage(hm, hs, f, bias, an, sn), []*G.Node{hm, hs, f, bias}
	}, 1e-6, 1e-7)
	if err != nil {
		t.Error(err)
	}
	// Forward against the unfused formula.
	hmv, hsv, fv, bv := RandomValues(50, 15), RandomValues(51, 15), RandomValues(52, 7), RandomValues(53, 3)
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	an, sn := b.IntInput("arg", 7), b.IntInput("self", 7)
	LetInts(an, arg)
	LetInts(sn, self)
	out := AnchorMessage(b.Constant("hm", hmv, 5, 3), b.Constant("hs", hsv, 5, 3), b.Constant("f", fv, 7, 1), b.Constant("b", bv, 1, 3), an, sn)
	fw, _ := NewForward(b, out)
	got, _, err := fw.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	for s := range arg {
		for k := 0; k < 3; k++ {
			want := math.Max(0, fv[s]*hmv[arg[s]*3+k]+hsv[self[s]*3+k]+bv[k])
			if math.Abs(got[s*3+k]-want) > 1e-15 {
				t.Fatalf("slot %d col %d = %g, want %g", s, k, got[s*3+k], want)
			}
		}
	}
}
