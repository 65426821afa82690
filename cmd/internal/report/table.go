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
	BestTau        bool // the highest mean τ among this model's variants
}

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

var header = []string{"model", "variant", "runs", "AUC", "Kendall τ", "final AUC", "final τ"}

func (r Row) cells(mark string) []string {
	tau := r.Tau.String()
	if r.BestTau {
		tau += mark
	}
	return []string{r.Model, r.Variant, fmt.Sprint(r.Runs), r.AUC.String(), tau, r.FinalAUC.String(), r.FinalTau.String()}
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
	w.Write([]string{"model", "variant", "runs", "auc_mean", "auc_std", "tau_mean", "tau_std",
		"final_auc_mean", "final_auc_std", "final_tau_mean", "final_tau_std", "best_tau"})
	f := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return fmt.Sprintf("%.6f", x)
	}
	for _, r := range rows {
		w.Write([]string{r.Model, r.Variant, fmt.Sprint(r.Runs), f(r.AUC.Mean), f(r.AUC.Std), f(r.Tau.Mean), f(r.Tau.Std),
			f(r.FinalAUC.Mean), f(r.FinalAUC.Std), f(r.FinalTau.Mean), f(r.FinalTau.Std), fmt.Sprint(r.BestTau)})
	}
	w.Flush()
	return b.String()
}
