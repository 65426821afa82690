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

// TestCapacityShort: the table notes a (capacity) row more than
// CapacityShortAUC below the best model row's final AUC or CapacityShortTau
// below its best final τ, saying by how much, and not one within both.
func TestCapacityShort(t *testing.T) {
	row := func(model string, auc, tau float64) report.Row {
		return report.Row{Model: model, Variant: "both", FinalAUC: eval.Summary{Mean: auc}, FinalTau: eval.Summary{Mean: tau}}
	}
	refs := map[int]Job{2: {Model: "table", Variant: run.MSE, Capacity: true}}
	for _, c := range []struct {
		capAUC, capTau float64
		want           []string
	}{
		{0.556, 0.246, []string{"0.434 below the best model row's final AUC", "0.191 below its best final τ"}},
		{0.975, 0.350, []string{"0.087 below its best final τ"}},
		{0.975, 0.400, nil},
		{0.995, 0.500, nil},
	} {
		n := capacityShort([]report.Row{row("gcn", 0.990, 0.437), row("sage", 0.985, 0.420), row("table", c.capAUC, c.capTau)}, refs)
		if (n == "") != (c.want == nil) {
			t.Errorf("capacity %v / %v: note %q", c.capAUC, c.capTau, n)
		}
		for _, w := range c.want {
			if !strings.Contains(n, w) {
				t.Errorf("capacity %v / %v: note %q lacks %q", c.capAUC, c.capTau, n, w)
			}
		}
	}
	if n := capacityShort([]report.Row{row("gcn", 0.99, 0.44)}, nil); n != "" {
		t.Errorf("no capacity row: note %q", n)
	}
}
