package engine_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"testing"

	. "github.com/ignn/ignn/engine"
	. "github.com/ignn/ignn/engine/enginetest"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// csrOf returns the row offsets and columns of a CSR (for Load).
func csrOf(m *CSR) ([]int, []int) { return m.RowPtr, m.ColIdx }

// A batch adjacency loaded with a graph's edges gives the same normalised
// matrices as the immutable adjacency of that graph, and a second load
// replaces them (and their transposes) in place.
func TestBatchAdjacencyLoadMatchesFresh(t *testing.T) {
	g1 := NewAdjacency(5, [][2]int32{{0, 1}, {1, 2}, {2, 3}, {1, 4}})
	g2 := NewAdjacency(5, [][2]int32{{0, 4}, {3, 4}})
	b := NewBatchAdjacency(5)
	gcn, mean, loops := b.GCNNorm(), b.MeanNorm(), b.WithSelfLoops()
	gcnT := gcn.T()
	for _, g := range []*Adjacency{g1, g2} {
		ptr, col := csrOf(g.Structure())
		b.Load(ptr, col, nil)
		for _, c := range []struct {
			name      string
			got, want *CSR
		}{{"gcn", gcn, g.GCNNorm()}, {"mean", mean, g.MeanNorm()}, {"loops", loops, g.WithSelfLoops()}, {"A", b.Sum(), g.Sum()}, {"gcnᵀ", gcnT, g.GCNNorm().T()}} {
			if !slices.Equal(c.got.Dense(), c.want.Dense()) {
				t.Fatalf("%s after load: %v, want %v", c.name, c.got.Dense(), c.want.Dense())
			}
			if !slices.Equal(c.got.Val32(), c.want.Val32()) {
				t.Fatalf("%s float32 values stale", c.name)
			}
		}
	}
	if gcn.ID() == mean.ID() || gcn.ID() == loops.ID() {
		t.Fatal("two mutable matrices share an ID: gorgonia would merge their ops")
	}
}

// Load's degree override changes GCN's normalisation to the given degrees.
func TestBatchAdjacencyDegreeOverride(t *testing.T) {
	g := NewAdjacency(3, [][2]int32{{0, 1}, {1, 2}})
	b := NewBatchAdjacency(3)
	gcn := b.GCNNorm()
	ptr, col := csrOf(g.Structure())
	b.Load(ptr, col, []int{3, 2, 1})
	got := gcn.Dense()
	// entry (0,1) = 1/sqrt((3+1)(2+1)); diagonal (2,2) = 1/(1+1).
	if w := 1 / (2 * math.Sqrt(3)); math.Abs(got[1]-w) > 1e-15 || math.Abs(got[8]-0.5) > 1e-15 {
		t.Fatalf("GCN norm with degrees 3,2,1: %v", got)
	}
}

// LoadRows gathers dense and sparse rows and zeroes the unused slots.
func TestBatchFeaturesLoadRows(t *testing.T) {
	src := &Features{N: 3, DenseDim: 2, Dense: []float64{1, 2, 3, 4, 5, 6},
		Sparse: NewCSR(3, 3, []Entry{{0, 2, 1}, {1, 0, 1}, {2, 1, 1}})}
	f := NewBatchFeatures(src, 4)
	f.LoadRows(src, []int{2, 0, 1, 2})
	f.LoadRows(src, []int{2, 0})
	if want := []float64{5, 6, 1, 2, 0, 0, 0, 0}; !slices.Equal(f.Dense, want) {
		t.Fatalf("dense rows %v, want %v", f.Dense, want)
	}
	if want := []float64{0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0}; !slices.Equal(f.Sparse.Dense(), want) {
		t.Fatalf("sparse rows %v, want %v", f.Sparse.Dense(), want)
	}
}

// One graph built on a batch adjacency computes, after each Load, what a
// graph built on that content computes — forward and backward — and its
// gradient passes the finite-difference check after a reload.
func TestSpMMOnReloadedBatch(t *testing.T) {
	g1 := NewAdjacency(4, [][2]int32{{0, 1}, {1, 2}, {2, 3}})
	g2 := NewAdjacency(4, [][2]int32{{0, 3}, {0, 2}})
	for _, norm := range []func(*Adjacency) *CSR{(*Adjacency).MeanNorm, (*Adjacency).GCNNorm} {
		err := CheckGradient(func(b *Builder) (*G.Node, []*G.Node) {
			adj := NewBatchAdjacency(4)
			ptr, col := csrOf(g1.Structure())
			adj.Load(ptr, col, []int{3, 1, 2, 2})
			x := b.Param("x", Glorot(1), 4, 3)
			y := SpMM(norm(adj), x)
			norm(adj).T() // materialise the transpose, then replace the content
			ptr, col = csrOf(g2.Structure())
			adj.Load(ptr, col, nil)
			return y, []*G.Node{x}
		}, 1e-6, 1e-7)
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range []*Adjacency{g1, g2} {
		want, _ := gradOfSum(t, func(b *Builder, x *G.Node) *G.Node { return SpMM(g.MeanNorm(), x) })
		batch := NewBatchAdjacency(4)
		got, _ := gradOfSum(t, func(b *Builder, x *G.Node) *G.Node {
			y := SpMM(batch.MeanNorm(), x)
			ptr, col := csrOf(g.Structure())
			batch.Load(ptr, col, nil)
			return y
		})
		if !slices.Equal(got, want) {
			t.Fatalf("gradient on the reloaded batch %v, want %v", got, want)
		}
	}
}

// gradOfSum returns ∂Σ(op(x)·r)/∂x for a fixed 4×3 x and fixed weights r.
func gradOfSum(t *testing.T, op func(b *Builder, x *G.Node) *G.Node) ([]float64, []float64) {
	t.Helper()
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(5, "init")), true)
	x := b.Param("x", Glorot(1), 4, 3)
	r := b.Constant("r", []float64{1, -2, 3, 0.5, 1, -1, 2, 2, 0, -3, 1, 1}, 4, 3)
	loss := G.Must(G.Sum(G.Must(G.HadamardProd(op(b, x), r))))
	if _, err := G.Grad(loss, x); err != nil {
		t.Fatal(err)
	}
	vm := G.NewTapeMachine(b.G)
	defer CloseMachine(vm)
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	g, err := x.Grad()
	if err != nil {
		t.Fatal(err)
	}
	return ToFloat64(g.(*tensor.Dense)), ToFloat64(x.Value().(*tensor.Dense))
}

// The normalised adjacencies are built row by row without a sort; they
// equal NewCSR of the same entries (the definition) on a random graph.
func TestNormalisationsEqualTheirDefinition(t *testing.T) {
	rng := Stream(3, "graph")
	var es [][2]int32
	for k := 0; k < 300; k++ {
		es = append(es, [2]int32{int32(rng.IntN(60)), int32(rng.IntN(60))})
	}
	a := NewAdjacency(60, es)
	deg := a.Degree()
	var gcn, mean, loops []Entry
	inv := make([]float64, 60)
	for r := range inv {
		inv[r] = 1 / math.Sqrt(float64(deg[r]+1))
	}
	for r := 0; r < 60; r++ {
		gcn, loops = append(gcn, Entry{r, r, inv[r] * inv[r]}), append(loops, Entry{r, r, 1})
		for k := a.Structure().RowPtr[r]; k < a.Structure().RowPtr[r+1]; k++ {
			c := a.Structure().ColIdx[k]
			gcn = append(gcn, Entry{r, c, inv[r] * inv[c]})
			mean, loops = append(mean, Entry{r, c, 1 / float64(deg[r])}), append(loops, Entry{r, c, 1})
		}
	}
	for _, c := range []struct {
		name      string
		got, want *CSR
	}{{"gcn", a.GCNNorm(), NewCSR(60, 60, gcn)}, {"mean", a.MeanNorm(), NewCSR(60, 60, mean)}, {"loops", a.WithSelfLoops(), NewCSR(60, 60, loops)}} {
		if !slices.Equal(c.got.RowPtr, c.want.RowPtr) || !slices.Equal(c.got.ColIdx, c.want.ColIdx) || !slices.Equal(c.got.Val, c.want.Val) {
			t.Fatalf("%s differs from its definition", c.name)
		}
	}
}

// TestLoadViewRowsInOrder: a view's batch rows are the same whether they
// are computed in batch order or in source-row order (ViewInOrder, for
// spilled sources), for batches split over several workers, and the order
// is what ViewInOrder says; ViewAhead is asked for the row ViewAheadRows
// places ahead of each one computed, within its worker's range.
func TestLoadViewRowsInOrder(t *testing.T) {
	const n, d = 50_000, 3
	var mu sync.Mutex
	var seen, ahead []int
	src := &Features{N: n, DenseDim: d, View: func(r int, dst []float32, _ []float64) {
		mu.Lock()
		seen = append(seen, r)
		mu.Unlock()
		for k := range dst {
			dst[k] = float32(r*10 + k)
		}
	}, ViewAhead: func(r int) {
		mu.Lock()
		ahead = append(ahead, r)
		mu.Unlock()
	}}
	rows := rand.New(rand.NewPCG(1, 2)).Perm(n)[:3*4096+17] // several workers' ranges
	for _, c := range []struct {
		inOrder bool
		procs   int
	}{{false, 1}, {true, 1}, {false, 4}, {true, 4}} {
		inOrder := c.inOrder
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(c.procs))
		src.ViewInOrder, seen, ahead = inOrder, nil, nil
		b := NewBatchFeatures(src, len(rows)+5)
		b.LoadRows(src, rows)
		for i, r := range rows {
			for k := range d {
				if got := b.Dense32[i*d+k]; got != float32(r*10+k) {
					t.Fatalf("in order %v: row %d col %d = %v, want %v", inOrder, i, k, got, r*10+k)
				}
			}
		}
		for _, v := range b.Dense32[len(rows)*d:] {
			if v != 0 {
				t.Fatalf("in order %v: padding row not zero", inOrder)
			}
		}
		if c.procs == 1 && !slices.Equal(seen, map[bool][]int{false: rows, true: slices.Sorted(slices.Values(rows))}[inOrder]) {
			t.Fatalf("in order %v, one worker: rows computed in the wrong order", inOrder)
		}
		if c.procs == 1 && !slices.Equal(ahead, seen[ViewAheadRows:]) {
			t.Fatalf("in order %v, one worker: ViewAhead asked for %d rows, not the computed order %d places on", inOrder, len(ahead), ViewAheadRows)
		}
		workers := min(c.procs, len(rows)/ViewRowsPerWorker)
		computed := map[int]bool{}
		for _, r := range seen {
			computed[r] = true
		}
		if len(ahead) != len(rows)-workers*ViewAheadRows || slices.ContainsFunc(ahead, func(r int) bool { return !computed[r] }) {
			t.Fatalf("in order %v, %d workers: ViewAhead asked for %d rows (want %d), all of them rows computed: %v", inOrder, workers, len(ahead), len(rows)-workers*ViewAheadRows, !slices.ContainsFunc(ahead, func(r int) bool { return !computed[r] }))
		}
	}
}

// TestStagedRows: StageRows leaves the rows a step reads as they are
// (dense, float32, the constant's values, the sparse part), and UseStaged
// then makes f hold what LoadRows of the staged rows gives — for float64,
// compacted and view sources, twice in a row (the buffers are reused), a
// shorter batch after a longer one (the padding zeroed).
func TestStagedRows(t *testing.T) {
	sp := NewCSR(5, 5, []Entry{{0, 2, 1}, {1, 0, 1}, {2, 1, 1}, {3, 4, 1}, {4, 3, 1}})
	dense := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	d32 := make([]float32, len(dense))
	for i, v := range dense {
		d32[i] = float32(v)
	}
	view := func(r int, dst []float32, _ []float64) { copy(dst, d32[2*r:2*r+2]) }
	type snap struct {
		dense  []float64
		d32, c []float32
		sparse []float64
	}
	of := func(f *Features) snap {
		return snap{slices.Clone(f.Dense), slices.Clone(f.Dense32), slices.Clone(ConstantValues(f)), f.Sparse.Dense()}
	}
	for name, src := range map[string]*Features{
		"float64":   {N: 5, DenseDim: 2, Dense: dense, Sparse: sp},
		"compacted": {N: 5, DenseDim: 2, Dense32: d32, Sparse: sp},
		"view":      {N: 5, DenseDim: 2, View: view, Sparse: sp},
	} {
		f := NewBatchFeatures(src, 4)
		f.LoadRows(src, []int{4, 0, 3, 1})
		for _, rows := range [][]int{{2, 1, 0}, {3}, {0, 1, 2, 4}} {
			before := of(f)
			f.StageRows(src, rows)
			if got := of(f); !reflect.DeepEqual(got, before) {
				t.Fatalf("%s: staging rows %v changed the rows in use:\n%v\n%v", name, rows, got, before)
			}
			f.UseStaged()
			fresh := NewBatchFeatures(src, 4)
			fresh.LoadRows(src, rows)
			if got, want := of(f), of(fresh); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: rows %v used: %v, LoadRows gives %v", name, rows, got, want)
			}
		}
		mustPanic(t, name+": UseStaged with none staged", f.UseStaged)
		f.StageRows(src, []int{1})
		mustPanic(t, name+": StageRows twice", func() { f.StageRows(src, []int{2}) })
	}
}

// mustPanic fails t unless f panics.
func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", what)
		}
	}()
	f()
}
