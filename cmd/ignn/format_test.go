package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
)

// TestMachineFormatsOnStdout: compare with --format json or csv writes
// exactly that format on stdout (parsed with the standard decoders, nothing
// before or after; sweep is the same command with its own grid), and train
// --json and neighbors --json one JSON value each; the heading goes to
// stderr. (embed and datasets have no --json.)
func TestMachineFormatsOnStdout(t *testing.T) {
	edges, _ := tinyGraph(t)
	base := []string{"--dataset", edges, "--epochs", "2", "--eval-every", "1", "--quiet"}
	for _, cmd := range []string{"compare"} {
		for _, format := range []string{"json", "csv"} {
			args := append([]string{cmd, "--models", "gcn", "--variants", "base,both", "--format", format}, base...)
			out, errOut, err := runCLI(args...)
			if err != nil {
				t.Fatalf("%s --format %s: %v\n%s", cmd, format, err, errOut)
			}
			switch format {
			case "json":
				dec := json.NewDecoder(strings.NewReader(out))
				var v map[string]any
				if err := dec.Decode(&v); err != nil || v["dataset"] == nil || v["task"] != "link" {
					t.Fatalf("%s --format json: stdout is not one comparison (%v): %q…", cmd, err, out[:min(len(out), 300)])
				}
				if dec.More() {
					t.Errorf("%s --format json: more than one JSON value on stdout: %q", cmd, out)
				}
			case "csv":
				recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
				if err != nil || len(recs) < 3 || len(recs[0]) < 5 || recs[0][0] != "model" {
					t.Fatalf("%s --format csv: stdout is not one CSV table (%v): %q…", cmd, err, out[:min(len(out), 300)])
				}
			}
			if !strings.Contains(errOut, "link task") {
				t.Errorf("%s --format %s: the heading is not on stderr: %q", cmd, format, errOut)
			}
		}
	}
	ck := t.TempDir() + "/ck"
	out, _, err := runCLI(append([]string{"train", "--json", "--save", ck}, base...)...)
	dec := json.NewDecoder(bytes.NewReader([]byte(out)))
	var v map[string]any
	if err != nil || dec.Decode(&v) != nil || dec.More() {
		t.Fatalf("train --json: stdout %q, %v", out, err)
	}
	out, _, err = runCLI("neighbors", "--checkpoint", ck, "--node", "100", "--k", "3", "--json")
	dec = json.NewDecoder(bytes.NewReader([]byte(out)))
	var n any
	if err != nil || dec.Decode(&n) != nil || dec.More() {
		t.Fatalf("neighbors --json: stdout %q, %v", out, err)
	}
}
