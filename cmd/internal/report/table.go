package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/ignn/ignn/eval"
)

// Row is one line of a comparison table.
type Row struct {
	Model, Variant string
	Runs           int
	AUC, Tau       eval.Summary // at the best-validation epoch
	FinalAUC       eval.Summary // at the last epoch
	FinalTau       eval.Summary
	FinalP10       eval.Summary // precision@10 of the final embeddings
	FinalAP        eval.Summary // average precision of the final test ranking
	BestTau        bool         // the highest mean τ among this model's variants
	// Paired differences against the model's base row on the same seeds
	// (HasBase false for the base row itself or when there is none).
	HasBase               bool
	DTau, DFinalTau, DAUC eval.Paired
	// Settings is what the row's cells resolved to (zero for reference rows).
	Settings Settings
	// NoTau marks a reference row that has no distance to rank (a link
	// heuristic): its τ and P@10 read "–", not "undefined".
	NoTau bool
}

// Significant is the table's mark for a paired difference: two-sided
// paired t-test p < 0.05.
func Significant(p eval.Paired) bool { return p.PT < 0.05 }

// MarkBest sets BestTau on the row with the highest mean τ per model.
func MarkBest(rows []Row) {
	best := map[string]int{}
	for i, r := range rows {
		rows[i].BestTau = false
		if math.IsNaN(r.Tau.Mean) {
			continue
		}
		if j, ok := best[r.Model]; !ok || r.Tau.Mean > rows[j].Tau.Mean {
			best[r.Model] = i
		}
	}
	for _, i := range best {
		rows[i].BestTau = true
	}
}

var header = []string{"model", "variant", "n", "AUC", "Kendall τ", "final AUC", "final τ", "final P@10", "Δτ vs base", "Δ final τ vs base"}

// Legend explains the tables' notation.
const Legend = "mean ± sample std (n − 1) over n seeds; Δ = paired difference from base on the same seeds with its 95% t interval; † = paired t-test p < 0.05; ‡ = AUC below chance (its 95% interval under 0.5; one seed: under 0.45)"

// BelowChance reports whether an AUC summary over seeds is below chance:
// its 95% t interval lies under 0.5, or, for one seed (no interval), it is
// under 0.45. A ranking that puts held-out positives below random pairs is
// a defect to explain, not a weak model (run.Result's warnings give a
// single run's own test, eval.BelowChance).
func BelowChance(s eval.Summary) bool {
	if s.N == 1 || math.IsNaN(s.Hi) {
		return s.Mean < 0.45
	}
	return s.Hi < 0.5
}

// aucCell is an AUC summary's cell, marked ‡ when below chance.
func aucCell(s eval.Summary) string {
	if BelowChance(s) {
		return s.String() + " ‡"
	}
	return s.String()
}

func (r Row) cells(mark string) []string {
	tau := r.Tau.String()
	if r.BestTau {
		tau += mark
	}
	c := []string{r.Model, r.Variant, fmt.Sprint(r.Runs), aucCell(r.AUC), tau, aucCell(r.FinalAUC), r.FinalTau.String(),
		r.FinalP10.String(), diff(r.HasBase, r.DTau), diff(r.HasBase, r.DFinalTau)}
	if r.NoTau {
		c[4], c[6], c[7] = "–", "–", "–"
	}
	return c
}

func diff(ok bool, p eval.Paired) string {
	switch {
	case !ok:
		return ""
	case p.N == 0 || math.IsNaN(p.Mean):
		return "undefined"
	case p.N == 1 || math.IsNaN(p.Lo):
		return fmt.Sprintf("%+.3f (n=%d)", p.Mean, p.N)
	}
	s := fmt.Sprintf("%+.3f [%+.3f, %+.3f]", p.Mean, p.Lo, p.Hi)
	if Significant(p) {
		s += " †"
	}
	return s
}

// Text renders an aligned plain-text table; * marks each model's best τ.
func Text(rows []Row) string {
	var b bytes.Buffer
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, strings.Join(header, "\t"))
	prev := ""
	for _, r := range rows {
		if prev != "" && r.Model != prev {
			fmt.Fprintln(w, strings.Repeat("\t", len(header)-1))
		}
		prev = r.Model
		fmt.Fprintln(w, strings.Join(r.cells(" *"), "\t"))
	}
	w.Flush()
	return b.String()
}

// Markdown renders a GitHub table; each model's best τ is bold.
func Markdown(rows []Row) string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(header, " | ") + " |\n")
	b.WriteString("|" + strings.Repeat("---|", len(header)) + "\n")
	for _, r := range rows {
		c := r.cells("")
		if r.BestTau {
			c[4] = "**" + c[4] + "**"
		}
		b.WriteString("| " + strings.Join(c, " | ") + " |\n")
	}
	return b.String()
}

// CSV renders one row per line with separate mean and std columns.
func CSV(rows []Row) string {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"model", "variant", "n", "auc_mean", "auc_std", "tau_mean", "tau_std",
		"final_auc_mean", "final_auc_std", "final_tau_mean", "final_tau_std", "best_tau",
		"tau_ci_lo", "tau_ci_hi", "final_tau_ci_lo", "final_tau_ci_hi",
		"dtau_mean", "dtau_ci_lo", "dtau_ci_hi", "dtau_p_t", "dtau_p_perm",
		"dfinal_tau_mean", "dfinal_tau_ci_lo", "dfinal_tau_ci_hi", "dfinal_tau_p_t", "dfinal_tau_p_perm",
		"final_precision_at_10_mean", "final_precision_at_10_std", "final_ap_mean", "final_ap_std",
		"epochs", "steps_per_epoch", "input", "distance_term"})
	f := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return fmt.Sprintf("%.6f", x)
	}
	for _, r := range rows {
		nan := math.NaN()
		d, fd := r.DTau, r.DFinalTau
		if !r.HasBase {
			d = eval.Paired{Mean: nan, Lo: nan, Hi: nan, PT: nan, PPerm: nan}
			fd = d
		}
		w.Write([]string{r.Model, r.Variant, fmt.Sprint(r.Runs), f(r.AUC.Mean), f(r.AUC.Std), f(r.Tau.Mean), f(r.Tau.Std),
			f(r.FinalAUC.Mean), f(r.FinalAUC.Std), f(r.FinalTau.Mean), f(r.FinalTau.Std), fmt.Sprint(r.BestTau),
			f(r.Tau.Lo), f(r.Tau.Hi), f(r.FinalTau.Lo), f(r.FinalTau.Hi),
			f(d.Mean), f(d.Lo), f(d.Hi), f(d.PT), f(d.PPerm), f(fd.Mean), f(fd.Lo), f(fd.Hi), f(fd.PT), f(fd.PPerm),
			f(r.FinalP10.Mean), f(r.FinalP10.Std), f(r.FinalAP.Mean), f(r.FinalAP.Std),
			epochs(r.Settings.Epochs), r.Settings.Steps, r.Settings.Input, r.Settings.Distance})
	}
	w.Flush()
	return b.String()
}

// epochs is a CSV cell: empty for a reference row (no training).
func epochs(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprint(n)
}
