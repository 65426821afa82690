package engine_test

import (
	"math"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestWeightedSumGradient: finite differences through a weighted sum of
// two scalar terms and of one.
func TestWeightedSumGradient(t *testing.T) {
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x, y := b.Param("x", Glorot(1), 4, 3), b.Param("y", Glorot(1), 4, 3)
		t1 := G.Must(G.Sum(ReLU(x)))
		t2 := G.Must(G.Sum(MatMulT(x, y, false, true)))
		return WeightedSum([]*G.Node{t1, t2}, []float64{0.5, 3}), []*G.Node{x, y}
	}, 1e-6, 1e-7); err != nil {
		t.Error(err)
	}
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x := b.Param("x", Glorot(1), 4, 3)
		return WeightedSum([]*G.Node{G.Must(G.Sum(ReLU(x)))}, []float64{10}), []*G.Node{x}
	}, 1e-6, 1e-7); err != nil {
		t.Error(err)
	}
}

// TestWeightedSumMatchesMulAdd: in float32 the value equals gorgonia's
// Mul-then-Add fold bit for bit (what the objective computed before).
func TestWeightedSumMatchesMulAdd(t *testing.T) {
	run := func(ours bool) float32 {
		b := NewBuilder(NewParamStore(tensor.Float32, Stream(4, "init")), true)
		x := b.Param("x", Glorot(1), 30, 7)
		t1, t2 := G.Must(G.Sum(x)), G.Must(G.Sum(ReLU(x)))
		var out *G.Node
		if ours {
			out = WeightedSum([]*G.Node{t1, t2}, []float64{0.3, 10.7})
		} else {
			out = G.Must(G.Add(G.Must(G.Mul(t1, b.Scalar("a", 0.3))), G.Must(G.Mul(t2, b.Scalar("b", 10.7)))))
		}
		var v G.Value
		G.Read(out, &v)
		vm := G.NewTapeMachine(b.G)
		defer vm.Close()
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		return float32(*v.(*G.F32))
	}
	if a, b := run(true), run(false); math.Float32bits(a) != math.Float32bits(b) {
		t.Fatalf("WeightedSum %v, Mul/Add %v", a, b)
	}
}
