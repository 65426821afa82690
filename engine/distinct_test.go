package engine_test

import (
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	"gorgonia.org/tensor"
)

// TestOpsStayDistinct: two SpMM ops over different adjacencies applied to the
// same input must stay two nodes (gorgonia merges nodes with equal hashes).
func TestOpsStayDistinct(t *testing.T) {
	a := testAdj()
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	x := b.Constant("x", RandomValues(4, 15), 5, 3)
	y1 := SpMM(a.GCNNorm(), x)
	y2 := SpMM(a.MeanNorm(), x)
	y3 := SpMM(a.MeanNorm().T(), x)
	if y1 == y2 || y2 == y3 || y1 == y3 {
		t.Fatal("SpMM over different adjacencies merged into one node")
	}
	if y4 := SpMM(a.GCNNorm(), x); y4 != y1 {
		t.Error("identical SpMM ops were not merged (hash is not content based)")
	}
	r1 := RowNormalize(x)
	if r1 == x {
		t.Fatal("row normalise returned its input")
	}
	i, j := b.IntInput("i", 2), b.IntInput("j", 2)
	i2 := b.IntInput("i2", 2)
	if PairDot(x, i, j) == PairDot(x, i2, j) {
		t.Error("PairDot over different index inputs merged")
	}
}
