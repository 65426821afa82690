package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The ops that write their output without zeroing it first (outputRaw)
// must write every element, in parallel chunks as in one (and the column
// sums, split into two halves of columns, must equal the serial sums): each
// op here runs on inputs large enough to take the chunked path, first on
// inputs full of NaN (leaving NaN wherever a later run fails to write), then
// on real inputs; the second run must equal a fresh op's run bit for bit,
// and the row-wise ops must equal their serial loop.
func TestRawOutputsWriteEveryElement(t *testing.T) {
	const n, d = 4096, 32 // n·d = 2¹⁷ ≥ minParallelWork
	dense32 := func(seed uint64, shape ...int) *tensor.Dense {
		rng := rand.New(rand.NewPCG(seed, 1))
		f := make([]float32, tensor.Shape(shape).TotalSize())
		for i := range f {
			f[i] = float32(rng.NormFloat64())
		}
		return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(f))
	}
	nan32 := func(shape ...int) *tensor.Dense {
		f := make([]float32, tensor.Shape(shape).TotalSize())
		for i := range f {
			f[i] = float32(math.NaN())
		}
		return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(f))
	}
	var es []Entry
	for r := 0; r < n; r++ {
		if r%7 == 3 {
			continue // empty rows: written as zeros
		}
		for k := 0; k < 3; k++ {
			es = append(es, Entry{Row: r, Col: (r*5 + k*11) % n, Val: float64(k+1) / 3})
		}
	}
	a := NewCSR(n, n, es)
	cm := NewConstMatrix32(n, 8, func() []float32 {
		v := make([]float32, n*8)
		for i := range v {
			v[i] = float32(i%13) / 13
		}
		return v
	}())
	mask := &dropMask{t: dense32(9, n, d)}
	cases := []struct {
		name  string
		op    func() G.Op
		shape [][]int // the inputs' shapes
	}{
		{"SpMM", func() G.Op { return &spmmOp{a: a} }, [][]int{{n, d}}},
		{"RowNormalize", func() G.Op { return &rowNormOp{} }, [][]int{{n, d}}},
		{"RowNormalizeGrad", func() G.Op { return &rowNormOp{grad: true} }, [][]int{{n, d}, {n, d}}},
		{"BiasReLU", func() G.Op { return &biasActOp{name: "b"} }, [][]int{{n, d}, {1, d}}},
		{"BiasReLUDropout", func() G.Op { return &biasActOp{name: "b", m: mask} }, [][]int{{n, d}, {1, d}}},
		{"BiasReLUDropoutGrad", func() G.Op { return &biasActOp{name: "b", m: mask, grad: true} }, [][]int{{n, d}, {n, d}}},
		{"ConstMul", func() G.Op { return &constMulOp{x: cm, trans: true} }, [][]int{{n, d}}},
		{"AddRowVector", func() G.Op { return &bcastOp{mode: bcAdd} }, [][]int{{n, d}, {1, d}}},
		{"ScaleRows", func() G.Op { return &bcastOp{mode: bcScale} }, [][]int{{n, d}, {n, 1}}},
		{"RowDots", func() G.Op { return &bcastOp{mode: bcRowDot} }, [][]int{{n, d}, {n, d}}},
		{"ColumnSums", func() G.Op { return &bcastOp{mode: bcColSum} }, [][]int{{n, d}}}, // zeroed output, halves at once
	}
	for _, c := range cases {
		var nans, real []G.Value
		for k, s := range c.shape {
			nans = append(nans, nan32(s...))
			real = append(real, dense32(uint64(20+k), s...))
		}
		reused := c.op()
		if _, err := reused.Do(nans...); err != nil {
			t.Fatalf("%s on NaN: %v", c.name, err)
		}
		got, err := reused.Do(real...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want, err := c.op().Do(real...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		g, w := vals[float32](got.(*tensor.Dense)), vals[float32](want.(*tensor.Dense))
		for i := range w {
			if math.Float32bits(g[i]) != math.Float32bits(w[i]) {
				t.Fatalf("%s: element %d after a NaN run = %v, fresh %v", c.name, i, g[i], w[i])
			}
		}
		x := vals[float32](real[0].(*tensor.Dense))
		serial := make([]float32, len(w))
		switch op := c.op().(type) {
		case *bcastOp:
			var y []float32
			if len(real) > 1 {
				y = vals[float32](real[1].(*tensor.Dense))
			}
			bcastRows(op.mode, x, y, serial, d, 0, n)
		case *biasActOp:
			var m []float32
			if op.m != nil {
				m = vals[float32](op.m.t)
			}
			biasActRows(op.grad, x, vals[float32](real[1].(*tensor.Dense)), m, serial, d, 0, n)
		case *spmmOp:
			spmmRows(a, a.Val32(), x, serial, d, 0, n)
		default:
			continue
		}
		for i := range w {
			if math.Float32bits(serial[i]) != math.Float32bits(w[i]) {
				t.Fatalf("%s: element %d in chunks = %v, serially %v", c.name, i, w[i], serial[i])
			}
		}
	}
}
