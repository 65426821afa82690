package engine

import (
	"math"
	"runtime"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// testAdj is a 5-node graph: path 0-1-2-3 plus edge 1-4 (4 is a leaf).
func testAdj() *Adjacency {
	return NewAdjacency(5, [][2]int{{0, 1}, {1, 2}, {2, 3}, {1, 4}, {4, 1}, {2, 2}})
}

func TestAdjacencyNorms(t *testing.T) {
	a := testAdj()
	if a.A.NNZ() != 8 {
		t.Fatalf("nnz = %d, want 8 (4 undirected edges, duplicate and self-loop dropped)", a.A.NNZ())
	}
	// GCN norm entry (0,1): deg+1 of node 0 is 2, of node 1 is 4: 1/√(2·4).
	g := a.GCNNorm().Dense()
	if got, want := g[0*5+1], 1/math.Sqrt(8); math.Abs(got-want) > 1e-15 {
		t.Errorf("gcn(0,1) = %g, want %g", got, want)
	}
	if got, want := g[1*5+1], 0.25; math.Abs(got-want) > 1e-15 {
		t.Errorf("gcn(1,1) = %g, want %g", got, want)
	}
	m := a.MeanNorm().Dense()
	if got := m[1*5+0] + m[1*5+2] + m[1*5+4]; math.Abs(got-1) > 1e-15 {
		t.Errorf("mean row 1 sums to %g", got)
	}
	// Transpose round trip and permutation.
	mt := a.MeanNorm().T()
	for r := 0; r < 5; r++ {
		for c := 0; c < 5; c++ {
			if mt.Dense()[r*5+c] != m[c*5+r] {
				t.Fatalf("transpose differs at (%d,%d)", r, c)
			}
		}
	}
	perm := a.MeanNorm().TransposePerm()
	for k, p := range perm {
		if mt.Val[k] != a.MeanNorm().Val[p] {
			t.Fatalf("perm[%d] wrong", k)
		}
	}
}

func TestSpMMForwardAndGradient(t *testing.T) {
	a := testAdj()
	for _, m := range []*CSR{a.GCNNorm(), a.MeanNorm(), a.Sum()} {
		xv := RandomValues(1, 5*3)
		// Forward against the dense product.
		b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
		x := b.Constant("x", xv, 5, 3)
		y := SpMM(m, x)
		f, err := NewForward(b, y)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := f.Run(nil)
		if err != nil {
			t.Fatal(err)
		}
		d := m.Dense()
		for r := 0; r < 5; r++ {
			for j := 0; j < 3; j++ {
				var want float64
				for c := 0; c < 5; c++ {
					want += d[r*5+c] * xv[c*3+j]
				}
				if math.Abs(got[r*3+j]-want) > 1e-14 {
					t.Fatalf("SpMM(%d,%d) = %g, want %g", r, j, got[r*3+j], want)
				}
			}
		}
		err = CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
			x := b.Param("x", Glorot(1), 5, 3)
			return SpMM(m, x), []*G.Node{x}
		}, 1e-6, 1e-7)
		if err != nil {
			t.Error(err)
		}
	}
}

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

func TestRowNormalize(t *testing.T) {
	xv := RandomValues(3, 4*3)
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	f, err := NewForward(b, RowNormalize(b.Constant("x", xv, 4, 3)))
	if err != nil {
		t.Fatal(err)
	}
	got, _, _ := f.Run(nil)
	for r := 0; r < 4; r++ {
		n := math.Sqrt(xv[r*3]*xv[r*3] + xv[r*3+1]*xv[r*3+1] + xv[r*3+2]*xv[r*3+2])
		for k := 0; k < 3; k++ {
			if math.Abs(got[r*3+k]-xv[r*3+k]/n) > 1e-15 {
				t.Fatalf("row %d col %d = %g", r, k, got[r*3+k])
			}
		}
	}
	err = CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x := b.Param("x", Glorot(1), 4, 3)
		return RowNormalize(x), []*G.Node{x}
	}, 1e-6, 1e-7)
	if err != nil {
		t.Error(err)
	}
}

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
	i, j := b.IntInput("i", 2), b.IntInput("j", 2)
	i2 := b.IntInput("i2", 2)
	if PairDot(x, i, j) == PairDot(x, i2, j) {
		t.Error("PairDot over different index inputs merged")
	}
}

func TestBuilderRejectsDuplicateNames(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for a duplicate name")
		}
	}()
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	b.Param("w", Zeros, 2, 2)
	b.Param("w", Zeros, 2, 2)
}

func TestDropoutGradient(t *testing.T) {
	err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x := b.Param("x", Glorot(1), 5, 4)
		return b.Dropout("drop", x, 0.5), []*G.Node{x}
	}, 1e-6, 1e-7)
	if err != nil {
		t.Error(err)
	}
}

// wrongSpMM differentiates with A instead of Aᵀ: the gradient check must
// catch it on the asymmetric mean adjacency (it proves the check can fail).
type wrongSpMM struct{ spmmOp }

func (op *wrongSpMM) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	dx, err := G.ApplyOp(&spmmOp{a: op.a}, grad)
	return G.Nodes{dx}, err
}

func TestGradientCheckCatchesWrongGradient(t *testing.T) {
	m := testAdj().MeanNorm()
	err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x := b.Param("x", Glorot(1), 5, 3)
		return G.Must(G.ApplyOp(&wrongSpMM{spmmOp{a: m}}, x)), []*G.Node{x}
	}, 1e-6, 1e-7)
	if err == nil {
		t.Fatal("gradient check accepted Aᵀ replaced by A")
	}
}

func TestConstMul(t *testing.T) {
	xv := RandomValues(5, 5*4)
	x := NewConstMatrix(5, 4, xv)
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	wv := RandomValues(6, 4*3)
	w := b.Constant("w", wv, 4, 3)
	f, err := NewForward(b, ConstMul(x, w))
	if err != nil {
		t.Fatal(err)
	}
	got, _, _ := f.Run(nil)
	for r := 0; r < 5; r++ {
		for j := 0; j < 3; j++ {
			var want float64
			for k := 0; k < 4; k++ {
				want += xv[r*4+k] * wv[k*3+j]
			}
			if math.Abs(got[r*3+j]-want) > 1e-14 {
				t.Fatalf("(%d,%d) = %g, want %g", r, j, got[r*3+j], want)
			}
		}
	}
	err = CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		w := b.Param("w", Glorot(1), 4, 3)
		return ConstMul(x, w), []*G.Node{w}
	}, 1e-6, 1e-7)
	if err != nil {
		t.Error(err)
	}
	// Different constants stay different nodes.
	y := NewConstMatrix(5, 4, RandomValues(7, 20))
	if ConstMul(x, w) == ConstMul(y, w) {
		t.Error("ConstMul over different matrices merged")
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
		pairDotGradChunked(z, I, J, g, d, out)
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

func TestBroadcastOps(t *testing.T) {
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x, v := b.Param("x", Glorot(1), 5, 3), b.Param("b", Glorot(1), 1, 3)
		return AddRowVector(x, v), []*G.Node{x, v}
	}, 1e-6, 1e-7); err != nil {
		t.Error("AddRowVector:", err)
	}
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x, s := b.Param("x", Glorot(1), 5, 3), b.Param("s", Glorot(1), 5, 1)
		return ScaleRows(x, s), []*G.Node{x, s}
	}, 1e-6, 1e-7); err != nil {
		t.Error("ScaleRows:", err)
	}
	xv, sv := RandomValues(40, 6), RandomValues(41, 3)
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	x, s := b.Constant("x", xv, 3, 2), b.Constant("s", sv, 3, 1)
	f, _ := NewForward(b, ScaleRows(x, s))
	got, _, _ := f.Run(nil)
	for i := 0; i < 6; i++ {
		if got[i] != xv[i]*sv[i/2] {
			t.Fatalf("ScaleRows entry %d = %g", i, got[i])
		}
	}
	if AddRowVector(x, b.Constant("r", sv[:2], 1, 2)) == ScaleRows(x, s) {
		t.Error("different broadcast ops merged")
	}
}

func TestReLU(t *testing.T) {
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x := b.Param("x", Glorot(2), 5, 3)
		return ReLU(x), []*G.Node{x}
	}, 1e-6, 1e-7); err != nil {
		t.Error(err)
	}
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	f, _ := NewForward(b, ReLU(b.Constant("x", []float64{-1, 0, 2, -0.5}, 2, 2)))
	got, _, _ := f.Run(nil)
	if got[0] != 0 || got[1] != 0 || got[2] != 2 || got[3] != 0 {
		t.Errorf("ReLU = %v", got)
	}
}

func TestAnchorMessage(t *testing.T) {
	arg := []int{0, 2, 2, 4, 1, 3, 0}
	self := []int{0, 0, 1, 1, 2, 3, 4}
	err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		hm, hs := b.Param("hm", Glorot(1), 5, 3), b.Param("hs", Glorot(1), 5, 3)
		f, bias := b.Param("f", Glorot(1), len(arg), 1), b.Param("b", Glorot(1), 1, 3)
		an, sn := b.IntInput("arg", len(arg)), b.IntInput("self", len(self))
		G.Must(an, LetInts(an, arg))
		G.Must(sn, LetInts(sn, self))
		return AnchorMessage(hm, hs, f, bias, an, sn), []*G.Node{hm, hs, f, bias}
	}, 1e-6, 1e-7)
	if err != nil {
		t.Error(err)
	}
	// Forward against the unfused formula.
	hmv, hsv, fv, bv := RandomValues(50, 15), RandomValues(51, 15), RandomValues(52, 7), RandomValues(53, 3)
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	an, sn := b.IntInput("arg", 7), b.IntInput("self", 7)
	LetInts(an, arg)
	LetInts(sn, self)
	out := AnchorMessage(b.Constant("hm", hmv, 5, 3), b.Constant("hs", hsv, 5, 3), b.Constant("f", fv, 7, 1), b.Constant("b", bv, 1, 3), an, sn)
	fw, _ := NewForward(b, out)
	got, _, err := fw.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	for s := range arg {
		for k := 0; k < 3; k++ {
			want := math.Max(0, fv[s]*hmv[arg[s]*3+k]+hsv[self[s]*3+k]+bv[k])
			if math.Abs(got[s*3+k]-want) > 1e-15 {
				t.Fatalf("slot %d col %d = %g, want %g", s, k, got[s*3+k], want)
			}
		}
	}
}

// TestAdamMatchesPyTorch: two steps of Adam(lr=0.1, weight_decay=0.01) on
// f(w) = Σ w² from w = [1, −2]. Reference computed by hand from PyTorch's
// update rule: after step 1 each w moves by lr·sign(g) (m̂/√v̂ = ±1).
func TestAdamMatchesPyTorch(t *testing.T) {
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), true)
	w := b.Param("w", Constant(0), 2)
	SetFloat64(w.Value().(*tensor.Dense), []float64{1, -2})
	loss := G.Must(G.Sum(G.Must(G.Square(w))))
	tr, err := NewTrainer(b, loss, nil, TrainOptions{LR: 0.1, WeightDecay: 0.01}, Stream(1, "d"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Step(); err != nil {
		t.Fatal(err)
	}
	got := ToFloat64(w.Value().(*tensor.Dense))
	if math.Abs(got[0]-0.9) > 1e-7 || math.Abs(got[1]-(-1.9)) > 1e-7 {
		t.Fatalf("after one step w = %v, want [0.9 -1.9]", got)
	}
	if _, err := tr.Step(); err != nil {
		t.Fatal(err)
	}
	// Step 2 by hand: g = 2w + 0.01w; m, v with bias correction.
	want := []float64{1, -2}
	m, v := []float64{0, 0}, []float64{0, 0}
	for step := 1; step <= 2; step++ {
		for k := range want {
			g := 2*want[k] + 0.01*want[k]
			m[k] = 0.9*m[k] + 0.1*g
			v[k] = 0.999*v[k] + 0.001*g*g
			mh, vh := m[k]/(1-math.Pow(0.9, float64(step))), v[k]/(1-math.Pow(0.999, float64(step)))
			want[k] -= 0.1 * mh / (math.Sqrt(vh) + 1e-8)
		}
	}
	got = ToFloat64(w.Value().(*tensor.Dense))
	for k := range want {
		if math.Abs(got[k]-want[k]) > 1e-12 {
			t.Fatalf("after two steps w = %v, want %v", got, want)
		}
	}
}

// TestDivergenceStopsWithTerm: a NaN loss stops Fit with the epoch and the
// term that diverged, and leaves the parameters untouched.
func TestDivergenceStopsWithTerm(t *testing.T) {
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), true)
	x := b.Param("x", Constant(0), 3)
	SetFloat64(x.Value().(*tensor.Dense), []float64{1, -1, 2})
	mse := G.Must(G.Sum(G.Must(G.Log(x)))) // log(−1) = NaN
	bce := G.Must(G.Sum(G.Must(G.Square(x))))
	loss := G.Must(G.Add(mse, bce))
	tr, err := NewTrainer(b, loss, map[string]*G.Node{"bce": bce, "mse": mse}, TrainOptions{LR: 0.1}, Stream(1, "d"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Fit(tr, FitConfig{Epochs: 5, EvalEvery: 1}, func(int) error { return nil },
		func(int) (Evaluation, error) { return Evaluation{}, nil })
	if err == nil || err.Error() != "epoch 0: training diverged: mse became NaN (lower --lr or the λ weights)" {
		t.Fatalf("error %v", err)
	}
	if got := ToFloat64(x.Value().(*tensor.Dense)); got[0] != 1 || got[1] != -1 || got[2] != 2 {
		t.Errorf("parameters changed by a diverged step: %v", got)
	}
}
