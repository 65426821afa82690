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
// inputs of NaN and then of 7s (every element an op writes is then NaN or
// non-zero), then on real inputs; that run must equal a fresh op's run bit
// for bit, and the row-wise ops must equal their serial loop.
func TestRawOutputsWriteEveryElement(t *testing.T) {
	t.Run("float32", checkRawOutputs[float32])
	t.Run("float64", checkRawOutputs[float64])
}

func checkRawOutputs[T Float](t *testing.T) {
	const n, d = 4096, 32 // n·d = 2¹⁷ ≥ minParallelWork
	dt := tensorDtype[T]()
	filled := func(shape []int, v func(i int) T) *tensor.Dense {
		f := make([]T, tensor.Shape(shape).TotalSize())
		for i := range f {
			f[i] = v(i)
		}
		return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(f))
	}
	random := func(seed uint64, shape ...int) *tensor.Dense {
		rng := rand.New(rand.NewPCG(seed, 1))
		return filled(shape, func(int) T { return T(rng.NormFloat64()) })
	}
	nans := func(shape ...int) *tensor.Dense { return filled(shape, func(int) T { return T(math.NaN()) }) }
	sevens := func(shape ...int) *tensor.Dense { return filled(shape, func(int) T { return 7 }) }
	same := func(a, b T) bool { return math.Float64bits(float64(a)) == math.Float64bits(float64(b)) }
	z := nans(n, d) // the zeroing the other ops' outputs get: in chunks at this size
	zero(z)
	for i, v := range vals[T](z) {
		if math.Float64bits(float64(v)) != 0 {
			t.Fatalf("zero: element %d = %v", i, v)
		}
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
	cv := make([]float64, n*8)
	for i := range cv {
		cv[i] = float64(i%13) / 13
	}
	cm := NewConstMatrix(n, 8, cv)
	if dt == tensor.Float32 {
		cv32 := make([]float32, len(cv))
		for i, v := range cv {
			cv32[i] = float32(v)
		}
		cm = NewConstMatrix32(n, 8, cv32)
	}
	val := vals[T](filled([]int{a.NNZ()}, func(i int) T { return T(a.Val[i]) }))
	mask := &dropMask{t: random(9, n, d)}
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
		var nan, seven, real []G.Value
		for k, s := range c.shape {
			nan, seven = append(nan, nans(s...)), append(seven, sevens(s...))
			real = append(real, random(uint64(20+k), s...))
		}
		reused := c.op()
		for _, in := range [][]G.Value{nan, seven} {
			if _, err := reused.Do(in...); err != nil {
				t.Fatalf("%s on NaN or 7s: %v", c.name, err)
			}
		}
		got, err := reused.Do(real...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want, err := c.op().Do(real...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		g, w := vals[T](got.(*tensor.Dense)), vals[T](want.(*tensor.Dense))
		for i := range w {
			if !same(g[i], w[i]) {
				t.Fatalf("%s: element %d after runs on NaN and 7s = %v, fresh %v", c.name, i, g[i], w[i])
			}
		}
		x := vals[T](real[0].(*tensor.Dense))
		serial := make([]T, len(w))
		switch op := c.op().(type) {
		case *bcastOp:
			var y []T
			if len(real) > 1 {
				y = vals[T](real[1].(*tensor.Dense))
			}
			bcastRows(op.mode, x, y, serial, d, 0, n)
		case *biasActOp:
			var m []T
			if op.m != nil {
				m = vals[T](op.m.t)
			}
			biasActRows(op.grad, x, vals[T](real[1].(*tensor.Dense)), m, serial, d, 0, n)
		case *spmmOp:
			spmmRows(a, val, x, serial, d, 0, n)
		default:
			continue
		}
		for i := range w {
			if !same(serial[i], w[i]) {
				t.Fatalf("%s: element %d in chunks = %v, serially %v", c.name, i, w[i], serial[i])
			}
		}
	}
}
