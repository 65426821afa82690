package data

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMultiSourceBFS: on small worlds (a Barabási–Albert graph, and one
// with a second component and isolated nodes after it) the multi-source
// sweeps take the sources, and their rows equal one BFS per source, bit
// for bit: through BFSRows with 1, 2 and 3 workers and through Hops.Rows
// (a union of two such graphs, sources alternating between runs of each),
// with and without a cutoff, for batches of exactly msWidth sources, more
// and fewer, a source listed twice among them; graphs below msRange nodes
// run batches side by side, a larger one splits each sweep's nodes. A grid
// keeps one BFS per source.
func TestMultiSourceBFS(t *testing.T) {
	gen := func(spec string) *Graph {
		ds, err := Generate(spec, rand.New(rand.NewPCG(9, 9)))
		if err != nil {
			t.Fatal(err)
		}
		return ds.Graphs[0]
	}
	ba := gen("ba:3000:3")
	split := gen("ba:2000:2") // and a 4-node path, then 3 isolated nodes
	n := split.N
	edges := append(slices.Clone(split.Edges), [2]int32{int32(n), int32(n + 1)}, [2]int32{int32(n + 1), int32(n + 2)}, [2]int32{int32(n + 2), int32(n + 3)})
	split = &Graph{Name: "split", N: n + 7, Edges: edges}
	big := gen("ba:9000:2") // more nodes than two msRange: a sweep split over the workers
	for _, g := range []*Graph{ba, split, big} {
		a := NewAdj(g.N, g.Edges)
		if !a.smallWorld() {
			t.Fatalf("%d nodes: not taken for a small world", g.N)
		}
		rng := rand.New(rand.NewPCG(3, uint64(g.N)))
		for _, count := range []int{msMinSources, msWidth, msWidth + 9, 2*msWidth + 1} {
			if !a.multiSource(count) {
				t.Fatalf("%d nodes, %d sources: no multi-source sweep", g.N, count)
			}
			src := make([]int, count)
			for k := range src {
				src[k] = rng.IntN(g.N)
			}
			src[count-1] = src[0]  // twice
			src[count/2] = g.N - 1 // isolated (split) or any node
			for _, cutoff := range []int{0, 2} {
				want := make([]uint16, count*g.N)
				var queue []int32
				for k, s := range src {
					queue = a.BFS(s, cutoff, want[k*g.N:(k+1)*g.N], queue)
				}
				for _, w := range []int{1, 2, 3} {
					got := make([]uint16, count*g.N)
					a.BFSRows(src, cutoff, got, w)
					if !slices.Equal(got, want) {
						t.Fatalf("%d nodes, %d sources, cutoff %d, %d workers: rows differ from one BFS per source", g.N, count, cutoff, w)
					}
				}
			}
		}
	}
	// Hops.Rows over a union: runs of each graph's sources, and a short run
	// (fewer than msMinSources: one BFS each).
	u := NewUnion([]*Graph{ba, split})
	h, err := NewHops(u, [][][2]int32{ba.Edges, split.Edges}, false, 2)
	if err != nil {
		t.Fatal(err)
	}
	var sg, sl []int
	for k := range 40 {
		g := 0
		if k >= 33 {
			g = 1
		}
		sg, sl = append(sg, g), append(sl, (k*7919)%u.Graphs[g].N)
	}
	rows := h.Rows(sg, sl, nil)
	for k := range sg {
		want := make([]uint16, u.Graphs[sg[k]].N)
		h.Adjs[sg[k]].BFS(sl[k], 0, want, nil)
		if !slices.Equal(rows[k], want) {
			t.Fatalf("Hops.Rows: source %d (graph %d, node %d) differs", k, sg[k], sl[k])
		}
	}
	grid := gen("grid:40x40")
	if NewAdj(grid.N, grid.Edges).smallWorld() {
		t.Fatal("a 40×40 grid taken for a small world")
	}
}
