package data

import (
	"os"
	"strings"
	"testing"
)

// writeFiles writes name→content files into a fresh directory and makes it
// the working directory, so errors name the files as a user who passed
// relative paths sees them.
func writeFiles(t *testing.T, files map[string]string) {
	t.Helper()
	dir := t.TempDir()
	for name, s := range files {
		if err := os.WriteFile(dir+"/"+name, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
}

const mmHead = "%%MatrixMarket matrix coordinate pattern general\n"

// TestLongTokenErrorIsShort (issue 38): a half-megabyte token is refused
// in under 200 bytes that name the file and line and quote only the
// token's start and its length, in every reader.
func TestLongTokenErrorIsShort(t *testing.T) {
	digits := strings.Repeat("9", 500_000) // a number-like token: an error, not a node name
	letters := strings.Repeat("x", 500_000)
	for _, c := range []struct {
		name  string
		files UserFiles
		text  string // the content of the file the error must name
		where string
	}{
		{"edge id out of range", UserFiles{Edges: "e.txt"}, "0 1\n2 " + digits + "\n", "e.txt:2: "},
		{"edge id not a number", UserFiles{Edges: "e.txt"}, "0 1\n# c\n2 3" + letters + "\n", "e.txt:3: "},
		{"edge column name", UserFiles{Edges: "e.txt", Columns: "src,dst"}, "a," + letters + "\n0,1\n", "e.txt:1: "},
		{"label", UserFiles{Edges: "g.txt", Labels: "e.txt"}, "0 1\n1 " + letters + "\n", "e.txt:2: "},
		{"feature", UserFiles{Edges: "g.txt", Features: "e.txt"}, "0 1\n1 1" + letters + "\n", "e.txt:2: "},
		{"graph index", UserFiles{Edges: "g.txt", GraphIndex: "e.txt"}, "0 0\n1 " + digits + "\n", "e.txt:2: "},
		{"named node labelled twice", UserFiles{Edges: "g.txt", Labels: "e.txt"}, "0 1\n" + letters + " 0\n" + letters + " 1\n", "e.txt:3: "},
		{"matrix market banner", UserFiles{Edges: "e.txt"}, "%%MatrixMarket matrix coordinate " + letters + " general\n", "e.txt:1: "},
		{"matrix market size", UserFiles{Edges: "e.txt"}, mmHead + "3 3 " + digits + "\n", "e.txt:2: "},
		{"matrix market entry", UserFiles{Edges: "e.txt"}, mmHead + "3 3 1\n1 " + digits + "\n", "e.txt:3: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			writeFiles(t, map[string]string{"g.txt": "0 1\n", "e.txt": c.text})
			_, err := LoadUser(c.files)
			checkShort(t, err, c.where, " bytes)")
		})
	}
	t.Run("named node without a label", func(t *testing.T) {
		writeFiles(t, map[string]string{"g.txt": "0 " + letters + "\n", "e.txt": "0 1\n"})
		_, err := LoadUser(UserFiles{Edges: "g.txt", Labels: "e.txt"})
		checkShort(t, err, "data: e.txt: node ", " bytes) has no label")
	})
	t.Run("protein column", func(t *testing.T) {
		writeFiles(t, map[string]string{"e.txt": "1\n1\n" + digits + "\n"})
		_, err := readWith("e.txt", parseColumn)
		checkShort(t, err, "e.txt:3: ", " bytes)")
	})
}

// TestLongLineNamesTheLimit (issue 38): a line over 1 MiB is refused
// naming the file, the line and the limit, not with bufio's "token too
// long".
func TestLongLineNamesTheLimit(t *testing.T) {
	long := strings.Repeat("1 ", 600_000) + "\n" // 1.2 MB
	for _, c := range []struct {
		name  string
		files UserFiles
		text  string
		where string
	}{
		{"edges", UserFiles{Edges: "e.txt"}, "0 1\n" + long, "e.txt:2: "},
		{"labels", UserFiles{Edges: "g.txt", Labels: "e.txt"}, "0 1\n# c\n" + long, "e.txt:3: "},
		{"features", UserFiles{Edges: "g.txt", Features: "e.txt"}, long, "e.txt:1: "},
		{"matrix market", UserFiles{Edges: "e.txt"}, mmHead + "2 2 1\n" + long, "e.txt:3: "},
		{"matrix market banner", UserFiles{Edges: "e.txt"}, strings.TrimSuffix(mmHead, "\n") + long, "e.txt:1: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			writeFiles(t, map[string]string{"g.txt": "0 1\n", "e.txt": c.text})
			_, err := LoadUser(c.files)
			checkShort(t, err, c.where, "1 MiB")
			if err != nil && strings.Contains(err.Error(), "token too long") {
				t.Errorf("bufio's message leaks: %v", err)
			}
		})
	}
}

// TestNotesAreShort: what a reader skipped is said without repeating a
// long header token or listing every one of many ignored columns.
func TestNotesAreShort(t *testing.T) {
	wide := "0 1" + strings.Repeat(" 5", 18) + "\n"
	for _, c := range []struct{ text, want string }{
		{"src,dst," + strings.Repeat("w", 500_000) + "\n0,1,2\n", `header line src,dst,"wwww`},
		{wide, "ignored column 2, column 3, column 4, column 5, column 6, column 7, column 8, column 9, … (18 in all) ("},
	} {
		el, err := ParseEdgeList("e.txt", strings.NewReader(c.text))
		if err != nil {
			t.Errorf("%.40q: %v", c.text, err)
			continue
		}
		if len(el.Notes) != 1 || len(el.Notes[0]) > 400 || !strings.Contains(el.Notes[0], c.want) {
			t.Errorf("%.40q: notes %.500q, want one under 400 bytes with %q", c.text, el.Notes, c.want)
		}
	}
}

// TestFloat32RangeNamesFeaturesFile (issue 38): a feature value beyond
// float32's range is reported at its features file, line and column (the
// check itself runs where the dtype is known: features.Build), not at the
// edge list and a node.
func TestFloat32RangeNamesFeaturesFile(t *testing.T) {
	writeFiles(t, map[string]string{
		"g.txt":  "0 1\n1 2\n5 6\n",
		"gi.txt": "0 0\n1 0\n2 0\n5 1\n6 1\n",
		"f.txt":  "node a b\n0 1 2\n# c\n1 3e38 -3e38\n2 0 0\n6 1 -1e+300\n5 1e39 1\n",
	})
	ds, err := LoadUser(UserFiles{Edges: "g.txt", Features: "f.txt", GraphIndex: "gi.txt"})
	if err != nil {
		t.Fatal(err)
	}
	for g, want := range []string{"", "f.txt:7: column 2: 1e+39 is beyond float32's range (±3.4e38)"} {
		err := ds.Graphs[g].CheckFloat32()
		if want == "" && err != nil || want != "" && (err == nil || err.Error() != want) {
			t.Errorf("graph %d: %v, want %q", g, err, want)
		}
	}
	ds.Graphs[1].X[0] = 1 // node 5's row fits now; node 6's does not
	if err := ds.Graphs[1].CheckFloat32(); err == nil || err.Error() != "f.txt:6: column 3: -1e+300 is beyond float32's range (±3.4e38)" {
		t.Errorf("graph 1, node 6: %v", err)
	}
	// Features not read from a file: the graph and the node.
	g := &Graph{Name: "g#0", N: 2, IDs: []uint64{7, 9}, X: []float64{1, 2, 3, 1e300}, XDim: 2}
	if err := g.CheckFloat32(); err == nil || err.Error() != "graph g#0: node 9 attribute 2 is 1e+300, beyond float32's range (±3.4e38)" {
		t.Errorf("in-memory graph: %v", err)
	}
}

// TestQuoteToken: short tokens are quoted whole, as %q does; long ones
// are cut to 64 quoted bytes at a character boundary, then their length.
func TestQuoteToken(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", `""`},
		{"abc", `"abc"`},
		{strings.Repeat("a", 64), `"` + strings.Repeat("a", 64) + `"`},
		{strings.Repeat("a", 65), `"` + strings.Repeat("a", 64) + `"… (65 bytes)`},
		{strings.Repeat("a", 63) + "é", `"` + strings.Repeat("a", 63) + `"… (65 bytes)`},
		{strings.Repeat("\x01", 20), `"` + strings.Repeat(`\x01`, 16) + `"… (20 bytes)`},
	} {
		if got := quoteToken(c.in); got != c.want {
			t.Errorf("quoteToken(%.70q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// checkShort fails unless err is one line under 200 bytes that starts
// with where and contains want.
func checkShort(t *testing.T, err error, where, want string) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	shown := msg
	if len(shown) > 300 {
		shown = shown[:300] + "…"
	}
	if len(msg) >= 200 || strings.Contains(msg, "\n") {
		t.Errorf("error of %d bytes, want one line under 200: %s", len(msg), shown)
	}
	if !strings.HasPrefix(msg, where) || !strings.Contains(msg, want) {
		t.Errorf("error %s: want it to start %q and contain %q", shown, where, want)
	}
	t.Logf("%d bytes: %s", len(msg), shown)
}
