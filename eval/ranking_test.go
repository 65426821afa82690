package eval

import (
	"math"
	"math/rand/v2"
	"sort"
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

// The sort-by-index versions the sorted-once ones replaced, kept as the
// reference for their bits.

func indexAUC(scores []float64, labels []bool) float64 {
	if hasNaN(scores) {
		return math.NaN()
	}
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return scores[idx[a]] < scores[idx[b]] })
	var rankSumPos float64
	var npos, nneg int
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && scores[idx[j]] == scores[idx[i]] {
			j++
		}
		for k := i; k < j; k++ {
			if labels[idx[k]] {
				rankSumPos += float64(i+j+1) / 2
			}
		}
		i = j
	}
	for _, l := range labels {
		if l {
			npos++
		} else {
			nneg++
		}
	}
	if npos == 0 || nneg == 0 {
		return math.NaN()
	}
	return (rankSumPos - float64(npos)*float64(npos+1)/2) / (float64(npos) * float64(nneg))
}

func indexAP(scores []float64, labels []bool) float64 {
	if hasNaN(scores) {
		return math.NaN()
	}
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	npos := 0
	for _, l := range labels {
		if l {
			npos++
		}
	}
	if npos == 0 {
		return math.NaN()
	}
	var tp, fp int
	var ap, prevRecall float64
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && scores[idx[j]] == scores[idx[i]] {
			if labels[idx[j]] {
				tp++
			} else {
				fp++
			}
			j++
		}
		recall := float64(tp) / float64(npos)
		ap += (recall - prevRecall) * float64(tp) / float64(tp+fp)
		prevRecall = recall
		i = j
	}
	return ap
}

func indexHits(pos, neg []float64, k int) float64 {
	if len(pos) == 0 || hasNaN(pos) || hasNaN(neg) {
		return math.NaN()
	}
	if len(neg) < k {
		return 1
	}
	s := append([]float64(nil), neg...)
	sort.Sort(sort.Reverse(sort.Float64Slice(s)))
	hits := 0
	for _, p := range pos {
		if p > s[k-1] {
			hits++
		}
	}
	return float64(hits) / float64(len(pos))
}

// TestRankedSameBits: AUC, AveragePrecision and HitsAtK, sorted once, give
// the sort-by-index versions' numbers bit for bit — ties (few distinct
// scores), ±0 in one group, one class, NaN, sets up to 20,000 scores —
// and the evaluator's rankScores path gives the same as the functions.
func TestRankedSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	same := func(what string, got, want float64) {
		t.Helper()
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("%s = %v, the sort-by-index version %v", what, got, want)
		}
	}
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(40)
		if trial%10 == 0 {
			n = 20_000
		}
		distinct := 1 + rng.IntN(12)
		s, l := make([]float64, n), make([]bool, n)
		var pos, neg []float64
		for i := range s {
			switch {
			case trial%3 == 0:
				s[i] = rng.NormFloat64()
			default:
				s[i] = float64(rng.IntN(distinct)-distinct/2) / 3
			}
			if s[i] == 0 && rng.IntN(2) == 0 {
				s[i] = math.Copysign(0, -1)
			}
			l[i] = rng.IntN(4) != 0 || trial%7 == 0
			if l[i] {
				pos = append(pos, s[i])
			} else {
				neg = append(neg, s[i])
			}
		}
		if trial%50 == 1 {
			s[0] = math.NaN()
		}
		r := rankScores(s, l)
		same("AUC", AUC(s, l), indexAUC(s, l))
		same("ranked AUC", r.auc(), indexAUC(s, l))
		same("AP", AveragePrecision(s, l), indexAP(s, l))
		same("ranked AP", r.ap(), indexAP(s, l))
		if trial%50 != 1 {
			for _, k := range []int{1, 3, 20} {
				same("Hits", HitsAtK(pos, neg, k), indexHits(pos, neg, k))
				same("ranked Hits", r.hits(k), indexHits(pos, neg, k))
			}
		}
	}
}

// BenchmarkTestMetrics: the test pairs' AUC, AP, Hits@20 and Hits@50 on 10⁶
// positives and as many negatives (a 10⁷-node grid's evaluation scores
// about this many) — sorted once, and the sort-by-index versions before.
func BenchmarkTestMetrics(b *testing.B) {
	const n = 2_000_000
	rng := rand.New(rand.NewPCG(5, 6))
	s, l := make([]float64, n), make([]bool, n)
	for i := range s {
		l[i] = i < n/2
		s[i] = rng.NormFloat64()
		if l[i] {
			s[i] += 2
		}
	}
	b.Run("sorted-once", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			r := rankScores(s, l)
			_, _, _, _ = r.auc(), r.ap(), r.hits(20), r.hits(50)
		}
	})
	b.Run("by-index", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_, _ = indexAUC(s, l), indexAP(s, l)
			_, _ = indexHits(s[:n/2], s[n/2:], 20), indexHits(s[:n/2], s[n/2:], 50)
		}
	})
}
