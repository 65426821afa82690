package eval

import (
	"fmt"
	"math"
)

// SelectRule is how a run's reported evaluation (its epoch) and a sweep's
// setting are chosen (--select).
type SelectRule string

// The selection rules.
const (
	// SelectAUC is the paper's: the first evaluation with the highest
	// validation AUC.
	SelectAUC SelectRule = "auc"
	// SelectObjective: the first evaluation with the lowest validation
	// objective, the loss the run optimises measured on validation data
	// (Metrics.ValObjective).
	SelectObjective SelectRule = "objective"
	// SelectAUCThenObjective: among the evaluations whose validation AUC is
	// within one standard error (AUCStdErr at the highest) of the highest,
	// the first with the lowest validation objective. Saturated AUCs tie;
	// the objective breaks the tie.
	SelectAUCThenObjective SelectRule = "auc-then-objective"
)

// SelectRules lists them in the order reports show them.
var SelectRules = []SelectRule{SelectAUC, SelectObjective, SelectAUCThenObjective}

// ParseSelectRule reads --select.
func ParseSelectRule(s string) (SelectRule, error) {
	for _, r := range SelectRules {
		if SelectRule(s) == r {
			return r, nil
		}
	}
	return "", fmt.Errorf("unknown --select %q (valid: auc, objective, auc-then-objective)", s)
}

// Describe says which epoch the rule chooses, for results.
func (r SelectRule) Describe() string {
	switch r {
	case SelectObjective:
		return "the first epoch with the lowest validation objective (λ_BCE·BCE on the validation pairs + λ_MSE·the run's distance term on the validation pair sample)"
	case SelectAUCThenObjective:
		return "the first epoch with the lowest validation objective among those whose validation AUC is within one Hanley–McNeil standard error of the highest"
	}
	return "the first epoch with the highest validation AUC"
}

// AUCStdErr is the Hanley–McNeil (1982) standard error of an AUC a
// estimated from nPos positives and nNeg negatives:
// √[(a(1−a) + (nPos−1)(Q₁−a²) + (nNeg−1)(Q₂−a²)) / (nPos·nNeg)] with
// Q₁ = a/(2−a), Q₂ = 2a²/(1+a). NaN without both classes.
func AUCStdErr(a float64, nPos, nNeg int) float64 {
	if nPos < 1 || nNeg < 1 || math.IsNaN(a) {
		return math.NaN()
	}
	q1, q2 := a/(2-a), 2*a*a/(1+a)
	v := (a*(1-a) + float64(nPos-1)*(q1-a*a) + float64(nNeg-1)*(q2-a*a)) / float64(nPos*nNeg)
	return math.Sqrt(math.Max(v, 0))
}

// Select returns the index of the evaluation rule chooses among a run's
// evaluations, given their validation AUCs and validation objectives in
// order (−1 for none); nPos and nNeg are the validation pair counts the
// AUC tolerance uses. NaN values never win a comparison, so a history that
// starts with NaN keeps its first entry under SelectAUC, as the training
// loop always has.
func Select(auc, objective []float64, rule SelectRule, nPos, nNeg int) int {
	if len(auc) == 0 {
		return -1
	}
	if len(objective) != len(auc) {
		panic(fmt.Sprintf("eval: Select over %d AUCs and %d objectives", len(auc), len(objective)))
	}
	lower := func(a, b float64) bool { // NaN objectives lose
		return !math.IsNaN(a) && (math.IsNaN(b) || a < b)
	}
	best := 0
	switch rule {
	case SelectObjective:
		for i, o := range objective {
			if lower(o, objective[best]) {
				best = i
			}
		}
	case SelectAUCThenObjective:
		top := Select(auc, objective, SelectAUC, nPos, nNeg)
		a := auc[top]
		floor := a - AUCStdErr(a, nPos, nNeg)
		best = -1
		for i, o := range objective {
			if auc[i] >= floor && (best < 0 || lower(o, objective[best])) {
				best = i
			}
		}
		if best < 0 { // no tolerance (NaN AUC or counts): the AUC rule's choice
			best = top
		}
	default:
		for i, a := range auc {
			if a > auc[best] {
				best = i
			}
		}
	}
	return best
}
