package objective

import (
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// Forward-only values of the objective's terms on fixed embeddings, given
// by the dot product of two rows (engine.RowDot of float32 or float64
// embeddings, or rows read from a spill file): the validation yardsticks
// that model selection reads (--select objective). They use the ops' own pieces — engine.Softplus,
// engine.RowDot, Target — so the validation objective is the training
// objective evaluated elsewhere, not a second copy of it. Means, summed in
// pair order; NaN for an empty set.

// LogisticMean is the BCE term: the mean over ps of softplus(s) − y·s, s
// the dot product of the pair's rows and y its value (label 0 or 1).
func LogisticMean(dot func(i, j int) float64, ps *Pairs) float64 {
	var sum float64
	for k := range ps.I {
		s := dot(ps.I[k], ps.J[k])
		sum += engine.Softplus(s) - ps.V[k]*s
	}
	return sum / float64(ps.Len())
}

// MSEMean is the paper's distance term: the mean over pairs (I[k], J[k]) at
// hop distance D[k] of ((1 − s)/2 − t)², t = Target(D[k], α).
func MSEMean(dot func(i, j int) float64, I, J []int32, D []uint16, alpha float64) float64 {
	var sum float64
	for k := range I {
		t := Target(int(D[k]), D[k] != data.Unreachable, alpha)
		r := (1-dot(int(I[k]), int(J[k])))/2 - t
		sum += r * r
	}
	return sum / float64(len(I))
}

// RankMean is the ranking term: the mean over triples (i, j, k), d(i, j) <
// d(i, k), of softplus((s_ik − s_ij)/T).
func RankMean(dot func(i, j int) float64, tri [][3]int32, temp float64) float64 {
	var sum float64
	for _, t := range tri {
		sum += engine.Softplus((dot(int(t[0]), int(t[2])) - dot(int(t[0]), int(t[1]))) / temp)
	}
	return sum / float64(len(tri))
}
