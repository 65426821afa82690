package grid

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data/datatest"
)

// TestCellNamesResolved (issue 66): a cell's name gives its distance term
// as the run resolves it — rank10, not mse10, on a graph of one's own
// where the large defaults choose the ranking term; the paper's datasets
// keep their names — and a cell finished under its old name is still
// found (no rerun).
func TestCellNamesResolved(t *testing.T) {
	var b strings.Builder
	for i := range 24 {
		fmt.Fprintf(&b, "%d %d\n%d %d\n", i, (i+1)%24, i, (i+7)%24)
	}
	path := datatest.File(t, "g.txt", b.String())
	cc := smallGrid(t.TempDir(), 1)
	cc.Models, cc.Variants, cc.Repeats = []string{"gcn"}, []run.Variant{run.Both}, 1
	cc.Base.Explicit = map[string]bool{"epochs": true, "eval-every": true} // made from the command line
	if k := cc.Jobs()[0].Key(); k != "gcn_both_lr0.01_bce1_mse10_seed1" {
		t.Errorf("communities: cell %s", k)
	}
	cc.Base.Dataset = path
	j := cc.Jobs()[0]
	if k := j.Key(); !strings.Contains(k, "_bce1_rank") || strings.Contains(k, "mse") {
		t.Errorf("a graph of one's own: cell %s, want the ranking term named", k)
	}
	if _, err := Compare(context.Background(), cc, CompareHooks{}); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(cc.cellPath(j), filepath.Join(cc.Out, "cells", j.oldKey()+".json")); err != nil {
		t.Fatal(err)
	}
	ran := 0
	if _, err := Compare(context.Background(), cc, CompareHooks{Done: func(Job, *run.Result) { ran++ }}); err != nil || ran != 0 {
		t.Errorf("a cell under its old name: %v, %d cells ran again", err, ran)
	}
}
