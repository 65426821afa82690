package infer

import (
	"testing"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// TestInferenceChunkShapes: the chunks are grown as balls, so that their
// neighbourhoods add a thin rim: on a 500 × 500 grid and a 250,000-node
// random geometric graph, 3-hop chunks in 4,000 and 6,000 node slots run
// forward passes over at most 1.4 × N slots in all (consecutive nodes of
// the breadth-first order, anti-diagonal bands, took 2.62 × N and 3.14 ×
// N), and every node is in exactly one chunk, also when the graph is
// many small components; slots that hold the graph run one chunk.
func TestInferenceChunkShapes(t *testing.T) {
	var parts [][2]int32 // 500 triangles and 100 lone nodes: balls run out, chunks gather components
	for k := int32(0); k < 500; k++ {
		parts = append(parts, [2]int32{3 * k, 3*k + 1}, [2]int32{3*k + 1, 3*k + 2}, [2]int32{3 * k, 3*k + 2})
	}
	for _, c := range []struct {
		spec  string
		slots int
	}{{"grid:500x500", 4000}, {"rgg:250000:8", 6000}, {"grid:60x60", 3600}, {"", 100}} {
		n, edges := 1600, parts
		if c.spec != "" {
			ds, err := data.Generate(c.spec, engine.Stream(1, "graph"))
			if err != nil {
				t.Fatal(err)
			}
			n, edges = ds.Graphs[0].N, ds.Graphs[0].Edges
		}
		adj := engine.NewAdjacency(n, edges)
		f := &Inferer{n: n, whole: &engine.GraphInput{Adj: adj}, layers: 3, hops: 3, chunk: firstChunk(c.slots, n),
			order: bfsOrder(adj.Links()), slots: &engine.SlotInput{Sub: engine.NewSubgraph(adj, c.slots)}}
		if err := f.sizeChunks(); err != nil {
			t.Fatal(err)
		}
		seen := make([]bool, n)
		for _, v := range f.order {
			if seen[v] {
				t.Fatalf("%s: node %d in two chunks", c.spec, v)
			}
			seen[v] = true
		}
		chunks := len(f.bounds) - 1
		if len(f.order) != n || f.bounds[chunks] != n {
			t.Fatalf("%s: %d nodes in chunks ending at %d, want %d", c.spec, len(f.order), f.bounds[chunks], n)
		}
		if c.slots >= n && chunks != 1 {
			t.Errorf("%s: %d chunks in slots that hold the graph", c.spec, chunks)
		}
		if r := float64(chunks*c.slots) / float64(n); r > 1.4 {
			t.Errorf("%s: %d chunks of %d slots = %.2f × N", c.spec, chunks, c.slots, r)
		}
	}
}
