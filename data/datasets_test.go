package data

import (
	"testing"
)

// sharedData is where the raw Email and PROTEINS files are, found as the
// CLI finds them ($IGNN_DATA, ../shared/data beside the checkout, the
// cache); `make test` prints one line when they are missing.
func sharedData(t testing.TB) string {
	t.Helper()
	d, err := FindDataDir("", "email")
	if err != nil {
		t.Skip(err)
	}
	if _, err := FindDataDir(d, "protein"); err != nil {
		t.Skip(err)
	}
	return d
}

func TestEmailConstruction(t *testing.T) {
	ds, err := Email(sharedData(t))
	if err != nil {
		t.Fatal(err)
	}
	// Sizes and edge counts measured from P-GNN's construction
	// (shared/reference/pgnn-semantics.md §1.2).
	wantN := []int{245, 223, 186, 139, 58, 37, 32}
	wantE := map[int]int{245: 2185, 223: 1921, 186: 1362, 139: 1091, 58: 410, 37: 152, 32: 80}
	if len(ds.Graphs) != 7 {
		t.Fatalf("%d graphs, want 7", len(ds.Graphs))
	}
	for i, g := range ds.Graphs {
		if g.N != wantN[i] || len(g.Edges) != wantE[g.N] {
			t.Errorf("graph %d: n=%d e=%d, want n=%d e=%d", i, g.N, len(g.Edges), wantN[i], wantE[wantN[i]])
		}
	}
	if ds.NumNodes() != 920 || ds.NumEdges() != 7201 {
		t.Errorf("%d nodes %d edges, want 920 and 7201", ds.NumNodes(), ds.NumEdges())
	}
}

func TestProteinConstruction(t *testing.T) {
	ds, err := Protein(sharedData(t))
	if err != nil {
		t.Fatal(err)
	}
	// 364 graphs, 17,997 nodes after P-GNN's filters (pgnn-semantics.md §1.3).
	if len(ds.Graphs) != 364 || ds.NumNodes() != 17997 {
		t.Fatalf("%d graphs, %d nodes; want 364 and 17997", len(ds.Graphs), ds.NumNodes())
	}
	g := ds.Graphs[0]
	var mean, ss float64
	for _, v := range g.X[:29] {
		mean += v
	}
	mean /= 29
	for _, v := range g.X[:29] {
		ss += (v - mean) * (v - mean)
	}
	if g.XDim != 29 || mean > 1e-12 || mean < -1e-12 || ss/29 < 1-1e-9 || ss/29 > 1+1e-9 {
		t.Errorf("row 0 not standardised: dim %d mean %g var %g", g.XDim, mean, ss/29)
	}
}
