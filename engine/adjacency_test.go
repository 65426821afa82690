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
	if a.Structure().NNZ() != 8 {
		t.Fatalf("nnz = %d, want 8 (4 undirected edges, duplicate and self-loop dropped)", a.Structure().NNZ())
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
		var edges [][2]int32
		for range m {
			edges = append(edges, [2]int32{int32(rng.IntN(n - 3)), int32(rng.IntN(n - 3))}) // nodes n−3… stay isolated
		}
		seen := map[[2]int]bool{}
		var es []Entry
		for _, e := range edges {
			u, v := int(min(e[0], e[1])), int(max(e[0], e[1]))
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
		if !slices.Equal(adj.Structure().RowPtr, want.RowPtr) || !slices.Equal(adj.Structure().ColIdx, want.ColIdx) || (adj.Structure().Val != nil && len(es) > 0) {
			t.Fatalf("%d edges: A's structure %v %v differs, or it holds values %v", m, adj.Structure().RowPtr, adj.Structure().ColIdx, adj.Structure().Val)
		}
	}
}

// An adjacency given as Links is the adjacency of the same edges: the same
// structure, degrees, normalisations and mini-batches (Subgraph), and its
// arrays are the caller's (shared, not copied). Malformed links panic.
func TestAdjacencyLinksMatchesEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, m := range []int{0, 5, 60, 400} {
		n := 40
		var edges [][2]int32
		for range m {
			edges = append(edges, [2]int32{int32(rng.IntN(n - 2)), int32(rng.IntN(n - 2))})
		}
		want := NewAdjacency(n, edges)
		l := want.Links()
		given := Links{Off: slices.Clone(l.Off), Nb: slices.Clone(l.Nb)}
		got := NewAdjacencyLinks(given)
		if gl := got.Links(); len(gl.Nb) > 0 && &gl.Nb[0] != &given.Nb[0] {
			t.Fatal("the adjacency copied the given arrays")
		}
		if !reflect.DeepEqual(got.Degree(), want.Degree()) {
			t.Fatalf("%d edges: degrees %v, want %v", m, got.Degree(), want.Degree())
		}
		for name, f := range map[string]func(a *Adjacency) *CSR{
			"structure": (*Adjacency).Structure, "sum": (*Adjacency).Sum, "gcn": (*Adjacency).GCNNorm,
			"mean": (*Adjacency).MeanNorm, "selfloops": (*Adjacency).WithSelfLoops,
		} {
			if g, w := f(got), f(want); !slices.Equal(g.RowPtr, w.RowPtr) || !slices.Equal(g.ColIdx, w.ColIdx) || !slices.Equal(g.Val, w.Val) {
				t.Fatalf("%d edges: %s differs: %v %v %v, want %v %v %v", m, name, g.RowPtr, g.ColIdx, g.Val, w.RowPtr, w.ColIdx, w.Val)
			}
		}
		for _, fanout := range []int{0, 2} {
			sg, sw := NewSubgraph(got, 25), NewSubgraph(want, 25)
			seeds := []int32{0, 7, 3}
			cg, err1 := sg.Build(seeds, 2, fanout, rand.New(rand.NewPCG(1, 2)))
			cw, err2 := sw.Build(seeds, 2, fanout, rand.New(rand.NewPCG(1, 2)))
			if err1 != nil || err2 != nil || cg != cw || !slices.Equal(sg.Nodes, sw.Nodes) {
				t.Fatalf("%d edges, fanout %d: batch %v (cut %d, %v), want %v (cut %d, %v)", m, fanout, sg.Nodes, cg, err1, sw.Nodes, cw, err2)
			}
			bg, bw := NewBatchAdjacency(25), NewBatchAdjacency(25)
			sg.Load(bg, true)
			sw.Load(bw, true)
			if g, w := bg.GCNNorm(), bw.GCNNorm(); !slices.Equal(g.ColIdx, w.ColIdx) || !slices.Equal(g.Val, w.Val) {
				t.Fatalf("%d edges, fanout %d: batch adjacencies differ", m, fanout)
			}
		}
	}
	for name, l := range map[string]Links{
		"short offsets": {Off: []int32{0, 1}, Nb: []int32{1}},
		"unsorted":      {Off: []int32{0, 2, 3, 4}, Nb: []int32{2, 1, 0, 0}},
		"repeat":        {Off: []int32{0, 2, 3, 3}, Nb: []int32{1, 1, 0}},
		"self-loop":     {Off: []int32{0, 1, 1}, Nb: []int32{0}},
		"out of range":  {Off: []int32{0, 1, 1}, Nb: []int32{5}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: NewAdjacencyLinks accepted %v", name, l)
				}
			}()
			NewAdjacencyLinks(l)
		}()
	}
}

// TestSubgraphStage: staging the next batch (Subgraph.Stage) leaves the
// adjacency the current one was applied to as it is — its degrees, its
// structure and its normalised rows — and UseStaged then gives what Load
// gives, batch after batch (the degree buffers alternate).
func TestSubgraphStage(t *testing.T) {
	var edges [][2]int32
	for i := range 29 {
		edges = append(edges, [2]int32{int32(i), int32(i + 1)}, [2]int32{int32(i), int32((i * 7) % 30)})
	}
	g := NewAdjacency(30, edges)
	type rows struct {
		deg               []int
		ptr, col, mptr    []int
		val, mean, summed []float64
	}
	of := func(a *Adjacency) rows {
		n, m := a.GCNNorm(), a.MeanNorm()
		return rows{slices.Clone(a.Degree()), slices.Clone(n.RowPtr), slices.Clone(n.ColIdx), slices.Clone(m.RowPtr),
			slices.Clone(n.Val), slices.Clone(m.Val), slices.Clone(a.Sum().Val)}
	}
	s := NewSubgraph(g, 20)
	adj := NewBatchAdjacency(20)
	adj.GCNNorm() // derived matrices to keep current (one not symmetric)
	adj.MeanNorm()
	for k, seeds := range [][]int32{{0, 1}, {5, 17, 29}, {12}, {3, 4, 20}} {
		if _, err := s.Build(seeds, 2, 0, nil); err != nil {
			t.Fatal(err)
		}
		before := of(adj)
		s.Stage(adj, true)
		if got := of(adj); k > 0 && !reflect.DeepEqual(got, before) {
			t.Fatalf("batch %d: staging changed the adjacency in use:\n%v\n%v", k, got, before)
		}
		adj.UseStaged()
		fs := NewSubgraph(g, 20)
		if _, err := fs.Build(seeds, 2, 0, nil); err != nil {
			t.Fatal(err)
		}
		fresh := NewBatchAdjacency(20)
		fs.Load(fresh, true)
		if got, want := of(adj), of(fresh); !reflect.DeepEqual(got, want) {
			t.Fatalf("batch %d: applied %v, Load gives %v", k, got, want)
		}
		s.Clear()
	}
}
