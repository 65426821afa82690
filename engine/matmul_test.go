package engine_test

import (
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestMatMulGradients: finite-difference gradients of MatMul in every
// transpose combination, of dropout's mask op and of Add (one input twice).
func TestMatMulGradients(t *testing.T) {
	const m, k, n = 3, 4, 5
	for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
		ar, ac, br, bc := m, k, k, n
		if tr[0] {
			ar, ac = k, m
		}
		if tr[1] {
			br, bc = n, k
		}
		if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
			a := b.Param("a", Glorot(1), ar, ac)
			c := b.Param("b", Glorot(1), br, bc)
			return MatMulT(a, c, tr[0], tr[1]), []*G.Node{a, c}
		}, 1e-6, 1e-7); err != nil {
			t.Errorf("transposes %v: %v", tr, err)
		}
	}
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x := b.Param("x", Glorot(1), 6, 4)
		return MatMul(b.Dropout("drop", x, 0.5), b.Param("w", Glorot(1), 4, 3)), []*G.Node{x}
	}, 1e-6, 1e-7); err != nil {
		t.Errorf("dropout: %v", err)
	}
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x, y := b.Param("x", Glorot(1), 6, 4), b.Param("y", Glorot(1), 6, 4)
		return ReLU(Add(Add(x, y), x)), []*G.Node{x, y}
	}, 1e-6, 1e-7); err != nil {
		t.Errorf("add: %v", err)
	}
}

// TestDropoutMask: the mask op keeps each entry scaled by 1/(1−p) or zeroes
// it, as drawn, and its gradient uses the same mask.
func TestDropoutMask(t *testing.T) {
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), true)
	x := b.Param("x", Constant(1), 50, 4)
	y := b.Dropout("drop", x, 0.25)
	f, err := NewForward(b, y)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, _, err := f.Run(Stream(2, "dropout"))
	if err != nil {
		t.Fatal(err)
	}
	zeros := 0
	for i, v := range out {
		switch v {
		case 0:
			zeros++
		case 1 / 0.75:
		default:
			t.Fatalf("entry %d = %v, want 0 or %v", i, v, 1/0.75)
		}
	}
	if zeros < 25 || zeros > 75 {
		t.Errorf("%d of 200 entries dropped at p = 0.25", zeros)
	}
}

// TestBiasReLUDropout: the fused op equals Dropout(ReLU(AddBias(x))) bit
// for bit, forward and gradient (same parameters, same mask stream), and
// its gradient passes the finite-difference check with and without dropout.
func TestBiasReLUDropout(t *testing.T) {
	for _, p := range []float64{0, 0.4} {
		if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
			x := b.Param("x", Glorot(1), 7, 5)
			y := b.BiasReLUDropout("bias", x, UniformFanIn(3), "drop", p)
			return y, []*G.Node{x, b.ParamNodes()[1]}
		}, 1e-6, 1e-7); err != nil {
			t.Errorf("p %v: %v", p, err)
		}
	}
	run := func(fused bool) (out []float64, grads [][]float64) {
		ps := NewParamStore(tensor.Float32, Stream(3, "init"))
		b := NewBuilder(ps, true)
		x := b.Param("x", Glorot(1), 40, 8)
		var y *G.Node
		if fused {
			y = b.BiasReLUDropout("bias", x, UniformFanIn(3), "drop", 0.5)
		} else {
			y = b.Dropout("drop", ReLU(b.AddBias("bias", x, UniformFanIn(3))), 0.5)
		}
		loss := G.Must(G.Sum(G.Must(G.Square(MatMul(y, b.Constant("w", RandomValues(4, 8*2), 8, 2))))))
		tr, err := NewTrainer(b, loss, nil, TrainOptions{LR: 0}, Stream(5, "dropout"))
		if err != nil {
			t.Fatal(err)
		}
		defer tr.Close()
		if _, err := tr.Step(); err != nil {
			t.Fatal(err)
		}
		for _, n := range b.ParamNodes() {
			g, _ := n.Grad()
			grads = append(grads, ToFloat64(g.(*tensor.Dense)))
		}
		return ToFloat64(y.Value().(*tensor.Dense)), grads
	}
	fo, fg := run(true)
	uo, ug := run(false)
	for i := range fo {
		if fo[i] != uo[i] {
			t.Fatalf("output %d: fused %v, unfused %v", i, fo[i], uo[i])
		}
	}
	for k := range fg {
		for i := range fg[k] {
			if fg[k][i] != ug[k][i] {
				t.Fatalf("gradient %d[%d]: fused %v, unfused %v", k, i, fg[k][i], ug[k][i])
			}
		}
	}
}
