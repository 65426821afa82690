package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
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

// TestModelWithOptionsOneFile (issue 65): APPNP was added as
// docs/extending.md says — models/appnp.go, with two options of its own
// declared there (--appnp-k, --appnp-alpha), and its test, nothing else —
// and is listed with its depth, trains with its options set from the
// command line (stored in its configuration), is saved and embedded,
// runs in compare beside GCN (whose cells keep no APPNP setting), has its
// lines in the flag reference, and its options are refused for another
// model, out of range, and with --batch-size (its receptive field).
func TestModelWithOptionsOneFile(t *testing.T) {
	out, _, err := runCLI("models")
	if err != nil || !regexp.MustCompile(`(?m)^appnp +10 \(--appnp-k\) +no +yes `).MatchString(out) {
		t.Fatalf("ignn models: %v\n%s", err, out)
	}
	dir := t.TempDir()
	ck := filepath.Join(dir, "ck")
	out, _, err = runCLI("train", "--model", "appnp", "--appnp-k", "5", "--appnp-alpha", "0.2", "--epochs", "40", "--eval-every", "10",
		"--save", ck, "--json", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		TestAUC float64 `json:"test_auc"`
		Config  struct {
			ModelConfig struct {
				Own map[string]any
			} `json:"model_config"`
		} `json:"config"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.TestAUC < 0.9 ||
		!reflect.DeepEqual(r.Config.ModelConfig.Own, map[string]any{"appnp-k": 5.0, "appnp-alpha": 0.2}) {
		t.Fatalf("train --model appnp --appnp-k 5 --appnp-alpha 0.2: AUC %v, options %v, %v", r.TestAUC, r.Config.ModelConfig.Own, err)
	}
	if out, _, err := runCLI("embed", "--checkpoint", ck, "--out", filepath.Join(dir, "z.tsv")); err != nil || !strings.Contains(out, "wrote 400 embeddings") {
		t.Fatalf("embed an APPNP checkpoint: %v %q", err, out)
	}
	cmp := filepath.Join(dir, "cmp")
	if _, _, err := runCLI("compare", "--models", "appnp,gcn", "--variants", "base", "--repeats", "1", "--epochs", "10",
		"--appnp-k", "3", "--heuristics=false", "--out", cmp, "--quiet"); err != nil {
		t.Fatalf("compare with appnp: %v", err)
	}
	for model, want := range map[string]map[string]any{"appnp": {"appnp-k": 3.0}, "gcn": nil} {
		b, err := os.ReadFile(filepath.Join(cmp, "cells", model+"_base_lr0.01_bce1_mse0_seed1.json"))
		if err != nil {
			t.Fatal(err)
		}
		r.Config.ModelConfig.Own = nil
		if err := json.Unmarshal(b, &r); err != nil || !reflect.DeepEqual(r.Config.ModelConfig.Own, want) {
			t.Errorf("compare: the %s cell's options are %v, want %v (%v)", model, r.Config.ModelConfig.Own, want, err)
		}
	}
	table := flagTable(newApp(io.Discard, io.Discard).Commands)
	for _, line := range []string{"| train | `--appnp-k` | 10 | an integer in 1…1024 |", "| compare | `--appnp-alpha` | 0.1 | in [0, 1] |"} {
		if !strings.Contains(table, line) {
			t.Errorf("the flag reference lacks %q", line)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "--model", "gcn", "--appnp-k", "5"}, "--appnp-k is an option of appnp; --model gcn does not read it"},
		{[]string{"compare", "--models", "gcn,sage", "--appnp-alpha", "0.5"}, "--appnp-alpha is an option of appnp; none of --models gcn,sage reads it"},
		{[]string{"train", "--model", "appnp", "--appnp-k", "0"}, "--appnp-k must be an integer in 1…1024, got 0"},
		{[]string{"train", "--model", "appnp", "--appnp-alpha", "1.5"}, "--appnp-alpha must be in [0, 1], got 1.5"},
		{[]string{"train", "--model", "gcn", "--heads", "2"}, "--heads is an option of gat"},
	} {
		if _, _, err := runCLI(c.args...); err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v (exit %d), want %q", c.args, err, exitCode(err), c.want)
		}
	}
	if _, _, err := runCLI("train", "--model", "appnp", "--batch-size", "64", "--epochs", "1"); err == nil || !strings.Contains(err.Error(), "its receptive field is --appnp-k hops") {
		t.Errorf("--batch-size with appnp: %v", err)
	}
}

// TestCapacityCLI (issue 36): compare adds the (capacity) row by default —
// a reference row, not marked best, beside the models — and keeps its cells
// like any other (a second compare reuses them).
func TestCapacityCLI(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cap")
	args := []string{"compare", "--capacity", "--dataset", "caveman:8x6", "--models", "gcn", "--variants", "base", "--repeats", "1", "--epochs", "4", "--eval-every", "2", "--out", out}
	stdout, _, err := runCLI(args...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "(capacity)") || !strings.Contains(stdout, "table, the runs' objective") {
		t.Fatalf("no capacity row:\n%s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Rows []struct {
			Model   string  `json:"model"`
			TauMean float64 `json:"final_tau_mean"`
			BestTau bool    `json:"best_tau"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(b, &res); err != nil || len(res.Rows) != 2 || res.Rows[1].Model != "(capacity)" || res.Rows[1].BestTau || !(res.Rows[1].TauMean > res.Rows[0].TauMean) {
		t.Fatalf("rows %+v (%v)", res.Rows, err)
	}
	_, stderr, err := runCLI(append(args, "--quiet=false")...)
	if err != nil || !strings.Contains(stderr, "2 of 2 cells already done") {
		t.Fatalf("rerun: %v\n%s", err, stderr)
	}
}

// TestDataConvert (issue 37): `ignn data convert` writes a folder that a run
// reads in place of the text, with the same dataset fingerprint and the
// same result; a folder from a bad path is an error naming it.
func TestDataConvert(t *testing.T) {
	edges, _ := tinyGraph(t)
	dir := filepath.Join(t.TempDir(), "g.ignn")
	out, _, err := runCLI("data", "convert", edges, "--out", dir)
	if err != nil || !strings.Contains(out, "wrote "+dir) {
		t.Fatalf("convert: %v\n%s", err, out)
	}
	var res [2]struct {
		Fingerprint string  `json:"dataset_fingerprint"`
		TestAUC     float64 `json:"test_auc"`
	}
	for i, ds := range []string{edges, dir} {
		o, _, err := runCLI("train", "--dataset", ds, "--scale", "paper", "--epochs", "3", "--eval-every", "1", "--json", "--quiet")
		if err != nil {
			t.Fatalf("%s: %v", ds, err)
		}
		if err := json.Unmarshal([]byte(o), &res[i]); err != nil {
			t.Fatal(err)
		}
	}
	if res[0] != res[1] || res[0].Fingerprint == "" {
		t.Errorf("text %+v, converted %+v", res[0], res[1])
	}
	if _, _, err := runCLI("data", "convert", filepath.Join(dir, "nope.txt")); err == nil || !strings.Contains(err.Error(), "nope.txt") {
		t.Errorf("missing file: %v", err)
	}
}

// TestSpillCLI (issue 37): --spill takes a directory, auto or off; an
// empty one is a usage error that says so; a run told to spill where it
// has nothing to spill says that and runs in memory; a resumed run takes
// it (and --max-memory) from the command line.
func TestSpillCLI(t *testing.T) {
	_, _, err := runCLI("train", "--dataset", "caveman:8x6", "--epochs", "2", "--spill", "")
	if err == nil || !strings.Contains(err.Error(), "--spill: want a directory, auto or off") {
		t.Fatalf("--spill \"\": %v", err)
	}
	dir := filepath.Join(t.TempDir(), "spill")
	_, stderr, err := runCLI("train", "--dataset", "caveman:8x6", "--epochs", "2", "--spill", dir)
	if err != nil || !strings.Contains(stderr, "nothing to spill") {
		t.Fatalf("--spill on a small paper-scheme run: %v\n%s", err, stderr)
	}
	// A resumed run takes --spill and --max-memory from where it resumes
	// (they change no number; a checkpoint holds neither): accepted beside
	// --resume, unlike the flags that configure a run.
	missing := filepath.Join(t.TempDir(), "none")
	if _, _, err := runCLI("train", "--resume", missing, "--spill", dir, "--max-memory", "8G"); err == nil || strings.Contains(err.Error(), "cannot be combined") {
		t.Fatalf("--resume with --spill and --max-memory: %v", err)
	}
	if _, _, err := runCLI("train", "--resume", missing, "--epochs", "3"); err == nil || !strings.Contains(err.Error(), "cannot be combined") {
		t.Fatalf("--resume with --epochs: %v", err)
	}
	for _, v := range []string{"off", "auto"} {
		if _, stderr, err := runCLI("train", "--dataset", "caveman:8x6", "--epochs", "2", "--spill", v); err != nil || strings.Contains(stderr, "spill") {
			t.Fatalf("--spill %s: %v\n%s", v, err, stderr)
		}
	}
}
