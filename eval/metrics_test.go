package eval

import (
	"math"
	"math/rand/v2"
	"testing"
)

func bruteAUC(s []float64, l []bool) float64 {
	var num, den float64
	for i := range s {
		for j := range s {
			if l[i] && !l[j] {
				den++
				switch {
				case s[i] > s[j]:
					num++
				case s[i] == s[j]:
					num += 0.5
				}
			}
		}
	}
	return num / den
}

func bruteTauB(x, y []float64) float64 {
	var c, d, tx, ty float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			dx, dy := x[i]-x[j], y[i]-y[j]
			switch {
			case dx == 0 && dy == 0:
			case dx == 0:
				tx++
			case dy == 0:
				ty++
			case dx*dy > 0:
				c++
			default:
				d++
			}
		}
	}
	return (c - d) / math.Sqrt((c+d+tx)*(c+d+ty))
}

func TestAUCAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		n := 2 + rng.IntN(60)
		s := make([]float64, n)
		l := make([]bool, n)
		for i := range s {
			s[i] = float64(rng.IntN(7)) // heavy ties
			l[i] = rng.IntN(2) == 0
		}
		l[0], l[1] = true, false
		if got, want := AUC(s, l), bruteAUC(s, l); math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d: AUC = %v, brute force %v", trial, got, want)
		}
	}
	// sklearn roc_auc_score([0,0,1,1],[0.1,0.4,0.35,0.8]) = 0.75 (its docs' example).
	if got := AUC([]float64{0.1, 0.4, 0.35, 0.8}, []bool{false, false, true, true}); got != 0.75 {
		t.Errorf("sklearn example: AUC = %v, want 0.75", got)
	}
	if !math.IsNaN(AUC([]float64{1, 2}, []bool{true, true})) {
		t.Error("one-class AUC should be NaN")
	}
}

func TestKendallTauB(t *testing.T) {
	// scipy.stats.kendalltau documentation example: tau = -0.47140452079103173.
	got := KendallTauB([]float64{12, 2, 1, 12, 2}, []float64{1, 4, 7, 1, 0})
	if math.Abs(got-(-0.47140452079103173)) > 1e-15 {
		t.Errorf("scipy example: τ = %.17g, want -0.47140452079103173", got)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		n := 2 + rng.IntN(120)
		x := make([]float64, n)
		y := make([]float64, n)
		for i := range x {
			x[i] = float64(rng.IntN(1 + trial%9))
			y[i] = float64(rng.IntN(1+trial%5)) + 0.5*float64(rng.IntN(3))
		}
		want := bruteTauB(x, y)
		got := KendallTauB(x, y)
		if math.IsNaN(want) != math.IsNaN(got) || (!math.IsNaN(want) && math.Abs(got-want) > 1e-12) {
			t.Fatalf("trial %d (n=%d): τ-b = %v, brute force %v", trial, n, got, want)
		}
	}
	if !math.IsNaN(KendallTauB([]float64{1, 1, 1}, []float64{1, 2, 3})) {
		t.Error("constant x should give NaN")
	}
}

func BenchmarkKendallTauB1e6(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 1_000_000
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = float64(1 + rng.IntN(10))
		y[i] = rng.Float64()*2 - 1
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		KendallTauB(x, y)
	}
}

func TestSummarise(t *testing.T) {
	s := Summarise([]float64{1, 2, 3, math.NaN()})
	// numpy.std([1,2,3]) = 0.816496580927726 (ddof=0).
	if s.N != 3 || s.Mean != 2 || math.Abs(s.Std-0.816496580927726) > 1e-15 {
		t.Fatalf("summary %+v", s)
	}
}
