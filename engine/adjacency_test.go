package engine_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	. "github.com/ignn/ignn/engine"
)

func TestAdjacencyNorms(t *testing.T) {
	a := testAdj()
	if a.A.NNZ() != 8 {
		t.Fatalf("nnz = %d, want 8 (4 undirected edges, duplicate and self-loop dropped)", a.A.NNZ())
	}
	// GCN norm entry (0,1): deg+1 of node 0 is 2, of node 1 is 4: 1/√(2·4).
	g := a.GCNNorm().Dense()
	if got, want := g[0*5+1], 1/math.Sqrt(8); math.Abs(got-want) > 1e-15 {
		t.Errorf("gcn(0,1) = %g, want %g", got, want)
	}
	if got, want := g[1*5+1], 0.25; math.Abs(got-want) > 1e-15 {
		t.Errorf("gcn(1,1) = %g, want %g", got, want)
	}
	m := a.MeanNorm().Dense()
	if got := m[1*5+0] + m[1*5+2] + m[1*5+4]; math.Abs(got-1) > 1e-15 {
		t.Errorf("mean row 1 sums to %g", got)
	}
	// Transpose round trip and permutation.
	mt := a.MeanNorm().T()
	for r := 0; r < 5; r++ {
		for c := 0; c < 5; c++ {
			if mt.Dense()[r*5+c] != m[c*5+r] {
				t.Fatalf("transpose differs at (%d,%d)", r, c)
			}
		}
	}
	perm := a.MeanNorm().TransposePerm()
	for k, p := range perm {
		if mt.Val[k] != a.MeanNorm().Val[p] {
			t.Fatalf("perm[%d] wrong", k)
		}
	}
}

// TestNewAdjacencyAgainstEntries: the in-place CSR equals NewCSR of the
// deduplicated entries in both directions (the construction it replaced)
// on edges with repeats in both orientations, self-loops and isolated
// nodes, and on no edges at all.
func TestNewAdjacencyAgainstEntries(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, m := range []int{0, 1, 40, 300} {
		n := 30
		var edges [][2]int
		for range m {
			edges = append(edges, [2]int{rng.IntN(n - 3), rng.IntN(n - 3)}) // nodes n−3… stay isolated
		}
		seen := map[[2]int]bool{}
		var es []Entry
		for _, e := range edges {
			u, v := min(e[0], e[1]), max(e[0], e[1])
			if u != v && !seen[[2]int{u, v}] {
				seen[[2]int{u, v}] = true
				es = append(es, Entry{u, v, 1}, Entry{v, u, 1})
			}
		}
		adj := NewAdjacency(n, edges)
		want, got := NewCSR(n, n, es), adj.Sum()
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%d edges: got %+v, want %+v", m, got, want)
		}
		if !slices.Equal(adj.A.RowPtr, want.RowPtr) || !slices.Equal(adj.A.ColIdx, want.ColIdx) || (adj.A.Val != nil && len(es) > 0) {
			t.Fatalf("%d edges: A's structure %v %v differs, or it holds values %v", m, adj.A.RowPtr, adj.A.ColIdx, adj.A.Val)
		}
	}
}
