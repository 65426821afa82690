package eval

import (
	"math"
	"slices"
	"sort"
)

// AveragePrecision is the area under the precision–recall curve as
// sklearn's average_precision_score computes it: Σ (R_t − R_{t−1})·P_t over
// the distinct score thresholds t, descending (tied scores share one
// threshold). O(P log P). NaN when there is no positive or a score is NaN.
func AveragePrecision(scores []float64, labels []bool) float64 {
	return rankScores(scores, labels).ap()
}

// ap is AveragePrecision over the distinct scores, highest first.
func (r ranked) ap() float64 {
	if r.nan || len(r.pos) == 0 {
		return math.NaN()
	}
	npos := len(r.pos)
	var tp, fp int
	var ap, prevRecall float64
	p, q := len(r.pos), len(r.neg) // scores from p and q on are counted
	for p > 0 || q > 0 {
		var v float64 // the group's score: the higher of the two next ones
		switch {
		case q == 0 || (p > 0 && r.pos[p-1] > r.neg[q-1]):
			v = r.pos[p-1]
		default:
			v = r.neg[q-1]
		}
		for p > 0 && r.pos[p-1] == v {
			p--
			tp++
		}
		for q > 0 && r.neg[q-1] == v {
			q--
			fp++
		}
		recall := float64(tp) / float64(npos)
		ap += (recall - prevRecall) * float64(tp) / float64(tp+fp)
		prevRecall = recall
	}
	return ap
}

// HitsAtK is OGB's link-prediction Hits@K: the fraction of positive scores
// strictly above the K-th highest negative score (1 when there are fewer
// than K negatives). NaN without positives or with a NaN score.
func HitsAtK(pos, neg []float64, k int) float64 {
	r := ranked{pos: slices.Clone(pos), neg: slices.Clone(neg), nan: hasNaN(pos) || hasNaN(neg)}
	slices.Sort(r.pos)
	slices.Sort(r.neg)
	return r.hits(k)
}

// hits is HitsAtK of the sorted scores.
func (r ranked) hits(k int) float64 {
	if len(r.pos) == 0 || r.nan {
		return math.NaN()
	}
	if len(r.neg) < k {
		return 1
	}
	kth := r.neg[len(r.neg)-k]
	below := sort.Search(len(r.pos), func(i int) bool { return r.pos[i] > kth })
	return float64(len(r.pos)-below) / float64(len(r.pos))
}
