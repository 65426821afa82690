package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNamedGraphEndToEnd: a graph of named nodes (handles, a URN) trains;
// embed writes the names as the TSV's first column and beside the .npy;
// neighbors takes a name and prints names; --projector writes the three
// files TensorBoard's projector opens, with name, label, degree and
// component per node.
func TestNamedGraphEndToEnd(t *testing.T) {
	dir := t.TempDir()
	var e, l strings.Builder
	name := func(c, i int) string { return fmt.Sprintf("@user%d_%d", c, i) }
	for c := 0; c < 3; c++ {
		for i := 0; i < 8; i++ {
			fmt.Fprintf(&l, "%s %d\n", name(c, i), c)
			for j := i + 1; j < 8; j++ {
				fmt.Fprintf(&e, "%s,%s\n", name(c, i), name(c, j))
			}
		}
		fmt.Fprintf(&e, "%s,%s\n", name(c, 0), name((c+1)%3, 1))
	}
	fmt.Fprintf(&e, "urn:li:person:7,%s\n", name(0, 3))
	fmt.Fprintf(&l, "urn:li:person:7 0\n")
	edges, labels := filepath.Join(dir, "e.csv"), filepath.Join(dir, "l.txt")
	os.WriteFile(edges, []byte(e.String()), 0o644)
	os.WriteFile(labels, []byte(l.String()), 0o644)
	ck := filepath.Join(dir, "ck")
	if _, _, err := runCLI("train", "--dataset", edges, "--labels", labels, "--epochs", "5", "--eval-every", "5", "--save", ck, "--quiet"); err != nil {
		t.Fatal(err)
	}
	tsv := filepath.Join(dir, "z.tsv")
	if _, _, err := runCLI("embed", "--checkpoint", ck, "--out", tsv); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(tsv)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	seen := map[string]bool{}
	for _, line := range lines {
		seen[strings.SplitN(line, "\t", 2)[0]] = true
	}
	if len(lines) != 25 || !seen["urn:li:person:7"] || !seen["@user2_7"] {
		t.Fatalf("TSV keys: %d lines, %v", len(lines), seen)
	}
	npy := filepath.Join(dir, "z.npy")
	if _, _, err := runCLI("embed", "--checkpoint", ck, "--out", npy); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "z.names.txt")); err != nil || len(strings.Fields(string(b))) != 25 {
		t.Fatalf("names beside the .npy: %v", err)
	}
	out, _, err := runCLI("neighbors", "--checkpoint", ck, "--node", "@user1_4", "--k", "3", "--json")
	var nb neighborJSON
	if err != nil || json.Unmarshal([]byte(out), &nb) != nil || nb.QueryName != "@user1_4" || len(nb.Neighbors) != 3 || !strings.HasPrefix(nb.Neighbors[0].Name, "@user") {
		t.Fatalf("neighbors by name: %v %q", err, out)
	}
	if _, _, err := runCLI("neighbors", "--checkpoint", ck, "--node", "nobody", "--k", "3"); err == nil || !strings.Contains(err.Error(), "node nobody is not in") {
		t.Errorf("unknown name: %v", err)
	}
	proj := filepath.Join(dir, "proj")
	if _, _, err := runCLI("embed", "--checkpoint", ck, "--projector", proj); err != nil {
		t.Fatal(err)
	}
	meta, _ := os.ReadFile(filepath.Join(proj, "metadata.tsv"))
	vec, _ := os.ReadFile(filepath.Join(proj, "vectors.tsv"))
	cfg, _ := os.ReadFile(filepath.Join(proj, "projector_config.pbtxt"))
	m := strings.Split(strings.TrimSpace(string(meta)), "\n")
	if m[0] != "name\tlabel\tdegree\tcomponent" || len(m) != 26 || len(strings.Split(strings.TrimSpace(string(vec)), "\n")) != 25 ||
		!strings.Contains(string(cfg), `metadata_path: "metadata.tsv"`) {
		t.Fatalf("projector files: %q … %d metadata lines", m[0], len(m))
	}
	for _, row := range m[1:] {
		if f := strings.Split(row, "\t"); f[0] == "urn:li:person:7" && (f[1] != "0" || f[2] != "1" || !strings.HasSuffix(f[3], "#0")) {
			t.Errorf("metadata of urn:li:person:7: %q", row)
		}
	}
}
