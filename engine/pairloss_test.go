package engine_test

import (
	"math"
	"strings"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestPairLoss: both kinds against their formulas, finite-difference
// gradients (repeated and zero-weight pairs included), and a clear error for
// an index outside Z.
func TestPairLoss(t *testing.T) {
	ps := &PairSet{
		I: []int{0, 1, 2, 5, 0, 3},
		J: []int{1, 2, 4, 6, 1, 3},
		V: []float64{1, 0, 0.3, -0.7, 1, 0.5},
		W: []float64{0.2, 0.1, 0.3, 0.15, 0.25, 0},
	}
	const n, d = 7, 5
	zv := RandomValues(11, n*d)
	for _, kind := range []PairLossKind{Logistic, Square} {
		b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
		z := b.Param("z", Constant(0), n, d)
		SetFloat64(z.Value().(*tensor.Dense), zv)
		f, err := NewForward(b, PairLoss(kind, z, ps))
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := f.Run(nil)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var want float64
		for p := range ps.I {
			var s float64
			for x := 0; x < d; x++ {
				s += zv[ps.I[p]*d+x] * zv[ps.J[p]*d+x]
			}
			fp := (ps.V[p] - s) * (ps.V[p] - s)
			if kind == Logistic {
				fp = math.Log(1+math.Exp(s)) - ps.V[p]*s
			}
			want += ps.W[p] * fp
		}
		if math.Abs(got[0]-want) > 1e-12 {
			t.Errorf("%v: forward %v, want %v", kind, got[0], want)
		}
		if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
			z := b.Param("z", Glorot(1), n, d)
			return G.Must(G.Mul(PairLoss(kind, z, ps), b.Scalar("lambda", 1.7))), []*G.Node{z}
		}, 1e-6, 1e-7); err != nil {
			t.Errorf("%v: %v", kind, err)
		}
	}
	bad := &PairSet{I: []int{0}, J: []int{9}, V: []float64{1}, W: []float64{1}}
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	z := b.Param("z", Glorot(1), n, d)
	f, err := NewForward(b, PairLoss(Logistic, z, bad))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, _, err := f.Run(nil); err == nil || !strings.Contains(err.Error(), "index 9 at position 0 outside [0,7)") {
		t.Errorf("out-of-range pair: error %v", err)
	}
}
