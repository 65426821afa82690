package engine_test

import (
	"slices"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	"gorgonia.org/tensor"
)

// inputForward is a float32 forward graph of InputLinear over x (seeded
// weights), run once.
func inputForward(t *testing.T, x *Features, dt tensor.Dtype) ([]float64, error) {
	t.Helper()
	b := NewBuilder(NewParamStore(dt, Stream(3, "init")), false)
	f, err := NewForward(b, b.InputLinear("in", x, 3, true))
	if err != nil {
		return nil, err
	}
	out, _, err := f.Run(nil)
	return out, err
}

// Compacted features (float32 storage) give a float32 graph exactly the
// values of the float64 storage, whole-graph and through batch rows; a
// float64 graph refuses them.
func TestCompactFeatures(t *testing.T) {
	const n, d = 7, 5
	dense := RandomValues(11, n*d)
	sparse := NewCSR(n, n, []Entry{{0, 3, 1}, {1, 0, 1}, {2, 6, 1}, {3, 1, 1}, {4, 2, 1}, {5, 5, 1}, {6, 4, 1}})
	plain := &Features{N: n, DenseDim: d, Dense: slices.Clone(dense), Sparse: sparse}
	comp := &Features{N: n, DenseDim: d, Dense: slices.Clone(dense), Sparse: sparse}
	comp.Compact()
	comp.Compact() // idempotent
	if comp.Dense != nil || len(comp.Dense32) != n*d {
		t.Fatalf("after Compact: %d float64 and %d float32 values", len(comp.Dense), len(comp.Dense32))
	}
	for i, v := range dense {
		if comp.At(i) != float64(float32(v)) || plain.At(i) != v {
			t.Fatalf("At(%d) = %g / %g, want %g", i, comp.At(i), plain.At(i), v)
		}
	}
	want, err := inputForward(t, plain, tensor.Float32)
	if err != nil {
		t.Fatal(err)
	}
	got, err := inputForward(t, comp, tensor.Float32)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("compacted input gives %v, want %v", got, want)
	}
	if _, err := inputForward(t, comp, tensor.Float64); err == nil {
		t.Error("a float64 graph ran on compacted features")
	}
	rows := []int{4, 0, 6, 2}
	bp, bc := NewBatchFeatures(plain, 5), NewBatchFeatures(comp, 5)
	bp.LoadRows(plain, rows)
	bc.LoadRows(comp, rows)
	if bc.Dense32 == nil {
		t.Fatal("a compacted source gave a float64 batch")
	}
	want, _ = inputForward(t, bp, tensor.Float32)
	got, _ = inputForward(t, bc, tensor.Float32)
	if !slices.Equal(got, want) || len(got) != 5*3 {
		t.Fatalf("compacted batch gives %v, want %v", got, want)
	}
	// A constant made before Compact shares the new storage.
	late := &Features{N: n, DenseDim: d, Dense: slices.Clone(dense)}
	before, _ := inputForward(t, late, tensor.Float32)
	late.Compact()
	after, _ := inputForward(t, late, tensor.Float32)
	if !slices.Equal(before, after) {
		t.Fatalf("Compact after the constant changed the output: %v, want %v", after, before)
	}
}
