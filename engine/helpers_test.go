package engine_test

import (
	"testing"

	. "github.com/ignn/ignn/engine"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// testAdj is a 5-node graph: path 0-1-2-3 plus edge 1-4 (4 is a leaf).
func testAdj() *Adjacency {
	return NewAdjacency(5, [][2]int32{{0, 1}, {1, 2}, {2, 3}, {1, 4}, {4, 1}, {2, 2}})
}

// valueAndGrad32 builds op(x) in float32 on a fresh builder (x is rows×1,
// set by init), sums op(x)·w for a 1×3 parameter w and returns op(x)'s
// values and the gradient with respect to x, both copied.
func valueAndGrad32(t *testing.T, rows int, init func(b *Builder, x *G.Node), op func(b *Builder, x *G.Node) *G.Node) (fwd, grad []float32) {
	t.Helper()
	b := NewBuilder(NewParamStore(tensor.Float32, Stream(3, "init")), true)
	x := b.Param("x", Glorot(1), rows, 1)
	if init != nil {
		init(b, x)
	}
	y := op(b, x)
	loss := G.Must(G.Sum(MatMul(y, b.Param("w", Glorot(1), 1, 3))))
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
