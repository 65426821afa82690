package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ignn/ignn/data"
)

// TestFaithfulnessRowsBlocks: FaithfulnessRows, reading float32
// embeddings a copied block at a time as from a spill file, gives the
// numbers of one block holding every row — the per-query loop over each
// query's nodes in order — bit for bit, for blocks of 1, 7 and its own
// size, on a union of three graphs, queries in each, with unreachable
// nodes and a graph too small for k; each row is read once.
func TestFaithfulnessRowsBlocks(t *testing.T) {
	var graphs []*data.Graph
	for _, spec := range []string{"grid:70x70", "caveman:900x4:0.1", "grid:2x2"} {
		ds, err := data.Generate(spec, rand.New(rand.NewPCG(4, 5)))
		if err != nil {
			t.Fatal(err)
		}
		graphs = append(graphs, ds.Graphs[0])
	}
	graphs[1].N += 3 // three isolated nodes: unreachable from the rest
	u := (&data.Dataset{Name: "three", Graphs: graphs}).Union()
	if u.N <= 2*faithBlock {
		t.Fatalf("%d nodes: the test wants more than two blocks of %d", u.N, faithBlock)
	}
	const d, k = 8, 10
	rng := rand.New(rand.NewPCG(6, 7))
	z := make([]float32, u.N*d)
	for i := range z {
		z[i] = float32(rng.NormFloat64())
	}
	var queries []Query
	for g, gr := range graphs {
		a := data.NewAdj(gr.N, gr.Edges)
		for _, node := range []int{0, gr.N / 2, gr.N - 1} {
			row := make([]uint16, gr.N)
			a.BFS(node, 0, row, nil)
			queries = append(queries, Query{Graph: g, Node: node, Row: row})
		}
	}
	// One block is the per-query loop FaithfulnessOf always ran: every
	// query's nodes in order, the tallies in query order.
	whole := func(lo, hi int, _ []float32) []float32 { return z[lo*d : hi*d] }
	want := faithfulnessBlocks(whole, u.N, d, u, queries, k)
	for _, block := range []int{1, 7, faithBlock} {
		reads := 0
		got := faithfulnessBlocks(func(lo, hi int, buf []float32) []float32 {
			reads++
			return buf[:copy(buf, z[lo*d:hi*d])]
		}, block, d, u, queries, k)
		// %v: the shortest decimal that reads back to the same float64, and
		// NaN as NaN (which reflect.DeepEqual never equates).
		if g, w := fmt.Sprintf("%v", got), fmt.Sprintf("%v", want); g != w {
			c := 0
			for c < min(len(g), len(w)) && g[c] == w[c] {
				c++
			}
			t.Fatalf("blocks of %d differ from one block from character %d:\n%.300s\n%.300s", block, c, g[c:], w[c:])
		}
		if blocks := (u.N + block - 1) / block; reads > blocks+len(queries) {
			t.Fatalf("blocks of %d: %d reads, more than once each (%d blocks, %d query rows)", block, reads, blocks, len(queries))
		}
	}
	if len(want.Buckets) < 10 || math.IsNaN(want.PrecisionAtK) || math.IsNaN(want.DistortionMean) {
		t.Fatalf("a degenerate reference: %d buckets, precision %v, distortion %v", len(want.Buckets), want.PrecisionAtK, want.DistortionMean)
	}
}
