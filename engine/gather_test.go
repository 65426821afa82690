package engine_test

import (
	"math"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestGatherGradient: finite differences through Gather with repeated,
// skipped and out-of-order indices.
func TestGatherGradient(t *testing.T) {
	idx := []int{3, 0, 3, 1, 3, 0}
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x := b.Param("x", Glorot(1), 5, 2)
		in := b.IntInput("idx", len(idx))
		if err := LetInts(in, idx); err != nil {
			t.Fatal(err)
		}
		return ReLU(Gather(x, in)), []*G.Node{x}
	}, 1e-6, 1e-7); err != nil {
		t.Error(err)
	}
}

// TestGatherMatchesByIndices: forward values and the gradient equal
// gorgonia's ByIndices bit for bit (float32: summation order matters).
func TestGatherMatchesByIndices(t *testing.T) {
	idx := make([]int, 5000)
	for i := range idx {
		idx[i] = (i*7919 + i*i) % 37
	}
	run := func(ours bool) (fwd, grad []float32) {
		b := NewBuilder(NewParamStore(tensor.Float32, Stream(3, "init")), true)
		x := b.Param("x", Glorot(1), 37, 1)
		in := b.IntInput("idx", len(idx))
		if err := LetInts(in, idx); err != nil {
			t.Fatal(err)
		}
		var y *G.Node
		if ours {
			y = Gather(x, in)
		} else {
			y = G.Must(G.ByIndices(x, in, 0))
		}
		w := b.Param("w", Glorot(1), 1, 3)
		loss := G.Must(G.Sum(MatMul(y, w)))
		if _, err := G.Grad(loss, x); err != nil {
			t.Fatal(err)
		}
		var yv G.Value
		G.Read(y, &yv)
		vm := G.NewTapeMachine(b.G, G.BindDualValues(x))
		defer vm.Close()
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		gv, err := x.Grad()
		if err != nil {
			t.Fatal(err)
		}
		return append([]float32(nil), yv.Data().([]float32)...), append([]float32(nil), gv.Data().([]float32)...)
	}
	f1, g1 := run(true)
	f2, g2 := run(false)
	for i := range f2 {
		if math.Float32bits(f1[i]) != math.Float32bits(f2[i]) {
			t.Fatalf("forward [%d]: %v vs ByIndices %v", i, f1[i], f2[i])
		}
	}
	for i := range g2 {
		if math.Float32bits(g1[i]) != math.Float32bits(g2[i]) {
			t.Fatalf("gradient [%d]: %v vs ByIndices %v", i, g1[i], g2[i])
		}
	}
}
