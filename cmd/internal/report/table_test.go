package report

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/ignn/ignn/eval"
)

func TestTables(t *testing.T) {
	s := eval.Summarise([]float64{1, 2, 3, math.NaN()})
	// numpy.std([1,2,3], ddof=1) = 1.0.
	if s.N != 3 || s.Mean != 2 || s.Std != 1 {
		t.Fatalf("summary %+v", s)
	}
	rows := []Row{
		{Model: "gcn", Variant: "base", Runs: 3, AUC: s, Tau: eval.Summary{Mean: 0.2, Std: 0.01, N: 3}},
		{Model: "gcn", Variant: "both", Runs: 3, AUC: s, Tau: eval.Summary{Mean: 0.5, Std: 0.02, N: 3},
			HasBase: true, DTau: eval.PairedTest([]float64{0.5, 0.52, 0.48}, []float64{0.2, 0.21, 0.19})},
		{Model: "gat", Variant: "base", Runs: 3, AUC: s, Tau: eval.Summarise([]float64{math.NaN()})},
	}
	MarkBest(rows)
	if rows[0].BestTau || !rows[1].BestTau || rows[2].BestTau {
		t.Fatalf("best marks %v %v %v", rows[0].BestTau, rows[1].BestTau, rows[2].BestTau)
	}
	// Differences 0.30, 0.31, 0.29: sd 0.01, t(0.975, 2) = 4.303 → ±0.025.
	if md := Markdown(rows); !strings.Contains(md, "| gcn | both | 3 | 2.000 ± 1.000 | **0.500 ± 0.020** |") || !strings.Contains(md, "undefined") ||
		!strings.Contains(md, "+0.300 [+0.275, +0.325] † | undefined |") {
		t.Errorf("markdown:\n%s", md)
	}
	if c := CSV(rows); !strings.Contains(c, "gcn,both,3,2.000000,1.000000,0.500000,0.020000") {
		t.Errorf("csv:\n%s", c)
	}
}

// TestPlotDistanceWrites: the distance figure is written as PNG and SVG and
// refuses an empty set of panels.
func TestPlotDistanceWrites(t *testing.T) {
	base := t.TempDir() + "/d"
	box := func(d int, m float64) Box { return Box{D: d, Q: [5]float64{m - 0.3, m - 0.1, m, m + 0.1, m + 0.3}} }
	panels := []DistancePanel{{Model: "gcn", Base: []Box{box(1, 0.9), box(2, 0.5)}, Both: []Box{box(1, 0.95), box(2, 0.2)}}}
	if err := PlotDistance("test", panels, base); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".png", ".svg"} {
		if st, err := os.Stat(base + ext); err != nil || st.Size() < 1000 {
			t.Errorf("%s: %v", ext, err)
		}
	}
	if err := PlotDistance("test", nil, base); err == nil {
		t.Error("empty panels accepted")
	}
}

// TestBelowChanceMarked: a row whose AUC interval lies under 0.5 (or one
// seed under 0.45) is marked ‡ in the text and markdown tables; a row near
// 0.5 is not.
func TestBelowChanceMarked(t *testing.T) {
	nan := eval.Summarise(nil)
	row := func(model string, auc ...float64) Row {
		a := eval.Summarise(auc)
		return Row{Model: model, Variant: "base", Runs: len(auc), AUC: a, FinalAUC: a, Tau: nan, FinalTau: nan, FinalP10: nan, FinalAP: nan}
	}
	rows := []Row{row("low", 0.40, 0.41, 0.42), row("noise", 0.49, 0.52), row("one", 0.44), row("fine", 0.9, 0.91)}
	for _, out := range []string{Text(rows), Markdown(rows)} {
		for _, l := range strings.Split(out, "\n") {
			marked := strings.Contains(l, "‡")
			if want := strings.Contains(l, "low") || strings.Contains(l, "one"); marked != want {
				t.Errorf("line %q: marked %v, want %v", l, marked, want)
			}
		}
	}
}
