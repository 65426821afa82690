package engine_test

import (
	"math"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func mseBlocks() []MSEBlock {
	mk := func(off, n int, seed uint64) MSEBlock {
		c := RandomValues(seed, n*n)
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				c[i*n+j] = c[j*n+i]
			}
		}
		return MSEBlock{Off: off, N: n, C: c}
	}
	return []MSEBlock{mk(0, 4, 3), mk(5, 3, 4)} // row 4 belongs to no block
}

// TestPairMSE: forward against the formula, the gradient by finite
// differences, bit-identical results under GOMAXPROCS 1 and 2, and two ops
// over different blocks stay two nodes.
func TestPairMSE(t *testing.T) {
	blocks := mseBlocks()
	const w = 0.37
	zv := RandomValues(9, 8*3)
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	z := b.Param("z", Constant(0), 8, 3)
	SetFloat64(z.Value().(*tensor.Dense), zv)
	loss := PairMSE(z, blocks, w)
	f, err := NewForward(b, loss)
	if err != nil {
		t.Fatal(err)
	}
	var want float64
	for _, bl := range blocks {
		for i := 0; i < bl.N; i++ {
			for j := i + 1; j < bl.N; j++ {
				var s float64
				for x := 0; x < 3; x++ {
					s += zv[(bl.Off+i)*3+x] * zv[(bl.Off+j)*3+x]
				}
				want += w * (bl.C[i*bl.N+j] - s) * (bl.C[i*bl.N+j] - s)
			}
		}
	}
	got, _, err := f.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if math.Abs(got[0]-want) > 1e-12 {
		t.Fatalf("forward %v, want %v", got[0], want)
	}
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		z := b.Param("z", Glorot(1), 8, 3)
		return PairMSE(z, blocks, w), []*G.Node{z}
	}, 1e-6, 1e-7); err != nil {
		t.Error(err)
	}
	// Two ops over different blocks must stay two nodes.
	b2 := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	z2 := b2.Param("z", Glorot(1), 8, 3)
	if a, c := PairMSE(z2, blocks[:1], w), PairMSE(z2, blocks[1:], w); a == c {
		t.Error("two PairMSE ops merged into one node")
	}
}
