package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNameID pins the rule for named nodes: the first 64 bits of
// MurmurHash3 x64-128 (seed 0, github.com/spaolacci/murmur3 Sum128's h1)
// of the name's bytes, top bit set. Changing it would change every hash
// vector of a named node; these values are this implementation's, pinned.
func TestNameID(t *testing.T) {
	for name, want := range map[string]uint64{
		"alice":           14923327829108282794,
		"urn:li:person:7": 16013842696803040030,
	} {
		if got := NameID(name); got != want || got>>63 != 1 {
			t.Errorf("NameID(%q) = %d, want %d", name, got, want)
		}
	}
}

// TestNamedNodes: names and integer ids mix in one file; a named file's
// first line is data (only a following integer line makes it a header, or
// --header yes); labels and graph-index files name the same nodes; names
// are kept in the dataset; tokens that look like numbers but are not
// non-negative integers are still errors; integer-only files get no names.
func TestNamedNodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	edges := write("e.txt", "alice bob\nbob carol\ncarol 7\n7 urn:li:person:7\n")
	labels := write("l.txt", "node,label\nalice 0\nbob 0\ncarol 1\n7 1\nurn:li:person:7 1\n")
	ds, err := LoadUser(UserFiles{Edges: edges, Labels: labels})
	if err != nil {
		t.Fatal(err)
	}
	g := ds.Graphs[0]
	if g.N != 5 || len(g.Edges) != 4 || g.Names == nil {
		t.Fatalf("graph %+v", g)
	}
	got := map[string]int{}
	for i, id := range g.IDs {
		got[g.Names[i]] = int(g.Labels[i])
		if g.Names[i] == "7" && id != 7 || g.Names[i] == "alice" && id != NameID("alice") {
			t.Errorf("node %q has id %d", g.Names[i], id)
		}
	}
	if got["alice"] != 0 || got["carol"] != 1 || got["7"] != 1 || got["urn:li:person:7"] != 1 {
		t.Errorf("labels by name %v", got)
	}
	if n := NamesOf(ds); n.Of(NameID("bob")) != "bob" || n.Of(7) != "7" || len(n) != 4 {
		t.Errorf("NamesOf: %v", n)
	}
	// A declared header over names; a detected one over integers.
	h, err := ParseEdgeListWith("h.txt", strings.NewReader("from to\nalice bob\n"), EdgeListOptions{Header: HeaderYes})
	if err != nil || len(h.Edges) != 1 || len(h.Names) != 2 {
		t.Errorf("declared header over names: %+v %v", h, err)
	}
	h, err = ParseEdgeListWith("h.txt", strings.NewReader("from to\n1 2\n"), EdgeListOptions{})
	if err != nil || len(h.Edges) != 1 || len(h.Names) != 0 || len(h.Notes) != 1 {
		t.Errorf("detected header over integers: %+v %v", h, err)
	}
	for _, name := range []string{"Nan", "inf", "-x", "+", "."} {
		if id, err := ParseNode(name); err != nil || id != NameID(name) {
			t.Errorf("%q is a name: %d %v", name, id, err)
		}
	}
	for _, bad := range []string{"alice -1\n", "alice 2.5\n", "alice 1e5\n", "alice .5\n", "alice +3\n", "alice 7x\n"} {
		if _, err := ParseEdgeList("b.txt", strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), `b.txt:1: node id "`) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	ints, err := LoadUser(UserFiles{Edges: filepath.Join(formats, "graph.txt")})
	if err != nil || ints.Graphs[0].Names != nil || NamesOf(ints) != nil {
		t.Errorf("integer ids got names: %v", err)
	}
}
