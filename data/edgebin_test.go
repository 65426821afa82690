package data

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestEdgeBinRoundTrip: a converted edge list (named and integer nodes, a
// header and a skipped comment) loads as the same dataset as its text —
// graphs, ids, names, notes and name — and its edges.npy is a NumPy 1.0
// '<u8' (E, 2) array with a 64-byte aligned header.
func TestEdgeBinRoundTrip(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "g.csv")
	os.WriteFile(text, []byte("src,dst,w\n# a comment\nalice,bob,1\nbob,carol,2\n3,alice,1\n4,5,1\n"), 0o644)
	el, err := ParseEdgeListFile(text, EdgeListOptions{Header: HeaderYes}) // named nodes: the header is declared
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "g.ignn")
	if err := WriteEdgeBin(bin, text, el); err != nil {
		t.Fatal(err)
	}
	if !IsEdgeBin(bin) || IsEdgeBin(text) {
		t.Fatal("IsEdgeBin")
	}
	b, _ := os.ReadFile(filepath.Join(bin, "edges.npy"))
	descr, shape, off, err := ParseNPYHeader(b)
	if err != nil || descr != "<u8" || !reflect.DeepEqual(shape, []int{4, 2}) || off%64 != 0 || len(b) != off+4*16 || len(el.Names) != 3 {
		t.Fatalf("edges.npy: %v %v %d (%d bytes) %v", descr, shape, off, len(b), err)
	}
	want, err := LoadUser(UserFiles{Edges: text, Header: HeaderYes})
	if err != nil {
		t.Fatal(err)
	}
	got, err := LoadUser(UserFiles{Edges: bin})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("converted dataset differs:\n%+v\n%+v\n%+v\n%+v", got, want, *got.Graphs[0], *want.Graphs[0])
	}
	if maps, err := os.ReadFile("/proc/self/maps"); err == nil && strings.Contains(string(maps), filepath.Join(bin, "edges.npy")) {
		t.Error("LoadUser left edges.npy mapped") // every load would keep one more mapping
	}
	if _, err := LoadUser(UserFiles{Edges: bin, Columns: "src,dst"}); err == nil || !strings.Contains(err.Error(), "applied when it was converted") {
		t.Errorf("--columns on a converted list: %v", err)
	}
	os.WriteFile(filepath.Join(bin, "edges.npy"), b[:len(b)-3], 0o644)
	if _, err := LoadUser(UserFiles{Edges: bin}); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncated edges.npy: %v", err)
	}
}
