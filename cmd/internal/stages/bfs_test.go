package stages

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/features"
)

// TestPartsAnyCount: the parts of 1, 2 and 5 processes read back to the
// same landmark rows (each the landmark's own BFS row), τ sample,
// queries and validation sample; a part of another seed is refused.
func TestPartsAnyCount(t *testing.T) {
	ds, err := data.Generate("caveman:6x8", engine.Stream(1, "graph"))
	if err != nil {
		t.Fatal(err)
	}
	u := ds.Union()
	var edges [][][2]int32
	for _, g := range ds.Graphs {
		edges = append(edges, g.Edges)
	}
	hops, err := data.NewHops(u, edges, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Union: u, Hops: hops, Fingerprint: "test", Seed: 3, Task: "link",
		Position: features.Position{Kind: features.PosLandmark, K: 4}, TauSources: 6, TauPairs: 200, Workers: 1}
	var first *Parts
	for _, n := range []int{1, 2, 5} {
		dir := t.TempDir()
		for i := range n {
			if _, _, err := WritePart(in, dir, i, n); err != nil {
				t.Fatal(err)
			}
		}
		got, err := Read(in, dir)
		if err != nil {
			t.Fatal(err)
		}
		row := make([]uint16, u.N)
		for k, v := range got.Marks[0] {
			hops.Adjs[0].BFSRows([]int{v}, 0, row, 1)
			if !reflect.DeepEqual(got.Landmarks[0][k*u.N:(k+1)*u.N], row) {
				t.Fatalf("%d parts: landmark %d's row is not its BFS", n, v)
			}
		}
		if first == nil {
			first = got
		} else if !reflect.DeepEqual(got, first) {
			t.Fatalf("%d parts read back otherwise than one", n)
		}
	}
	dir := t.TempDir()
	if _, _, err := WritePart(in, dir, 0, 1); err != nil {
		t.Fatal(err)
	}
	other := in
	other.Seed = 4
	if _, err := Read(other, dir); err == nil || !strings.Contains(err.Error(), "another run") {
		t.Fatalf("a part of another seed: %v", err)
	}
	if err := os.Remove(filepath.Join(dir, "bfs.shard-0-of-1.npz")); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(in, dir); err == nil {
		t.Fatal("no parts read as parts")
	}
}
