package grid

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ignn/ignn/cmd/internal/report"
	"github.com/ignn/ignn/cmd/internal/run"
)

// TestCompareReportsResolvedSettings (issue 38): under --scale large the
// cells run the large scheme's 10 epochs of mini-batch steps, not the
// flag's 200; results.json (top level and every cell), the CSV and the
// markdown heading state what ran, and the variants' different inputs and
// distance terms are named per cell.
func TestCompareReportsResolvedSettings(t *testing.T) {
	cc := smallGrid(t.TempDir(), 1)
	cc.Models, cc.Variants, cc.Repeats = []string{"gcn"}, []run.Variant{run.Base, run.Both}, 1
	cc.Base.Epochs, cc.Base.Scale, cc.Base.BatchSteps = 200, run.ScaleLarge, 2
	cc.Base.Explicit = map[string]bool{"batch-steps": true} // as the CLI marks --batch-steps 2
	res, err := Compare(context.Background(), cc, CompareHooks{})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Write(cc.Out); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Epochs int `json:"epochs"`
		Cells  []struct {
			Settings report.Settings `json:"settings"`
		} `json:"cells"`
		PerCell string `json:"settings_per_cell"`
	}
	b, err := os.ReadFile(filepath.Join(cc.Out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Epochs != 10 || len(got.Cells) != 2 {
		t.Fatalf("results.json: epochs %d over %d cells, want the resolved 10 over 2", got.Epochs, len(got.Cells))
	}
	for _, c := range got.Cells {
		if c.Settings.Epochs != 10 || c.Settings.Steps != "2 mini-batch steps of 512 positives" {
			t.Errorf("cell settings %+v", c.Settings)
		}
	}
	if want := fmt.Sprintf("base: features; none | both: features + landmark:%d + skip; rank", run.SmallGraphLandmarks); !strings.Contains(got.PerCell, want) {
		t.Errorf("settings_per_cell %q lacks %q", got.PerCell, want)
	}
	md, _ := os.ReadFile(filepath.Join(cc.Out, "results.md"))
	head, _, _ := strings.Cut(string(md), "\n\n")
	if !strings.Contains(head, "10 epochs, steps per epoch 2 mini-batch steps of 512 positives") || strings.Contains(head, "200") {
		t.Errorf("results.md heading %q", head)
	}
	csv, _ := os.ReadFile(filepath.Join(cc.Out, "results.csv"))
	if lines := strings.Split(string(csv), "\n"); !strings.HasSuffix(lines[0], "epochs,steps_per_epoch,input,distance_term") ||
		!strings.Contains(lines[1], ",10,2 mini-batch steps of 512 positives,") {
		t.Errorf("results.csv head:\n%s\n%s", lines[0], lines[1])
	}
}
