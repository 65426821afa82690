package engine

import (
	"math"
	"runtime"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestPairDotForwardAndGradient(t *testing.T) {
	zv := RandomValues(2, 6*4)
	I := []int{0, 1, 2, 5, 3, 0}
	J := []int{1, 1, 4, 0, 2, 5}
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	z := b.Constant("z", zv, 6, 4)
	in, jn := b.IntInput("i", len(I)), b.IntInput("j", len(J))
	if err := LetInts(in, I); err != nil {
		t.Fatal(err)
	}
	if err := LetInts(jn, J); err != nil {
		t.Fatal(err)
	}
	f, err := NewForward(b, PairDot(z, in, jn))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := f.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	for p := range I {
		var want float64
		for k := 0; k < 4; k++ {
			want += zv[I[p]*4+k] * zv[J[p]*4+k]
		}
		if math.Abs(got[p]-want) > 1e-14 {
			t.Errorf("pair %d = %g, want %g", p, got[p], want)
		}
	}
	err = CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		z := b.Param("z", Glorot(1), 6, 4)
		in, jn := b.IntInput("i", len(I)), b.IntInput("j", len(J))
		G.Must(in, LetInts(in, I))
		G.Must(jn, LetInts(jn, J))
		return PairDot(z, in, jn), []*G.Node{z}
	}, 1e-6, 1e-7)
	if err != nil {
		t.Error(err)
	}
}

// TestPairDotChunked: the parallel scatter-add equals the serial one (up to
// summation order) and is bit-identical whatever GOMAXPROCS is.
func TestPairDotChunked(t *testing.T) {
	const n, d, p = 300, 32, 5000
	z := RandomValues(8, n*d)
	g := RandomValues(9, p)
	I, J := make([]int, p), make([]int, p)
	for k := range I {
		I[k], J[k] = (k*7)%n, (k*13+5)%n
	}
	serial := make([]float64, n*d)
	pairDotGrad(z, I, J, g, d, serial)
	run := func(procs int) []float64 {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		out := make([]float64, n*d)
		pairDotGradChunked(z, I, J, g, d, out, func(int) []float64 { return make([]float64, len(out)) })
		return out
	}
	one, two := run(1), run(2)
	for k := range serial {
		if one[k] != two[k] {
			t.Fatalf("entry %d differs between GOMAXPROCS 1 and 2", k)
		}
		if math.Abs(one[k]-serial[k]) > 1e-12 {
			t.Fatalf("entry %d: chunked %g, serial %g", k, one[k], serial[k])
		}
	}
}
