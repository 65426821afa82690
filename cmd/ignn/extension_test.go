package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestNewLayerOneFile (issue 35): SGC was added as docs/extending.md says —
// models/sgc.go and its test, nothing else — and works by name everywhere a
// model does: train (both variants, with the skip path the large defaults
// give it), compare beside GCN, and --scale large on mini-batches (no
// silent fallback to whole-graph steps).
func TestNewLayerOneFile(t *testing.T) {
	out, _, err := runCLI("train", "--model", "sgc", "--epochs", "40", "--eval-every", "10", "--json", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		TestAUC float64 `json:"test_auc"`
		Batches string  `json:"batches"`
		Config  struct {
			PositionSkip bool `json:"position_skip"`
		} `json:"config"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.TestAUC < 0.9 {
		t.Fatalf("train --model sgc: AUC %v, %v", r.TestAUC, err)
	}
	dir := t.TempDir()
	if _, _, err := runCLI("compare", "--models", "sgc,gcn", "--variants", "base,both", "--repeats", "1", "--epochs", "20",
		"--out", filepath.Join(dir, "cmp"), "--quiet"); err != nil {
		t.Fatalf("compare with sgc: %v", err)
	}
	out, _, err = runCLI("train", "--model", "sgc", "--scale", "large", "--batch-steps", "5", "--json", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	r.Batches = ""
	if err := json.Unmarshal([]byte(out), &r); err != nil || !strings.HasPrefix(r.Batches, "mini-batches") || !r.Config.PositionSkip || r.TestAUC < 0.9 {
		t.Fatalf("--scale large --model sgc: batches %q, skip path %v, AUC %v, %v", r.Batches, r.Config.PositionSkip, r.TestAUC, err)
	}
}
