package eval

import "math"

// ChanceBound is the AUC below which a ranking of pos positives against neg
// negatives is worse than chance beyond sampling noise: 0.5 − 2·SE, with SE
// = √((pos + neg + 1) / (12·pos·neg)) the standard error of the AUC (the
// Mann–Whitney U statistic over pos·neg) when scores carry no information.
// NaN without positives or negatives.
func ChanceBound(pos, neg int) float64 {
	if pos < 1 || neg < 1 {
		return math.NaN()
	}
	p, n := float64(pos), float64(neg)
	return 0.5 - 2*math.Sqrt((p+n+1)/(12*p*n))
}

// BelowChance reports whether an AUC of pos positives against neg
// negatives is below ChanceBound: a ranking that puts the positives below
// random pairs, which is a defect to look for (degree-biased positives
// scored against uniform negatives, a model that learnt the training edges'
// complement), not a weak model.
func BelowChance(auc float64, pos, neg int) bool {
	return auc < ChanceBound(pos, neg)
}
