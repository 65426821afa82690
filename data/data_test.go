package data

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestCommunities(t *testing.T) {
	ds, err := Communities(DefaultCommunities, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	g := ds.Graphs[0]
	// 20 cliques × 190 edges; rewiring keeps the count except when it
	// creates a self-loop (P-GNN measured ≈3,799.9 on average).
	if g.N != 400 || len(g.Edges) < 3790 || len(g.Edges) > 3800 {
		t.Fatalf("n=%d edges=%d", g.N, len(g.Edges))
	}
	none, _ := Communities(CommunitiesConfig{20, 20, 0}, rand.New(rand.NewPCG(1, 1)))
	if len(none.Graphs[0].Edges) != 3800 {
		t.Fatalf("unrewired caveman has %d edges, want 3800", len(none.Graphs[0].Edges))
	}
	again, _ := Communities(DefaultCommunities, rand.New(rand.NewPCG(1, 1)))
	for i, e := range again.Graphs[0].Edges {
		if e != g.Edges[i] {
			t.Fatal("same seed gave a different graph")
		}
	}
}

func TestHopDistancesAgainstFloydWarshall(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for trial := 0; trial < 20; trial++ {
		n := 2 + rng.IntN(30)
		var edges [][2]int32
		for k := 0; k < n; k++ {
			edges = append(edges, [2]int32{int32(rng.IntN(n)), int32(rng.IntN(n))})
		}
		g, _ := NewGraph("t", n, edges)
		const inf = 1 << 20
		fw := make([]int, n*n)
		for i := range fw {
			fw[i] = inf
		}
		for i := 0; i < n; i++ {
			fw[i*n+i] = 0
		}
		for _, e := range g.Edges {
			fw[int(e[0])*n+int(e[1])], fw[int(e[1])*n+int(e[0])] = 1, 1
		}
		for k := 0; k < n; k++ {
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					fw[i*n+j] = min(fw[i*n+j], fw[i*n+k]+fw[k*n+j])
				}
			}
		}
		for _, workers := range []int{1, 3} {
			for _, cutoff := range []int{0, 2} {
				d, err := HopDistances(n, g.Edges, cutoff, workers)
				if err != nil {
					t.Fatal(err)
				}
				for i := 0; i < n*n; i++ {
					want := fw[i]
					if want == inf || (cutoff > 0 && want > cutoff) {
						want = int(Unreachable)
					}
					if int(d.D[i]) != want {
						t.Fatalf("trial %d cutoff %d: d[%d] = %d, want %d", trial, cutoff, i, d.D[i], want)
					}
				}
			}
		}
	}
	if _, err := HopDistances(40000, nil, 0, 1); err == nil {
		t.Error("a 40,000-node table (3 GiB) was accepted")
	}
}

func TestSplitIsLeakFree(t *testing.T) {
	ds, _ := Communities(DefaultCommunities, rand.New(rand.NewPCG(3, 3)))
	g := ds.Graphs[0]
	for _, task := range []Task{TaskLink, TaskPair} {
		s, err := NewSplit(g, task, rand.New(rand.NewPCG(4, 4)))
		if err != nil {
			t.Fatal(err)
		}
		p := len(s.Train) + len(s.Val) + len(s.Test)
		if len(s.Train) != int(0.8*float64(p)) || len(s.ValNeg) != len(s.Val) || len(s.TestNeg) != len(s.Test) {
			t.Fatalf("%s: sizes %d/%d/%d, negatives %d/%d", task, len(s.Train), len(s.Val), len(s.Test), len(s.ValNeg), len(s.TestNeg))
		}
		fixed := map[uint64]bool{}
		for _, set := range [][]Pair{s.ValNeg, s.TestNeg} {
			for _, q := range set {
				if q.I >= q.J || s.IsPositive(int(q.J), int(q.I)) || s.IsPositive(int(q.I), int(q.J)) {
					t.Fatalf("%s: fixed negative %v is a positive or unordered", task, q)
				}
				if fixed[key(int(q.I), int(q.J))] {
					t.Fatalf("%s: negative %v drawn twice", task, q)
				}
				fixed[key(int(q.I), int(q.J))] = true
			}
		}
		tn := s.SampleTrainNegatives(rand.New(rand.NewPCG(5, 5)), len(s.Train))
		for _, q := range tn {
			if s.IsPositive(int(q.I), int(q.J)) || fixed[key(int(q.I), int(q.J))] {
				t.Fatalf("%s: training negative %v leaks", task, q)
			}
		}
		if task == TaskLink && len(s.MP) != len(s.Train) {
			t.Errorf("link: %d message-passing edges, want the %d training edges", len(s.MP), len(s.Train))
		}
		if task == TaskPair && len(s.MP) != len(g.Edges) {
			t.Errorf("pair: message passing should use the full graph")
		}
	}
}

// TestBFSRows: rows from chosen sources equal the all-pairs table's rows
// (itself checked against Floyd–Warshall), for 1 and 3 workers and with a
// cutoff.
func TestBFSRows(t *testing.T) {
	ds, _ := Communities(CommunitiesConfig{Cliques: 6, Size: 5, Rewire: 0.2}, rand.New(rand.NewPCG(4, 4)))
	g := ds.Graphs[0]
	all, err := HopDistances(g.N, g.Edges, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	cut, _ := HopDistances(g.N, g.Edges, 2, 1)
	src := []int{0, 7, 7, 29, 13}
	a := NewAdj(g.N, g.Edges)
	for _, workers := range []int{1, 3} {
		for _, c := range []struct {
			cutoff int
			want   *Distances
		}{{0, all}, {2, cut}} {
			rows := make([]uint16, len(src)*g.N)
			a.BFSRows(src, c.cutoff, rows, workers)
			for k, s := range src {
				for j := 0; j < g.N; j++ {
					if rows[k*g.N+j] != c.want.At(s, j) {
						t.Fatalf("workers %d cutoff %d: d(%d,%d) = %d, want %d", workers, c.cutoff, s, j, rows[k*g.N+j], c.want.At(s, j))
					}
				}
			}
		}
	}
}

// TestBFSLarge: BFS, which reads the offsets and neighbour lists of nodes
// up to 16 queue places ahead, equals a plain reference BFS on graphs whose
// queues run long — a grid, a random geometric graph, and one whose last
// nodes are isolated (their offsets equal len(Nb)) — with and without a
// cutoff, from a middle node and from an isolated one.
func TestBFSLarge(t *testing.T) {
	ref := func(a *Adj, s, cutoff int) []uint16 {
		d := make([]uint16, a.N)
		for i := range d {
			d[i] = Unreachable
		}
		d[s] = 0
		for frontier := []int{s}; len(frontier) > 0; {
			var next []int
			for _, u := range frontier {
				if cutoff > 0 && int(d[u]) >= cutoff {
					continue
				}
				for _, v := range a.Nb[a.Off[u]:a.Off[u+1]] {
					if d[v] == Unreachable {
						d[v] = d[u] + 1
						next = append(next, int(v))
					}
				}
			}
			frontier = next
		}
		return d
	}
	var graphs []*Adj
	for _, spec := range []string{"grid:60x70", "rgg:5000:6"} {
		ds, err := Generate(spec, rand.New(rand.NewPCG(5, 5)))
		if err != nil {
			t.Fatal(err)
		}
		graphs = append(graphs, NewAdj(ds.Graphs[0].N, ds.Graphs[0].Edges))
	}
	var path [][2]int32 // a path of 100 nodes, then 3 isolated ones
	for i := int32(0); i < 99; i++ {
		path = append(path, [2]int32{i, i + 1})
	}
	graphs = append(graphs, NewAdj(103, path))
	for gi, a := range graphs {
		row := make([]uint16, a.N)
		var queue []int32
		for _, s := range []int{a.N / 2, a.N - 1} {
			for _, cutoff := range []int{0, 3} {
				queue = a.BFS(s, cutoff, row, queue)
				if want := ref(a, s, cutoff); !slices.Equal(row, want) {
					t.Fatalf("graph %d, source %d, cutoff %d: the BFS row differs from the reference", gi, s, cutoff)
				}
			}
		}
	}
}

// TestGenerate: generator specs build the graphs they name and refuse
// malformed ones.
func TestGenerate(t *testing.T) {
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(1, 1)) }
	g, err := Generate("grid:3x4", rng())
	if err != nil || g.NumNodes() != 12 || g.NumEdges() != 3*3+2*4 {
		t.Fatalf("grid:3x4: %v nodes %d edges %d", err, g.NumNodes(), g.NumEdges())
	}
	c, err := Generate("caveman:20x20", rng())
	ref, _ := Communities(DefaultCommunities, rng())
	if err != nil || !reflect.DeepEqual(c.Graphs[0].Edges, ref.Graphs[0].Edges) {
		t.Fatalf("caveman:20x20 differs from Communities (%v)", err)
	}
	if c0, _ := Generate("caveman:10x5:0", rng()); c0.NumEdges() != 10*10 {
		t.Errorf("caveman:10x5:0 has %d edges, want 100", c0.NumEdges())
	}
	// A graph's node ids are 32-bit (its edges, pairs and adjacencies):
	// 2³¹ nodes are refused before anything is allocated.
	for _, bad := range []string{"grid:3", "grid:0x4", "caveman:5x5:x", "caveman:1x5", "grid:2x2:1", "ring:5", "grid:65536x32768", "rgg:2147483648:4"} {
		if _, err := Generate(bad, rng()); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestComponents: components are numbered by their smallest node; an
// isolated node is its own component.
func TestComponents(t *testing.T) {
	a := NewAdj(7, [][2]int32{{0, 2}, {2, 4}, {1, 3}, {5, 6}})
	want := []int{0, 1, 0, 1, 0, 2, 2}
	if got := a.Components(); !reflect.DeepEqual(got, want) {
		t.Errorf("components %v, want %v", got, want)
	}
	if got := NewAdj(3, nil).Components(); !reflect.DeepEqual(got, []int{0, 1, 2}) {
		t.Errorf("edgeless: %v", got)
	}
}

// TestRGG: rgg:N:D has as many edges as there are point pairs closer than
// r (brute force over the points drawn again from the same seed), mean
// degree near D, is deterministic for a seed, and refuses bad specs.
func TestRGG(t *testing.T) {
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(1, 1)) }
	g, err := Generate("rgg:3000:8", rng())
	if err != nil {
		t.Fatal(err)
	}
	mean := 2 * float64(g.NumEdges()) / float64(g.NumNodes())
	if g.NumNodes() != 3000 || mean < 7 || mean > 8.2 || !g.Identity {
		t.Fatalf("rgg:3000:8: %d nodes, mean degree %.2f, identity %v", g.NumNodes(), mean, g.Identity)
	}
	again, _ := Generate("rgg:3000:8", rng())
	if !slices.Equal(again.Graphs[0].Edges, g.Graphs[0].Edges) {
		t.Fatal("the same seed gave another graph")
	}
	// Brute force: the points in draw order, every pair tested.
	r := rng()
	n := 3000
	xs, ys := make([]float64, n), make([]float64, n)
	for i := range xs {
		xs[i], ys[i] = r.Float64(), r.Float64()
	}
	rad := math.Sqrt(8 / (math.Pi * float64(n)))
	want := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if dx, dy := xs[i]-xs[j], ys[i]-ys[j]; dx*dx+dy*dy < rad*rad {
				want++
			}
		}
	}
	if g.NumEdges() != want {
		t.Fatalf("%d edges, brute force %d", g.NumEdges(), want)
	}
	for _, bad := range []string{"rgg:1:4", "rgg:100", "rgg:100:0", "rgg:100:x", "rgg:100:200"} {
		if _, err := Generate(bad, rng()); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestGeneratedNodes: the node count read from a specification is the
// generated graph's, and a malformed one is an error.
func TestGeneratedNodes(t *testing.T) {
	for _, spec := range []string{"grid:3x7", "caveman:6x5", "caveman:6x5:0.1", "rgg:300:6", "ba:300:2"} {
		ds, err := Generate(spec, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if n, err := GeneratedNodes(spec); err != nil || n != ds.NumNodes() {
			t.Errorf("GeneratedNodes(%s) = %d, %v; the graph has %d nodes", spec, n, err, ds.NumNodes())
		}
	}
	for _, spec := range []string{"grid:3", "rgg:x:6", "caveman:ax5"} {
		if n, err := GeneratedNodes(spec); err == nil {
			t.Errorf("GeneratedNodes(%s) = %d, want an error", spec, n)
		}
	}
}

// TestNewGraphNodeLimit: a graph of 2³¹ nodes or more is refused with its
// name (node ids are 32-bit); 2³¹−1 is the largest admitted count.
func TestNewGraphNodeLimit(t *testing.T) {
	_, err := NewGraph("huge", math.MaxInt32+1, nil)
	if err == nil || !strings.Contains(err.Error(), "huge") || !strings.Contains(err.Error(), "2³¹−1") {
		t.Fatalf("2³¹ nodes: %v", err)
	}
	if _, err := NewGraph("edge", 3, [][2]int32{{0, 3}}); err == nil || !strings.Contains(err.Error(), "outside 3 nodes") {
		t.Fatalf("an endpoint outside the nodes: %v", err)
	}
}

// TestImplicitIDsAndSharedRow: NewGraph stores no ids (node i's is i) and
// a constant feature is one shared row, and the accessors read them as
// the N stored values they replace; a union mixes graphs with and without
// stored ids.
func TestImplicitIDsAndSharedRow(t *testing.T) {
	g, err := NewGraph("g", 4, [][2]int32{{0, 1}, {2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if g.IDs != nil || g.ID(3) != 3 || !slices.Equal(g.NodeIDs(), []uint64{0, 1, 2, 3}) {
		t.Fatalf("implicit ids: stored %v, ID(3) %d, NodeIDs %v", g.IDs, g.ID(3), g.NodeIDs())
	}
	if r := g.XRow(2); len(r) != 0 {
		t.Fatalf("featureless row %v", r)
	}
	g.XDim = 3 // a width with no stored rows: still no row (it used to slice nil past its end)
	if r := g.XRow(2); r != nil {
		t.Fatalf("featureless row with XDim 3: %v", r)
	}
	g.XDim = 0
	g.SetConstantFeature()
	if len(g.X) != 1 || !g.XShared || g.XDim != 1 {
		t.Fatalf("constant feature stored as %v (shared %v, width %d)", g.X, g.XShared, g.XDim)
	}
	for i := range g.N {
		if r := g.XRow(i); !slices.Equal(r, []float64{1}) || cap(r) != 1 {
			t.Fatalf("node %d row %v (cap %d)", i, r, cap(r))
		}
	}
	h := &Graph{Name: "h", N: 3, IDs: []uint64{7, 9, 11}, X: []float64{1, 2, 3, 4, 5, 6}, XDim: 2}
	if h.ID(1) != 9 || !slices.Equal(h.XRow(2), []float64{5, 6}) || cap(h.XRow(1)) != 2 {
		t.Fatalf("stored: ID(1) %d, XRow(2) %v", h.ID(1), h.XRow(2))
	}
	if got := NewUnion([]*Graph{g, h}).IDs(); !slices.Equal(got, []uint64{0, 1, 2, 3, 7, 9, 11}) {
		t.Fatalf("union ids %v", got)
	}
	h.X[3] = 1e39
	if err := h.CheckFloat32(); err == nil || !strings.Contains(err.Error(), "node 9 attribute 2") {
		t.Fatalf("CheckFloat32: %v", err)
	}
	g.X[0] = -1e39
	if err := g.CheckFloat32(); err == nil || !strings.Contains(err.Error(), "node 0 attribute 1") {
		t.Fatalf("CheckFloat32 on the shared row: %v", err)
	}
}

// TestBA: ba:N:M joins each node after the first M+1 to M distinct earlier
// nodes (the star 0–1…M before them), is deterministic for a seed, grows
// hubs (preferential attachment: a uniform choice would give the first
// nodes a degree of about M·ln N, not ≈ M·√N), and refuses bad specs.
func TestBA(t *testing.T) {
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(1, 1)) }
	const n, m = 20000, 3
	g, err := Generate("ba:20000:3", rng())
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != n || g.NumEdges() != m+(n-m-1)*m || !g.Identity {
		t.Fatalf("ba:20000:3: %d nodes, %d edges, identity %v", g.NumNodes(), g.NumEdges(), g.Identity)
	}
	earlier := make([][]int32, n) // each node's neighbours with smaller ids
	deg := make([]int, n)
	for _, e := range g.Graphs[0].Edges {
		u, v := min(e[0], e[1]), max(e[0], e[1])
		earlier[v] = append(earlier[v], u)
		deg[u]++
		deg[v]++
	}
	for v := 1; v < n; v++ {
		want := m
		if v <= m {
			want = 1
		}
		if len(earlier[v]) != want {
			t.Fatalf("node %d has %d earlier neighbours, want %d", v, len(earlier[v]), want)
		}
	}
	if deg[0] < 100 || slices.Max(deg) < 200 {
		t.Errorf("node 0 has degree %d, the largest is %d: no hubs", deg[0], slices.Max(deg))
	}
	if g.Graphs[0].Labels[0] != 0 || g.Graphs[0].Labels[n-1] != 9 {
		t.Errorf("labels %d … %d, want arrival deciles 0 … 9", g.Graphs[0].Labels[0], g.Graphs[0].Labels[n-1])
	}
	again, _ := Generate("ba:20000:3", rng())
	if !slices.Equal(again.Graphs[0].Edges, g.Graphs[0].Edges) {
		t.Fatal("the same seed gave another graph")
	}
	for _, bad := range []string{"ba:1:1", "ba:100", "ba:100:0", "ba:100:100", "ba:x:2", "ba:2147483647:4"} {
		if _, err := Generate(bad, rng()); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
