package data

import (
	"math/rand/v2"
	"testing"
)

// TestIsPositiveEdgeView: a link split reads its positives from the
// graph's sorted edges (no key set); IsPositive is true exactly for the
// edges, in either orientation, as the key set says for a graph whose
// edges are not sorted (made by hand: the split falls back to the set).
func TestIsPositiveEdgeView(t *testing.T) {
	ds, err := Generate("caveman:12x5:0.2", rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	g := ds.Graphs[0]
	unsorted := *g
	unsorted.Edges = append([][2]int32(nil), g.Edges...)
	unsorted.Edges[0], unsorted.Edges[len(g.Edges)-1] = unsorted.Edges[len(g.Edges)-1], unsorted.Edges[0]
	edge := map[[2]int32]bool{}
	for _, e := range g.Edges {
		edge[e] = true
	}
	for _, gr := range []*Graph{g, &unsorted} {
		s, err := NewSplit(gr, TaskLink, rand.New(rand.NewPCG(2, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if _, view := s.pos.(edgeSet); view != (gr == g) {
			t.Fatalf("sorted edges %v: the positives are an edge view %v", gr == g, view)
		}
		for i := 0; i < g.N; i++ {
			for j := 0; j < g.N; j++ {
				if want := edge[[2]int32{int32(min(i, j)), int32(max(i, j))}]; s.IsPositive(i, j) != want {
					t.Fatalf("sorted edges %v: IsPositive(%d, %d) = %v, want %v", gr == g, i, j, !want, want)
				}
			}
		}
	}
}

// TestEdgeSetHas: the written-out binary search answers as a set of the
// edges does, for every edge, the pairs next to them and random pairs.
func TestEdgeSetHas(t *testing.T) {
	ds, err := Generate("ba:3000:3", rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	e := edgeSet(ds.Graphs[0].Edges)
	set := map[uint64]bool{}
	for _, x := range e {
		set[key(int(x[0]), int(x[1]))] = true
	}
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(i, j int) {
		if i == j {
			return
		}
		if k := key(i, j); e.has(k) != set[k] {
			t.Fatalf("has(%d, %d) = %v, want %v", i, j, e.has(k), set[k])
		}
	}
	for _, x := range e {
		check(int(x[0]), int(x[1]))
		check(int(x[0]), int(x[1])+1)
		check(int(x[0]), int(x[1])-1)
	}
	for range 20000 {
		check(rng.IntN(3001), rng.IntN(3001))
	}
}
