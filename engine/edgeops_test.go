package engine_test

import (
	"math"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestEdgeOpsGradients(t *testing.T) {
	a := testAdj().WithSelfLoops()
	n, nnz := a.Rows, a.NNZ()
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		d, s := b.Param("dst", Glorot(1), n), b.Param("src", Glorot(1), n)
		return EdgeScores(a, d, s), []*G.Node{d, s}
	}, 1e-6, 1e-7); err != nil {
		t.Error("EdgeScores:", err)
	}
	// N×1 inputs (GAT's h·a, fed without a reshape): gradients are N×1 too.
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		h, ad, as := b.Param("h", Glorot(1), n, 3), b.Param("ad", Glorot(1), 3, 1), b.Param("as", Glorot(1), 3, 1)
		return EdgeScores(a, MatMul(h, ad), MatMul(h, as)), []*G.Node{h, ad, as}
	}, 1e-6, 1e-7); err != nil {
		t.Error("EdgeScores of N×1 products:", err)
	}
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		e := b.Param("e", Glorot(3), nnz)
		return SegmentSoftmax(a, e), []*G.Node{e}
	}, 1e-6, 1e-7); err != nil {
		t.Error("SegmentSoftmax:", err)
	}
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		v, x := b.Param("v", Glorot(1), nnz), b.Param("x", Glorot(1), n, 3)
		return EdgeSpMM(a, v, x), []*G.Node{v, x}
	}, 1e-6, 1e-7); err != nil {
		t.Error("EdgeSpMM:", err)
	}
}

// TestEdgeOpsForward checks the three ops against dense references.
func TestEdgeOpsForward(t *testing.T) {
	a := testAdj().WithSelfLoops()
	n, nnz := a.Rows, a.NNZ()
	dv, sv, ev := RandomValues(11, n), RandomValues(12, n), RandomValues(13, nnz)
	xv := RandomValues(14, n*2)
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	sc := EdgeScores(a, b.Constant("d", dv, n), b.Constant("s", sv, n))
	sm := SegmentSoftmax(a, b.Constant("e", ev, nnz))
	y := EdgeSpMM(a, b.Constant("v", ev, nnz), b.Constant("x", xv, n, 2))
	run := func(out *G.Node) []float64 {
		b2 := *b
		f, err := NewForward(&b2, out)
		if err != nil {
			t.Fatal(err)
		}
		v, _, err := f.Run(nil)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	scores, soft, prod := run(sc), run(sm), run(y)
	rows := a.RowOf()
	for k := 0; k < nnz; k++ {
		if want := dv[rows[k]] + sv[a.ColIdx[k]]; math.Abs(scores[k]-want) > 1e-15 {
			t.Fatalf("score %d = %g, want %g", k, scores[k], want)
		}
	}
	for r := 0; r < n; r++ {
		var z float64
		for k := a.RowPtr[r]; k < a.RowPtr[r+1]; k++ {
			z += math.Exp(ev[k])
		}
		for k := a.RowPtr[r]; k < a.RowPtr[r+1]; k++ {
			if want := math.Exp(ev[k]) / z; math.Abs(soft[k]-want) > 1e-15 {
				t.Fatalf("softmax %d = %g, want %g", k, soft[k], want)
			}
		}
		for j := 0; j < 2; j++ {
			var want float64
			for k := a.RowPtr[r]; k < a.RowPtr[r+1]; k++ {
				want += ev[k] * xv[a.ColIdx[k]*2+j]
			}
			if math.Abs(prod[r*2+j]-want) > 1e-14 {
				t.Fatalf("EdgeSpMM(%d,%d) = %g, want %g", r, j, prod[r*2+j], want)
			}
		}
	}
	// Different patterns stay different nodes.
	a2 := testAdj().GCNNorm()
	if SegmentSoftmax(a, b.Constant("e2", ev, nnz)) == SegmentSoftmax(a2, b.G.ByName("e2")[0]) {
		t.Error("segment softmax over different patterns merged")
	}
}

// TestEdgeOpsStayDistinct: edge ops over different patterns stay two nodes.
func TestEdgeOpsStayDistinct(t *testing.T) {
	a, a2 := testAdj().WithSelfLoops(), testAdj().GCNNorm()
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	d, s := b.Constant("d", RandomValues(1, 5), 5), b.Constant("s", RandomValues(2, 5), 5)
	if EdgeScores(a, d, s) == EdgeScores(a2, d, s) {
		t.Error("EdgeScores over different patterns merged")
	}
	v, x := b.Constant("v", RandomValues(3, a.NNZ()), a.NNZ()), b.Constant("x", RandomValues(4, 10), 5, 2)
	if EdgeSpMM(a, v, x) == EdgeSpMM(a2, v, x) {
		t.Error("EdgeSpMM over different patterns merged")
	}
}
