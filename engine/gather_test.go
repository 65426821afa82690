package engine_test

import (
	"math"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
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
		return valueAndGrad32(t, 37, nil, func(b *Builder, x *G.Node) *G.Node {
			in := b.IntInput("idx", len(idx))
			if err := LetInts(in, idx); err != nil {
				t.Fatal(err)
			}
			if ours {
				return Gather(x, in)
			}
			return G.Must(G.ByIndices(x, in, 0))
		})
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
