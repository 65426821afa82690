package grid

import (
	"math"
	"strings"
	"testing"

	"github.com/ignn/ignn/cmd/internal/report"
	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/eval"
)

// TestAgreement: the table notes a variant whose rows of two or more
// models agree within AgreeWithin on final AUC and τ — with the (skip
// path alone) row of that input beside them when there is one — and no
// variant where one model is further off, where one model alone has the
// variant, or where a mean is undefined.
func TestAgreement(t *testing.T) {
	row := func(model, variant string, auc, tau float64) report.Row {
		return report.Row{Model: model, Variant: variant, FinalAUC: eval.Summary{Mean: auc}, FinalTau: eval.Summary{Mean: tau}}
	}
	rows := []report.Row{
		row("gcn", "base", 0.80, 0.10), row("gcn", "both", 0.9271, 0.6852),
		row("sage", "base", 0.85, 0.20), row("sage", "both", 0.9280, 0.6849),
		row("gin", "base", 0.70, 0.05), row("gin", "both", 0.9265, 0.6860),
		row("table", "mse", 0.933, 0.686), // the capacity row
		row("gcn", "both skip alone", 0.922, 0.684),
	}
	refs := map[int]Job{6: {Model: "table", Variant: run.MSE, Capacity: true}, 7: {Model: "gcn", Variant: run.Both, Ablation: true}}
	notes := agreement(rows, refs)
	if len(notes) != 1 {
		t.Fatalf("notes %q: want one, for both", notes)
	}
	for _, want := range []string{"gcn, sage and gin", "0.926–0.928", "0.685–0.686", "under both,", AblationRow, "0.922 and 0.684"} {
		if !strings.Contains(notes[0], want) {
			t.Errorf("note %q lacks %q", notes[0], want)
		}
	}
	rows[5].FinalTau.Mean = 0.6880 // 0.0031 from sage's
	if n := agreement(rows, refs); len(n) != 0 {
		t.Errorf("gin 0.003 off: notes %q", n)
	}
	rows[5].FinalTau.Mean = math.NaN()
	if n := agreement(rows, refs); len(n) != 0 {
		t.Errorf("an undefined τ: notes %q", n)
	}
	if n := agreement([]report.Row{row("gcn", "both", 0.9, 0.5), row("gcn", "base", 0.9, 0.5)}, nil); len(n) != 0 {
		t.Errorf("one model: notes %q", n)
	}
	if n := agreement(rows[:4], nil); len(n) != 1 || strings.Contains(n[0], AblationRow) {
		t.Errorf("two models, no ablation: notes %q", n)
	}
}
