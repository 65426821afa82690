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
	s1 := &PairSet{I: []int{0}, J: []int{1}, V: []float64{1}, W: []float64{1}}
	s2 := &PairSet{I: []int{1}, J: []int{2}, V: []float64{1}, W: []float64{1}}
	if PairLoss(Logistic, x, s1) == PairLoss(Logistic, x, s2) {
		t.Error("PairLoss over different pair sets merged")
	}
}
