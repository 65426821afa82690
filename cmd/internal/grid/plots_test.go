package grid

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlotReferences: the AUC–τ figure draws a model whose both row has a
// positional input (compare --positions: "both[landmark:4]"), and the
// (capacity) and (skip path alone) rows as named reference points; a
// comparison without a base row draws nothing.
func TestPlotReferences(t *testing.T) {
	c := &Comparison{Rows: []RowJSON{
		{Model: "gcn", Variant: "base", AUCMean: 0.90, TauMean: 0.20},
		{Model: "gcn", Variant: "both[landmark:4]", AUCMean: 0.95, TauMean: 0.80},
		{Model: CapacityRow, Variant: CapacityLabel, AUCMean: 0.93, TauMean: 0.70},
		{Model: AblationRow, Variant: "both[landmark:4]", AUCMean: 0.94, TauMean: 0.78},
	}}
	dir := t.TempDir()
	files, err := Plot(c, "test", dir+string(os.PathSeparator))
	if err != nil || len(files) != 1 {
		t.Fatalf("Plot: %v, %v", files, err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "auc-tau.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">gcn<", CapacityRow, AblationRow} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the figure's legend lacks %q", want)
		}
	}
	c.Rows = c.Rows[1:]
	if files, err := Plot(c, "test", t.TempDir()+string(os.PathSeparator)); err != nil || len(files) != 0 {
		t.Errorf("no base row: %v, %v", files, err)
	}
}
