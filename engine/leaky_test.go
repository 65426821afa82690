package engine_test

import (
	"math"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestLeakyReLUGradient: finite differences through LeakyReLU.
func TestLeakyReLUGradient(t *testing.T) {
	if err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
		x := b.Param("x", Glorot(1), 5, 4)
		return MatMul(LeakyReLU(x, 0.2), b.Param("w", Glorot(1), 4, 3)), []*G.Node{x}
	}, 1e-6, 1e-7); err != nil {
		t.Error(err)
	}
}

// TestLeakyReLUMatchesGorgonia: values and gradients equal gorgonia's
// LeakyRelu bit for bit on finite inputs, ±0 and subnormals included.
func TestLeakyReLUMatchesGorgonia(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1e-45, -1e-45, 1e-40, -3.5, 2.25, -1e30, 7e-39, -7e-39}
	for len(vals) < 64 {
		vals = append(vals, RandomValues(uint64(len(vals)), 1)[0]*10)
	}
	run := func(ours bool) (fwd, grad []float32) {
		set := func(b *Builder, x *G.Node) { SetFloat64(x.Value().(*tensor.Dense), vals) }
		return valueAndGrad32(t, len(vals), set, func(b *Builder, x *G.Node) *G.Node {
			if ours {
				return LeakyReLU(x, 0.2)
			}
			return G.Must(G.LeakyRelu(x, 0.2))
		})
	}
	f1, g1 := run(true)
	f2, g2 := run(false)
	for i := range f2 {
		if math.Float32bits(f1[i]) != math.Float32bits(f2[i]) || math.Float32bits(g1[i]) != math.Float32bits(g2[i]) {
			t.Fatalf("x = %v: LeakyReLU %v, grad %v; gorgonia %v, grad %v", vals[i], f1[i], g1[i], f2[i], g2[i])
		}
	}
}
