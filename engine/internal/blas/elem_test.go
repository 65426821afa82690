package blas

import (
	"math"
	"math/rand/v2"
	"testing"
)

// specialValues mixes ordinary values with the cases a branch-free kernel
// can get wrong: ±0, NaN, ±Inf, subnormals.
func specialValues(rng *rand.Rand, n int) []float32 {
	sp := []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1e-45, -1e-45}
	v := make([]float32, n)
	for i := range v {
		if rng.IntN(5) == 0 {
			v[i] = sp[rng.IntN(len(sp))]
		} else {
			v[i] = float32(rng.NormFloat64())
		}
	}
	return v
}

// sameBits32 requires equal bits, except that a NaN matches any NaN: when
// both operands of an addition are NaN, x86 returns the first operand's
// payload, and which operand Go's compiler puts first is its choice. A NaN
// stops training either way (DivergedError).
func sameBits32(t *testing.T, what string, got, want []float32) {
	t.Helper()
	for i := range want {
		if got[i] != got[i] && want[i] != want[i] {
			continue
		}
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s: [%d] = %v (%08x), want %v (%08x)", what, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

// TestReluKernelMatchesGo: the AVX2 ReLU and ReLU-gradient kernels
// (ReluMask) equal the Go loop bit for bit (NaN, ±0, ±Inf, subnormals;
// lengths with tails).
func TestReluKernelMatchesGo(t *testing.T) {
	if !haveKernels {
		t.Skip("no AVX2+FMA")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 7, 8, 9, 64, 1001, 70_001} {
		x, g := specialValues(rng, n), specialValues(rng, n)
		for _, grad := range []bool{false, true} {
			gs := x // ReLU: g = x
			if grad {
				gs = g
			}
			want := make([]float32, n)
			for i, v := range x { // the Go loop
				if v > 0 {
					if grad {
						want[i] = g[i]
					} else {
						want[i] = v
					}
				}
			}
			got := make([]float32, n)
			for i := range got { // the output is not zeroed first: every element must be written
				got[i] = float32(math.NaN())
			}
			ReluMask(got, x, gs)
			sameBits32(t, "relu", got, want)
		}
	}
}

// TestAnchorForwardKernelMatchesGo: the AVX2 AnchorMessage forward equals
// the Go loop bit for bit, special values included.
func TestAnchorForwardKernelMatchesGo(t *testing.T) {
	if !haveKernels {
		t.Skip("no AVX2+FMA")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{8, 32, 40} {
		n, s := 50, 3_000
		hm, hs, b, f, arg, self := anchorInputs(rng, n, s, d)
		want := make([]float32, s*d)
		for i := 0; i < s; i++ {
			for k := 0; k < d; k++ {
				if v := f[i]*hm[arg[i]*d+k] + hs[self[i]*d+k] + b[k]; v > 0 {
					want[i*d+k] = v
				}
			}
		}
		got := make([]float32, s*d)
		for i := range got {
			got[i] = float32(math.NaN())
		}
		AnchorForward(got, hm, hs, b, f, arg, self, d)
		sameBits32(t, "anchor forward", got, want)
	}
}

// anchorInputs returns AnchorForward's operands for s slots over n rows d
// wide, special values included.
func anchorInputs(rng *rand.Rand, n, s, d int) (hm, hs, b, f []float32, arg, self []int) {
	hm, hs, b, f = specialValues(rng, n*d), specialValues(rng, n*d), specialValues(rng, d), specialValues(rng, s)
	arg, self = make([]int, s), make([]int, s)
	for i := range arg {
		arg[i], self[i] = rng.IntN(n), rng.IntN(n)
	}
	return hm, hs, b, f, arg, self
}

// TestColumnKernelsMatchGo: column sums, column multiply-adds and the
// anchor scatter kernels equal their Go loops bit for bit.
func TestColumnKernelsMatchGo(t *testing.T) {
	if !haveKernels {
		t.Skip("no AVX2+FMA")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	const d = 32
	for _, rows := range []int{1, 3, 257, 5000} {
		x, b := specialValues(rng, rows*d), specialValues(rng, rows)
		acc0 := specialValues(rng, d)
		want, got := append([]float32(nil), acc0...), append([]float32(nil), acc0...)
		for r := 0; r < rows; r++ {
			for k := 0; k < d; k++ {
				want[k] += x[r*d+k]
			}
		}
		ColSum32(got, x, d, rows)
		sameBits32(t, "ColSum32", got, want)
		got = append([]float32(nil), acc0...)
		ColSum16(got[16:], x[16:], d, rows)
		ColSum16(got, x, d, rows)
		sameBits32(t, "colSum16 on the halves", got, want)
		want, got = append([]float32(nil), acc0...), append([]float32(nil), acc0...)
		for r := 0; r < rows; r++ {
			for k := 0; k < d; k++ {
				want[k] += x[r*d+k] * b[r]
			}
		}
		colAxpy32(&got[0], &x[0], d, &b[0], 1, rows)
		sameBits32(t, "colAxpy32", got, want)
	}
	for _, dd := range []int{8, 32, 40} {
		n, s := 30, 4000
		g, f, o0 := specialValues(rng, s*dd), specialValues(rng, s), specialValues(rng, n*dd)
		idx := make([]int, s)
		for i := range idx {
			idx[i] = rng.IntN(n)
		}
		for _, withF := range []bool{true, false} {
			want, got := append([]float32(nil), o0...), append([]float32(nil), o0...)
			for i := 0; i < s; i++ {
				for k := 0; k < dd; k++ {
					if withF {
						want[idx[i]*dd+k] += f[i] * g[i*dd+k]
					} else {
						want[idx[i]*dd+k] += g[i*dd+k]
					}
				}
			}
			fs := f
			if !withF {
				fs = nil
			}
			ScatterAxpy(got, g, fs, idx, dd)
			sameBits32(t, "scatterAxpy32", got, want)
		}
	}
}
