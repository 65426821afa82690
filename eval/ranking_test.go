package eval

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteAP: the mean over positives of the precision at the threshold of
// that positive's score (ties included) — the same number as sklearn's
// step-wise sum, derived differently.
func bruteAP(s []float64, l []bool) float64 {
	var sum float64
	var np int
	for i := range s {
		if !l[i] {
			continue
		}
		np++
		var tp, all int
		for j := range s {
			if s[j] >= s[i] {
				all++
				if l[j] {
					tp++
				}
			}
		}
		sum += float64(tp) / float64(all)
	}
	return sum / float64(np)
}

// bruteHits: a positive is a hit when fewer than k negatives score at
// least as high.
func bruteHits(pos, neg []float64, k int) float64 {
	hits := 0
	for _, p := range pos {
		c := 0
		for _, n := range neg {
			if n >= p {
				c++
			}
		}
		if c < k {
			hits++
		}
	}
	return float64(hits) / float64(len(pos))
}

func TestAveragePrecisionAndHits(t *testing.T) {
	// sklearn documentation example: average_precision_score([0, 0, 1, 1],
	// [0.1, 0.4, 0.35, 0.8]) = 0.8333333333333333.
	if ap := AveragePrecision([]float64{0.1, 0.4, 0.35, 0.8}, []bool{false, false, true, true}); math.Abs(ap-0.8333333333333333) > 1e-15 {
		t.Errorf("sklearn example: AP %v", ap)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 200; trial++ {
		n := 2 + rng.IntN(60)
		s, l := make([]float64, n), make([]bool, n)
		var pos, neg []float64
		for i := range s {
			s[i] = float64(rng.IntN(1+trial%7)) / 3 // ties
			l[i] = rng.IntN(2) == 0
			if l[i] {
				pos = append(pos, s[i])
			} else {
				neg = append(neg, s[i])
			}
		}
		if len(pos) == 0 {
			continue
		}
		if got, want := AveragePrecision(s, l), bruteAP(s, l); math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d: AP %v, brute force %v", trial, got, want)
		}
		k := 1 + rng.IntN(5)
		if got, want := HitsAtK(pos, neg, k), bruteHits(pos, neg, k); got != want && len(neg) >= k {
			t.Fatalf("trial %d: Hits@%d %v, brute force %v", trial, k, got, want)
		}
	}
	if !math.IsNaN(AveragePrecision([]float64{math.NaN(), 1}, []bool{true, false})) || !math.IsNaN(HitsAtK([]float64{math.NaN()}, nil, 1)) {
		t.Error("NaN scores must give NaN")
	}
}
