package eval

import (
	"math"
	"sort"
)

// AveragePrecision is the area under the precision–recall curve as
// sklearn's average_precision_score computes it: Σ (R_t − R_{t−1})·P_t over
// the distinct score thresholds t, descending (tied scores share one
// threshold). O(P log P). NaN when there is no positive or a score is NaN.
func AveragePrecision(scores []float64, labels []bool) float64 {
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

// HitsAtK is OGB's link-prediction Hits@K: the fraction of positive scores
// strictly above the K-th highest negative score (1 when there are fewer
// than K negatives). NaN without positives or with a NaN score.
func HitsAtK(pos, neg []float64, k int) float64 {
	if len(pos) == 0 || hasNaN(pos) || hasNaN(neg) {
		return math.NaN()
	}
	if len(neg) < k {
		return 1
	}
	s := append([]float64(nil), neg...)
	sort.Sort(sort.Reverse(sort.Float64Slice(s)))
	kth := s[k-1]
	hits := 0
	for _, p := range pos {
		if p > kth {
			hits++
		}
	}
	return float64(hits) / float64(len(pos))
}
