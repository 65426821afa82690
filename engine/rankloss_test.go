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

// rankTriples has repeated rows, a triple whose I is also its J's K
// elsewhere, and a zero-weight triple.
var rankTriples = &TripleSet{
	I: []int{0, 1, 2, 5, 0, 3, 6},
	J: []int{1, 2, 4, 6, 1, 3, 0},
	K: []int{3, 0, 5, 2, 6, 4, 1},
	W: []float64{0.2, 0.1, 0.3, 0.15, 0.25, 0, 0.4},
}

// rankPairTriples compares two pairs per triple (A set): one whose far
// pair shares the anchor, one whose rows all coincide with another's.
var rankPairTriples = &TripleSet{
	I: []int{0, 1, 2, 5, 0, 3, 6},
	J: []int{1, 2, 4, 6, 1, 3, 0},
	A: []int{4, 1, 6, 0, 2, 5, 3},
	K: []int{3, 0, 5, 2, 6, 4, 1},
	W: []float64{0.2, 0.1, 0.3, 0.15, 0.25, 0, 0.4},
}

// TestRankLoss: the forward value against the formula, finite-difference
// gradients in float64 (through a λ multiple, as the objective uses it) at
// two temperatures, for anchored and pair triples, and a clear error for
// an index outside Z.
func TestRankLoss(t *testing.T) {
	for _, ts := range []*TripleSet{rankTriples, rankPairTriples} {
		testRankLoss(t, ts)
	}
}

func testRankLoss(t *testing.T, ts *TripleSet) {
	const n, d = 7, 5
	zv := RandomValues(11, n*d)
	dot := func(a, b int) float64 {
		var s float64
		for x := 0; x < d; x++ {
			s += zv[a*d+x] * zv[b*d+x]
		}
		return s
	}
	for _, temp := range []float64{1, 0.3} {
		b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
		z := b.Param("z", Constant(0), n, d)
		SetFloat64(z.Value().(*tensor.Dense), zv)
		f, err := NewForward(b, RankLoss(z, ts, temp))
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := f.Run(nil)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var want float64
		for p := range ts.I {
			a := ts.I[p]
			if ts.A != nil {
				a = ts.A[p]
			}
			u := (dot(a, ts.K[p]) - dot(ts.I[p], ts.J[p])) / temp
			want += ts.W[p] * math.Log(1+math.Exp(u))
		}
		if math.Abs(got[0]-want) > 1e-12 {
			t.Errorf("T %g: forward %v, want %v", temp, got[0], want)
		}
		if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
			z := b.Param("z", Glorot(1), n, d)
			return G.Must(G.Mul(RankLoss(z, ts, temp), b.Scalar("lambda", 1.7))), []*G.Node{z}
		}, 1e-6, 1e-7); err != nil {
			t.Errorf("T %g: %v", temp, err)
		}
	}
	for _, c := range []struct {
		set  *TripleSet
		want string
	}{
		{&TripleSet{I: []int{0}, J: []int{1}, K: []int{9}, W: []float64{1}}, "index 9 at position 0 outside [0,7)"},
		{&TripleSet{I: []int{0}, J: []int{1}, K: []int{2}, A: []int{7}, W: []float64{1}}, "index 7 at position 0 outside [0,7)"},
		{&TripleSet{I: []int{0}, J: []int{1}, K: []int{2}, A: []int{}, W: []float64{1}}, "triple set has 1 I, 0 A"},
	} {
		b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
		z := b.Param("z", Glorot(1), n, d)
		f, err := NewForward(b, RankLoss(z, c.set, 1))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.Run(nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("bad triple set: error %v, want %q", err, c.want)
		}
		f.Close()
	}
}

// TestRankLossFloat32: float32 values and gradients agree with float64
// within float32 rounding.
func TestRankLossFloat32(t *testing.T) {
	const n, d = 7, 5
	zv := RandomValues(5, n*d)
	run := func(dt tensor.Dtype) (float64, []float64) {
		b := NewBuilder(NewParamStore(dt, Stream(1, "init")), true)
		z := b.Param("z", Constant(0), n, d)
		if dt == tensor.Float64 {
			SetFloat64(z.Value().(*tensor.Dense), zv)
		} else {
			v := z.Value().(*tensor.Dense).Float32s()
			for i := range v {
				v[i] = float32(zv[i])
			}
		}
		loss := G.Must(G.Add(RankLoss(z, rankTriples, 0.5), RankLoss(z, rankPairTriples, 0.5)))
		grads, err := G.Grad(loss, z)
		if err != nil {
			t.Fatal(err)
		}
		var lval, gval G.Value
		G.Read(loss, &lval)
		G.Read(grads[0], &gval)
		m := G.NewTapeMachine(b.G)
		defer m.Close()
		if err := m.RunAll(); err != nil {
			t.Fatal(err)
		}
		var lv float64
		var gv []float64
		switch dt {
		case tensor.Float64:
			lv = lval.Data().(float64)
			gv = append(gv, gval.Data().([]float64)...)
		default:
			lv = float64(lval.Data().(float32))
			for _, x := range gval.Data().([]float32) {
				gv = append(gv, float64(x))
			}
		}
		return lv, gv
	}
	l64, g64 := run(tensor.Float64)
	l32, g32 := run(tensor.Float32)
	if math.Abs(l64-l32) > 1e-6 {
		t.Errorf("loss float32 %v, float64 %v", l32, l64)
	}
	for i := range g64 {
		if math.Abs(g64[i]-g32[i]) > 1e-5 {
			t.Fatalf("gradient %d: float32 %v, float64 %v", i, g32[i], g64[i])
		}
	}
}

// TestRankLossStaysDistinct: two RankLoss ops over one input with other
// triples or another temperature stay two nodes, and their names differ.
func TestRankLossStaysDistinct(t *testing.T) {
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	x := b.Constant("x", RandomValues(4, 15), 5, 3)
	s := &TripleSet{I: []int{0}, J: []int{1}, K: []int{2}, W: []float64{1}}
	a, c, e := RankLoss(x, s, 1), RankLoss(x, s, 0.5), RankLoss(x, rankTriples, 1)
	if a == c || a == e || c == e {
		t.Fatal("RankLoss ops merged")
	}
	if a.Op().String() == c.Op().String() {
		t.Errorf("two RankLoss ops share the name %s", a.Op())
	}
}
