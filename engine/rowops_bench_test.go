package engine

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkBiasAct: the fused bias, ReLU and dropout of one 10⁴ × 32
// float32 layer (a 10⁴-node batch's hidden rows, half the mask dropped):
// forward and gradient.
func BenchmarkBiasAct(b *testing.B) {
	const n, d = 10000, 32
	rng := rand.New(rand.NewPCG(1, 2))
	x, g, out := make([]float32, n*d), make([]float32, n*d), make([]float32, n*d)
	bias, m := make([]float32, d), make([]float32, n*d)
	for k := range x {
		x[k], g[k] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
	}
	for k := range bias {
		bias[k] = float32(rng.NormFloat64()) / 10
	}
	fillMask(rng, 0.5, m)
	b.Run("forward", func(b *testing.B) {
		b.SetBytes(int64(4 * 3 * n * d))
		for i := 0; i < b.N; i++ {
			biasAct(false, x, bias, m, out, d)
		}
	})
	b.Run("grad", func(b *testing.B) {
		b.SetBytes(int64(4 * 4 * n * d))
		for i := 0; i < b.N; i++ {
			biasAct(true, x, g, m, out, d)
		}
	})
}

// BenchmarkFillMask: one 10⁴ × 32 float32 dropout mask at p = 0.5.
func BenchmarkFillMask(b *testing.B) {
	d := make([]float32, 10000*32)
	rng := rand.New(rand.NewPCG(1, 2))
	b.SetBytes(int64(4 * len(d)))
	for i := 0; i < b.N; i++ {
		fillMask(rng, 0.5, d)
	}
}
