package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
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

// TestKendallTauBInts: the counting τ-b equals the brute force and is bit
// for bit KendallTauB's number, on tied random cases (including ±0 and
// all-equal y) and on the scipy example.
func TestKendallTauBInts(t *testing.T) {
	got := KendallTauBInts([]uint16{12, 2, 1, 12, 2}, []float64{1, 4, 7, 1, 0})
	if got != KendallTauB([]float64{12, 2, 1, 12, 2}, []float64{1, 4, 7, 1, 0}) {
		t.Errorf("scipy example: %.17g", got)
	}
	rng := rand.New(rand.NewPCG(8, 9))
	for trial := 0; trial < 300; trial++ {
		n := 2 + rng.IntN(150)
		xi := make([]uint16, n)
		x := make([]float64, n)
		y := make([]float64, n)
		for i := range x {
			xi[i] = uint16(rng.IntN(1 + trial%12))
			x[i] = float64(xi[i])
			switch trial % 3 {
			case 0:
				y[i] = float64(rng.IntN(1+trial%5)) - 1 + 0.5*float64(rng.IntN(3))
			case 1:
				y[i] = rng.NormFloat64()
			default:
				y[i] = []float64{0, math.Copysign(0, -1), 1e-300, -2}[rng.IntN(4)]
			}
		}
		want := bruteTauB(x, y)
		got := KendallTauBInts(xi, y)
		ref := KendallTauB(x, y)
		if math.IsNaN(want) != math.IsNaN(got) || (!math.IsNaN(want) && (math.Abs(got-want) > 1e-12 || got != ref)) {
			t.Fatalf("trial %d (n=%d): counting τ-b %v, merge τ-b %v, brute force %v", trial, n, got, ref, want)
		}
	}
}

// TestMetricsOnNaN: NaN in gives NaN out, never a hang or an invented
// number (scipy.stats.kendalltau and sklearn reject or propagate NaN too).
func TestMetricsOnNaN(t *testing.T) {
	nan := math.NaN()
	done := make(chan float64)
	go func() { done <- AUC([]float64{0.1, nan, nan, 0.3}, []bool{true, false, true, false}) }()
	select {
	case v := <-done:
		if !math.IsNaN(v) {
			t.Errorf("AUC with NaN scores = %v", v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("AUC with NaN scores does not return")
	}
	if v := KendallTauB([]float64{1, 2, 3}, []float64{1, nan, 3}); !math.IsNaN(v) {
		t.Errorf("KendallTauB with NaN = %v", v)
	}
	if v := KendallTauBInts([]uint16{1, 2, 3}, []float64{1, nan, 3}); !math.IsNaN(v) {
		t.Errorf("KendallTauBInts with NaN = %v", v)
	}
}

func tauBenchData(n int) ([]uint16, []float64, []float64) {
	rng := rand.New(rand.NewPCG(5, 6))
	xi := make([]uint16, n)
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range x {
		xi[i] = uint16(1 + rng.IntN(10))
		x[i] = float64(xi[i])
		y[i] = float64(float32(rng.Float64()*2 - 1)) // cosines come from float32 embeddings
	}
	return xi, x, y
}

// BenchmarkKendallTauB: the generic merge-sort τ-b against the counting one
// on hop distances 1–10, 10⁶ and 10⁷ pairs.
func BenchmarkKendallTauB(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		xi, x, y := tauBenchData(n)
		b.Run(fmt.Sprintf("merge/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				KendallTauB(x, y)
			}
		})
		b.Run(fmt.Sprintf("counting/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var s TauScratch // reused across evaluations, as GraphMetrics does
			for i := 0; i < b.N; i++ {
				s.KendallTauBInts(xi, y)
			}
		})
	}
}

func TestSummarise(t *testing.T) {
	s := Summarise([]float64{1, 2, 3, math.NaN()})
	// numpy.std([1,2,3], ddof=1) = 1.0 (the sample std).
	if s.N != 3 || s.Mean != 2 || math.Abs(s.Std-1) > 1e-15 {
		t.Fatalf("summary %+v", s)
	}
}
