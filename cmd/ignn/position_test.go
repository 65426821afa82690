package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ignn/ignn/cmd/internal/grid"
)

// TestPositionsCLI: compare --positions puts each input's hash and both
// rows in one table with a reference row per input, the grid file keeps
// the positions, and plot --curves draws the cells' histories.
func TestPositionsCLI(t *testing.T) {
	out := t.TempDir()
	args := []string{"compare", "--dataset", "caveman:8x6", "--models", "gcn", "--variants", "base,both", "--positions", "hash,landmark:4,lap:3",
		"--repeats", "2", "--epochs", "10", "--eval-every", "5", "--out", out, "--quiet"}
	stdout, stderr, err := runCLI(args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{`both\[landmark:4\]`, `both\[lap:3\]`, `\(input\)\s+landmark:4`, `\(input\)\s+lap:3`, `\(input\)\s+hash`} {
		if !regexp.MustCompile(want).MatchString(stdout) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Inputs []struct {
			Position string   `json:"position"`
			Tau      *float64 `json:"tau_mean"`
		} `json:"inputs"`
		Cells []struct {
			Position string `json:"position"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Inputs) != 3 || res.Inputs[1].Position != "landmark:4" || res.Inputs[1].Tau == nil || len(res.Cells) != 8 {
		t.Fatalf("results.json inputs %+v, %d cells", res.Inputs, len(res.Cells))
	}
	grid, _ := os.ReadFile(filepath.Join(out, "grid.yaml"))
	if !strings.Contains(string(grid), "landmark:4") {
		t.Errorf("grid.yaml lacks the positions:\n%s", grid)
	}
	stdout, _, err = runCLI("plot", "--curves", "--results", out)
	if err != nil || !strings.Contains(stdout, "curves.png") {
		t.Fatalf("plot --curves: %v %s", err, stdout)
	}
	if fi, err := os.Stat(filepath.Join(out, "curves.png")); err != nil || fi.Size() < 1000 {
		t.Fatalf("curves.png: %v", err)
	}
	if _, _, err := runCLI("compare", "--positions", "lap", "--models", "gcn"); err == nil || !strings.Contains(err.Error(), "needs a width") {
		t.Fatalf("--positions lap: %v", err)
	}
}

// TestReportKeepsHandWrittenSections: `ignn report` regenerates
// results.md and keeps everything from grid.KeepMarker on.
func TestReportKeepsHandWrittenSections(t *testing.T) {
	root, docs := t.TempDir(), t.TempDir()
	if _, stderr, err := runCLI("compare", "--dataset", "caveman:8x6", "--models", "gcn", "--variants", "base,both", "--repeats", "1",
		"--epochs", "5", "--eval-every", "5", "--out", filepath.Join(root, "communities-link"), "--quiet"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	hand := "## A study\n\nkept verbatim\n"
	old := "# stale generated part\n\n" + grid.KeepMarker + "\n\n" + hand
	if err := os.WriteFile(filepath.Join(docs, "results.md"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := runCLI("report", "--results", root, "--out", docs); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(docs, "results.md"))
	s := string(b)
	if strings.Contains(s, "stale generated part") || !strings.HasSuffix(s, grid.KeepMarker+"\n\n"+hand) || strings.Count(s, grid.KeepMarker) != 1 {
		t.Fatalf("results.md after report:\n%s", s)
	}
}

// TestStagesAnnounced: on a graph of ≥ 10⁴ nodes train announces its slow
// phases with elapsed times; --quiet silences them.
func TestStagesAnnounced(t *testing.T) {
	// --sketch 0: the stages are tested, and the sketch triples the evaluations' time here.
	args := []string{"train", "--dataset", "caveman:500x20", "--variant", "hash", "--position", "landmark:4", "--epochs", "1", "--eval-every", "1", "--sketch", "0"}
	_, stderr, err := runCLI(args...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"s] splits and sampled distances (10000 nodes", "s] positional encoding landmark:4", "s] building the model"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	stdout, stderr, _ := runCLI(append(args, "--quiet", "--json")...)
	if strings.Contains(stderr, "splits and") {
		t.Errorf("--quiet still announces stages:\n%s", stderr)
	}
	// The JSON times the same stages (issue 37), training and the final
	// faithfulness included, each once, in order, with a time.
	var r struct {
		Stages []struct {
			Stage   string  `json:"stage"`
			Seconds float64 `json:"seconds"`
		} `json:"stage_seconds"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || len(r.Stages) < 5 ||
		!strings.HasPrefix(r.Stages[0].Stage, "splits and sampled distances") || r.Stages[len(r.Stages)-1].Stage != "faithfulness of the final embeddings" {
		t.Fatalf("stage_seconds %+v (%v)", r.Stages, err)
	}
	for _, st := range r.Stages {
		if !(st.Seconds >= 0) {
			t.Errorf("stage %q: %v s", st.Stage, st.Seconds)
		}
	}
}

// TestPositionIgnoredWarns: a positional input on a variant without one,
// and the skip path's options without the skip path, are reported, not
// silently dropped.
func TestPositionIgnoredWarns(t *testing.T) {
	_, stderr, err := runCLI("train", "--variant", "base", "--position", "lap:4", "--epochs", "1", "--eval-every", "1")
	if err != nil || !strings.Contains(stderr, "no effect on variant base") {
		t.Fatalf("err %v, stderr:\n%s", err, stderr)
	}
	for _, flag := range []string{"--skip-gate", "--skip-standardise"} {
		_, stderr, err := runCLI("train", flag, "--epochs", "1", "--eval-every", "1")
		if err != nil || !strings.Contains(stderr, "no effect without the skip path") {
			t.Errorf("%s alone: err %v, stderr:\n%s", flag, err, stderr)
		}
	}
	if _, stderr, err := runCLI("train", "--position", "landmark:4", "--position-skip", "--skip-standardise", "--epochs", "1", "--eval-every", "1"); err != nil || strings.Contains(stderr, "no effect") {
		t.Errorf("--skip-standardise with the skip path: err %v, stderr:\n%s", err, stderr)
	}
}

// TestInputsOnlyCLI: compare --inputs-only prints the reference rows alone,
// writes the results but no grid file (it names no cell to train) and no
// cell.
func TestInputsOnlyCLI(t *testing.T) {
	out := t.TempDir()
	stdout, stderr, err := runCLI("compare", "--dataset", "caveman:8x6", "--positions", "hash,landmark:4", "--inputs-only", "--repeats", "2", "--out", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !regexp.MustCompile(`\(input\)\s+landmark:4`).MatchString(stdout) || !regexp.MustCompile(`\(input\)\s+hash`).MatchString(stdout) || strings.Contains(stdout, "gcn") ||
		!strings.Contains(stdout, "the inputs alone, untrained") {
		t.Fatalf("table:\n%s", stdout)
	}
	if _, err := os.Stat(filepath.Join(out, "grid.yaml")); !os.IsNotExist(err) {
		t.Fatalf("grid.yaml written (%v)", err)
	}
	cells, _ := os.ReadDir(filepath.Join(out, "cells"))
	if _, err := os.Stat(filepath.Join(out, "results.json")); err != nil || len(cells) != 0 || !strings.Contains(stderr, "{results.json,results.csv,results.md,config.json} and 0 cell files") {
		t.Fatalf("results.json: %v; %d cells; stderr %q", err, len(cells), stderr)
	}
}
