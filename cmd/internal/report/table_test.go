package report

import (
	"math"
	"strings"
	"testing"

	"github.com/ignn/ignn/eval"
)

func TestTables(t *testing.T) {
	s := eval.Summarise([]float64{1, 2, 3, math.NaN()})
	// numpy.std([1,2,3]) = 0.816496580927726 (ddof=0).
	if s.N != 3 || s.Mean != 2 || math.Abs(s.Std-0.816496580927726) > 1e-15 {
		t.Fatalf("summary %+v", s)
	}
	rows := []Row{
		{Model: "gcn", Variant: "base", Runs: 3, AUC: s, Tau: eval.Summary{Mean: 0.2, Std: 0.01, N: 3}},
		{Model: "gcn", Variant: "both", Runs: 3, AUC: s, Tau: eval.Summary{Mean: 0.5, Std: 0.02, N: 3}},
		{Model: "gat", Variant: "base", Runs: 3, AUC: s, Tau: eval.Summarise([]float64{math.NaN()})},
	}
	MarkBest(rows)
	if rows[0].BestTau || !rows[1].BestTau || rows[2].BestTau {
		t.Fatalf("best marks %v %v %v", rows[0].BestTau, rows[1].BestTau, rows[2].BestTau)
	}
	if md := Markdown(rows); !strings.Contains(md, "| gcn | both | 3 | 2.000 ± 0.816 | **0.500 ± 0.020** |") || !strings.Contains(md, "undefined") {
		t.Errorf("markdown:\n%s", md)
	}
	if c := CSV(rows); !strings.Contains(c, "gcn,both,3,2.000000,0.816497,0.500000,0.020000") {
		t.Errorf("csv:\n%s", c)
	}
}
