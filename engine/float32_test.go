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

// widen32 is v in float32 storage (Dense32), as features.Build stores a
// float32 run's inputs.
func widen32(n, d int, v []float64, sparse *CSR) *Features {
	f := &Features{N: n, DenseDim: d, Dense32: make([]float32, len(v)), Sparse: sparse}
	for i, x := range v {
		f.Dense32[i] = float32(x)
	}
	return f
}

// Features in float32 storage give a float32 graph exactly the values of
// the float64 storage, whole-graph and through batch rows; a float64 graph
// refuses them.
func TestFloat32Features(t *testing.T) {
	const n, d = 7, 5
	dense := RandomValues(11, n*d)
	sparse := NewCSR(n, n, []Entry{{0, 3, 1}, {1, 0, 1}, {2, 6, 1}, {3, 1, 1}, {4, 2, 1}, {5, 5, 1}, {6, 4, 1}})
	plain := &Features{N: n, DenseDim: d, Dense: slices.Clone(dense), Sparse: sparse}
	comp := widen32(n, d, dense, sparse)
	for i, v := range dense {
		if comp.At(i) != float64(float32(v)) || plain.At(i) != v {
			t.Fatalf("At(%d) = %g / %g, want %g", i, comp.At(i), plain.At(i), v)
		}
	}
	if w := comp.DenseFloat64(); w[3] != float64(float32(dense[3])) {
		t.Fatalf("DenseFloat64 %v", w[3])
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
		t.Fatalf("float32 storage gives %v, want %v", got, want)
	}
	if _, err := inputForward(t, comp, tensor.Float64); err == nil {
		t.Error("a float64 graph ran on float32-stored features")
	}
	rows := []int{4, 0, 6, 2}
	bp, bc := NewBatchFeatures(plain, 5), NewBatchFeatures(comp, 5)
	bp.LoadRows(plain, rows)
	bc.LoadRows(comp, rows)
	if bc.Dense32 == nil {
		t.Fatal("a float32-stored source gave a float64 batch")
	}
	want, _ = inputForward(t, bp, tensor.Float32)
	got, _ = inputForward(t, bc, tensor.Float32)
	if !slices.Equal(got, want) || len(got) != 5*3 {
		t.Fatalf("float32 batch gives %v, want %v", got, want)
	}
}

// RunRows hands out the first n rows of Run's output, the same float64
// values in row order, in float32 and float64 graphs, run after run; it
// refuses more rows than the output has.
func TestForwardRunRows(t *testing.T) {
	const n, d = 7, 5
	x := &Features{N: n, DenseDim: d, Dense: RandomValues(12, n*d)}
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		feats := x
		if dt == tensor.Float32 {
			feats = widen32(n, d, x.Dense, nil)
		}
		b := NewBuilder(NewParamStore(dt, Stream(3, "init")), false)
		f, err := NewForward(b, b.InputLinear("in", feats, 3, true))
		if err != nil {
			t.Fatal(err)
		}
		want, shape, err := f.Run(nil)
		if err != nil {
			t.Fatal(err)
		}
		for run := 0; run < 2; run++ {
			var got []float64
			next := 0
			w, err := f.RunRows(nil, 4, func(r int, row []float64) {
				if r != next {
					t.Fatalf("%v: row %d handed out when %d was next", dt, r, next)
				}
				next++
				got = append(got, row...)
			})
			if err != nil || w != shape[1] || !slices.Equal(got, want[:4*shape[1]]) {
				t.Fatalf("%v run %d: width %d (want %d), err %v, rows %v, want %v", dt, run, w, shape[1], err, got, want[:4*shape[1]])
			}
		}
		if _, err := f.RunRows(nil, n+1, func(int, []float64) {}); err == nil {
			t.Fatalf("%v: %d rows of a %d-row output: no error", dt, n+1, n)
		}
	}
}
