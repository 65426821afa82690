package data

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestFirstLine: a first line that is a header or a count line (issue 66)
// is read as one, with one note saying so; a first edge that merely looks
// like one stays an edge (the same edges as with --header no).
func TestFirstLine(t *testing.T) {
	// Les Misérables as networkx writes it with pandas: named nodes, a weight.
	lesmis := "source,target,weight\nNapoleon,Myriel,1\nMlle.Baptistine,Myriel,8\nValjean,Myriel,5\nValjean,Mlle.Baptistine,4\n"
	// A SNAP copy: "nodes lines" first, then 5 edges among 4 nodes.
	snap := "4\t5\n0\t1\n0\t2\n1\t2\n2\t3\n1\t3\n"
	cases := []struct {
		name, in string
		header   string
		nodes    int
		edges    int
		note     string // a note that must be there ("" = no note about the first line)
	}{
		{"header over named nodes and weights", lesmis, "", 4, 4, "header line source,target,weight skipped (column 2 holds a number on every other line"},
		{"header of column names over named nodes", "src dst\nalice bob\nbob carol\n", "", 3, 2, "header line src,dst skipped (its fields are column names"},
		{"--header no keeps it an edge", "src dst\nalice bob\nbob carol\n", HeaderNo, 5, 3, ""},
		{"column names that name nodes are an edge", "u v\nv w\nw x\n", "", 4, 3, ""},
		{"words that are no column names are an edge", "alice bob\nbob carol\n", "", 3, 2, ""},
		{"count line: lines that follow", snap, "", 4, 5, `first line 4 5 read as counts (5 = the data lines after it, 4 ≥ their 4 nodes)`},
		{"count line: nodes, each edge listed in both orientations", "3 2\n0 1\n1 0\n1 2\n2 1\n", "", 3, 4, "first line 3 2 read as counts (3 = the distinct nodes after it)"},
		{"count line of one number: the nodes", "4\n0 1\n0 2\n1 2\n2 3\n1 3\n", "", 4, 5, "first line 4 read as counts (4 = the distinct nodes after it)"},
		{"count line of one number: the lines", "5\n0 1\n0 2\n1 2\n2 3\n1 3\n", "", 4, 5, "first line 5 read as counts (5 = the data lines after it)"},
		{"--header no keeps counts an edge", snap, HeaderNo, 6, 6, ""},
		{"--header yes skips it", snap, HeaderYes, 4, 5, "header line 4,5 skipped"},
		{"an edge whose second id equals the lines after it, nodes outnumber its first", "2 3\n0 1\n1 3\n3 4\n", "", 5, 4, ""},
		{"an ordinary first edge", "0 1\n1 2\n2 3\n", "", 4, 3, ""},
		{"a first edge of two ids far from the counts", "7 9\n0 1\n1 2\n2 3\n", "", 6, 4, ""},
	}
	for _, c := range cases {
		el, err := ParseEdgeListWith("e.txt", strings.NewReader(c.in), EdgeListOptions{Header: c.header})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		nodes := map[uint64]bool{}
		for _, e := range el.Edges {
			nodes[e[0]], nodes[e[1]] = true, true
		}
		if len(nodes) != c.nodes || len(el.Edges) != c.edges {
			t.Errorf("%s: %d nodes, %d edges; want %d, %d", c.name, len(nodes), len(el.Edges), c.nodes, c.edges)
		}
		notes := strings.Join(el.Notes, "\n")
		if c.note != "" && !strings.Contains(notes, c.note) || c.note == "" && (strings.Contains(notes, "first line") || strings.Contains(notes, "header line")) {
			t.Errorf("%s: notes %q, want %q", c.name, notes, c.note)
		}
		if len(el.Notes) > 1 {
			t.Errorf("%s: %d notes, want one line: %q", c.name, len(el.Notes), el.Notes)
		}
		if c.header == "" && c.note == "" { // unchanged: the edges --header no reads, in its order
			no, err := ParseEdgeListWith("e.txt", strings.NewReader(c.in), EdgeListOptions{Header: HeaderNo})
			if err != nil || !reflect.DeepEqual(no.Edges, el.Edges) || !reflect.DeepEqual(no.Names, el.Names) {
				t.Errorf("%s: edges %v, --header no reads %v (%v)", c.name, el.Edges, no.Edges, err)
			}
		}
	}
	// The header's words are no nodes of the dataset.
	el, err := ParseEdgeList("e.txt", strings.NewReader(lesmis))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"source", "target"} {
		if _, ok := el.Names[NameID(w)]; ok {
			t.Errorf("the header's %q is a node", w)
		}
	}
}

// TestCleanedLines: the lines of the first self-loops and repeated edges
// a user's edge list held are named (issue 66: "removed 12 self-loops and
// 14484 duplicate edges" came with no line to look at), counted from the
// file's first line through comments, a header and a count line.
func TestCleanedLines(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ in, want string }{
		{"# a comment\nsrc dst\n0 1\n1 1\n\n1 0\n2 3\n2 2\n3 2\n", "self-loops at lines 4, 8; repeated edges at lines 6, 9"},
		{"4 5\n0 1\n1 2\n1 0\n2 3\n3 3\n", "self-loops at line 6; repeated edges at line 4"},
		{"0 1\n1 2\n", ""},
	} {
		path := filepath.Join(dir, "e.txt")
		if err := os.WriteFile(path, []byte(c.in), 0o644); err != nil {
			t.Fatal(err)
		}
		ds, err := LoadUser(UserFiles{Edges: path})
		if err != nil {
			t.Fatal(err)
		}
		if ds.Cleaned != c.want {
			t.Errorf("%q: cleaned %q, want %q", c.in, ds.Cleaned, c.want)
		}
	}
}

// TestNamesNear: a name given in the wrong case is suggested first, then
// names one or two edits away (issue 66: `neighbors --node valjean` on a
// graph with Valjean said only that valjean was not there).
func TestNamesNear(t *testing.T) {
	names := Names{}
	for _, s := range []string{"Valjean", "Javert", "Fantine", "Marius", "Mabeuf", "Myriel", "VALJEAN"} {
		names[NameID(s)] = s
	}
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"valjean", []string{"VALJEAN", "Valjean"}},
		{"Javret", []string{"Javert"}},
		{"Marus", []string{"Marius"}},
		{"Cosette", nil},
	} {
		if got := names.Near(c.in, 3); !reflect.DeepEqual(got, c.want) && (len(got) > 0 || len(c.want) > 0) {
			t.Errorf("Near(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
