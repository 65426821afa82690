package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStageRowsWhole: a batch whose scanned nodes list all their
// neighbours (no fanout) gets from rowsWhole exactly the rows the general
// path (rowsSymmetrised: every edge entered both ways, rows sorted,
// repeats dropped) gives — with 0–3 hops, seeds listed twice, and slots
// that cut the neighbourhood or not, on a graph with hubs and a grid; a
// batch drawn with a fanout takes the general path.
func TestStageRowsWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	hubs := func(n int) *Adjacency { // preferential attachment: a few nodes of high degree
		var e [][2]int32
		var ends []int32
		for v := 1; v < n; v++ {
			for range 3 {
				u := int32(rng.IntN(v))
				if len(ends) > 0 && rng.IntN(2) == 0 {
					u = ends[rng.IntN(len(ends))]
				}
				e = append(e, [2]int32{int32(v), u})
				ends = append(ends, int32(v), u)
			}
		}
		return NewAdjacency(n, e) // repeated edges are merged
	}
	grid := func(w int) *Adjacency {
		var e [][2]int32
		for i := range w * w {
			if i%w+1 < w {
				e = append(e, [2]int32{int32(i), int32(i + 1)})
			}
			if i+w < w*w {
				e = append(e, [2]int32{int32(i), int32(i + w)})
			}
		}
		return NewAdjacency(w*w, e)
	}
	for _, g := range []*Adjacency{hubs(3000), grid(40)} {
		for _, slots := range []int{64, 500, g.N} {
			s := NewSubgraph(g, slots)
			for trial := range 40 {
				seeds := make([]int32, 1+rng.IntN(min(slots, 30)))
				for k := range seeds {
					seeds[k] = int32(rng.IntN(g.N))
				}
				seeds[len(seeds)-1] = seeds[0] // listed twice
				layers := trial % 4
				if _, err := s.Build(seeds, layers, 0, nil); err != nil {
					t.Fatal(err)
				}
				if !s.whole || s.scanned > len(s.Nodes) {
					t.Fatalf("no fanout: whole %v, %d scanned of %d", s.whole, s.scanned, len(s.Nodes))
				}
				s.rowsWhole()
				ptr, col := slices.Clone(s.ptr), slices.Clone(s.col)
				s.rowsSymmetrised()
				if !slices.Equal(ptr, s.ptr) || !slices.Equal(col, s.col) {
					t.Fatalf("%d nodes, %d slots, %d hops, seeds %v: rowsWhole's rows differ from the symmetrised edges'", g.N, slots, layers, seeds)
				}
				s.Clear()
			}
			if _, err := s.Build([]int32{0, 1}, 2, 2, rand.New(rand.NewPCG(1, 1))); err != nil {
				t.Fatal(err)
			}
			if s.whole {
				t.Fatal("a batch drawn with a fanout takes the path for whole neighbourhoods")
			}
			s.Clear()
		}
	}
}
