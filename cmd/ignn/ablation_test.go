package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestAblationRowCLI: compare adds the (skip path alone) row by default
// when its runs have a skip path and train the both variant — one cell per
// seed, in the table and the CSV, with a (skip path + sketch) row beside it
// when the runs have a sketch — and not with --ablation=false, without
// the both variant, or at the paper's scale (no skip path); when asked for
// in vain, or when only the models stand in the way, a note says why.
func TestAblationRowCLI(t *testing.T) {
	run := func(extra ...string) (string, string) {
		t.Helper()
		args := append([]string{"compare", "--dataset", "caveman:8x6", "--models", "gcn,sage", "--repeats", "1", "--epochs", "2", "--eval-every", "1",
			"--quiet", "--capacity=false", "--heuristics=false"}, extra...)
		out, errOut, err := runCLI(args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", extra, err, errOut)
		}
		return out, errOut
	}
	out, _ := run("--variants", "base,both", "--ablation")
	if strings.Count(out, "(skip path alone)") != 1 || strings.Count(out, "(skip path + sketch)") != 1 || strings.Count(out, "\nsage ") != 2 {
		t.Errorf("the table has no single (skip path alone) and (skip path + sketch) row beside the models' rows:\n%s", out)
	}
	csv, _ := run("--variants", "base,both", "--ablation", "--format", "csv")
	if !strings.Contains(csv, "(skip path alone),both,1,") || !strings.Contains(csv, "(skip path + sketch),both,1,") {
		t.Errorf("the CSV has no (skip path alone) or (skip path + sketch) row:\n%s", csv)
	}
	for _, extra := range [][]string{{"--variants", "base,both", "--ablation=false"}, {"--variants", "base,mse", "--ablation"}, {"--variants", "base,both", "--ablation", "--scale", "paper"}} {
		if out, _ := run(extra...); strings.Contains(out, "(skip path") {
			t.Errorf("%v: a (skip path alone) row:\n%s", extra, out)
		}
	}
	for _, c := range []struct{ args, why string }{
		{"--models pgnn-f,appnp --variants both", "none of pgnn-f, appnp can leave its message passing out"},
		{"--models gcn --variants base --ablation", "the variants do not include both"},
		{"--models gcn --variants both --scale paper --ablation", "these runs have no skip path"},
		{"--models gcn --variants both --scale paper", ""}, // not asked for: the paper's scale has none
	} {
		var o, e bytes.Buffer // not runCLI: it turns the default off
		err := execute(context.Background(), append([]string{"ignn", "compare", "--dry-run", "--dataset", "caveman:8x6"}, strings.Fields(c.args)...), &o, &e)
		errOut := e.String()
		if err != nil || strings.Contains(errOut, "no (skip path alone) row") != (c.why != "") || !strings.Contains(errOut, c.why) {
			t.Errorf("%s: %v, notes %q; want %q", c.args, err, errOut, c.why)
		}
	}
	if out, _, err := runCLI("compare", "--dry-run", "--dataset", "caveman:8x6", "--models", "gcn,sage", "--variants", "both", "--repeats", "2", "--ablation"); err != nil || !strings.Contains(out, "8 cells") {
		t.Errorf("dry run of 2 models × 2 seeds and the ablation's 2 + 2 cells (with the sketch and without): %v\n%s", err, out)
	}
	if out, _, err := runCLI("compare", "--dry-run", "--dataset", "caveman:8x6", "--models", "gcn,sage", "--variants", "both", "--repeats", "2", "--ablation", "--sketch", "0"); err != nil || !strings.Contains(out, "6 cells") || strings.Contains(out, "-sketch_") {
		t.Errorf("dry run without a sketch: 2 models × 2 seeds and the ablation's 2 cells: %v\n%s", err, out)
	}
}
