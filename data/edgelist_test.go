package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, input, want string
		parse             func(string, string) error
	}{
		{"edges", "0 1\n1\n", "e.txt:2: want at least 2 fields (node ids in columns 0 and 1), found 1", edges},
		{"a first number that counts nothing", "7\n0 1\n1 2\n", "e.txt:1: want at least 2 fields (node ids in columns 0 and 1), found 1", edges},
		{"edges", "src,dst\n", "e.txt: no data lines after the header line", func(n, s string) error {
			_, err := ParseEdgeListWith(n, strings.NewReader(s), EdgeListOptions{Header: HeaderYes})
			return err
		}},
		{"edges", "0 1\n# c\n-3 2\n", `e.txt:3: node id "-3" is not a non-negative integer`, edges},
		{"edges", "0 -1\n", `e.txt:1: node id "-1" is not a non-negative integer`, edges},
		{"edges", "0 1.5\n", `e.txt:1: node id "1.5" is not a non-negative integer`, edges},
		// Issue 11: ids up to 2⁶⁴−1 are valid; beyond, the message says so.
		{"edges", "0 18446744073709551616\n", `e.txt:1: node id "18446744073709551616" is out of range (ids are integers 0 … 18446744073709551615)`, edges},
		{"edges", "\ufeff0 1.5\n", `e.txt:1: node id "1.5" is not a non-negative integer`, edges}, // the BOM is not part of the id
		{"edges", "# only a comment\n\n", "e.txt: no data lines", edges},
		{"edges", "", "e.txt: no data lines", edges},
		{"labels", "0 1\n0 2\n", "e.txt:2: node 0 labelled twice", labels},
		{"labels", "0\n", `e.txt:1: want "node label", found 1 fields`, labels},
		{"features", "0 1 2\n1 3\n", "e.txt:2: 1 feature values, earlier rows have 2", feats},
		{"features", "0 1 abc\n", `e.txt:1: column 3: "abc" is not a number`, feats},
		{"features", "0 1 NaN\n", `e.txt:1: column 3: "NaN" is not a finite number`, feats},
	}
	for _, c := range cases {
		err := c.parse("e.txt", c.input)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s %q: error %v, want %q", c.name, c.input, err, c.want)
		}
	}
}

func edges(name, s string) error { _, err := ParseEdgeList(name, strings.NewReader(s)); return err }
func labels(name, s string) error {
	_, err := ParseLabels(name, strings.NewReader(s))
	return err
}
func feats(name, s string) error {
	_, _, err := ParseFeatures(name, strings.NewReader(s))
	return err
}

func TestLoadUser(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	e := write("e.txt", "# two triangles\n10,11\n11\t12\n12 10\n10 10\n11 10\n20 21\n21 22\n22 20\n")
	l := write("l.txt", "10 0\n11 0\n12 1\n20 1\n21 1\n22 0\n")
	g := write("g.txt", "10 0\n11 0\n12 0\n20 1\n21 1\n22 1\n")
	ds, err := LoadUser(UserFiles{Edges: e, Labels: l, GraphIndex: g})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Graphs) != 2 || ds.Graphs[0].N != 3 || len(ds.Graphs[0].Edges) != 3 {
		t.Fatalf("got %d graphs, first n=%d e=%d", len(ds.Graphs), ds.Graphs[0].N, len(ds.Graphs[0].Edges))
	}
	if r := ds.Graphs[0].Removed; r.SelfLoops != 1 || r.Duplicates != 1 {
		t.Errorf("removed %+v, want 1 self-loop and 1 duplicate", r)
	}
	if ds.Graphs[1].IDs[0] != 20 || ds.Graphs[1].Labels[2] != 0 {
		t.Errorf("ids %v labels %v", ds.Graphs[1].IDs, ds.Graphs[1].Labels)
	}
	bad := write("bad.txt", "10 20\n")
	if _, err := LoadUser(UserFiles{Edges: bad, GraphIndex: g}); err == nil || !strings.Contains(err.Error(), "joins graphs 0 and 1 of "+g) {
		t.Errorf("cross-graph edge: %v", err)
	}
	if _, err := LoadUser(UserFiles{Edges: filepath.Join(dir, "missing.txt")}); err == nil || !strings.Contains(err.Error(), "missing.txt: file not found") {
		t.Errorf("missing file: %v", err)
	}
}

func FuzzParseEdgeList(f *testing.F) {
	for _, s := range []string{"0 1\n1 2\n", "# c\n1,2\n", "1\t2\r\n", "x y\n", "", "1 2 3", "source,target,weight\n1,2,0.5\n",
		"% konect\n1 2 1 1700000000\n", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n1 2\n2 3\n",
		"%%MatrixMarket matrix coordinate real general\n% c\n2 2 1\n1 2 0.5\n", "1;2\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		el, err := ParseEdgeList("fuzz", strings.NewReader(s))
		if err == nil && len(el.Edges) == 0 {
			t.Fatal("no error and no edges")
		}
	})
}

func FuzzParseFeatures(f *testing.F) {
	for _, s := range []string{"0 1 2\n1 3 4\n", "0 1\n1 2 3\n", "0 nan\n", "0,1.5e3\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, w, err := ParseFeatures("fuzz", strings.NewReader(s))
		if err == nil {
			for _, row := range m {
				if len(row) != w {
					t.Fatalf("row width %d, want %d", len(row), w)
				}
			}
		}
	})
}

func FuzzParseLabels(f *testing.F) {
	for _, s := range []string{"0 1\n1 2\n", "0 1\n0 1\n", "a b\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParseLabels("fuzz", strings.NewReader(s))
	})
}

// TestProteinErrors: malformed TU files stop with file, line and problem.
func TestProteinErrors(t *testing.T) {
	write := func(dir, name, s string) {
		os.MkdirAll(filepath.Join(dir, "protein"), 0o755)
		os.WriteFile(filepath.Join(dir, "protein", "PROTEINS_full_"+name+".txt"), []byte(s), 0o644)
	}
	base := func() string {
		dir := t.TempDir()
		write(dir, "graph_indicator", "1\n1\n1\n")
		write(dir, "node_labels", "0\n1\n0\n")
		write(dir, "node_attributes", "1, 2\n3, 4\n5, 6\n")
		write(dir, "A", "1, 2\n2, 3\n")
		return dir
	}
	cases := []struct{ file, content, want string }{
		{"A", "1, 2\n2, 9\n", "PROTEINS_full_A.txt:2: node id 9 outside 1..3"},
		{"A", "1, 2\n2 3 4\n", `PROTEINS_full_A.txt:2: want "row, col", found 3 fields`},
		{"node_attributes", "1, 2\n3\n5, 6\n", "PROTEINS_full_node_attributes.txt:2: 1 attributes, earlier rows have 2"},
		{"node_attributes", "1, 2\n3, x\n5, 6\n", `PROTEINS_full_node_attributes.txt:2: column 2: "x" is not a number`},
		{"node_labels", "0\n1\n", "PROTEINS_full_node_labels.txt has 2 lines, " + "%s" + " has 3"},
		{"graph_indicator", "", "PROTEINS_full_graph_indicator.txt: no data lines"},
	}
	for _, c := range cases {
		dir := base()
		write(dir, c.file, c.content)
		_, err := Protein(dir)
		want := c.want
		if strings.Contains(want, "%s") {
			want = strings.Replace(want, "%s", filepath.Join(dir, "protein", "PROTEINS_full_graph_indicator.txt"), 1)
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s %q: error %v, want %q", c.file, c.content, err, want)
		}
	}
}

// TestInputSurprises: a BOM, ids above 2⁶³−1, nodes only in the labels file
// and feature rows of unknown nodes are each handled as docs/your-graph.md says.
func TestInputSurprises(t *testing.T) {
	el, err := ParseEdgeList("e.txt", strings.NewReader("\ufeff0 1\n1 18446744073709551615\n"))
	if err != nil {
		t.Fatal(err)
	}
	if el.Edges[0] != [2]uint64{0, 1} || el.Edges[1][1] != 18446744073709551615 {
		t.Errorf("edges %v", el.Edges)
	}
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ds, err := LoadUser(UserFiles{
		Edges:    write("e.txt", "0 1\n1 2\n"),
		Labels:   write("l.txt", "0 0\n1 0\n2 1\n7 1\n"),
		Features: write("f.txt", "0 1\n1 1\n2 1\n7 1\n9 1\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if ds.NumNodes() != 4 {
		t.Errorf("%d nodes, want 4 (node 7 from the labels is kept isolated)", ds.NumNodes())
	}
	notes := strings.Join(ds.Notes, "\n")
	for _, want := range []string{"l.txt: 1 labelled nodes have no edge (e.g. 7); kept as isolated nodes",
		"f.txt: 1 feature rows belong to nodes in neither the edge list nor the labels (e.g. 9); ignored"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
}
