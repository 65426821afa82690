package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPositive32: the branch-free sign test equals x > 0 on the special
// values, every float32 near them and random bit patterns.
func TestPositive32(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	xs := []float32{0, float32(math.Copysign(0, -1)), inf, -inf, nan, -nan, math.SmallestNonzeroFloat32,
		-math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32, 1, -1}
	for _, b := range []uint32{0, 1, 0x7f7fffff, 0x7f800000, 0x7f800001, 0x7fffffff, 0x80000000, 0x80000001, 0xff800000, 0xffffffff} {
		for _, d := range []uint32{0, 1, 2} {
			xs = append(xs, math.Float32frombits(b+d), math.Float32frombits(b-d))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		xs = append(xs, math.Float32frombits(rng.Uint32()))
	}
	for _, x := range xs {
		want := uint32(0)
		if x > 0 {
			want = math.MaxUint32
		}
		if got := positive32(x); got != want {
			t.Fatalf("positive32(%v = %#08x) = %#x, want %#x", x, math.Float32bits(x), got, want)
		}
	}
}

// TestBiasActRows32: the branch-free float32 rows equal the branching
// loop bit for bit (forward and gradient, with and without a dropout
// mask), NaN, ±0, ±Inf and subnormals among the inputs.
func TestBiasActRows32(t *testing.T) {
	const n, d = 37, 9
	rng := rand.New(rand.NewPCG(3, 4))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32}
	vec := func(k int) []float32 {
		v := make([]float32, k)
		for i := range v {
			if rng.IntN(5) == 0 {
				v[i] = special[rng.IntN(len(special))]
			} else {
				v[i] = float32(rng.NormFloat64())
			}
		}
		return v
	}
	a, g, bias := vec(n*d), vec(n*d), vec(d)
	m := make([]float32, n*d)
	fillMask(rng, 0.5, m)
	// ref is the branching loop biasActRows runs for float64.
	ref := func(grad bool, c, m []float32) []float32 {
		out := make([]float32, n*d)
		for i, x := range a {
			var v float32
			if grad {
				if x > 0 {
					v = c[i]
					if m != nil {
						v *= m[i]
					}
				}
			} else if v = x + c[i%d]; !(v > 0) {
				v = 0
			} else if m != nil {
				v *= m[i]
			}
			out[i] = v
		}
		return out
	}
	for _, tc := range []struct {
		name string
		grad bool
		c, m []float32
	}{{"forward", false, bias, nil}, {"forward, mask", false, bias, m}, {"grad", true, g, nil}, {"grad, mask", true, g, m}} {
		want, got := ref(tc.grad, tc.c, tc.m), make([]float32, n*d)
		for i := range got {
			got[i] = 42 // every entry must be written
		}
		biasActRows32(tc.grad, a, tc.c, tc.m, got, d, 0, n)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%s: entry %d (a %v): %v (%#08x), want %v (%#08x)", tc.name, i, a[i],
					got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
			}
		}
	}
}
