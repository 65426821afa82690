package eval

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ignn/ignn/engine"
)

// TestViewCosine: a view's cosine (norms from the pair's own rows) equals,
// bit for bit, the one with every row's inverse norm computed beforehand,
// over rows that include an all-zero one (cosine 0) and a row paired with
// itself.
func TestViewCosine(t *testing.T) {
	const n, d = 40, 7
	rng := rand.New(rand.NewPCG(5, 6))
	vals := make([]float32, n*d)
	for i := range vals {
		vals[i] = float32(rng.NormFloat64())
	}
	clear(vals[3*d : 4*d])
	f := &engine.Features{N: n, DenseDim: d, ViewScratch: 1, View: func(r int, dst []float32, scratch []float64) {
		scratch[0]++ // a view may use its scratch: it must not change a row
		copy(dst, vals[r*d:(r+1)*d])
	}}
	inv := make([]float64, n)
	for r := range n {
		var sq float64
		for _, x := range vals[r*d : (r+1)*d] {
			sq += float64(x) * float64(x)
		}
		if sq > 0 {
			inv[r] = 1 / math.Sqrt(sq)
		}
	}
	cos := FeatureCosine(f)
	for _, p := range [][2]int{{0, 1}, {5, 5}, {3, 7}, {7, 3}, {39, 12}, {12, 39}, {20, 21}} {
		var dot float64
		for k := range d {
			dot += float64(vals[p[0]*d+k]) * float64(vals[p[1]*d+k])
		}
		want := dot * inv[p[0]] * inv[p[1]]
		if got := cos(p[0], p[1]); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("cosine(%d, %d) = %v, want %v", p[0], p[1], got, want)
		}
	}
	if c := cos(5, 5); math.Abs(c-1) > 1e-12 {
		t.Fatalf("a row with itself: %v", c)
	}
}
