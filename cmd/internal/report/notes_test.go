package report

import (
	"math"
	"strings"
	"testing"

	"github.com/ignn/ignn/eval"
)

func noteRow(model, variant string, auc, tau float64) Row {
	return Row{Model: model, Variant: variant, FinalAUC: eval.Summary{Mean: auc}, FinalTau: eval.Summary{Mean: tau}}
}

// TestAgreement: a note for a variant whose rows of two or more models
// agree within AgreeWithin on final AUC and τ — with the ablation rows of
// that variant beside them when there are some, each said for what it
// leaves out — and none where one model is
// further off, where one model alone has the variant, or where a mean is
// undefined; reference rows are not models.
func TestAgreement(t *testing.T) {
	rows := []Row{
		noteRow("gcn", "base", 0.80, 0.10), noteRow("gcn", "both", 0.9271, 0.6852),
		noteRow("sage", "base", 0.85, 0.20), noteRow("sage", "both", 0.9280, 0.6849),
		noteRow("gin", "base", 0.70, 0.05), noteRow("gin", "both", 0.9265, 0.6860),
		noteRow("(capacity)", "table, the runs' objective", 0.933, 0.686),
		noteRow("(skip path alone)", "both", 0.922, 0.684),
		noteRow("(skip path + sketch)", "both", 0.924, 0.689),
	}
	notes := Agreement(rows, "(skip path alone)")
	if len(notes) != 1 {
		t.Fatalf("notes %q: want one, for both", notes)
	}
	for _, want := range []string{"gcn, sage and gin", "0.926–0.928", "0.685–0.686", "under both,", "(skip path alone) row (no message passing) reads 0.922 and 0.684"} {
		if !strings.Contains(notes[0], want) {
			t.Errorf("note %q lacks %q", notes[0], want)
		}
	}
	if strings.Contains(notes[0], "(skip path + sketch)") {
		t.Errorf("note %q names a row it was not given", notes[0])
	}
	notes = Agreement(rows, "(skip path alone)", "(skip path + sketch)")
	if len(notes) != 1 || !strings.Contains(notes[0], "(skip path alone) row (no message passing) reads 0.922 and 0.684, the (skip path + sketch) row (no trained layers) reads 0.924 and 0.689.") {
		t.Errorf("with both ablation rows: notes %q", notes)
	}
	rows[5].FinalTau.Mean = 0.6880 // 0.0031 from sage's
	if n := Agreement(rows, "(skip path alone)"); len(n) != 0 {
		t.Errorf("gin 0.003 off: notes %q", n)
	}
	rows[5].FinalTau.Mean = math.NaN()
	if n := Agreement(rows, "(skip path alone)"); len(n) != 0 {
		t.Errorf("an undefined τ: notes %q", n)
	}
	if n := Agreement([]Row{noteRow("gcn", "both", 0.9, 0.5), noteRow("gcn", "base", 0.9, 0.5)}, "(skip path alone)"); len(n) != 0 {
		t.Errorf("one model: notes %q", n)
	}
	if n := Agreement(rows[:4], "(skip path alone)"); len(n) != 1 || strings.Contains(n[0], "(skip path alone)") {
		t.Errorf("two models, no ablation: notes %q", n)
	}
}

// TestCapacityShort: a note when the capacity row ends more than
// CapacityShortAUC below the best model row's final AUC or CapacityShortTau
// below its best final τ, saying by how much; none within both, and none
// without a capacity row.
func TestCapacityShort(t *testing.T) {
	for _, c := range []struct {
		capAUC, capTau float64
		want           []string
	}{
		{0.556, 0.246, []string{"0.434 below the best model row's final AUC", "0.191 below its best final τ", "1000 steps"}},
		{0.975, 0.350, []string{"0.087 below its best final τ"}},
		{0.975, 0.400, nil},
		{0.995, 0.500, nil},
	} {
		rows := []Row{noteRow("gcn", "both", 0.990, 0.437), noteRow("sage", "both", 0.985, 0.420), noteRow("(capacity)", "table", c.capAUC, c.capTau),
			noteRow("(skip path alone)", "both", 0.999, 0.999)} // a reference row is not the best model row
		n := CapacityShort(rows, "(capacity)", 1000)
		if (n == "") != (c.want == nil) {
			t.Errorf("capacity %v / %v: note %q", c.capAUC, c.capTau, n)
		}
		for _, w := range c.want {
			if !strings.Contains(n, w) {
				t.Errorf("capacity %v / %v: note %q lacks %q", c.capAUC, c.capTau, n, w)
			}
		}
	}
	if n := CapacityShort([]Row{noteRow("gcn", "both", 0.99, 0.44)}, "(capacity)", 1000); n != "" {
		t.Errorf("no capacity row: note %q", n)
	}
}
