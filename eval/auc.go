package eval

import (
	"fmt"
	"math"
	"sort"
)

// AUC returns the area under the ROC curve of scores against binary labels
// (true = positive), i.e. the probability that a random positive scores above
// a random negative, ties counting one half (average ranks, as sklearn's
// roc_auc_score). O(P log P). It returns NaN when either class is empty or
// any score is NaN (no ranking exists).
func AUC(scores []float64, labels []bool) float64 {
	if len(scores) != len(labels) {
		panic(fmt.Sprintf("eval: AUC: %d scores, %d labels", len(scores), len(labels)))
	}
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
		avg := float64(i+j+1) / 2 // ranks i+1..j averaged
		for k := i; k < j; k++ {
			if labels[idx[k]] {
				rankSumPos += avg
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

func hasNaN(xs []float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) {
			return true
		}
	}
	return false
}
