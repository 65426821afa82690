package eval

import (
	"fmt"
	"math"
	"slices"
)

// AUC returns the area under the ROC curve of scores against binary labels
// (true = positive), i.e. the probability that a random positive scores above
// a random negative, ties counting one half (average ranks, as sklearn's
// roc_auc_score). O(P log P). It returns NaN when either class is empty or
// any score is NaN (no ranking exists).
func AUC(scores []float64, labels []bool) float64 {
	return rankScores(scores, labels).auc()
}

// ranked is one set's scores split by label, each part sorted ascending:
// what AUC, AveragePrecision and HitsAtK read, sorted once for the three.
type ranked struct {
	pos, neg []float64
	nan      bool // a score is NaN: no ranking exists
}

// rankScores splits scores by labels (true = positive) and sorts each part.
func rankScores(scores []float64, labels []bool) ranked {
	if len(scores) != len(labels) {
		panic(fmt.Sprintf("eval: ranking %d scores by %d labels", len(scores), len(labels)))
	}
	if hasNaN(scores) {
		return ranked{nan: true}
	}
	var r ranked
	for i, s := range scores {
		if labels[i] {
			r.pos = append(r.pos, s)
		} else {
			r.neg = append(r.neg, s)
		}
	}
	slices.Sort(r.pos)
	slices.Sort(r.neg)
	return r
}

// group returns the end of the run of values equal to v starting at i in
// the ascending xs.
func group(xs []float64, i int, v float64) int {
	for i < len(xs) && xs[i] == v {
		i++
	}
	return i
}

// auc is the rank-sum AUC: tied scores share their average rank, each
// positive's rank added in ascending order of score.
func (r ranked) auc() float64 {
	if r.nan {
		return math.NaN()
	}
	var rankSumPos float64
	i, p, q := 0, 0, 0 // scores below the group: in all, positives, negatives
	for p < len(r.pos) || q < len(r.neg) {
		var v float64 // the group's score: the lower of the two next ones
		switch {
		case q == len(r.neg) || (p < len(r.pos) && r.pos[p] < r.neg[q]):
			v = r.pos[p]
		default:
			v = r.neg[q]
		}
		p2, q2 := group(r.pos, p, v), group(r.neg, q, v)
		j := i + (p2 - p) + (q2 - q)
		avg := float64(i+j+1) / 2 // ranks i+1..j averaged
		for ; p < p2; p++ {
			rankSumPos += avg
		}
		i, q = j, q2
	}
	npos, nneg := len(r.pos), len(r.neg)
	if npos == 0 || nneg == 0 {
		return math.NaN()
	}
	return (rankSumPos - float64(npos)*float64(npos+1)/2) / (float64(npos) * float64(nneg))
}

func hasNaN(xs []float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) {
			return true
		}
	}
	return false
}
