package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ignn/ignn/cmd/internal/grid"
	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data/datatest"
)

// trainJSON runs train --json with args and returns the result's fields
// and stderr.
func trainJSON(t *testing.T, args ...string) (map[string]any, string) {
	t.Helper()
	out, stderr, err := runCLI(append([]string{"train", "--json", "--epochs", "2", "--eval-every", "1"}, args...)...)
	if err != nil {
		t.Fatalf("train %v: %v\n%s", args, err, stderr)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("train %v: not JSON: %v\n%s", args, err, out)
	}
	return r, stderr
}

// TestFirstHourInputs (issue 66): a named-node CSV with a header trains on
// its own nodes, a SNAP copy's count line is no edge, and each says so in
// one note line; a file whose first line is an ordinary edge is read as
// before.
func TestFirstHourInputs(t *testing.T) {
	// 12 named nodes in a ring, with chords, and a weight column.
	var csv, snap, plain strings.Builder
	csv.WriteString("source,target,weight\n")
	names := []string{"Myriel", "Napoleon", "Valjean", "Fantine", "Cosette", "Javert", "Marius", "Gavroche", "Eponine", "Enjolras", "Bossuet", "Joly"}
	var edges [][2]int
	for i := range names {
		edges = append(edges, [2]int{i, (i + 1) % len(names)}, [2]int{i, (i + 5) % len(names)})
	}
	for k, e := range edges {
		fmt.Fprintf(&csv, "%s,%s,%d\n", names[e[0]], names[e[1]], 1+k%4)
		fmt.Fprintf(&plain, "%d %d\n", e[0], e[1])
	}
	fmt.Fprintf(&snap, "%d\t%d\n", len(names), len(edges))
	snap.WriteString(plain.String())
	cases := []struct {
		file, content, line string
		nodes               float64
	}{
		{"lesmis.csv", csv.String(), "header line source,target,weight skipped", 12},
		{"snap.txt", snap.String(), "first line 12 24 read as counts", 12},
		{"plain.txt", "12 3\n" + plain.String(), "", 13}, // 12 3 is an edge: 24 lines follow, 12 nodes
	}
	for _, c := range cases {
		r, stderr := trainJSON(t, "--dataset", datatest.File(t, c.file, c.content))
		if r["nodes"] != c.nodes {
			t.Errorf("%s: %v nodes, want %v", c.file, r["nodes"], c.nodes)
		}
		if n := strings.Count(stderr, "first line") + strings.Count(stderr, "header line"); c.line != "" && (n != 1 || !strings.Contains(stderr, "note: ") || !strings.Contains(stderr, c.line)) || c.line == "" && n != 0 {
			t.Errorf("%s: stderr says %d times what the first line was, want %q:\n%s", c.file, n, c.line, stderr)
		}
	}
}

// TestUndefinedTauJSON (issue 66): on 20 single-edge components τ is
// undefined; train --json exits 0 with τ null, not "json: unsupported
// value: NaN".
func TestUndefinedTauJSON(t *testing.T) {
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "%d %d\n", 2*i, 2*i+1)
	}
	r, _ := trainJSON(t, "--dataset", datatest.File(t, "single.txt", b.String()))
	if tau, ok := r["test_kendall_tau"]; !ok || tau != nil {
		t.Errorf("test_kendall_tau %v, want null", tau)
	}
}

// TestOneVoiceForWarnings (issue 66): warnings are "warning: …" lines —
// never slog's level=WARN —, kept under --quiet, and a compare prints its
// input's cleaning warning once, not once per cell, with line numbers.
func TestOneVoiceForWarnings(t *testing.T) {
	var b strings.Builder
	b.WriteString("0 1\n1 0\n1 2\n2 2\n") // a repeated edge at line 2, a self-loop at line 4
	for i := 2; i < 20; i++ {
		fmt.Fprintf(&b, "%d %d\n%d %d\n", i, (i+1)%20, i, (i+7)%20)
	}
	path := datatest.File(t, "dups.txt", b.String())
	want := "warning: input cleaned: removed 1 self-loop and 1 duplicate edge (" + path + ": self-loops at line 4; repeated edges at line 2)"
	for _, quiet := range []string{"--quiet=false", "--quiet"} {
		_, stderr := trainJSON(t, "--dataset", path, quiet)
		if strings.Contains(stderr, "level=") || !strings.Contains(stderr, want) {
			t.Errorf("train %s: stderr lacks %q or holds slog lines:\n%s", quiet, want, stderr)
		}
	}
	_, stderr, err := runCLI("compare", "--dataset", path, "--models", "gcn", "--variants", "base,both", "--repeats", "2",
		"--epochs", "2", "--eval-every", "1", "--quiet", "--heuristics=false")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(stderr, "input cleaned"); n != 1 || strings.Contains(stderr, "level=") || !strings.Contains(stderr, want) {
		t.Errorf("compare: the cleaning warning %d times (want once, as %q):\n%s", n, want, stderr)
	}
	// Without --quiet, a compare without --out says how to keep its cells.
	_, stderr, err = runCLI("compare", "--dataset", path, "--models", "gcn", "--variants", "base", "--repeats", "1",
		"--epochs", "2", "--eval-every", "1", "--heuristics=false")
	if err != nil || !strings.Contains(stderr, "note: no --out, so nothing was kept: the same command with --out DIR keeps the table and every cell") {
		t.Errorf("compare without --out: %v\n%s", err, stderr)
	}
}

// TestOneFormForErrors (issue 66): a refused combination exits 2 like any
// usage error — --batch-size on a model that trains on the whole graph
// exited 1 —, a run that fails exits 1, and the error line has one
// "ignn:" prefix.
func TestOneFormForErrors(t *testing.T) {
	_, _, err := runCLI("train", "--model", "gat", "--batch-size", "64", "--epochs", "1", "--eval-every", "1", "--quiet")
	if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), "--batch-size: gat trains on the whole graph") {
		t.Errorf("gat --batch-size: exit %d, %v", exitCode(err), err)
	}
	for _, bad := range [][]string{{"--header", "maybe"}, {"--columns", "0"}} { // exited 1
		if _, _, err := runCLI(append([]string{"train", "--epochs", "1", "--eval-every", "1", "--quiet"}, bad...)...); err == nil || exitCode(err) != 2 {
			t.Errorf("%s: exit %d, %v", bad, exitCode(err), err)
		}
	}
	_, _, err = runCLI("train", "--dataset", datatest.File(t, "one.txt", "0 1\n"), "--epochs", "1", "--eval-every", "1", "--quiet")
	if err == nil || exitCode(err) != 1 {
		t.Errorf("a graph too small to split: exit %d, %v", exitCode(err), err)
	}
	for _, e := range []error{fmt.Errorf("ignn: --x has no documented range"), fmt.Errorf("--x has no documented range")} {
		if got := errorLine(e); got != "ignn: --x has no documented range" {
			t.Errorf("error line %q", got)
		}
	}
}

// TestNeighborsSuggests (issue 66): a node name not in the graph is a usage
// error that suggests near names, the same name in another case first.
func TestNeighborsSuggests(t *testing.T) {
	var b strings.Builder
	names := []string{"Myriel", "Napoleon", "Valjean", "Fantine", "Cosette", "Javert", "Marius", "Gavroche", "Eponine", "Enjolras", "Bossuet", "Joly"}
	for i := range names {
		fmt.Fprintf(&b, "%s %s\n%s %s\n", names[i], names[(i+1)%len(names)], names[i], names[(i+5)%len(names)])
	}
	ck := filepath.Join(t.TempDir(), "ck")
	if _, _, err := runCLI("train", "--dataset", datatest.File(t, "named.txt", b.String()), "--epochs", "2", "--eval-every", "1", "--save", ck, "--quiet"); err != nil {
		t.Fatal(err)
	}
	for node, want := range map[string]string{"valjean": "did you mean Valjean?", "Javret": "did you mean Javert?"} {
		_, _, err := runCLI("neighbors", "--checkpoint", ck, "--node", node)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), want) {
			t.Errorf("--node %s: exit %d, %v; want %q", node, exitCode(err), err, want)
		}
	}
}

// TestETACountsEveryCell (issue 66): compare's ETA weighs each cell by its
// cost, a capacity cell's CapacityEpochs steps included (`make run` said
// "ETA 4s" with 34 s of capacity cells to go): after 10 s and a cell of
// weight 2 out of 12, 50 s remain, not the 20 s a count of cells says.
func TestETACountsEveryCell(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, "cells", 3, 0)
	p.weigh(12)
	p.start = time.Now().Add(-10 * time.Second)
	p.add(1, 2)
	if !strings.Contains(b.String(), "ETA 50s") {
		t.Errorf("progress %q, want ETA 50s", b.String())
	}
	base := run.Default()
	base.Epochs = 100
	cc := grid.CompareConfig{Base: base, Models: []string{"gcn"}, Variants: []run.Variant{run.Both}, Repeats: 1, Capacity: true}
	var model, capacity float64
	for _, j := range cc.Jobs() {
		if j.IsCapacity() {
			capacity = cc.ETACost(j)
		} else {
			model = cc.ETACost(j)
		}
	}
	if model <= 0 || capacity < model*float64(grid.CapacityEpochs)/float64(base.Epochs)/2 {
		t.Errorf("ETA costs: capacity cell %g, gcn both %g", capacity, model)
	}
}

// TestWarningKindsOnce: a warning that differs from an earlier one only in
// its numbers (a collapse's cosine spread at every evaluation and in every
// cell) is printed once.
// TestEpochClock: train's ETA counts the steps and the evaluations to come
// at their own costs. A 300-epoch run evaluated every 50 epochs, 1 s an
// evaluation and 0.1 s a step, has 292 steps and 6 evaluations (epochs
// 50, …, 250 and 299) to come after epoch 1: 35.8 s; after epoch 0 alone it cannot be told
// (it used to read 1.1 s × 299 = 5.5 min). Evaluated every epoch, the
// evaluated epochs give it.
func TestEpochClock(t *testing.T) {
	t0 := time.Unix(0, 0)
	var k epochClock
	k.start(t0)
	k.tick(t0.Add(1100*time.Millisecond), true) // epoch 0: a step and an evaluation
	if _, ok := k.eta(0, 300, 50); ok {
		t.Error("an ETA after an evaluated epoch 0 alone")
	}
	k.tick(t0.Add(1200*time.Millisecond), false) // epoch 1: a step
	if left, ok := k.eta(1, 300, 50); !ok || left != 35800*time.Millisecond {
		t.Errorf("ETA after epoch 1: %v (%v), want 35.8s", left, ok)
	}
	if left, ok := k.eta(299, 300, 50); !ok || left != 0 {
		t.Errorf("ETA after the last epoch: %v (%v)", left, ok)
	}
	var every epochClock
	every.start(t0)
	every.tick(t0.Add(2*time.Second), true)
	if left, ok := every.eta(0, 5, 1); !ok || left != 8*time.Second {
		t.Errorf("evaluated every epoch: ETA %v (%v), want 8s", left, ok)
	}
}

func TestWarningKindsOnce(t *testing.T) {
	var b bytes.Buffer
	ws := newWarnings(&b, "warning")
	for _, msg := range []string{"graph g#0: embeddings collapsed (cosine spread 6.4e-08 ≤ 1e-6)", "graph g#0: embeddings collapsed (cosine spread 4.7e-08 ≤ 1e-6)", "input cleaned"} {
		ws.print(msg, "", nil)
	}
	if got := b.String(); got != "warning: graph g#0: embeddings collapsed (cosine spread 6.4e-08 ≤ 1e-6)\nwarning: input cleaned\n" {
		t.Errorf("printed %q", got)
	}
}
