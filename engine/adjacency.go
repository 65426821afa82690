package engine

import (
	"fmt"
	"math"
	"slices"
	"sync"
)

// Adjacency is the message-passing structure of a (possibly disjoint-union)
// graph with N nodes: the symmetric 0/1 adjacency without self-loops, plus the
// normalised variants layers need, each computed once and cached (like PyG's
// gcn_norm).
type Adjacency struct {
	N int
	// a is the symmetric 0/1 structure without self-loops (Structure).
	// NewAdjacency's has no values (Val nil: its ones were 8 B an entry,
	// 1.3 GB at 10⁸ edges, read only when a layer sums over neighbours):
	// Sum gives them. An adjacency of Links has none until a layer asks.
	a *CSR
	// links is the same structure with 32-bit indices (Links): given to
	// NewAdjacencyLinks, or made from a on first use.
	links Links

	mu    sync.Mutex
	cache map[string]*CSR
	batchState
}

// NewAdjacencyLinks is the adjacency of the structure l (sorted rows,
// no self-loops or repeats; it panics otherwise; symmetric — u in v's row
// exactly when v is in u's, as an undirected graph's both-way arcs are —
// which it does not check and Subgraph's staging relies on), sharing l's arrays: a
// mini-batch run's whole graph, which batches read through Links and no
// layer multiplies by, costs l alone (the BFS's own adjacency, issue 37).
// A layer on it makes the CSR on first use (Structure).
func NewAdjacencyLinks(l Links) *Adjacency {
	n := l.Nodes()
	l.check(n)
	return &Adjacency{N: n, links: l, cache: map[string]*CSR{}}
}

// Structure is the symmetric 0/1 structure without self-loops as a CSR
// (no values unless a batch adjacency's), made from the links once when
// the adjacency was given as links.
func (a *Adjacency) Structure() *CSR {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.structure()
}

// structure is Structure for callers holding a.mu (cached's makers).
func (a *Adjacency) structure() *CSR {
	if a.a == nil {
		a.a = a.links.csrOf()
	}
	return a.a
}

// Links is the structure with 32-bit indices, made from the CSR once when
// the adjacency was built from edges. Not for batch adjacencies (Load
// changes their structure).
func (a *Adjacency) Links() Links {
	if a.derive != nil {
		panic("engine: Links of a batch adjacency")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.links.Off == nil {
		a.links = linksOf(a.a)
	}
	return a.links
}

// NewAdjacency builds the adjacency of n nodes from undirected edges. Each
// edge may be listed once or twice; self-loops and duplicates are dropped.
// It panics on an out-of-range endpoint.
//
// The CSR is filled in place — both directions of every edge counted per
// row, placed, then each row sorted and its repeats dropped — so building
// it holds the CSR's own arrays and one row pointer per node, not an entry
// list, its sorted copy and a set of the edges seen (≈ 3 GB beside the
// result at 2·10⁷ edges).
func NewAdjacency(n int, edges [][2]int32) *Adjacency {
	ptr := make([]int, n+1)
	for _, e := range edges {
		u, v := int(e[0]), int(e[1])
		if u < 0 || v < 0 || u >= n || v >= n {
			panic(fmt.Sprintf("engine: edge (%d,%d) outside %d nodes", u, v, n))
		}
		if u != v {
			ptr[u+1]++
			ptr[v+1]++
		}
	}
	for r := range n {
		ptr[r+1] += ptr[r]
	}
	col, next := make([]int, ptr[n]), slices.Clone(ptr[:n])
	for _, e := range edges {
		if u, v := int(e[0]), int(e[1]); u != v {
			col[next[u]], col[next[v]] = v, u
			next[u]++
			next[v]++
		}
	}
	w := 0
	for r := range n {
		row := col[ptr[r]:ptr[r+1]]
		slices.Sort(row)
		ptr[r] = w
		for k, c := range row {
			if k == 0 || c != row[k-1] {
				col[w] = c
				w++
			}
		}
	}
	ptr[n] = w
	a := &CSR{Rows: n, Cols: n, RowPtr: ptr, ColIdx: slices.Clip(col[:w])}
	if w == 0 {
		a.ColIdx = nil // as an empty NewCSR has it
	}
	return &Adjacency{N: n, a: a, cache: map[string]*CSR{}}
}

// Degree returns the number of neighbours of each node (a batch
// adjacency: the degrees Load was given, when it was given some).
func (a *Adjacency) Degree() []int {
	if a.deg != nil {
		return a.deg
	}
	d := make([]int, a.N)
	if a.a == nil {
		for i := range d {
			d[i] = a.links.Degree(i)
		}
		return d
	}
	for i := range d {
		d[i] = a.a.RowPtr[i+1] - a.a.RowPtr[i]
	}
	return d
}

// cached returns the variant key, made by f(a) on first use. f derives
// it from the adjacency it is given: a batch adjacency derives the next
// batch's from a staged copy (Stage).
func (a *Adjacency) cached(key string, f func(*Adjacency) *CSR) *CSR {
	a.mu.Lock()
	defer a.mu.Unlock()
	if m, ok := a.cache[key]; ok {
		return m
	}
	m := f(a)
	if a.derive != nil { // a batch adjacency: Load recomputes it in place
		mm := NewMutableCSR(m.Rows, m.Cols)
		mm.symmetric = key != "mean" // D^{-1}A is the one variant that is not symmetric
		mm.assign(m.RowPtr, m.ColIdx, m.Val)
		a.derive[key], m = f, mm
	}
	a.cache[key] = m
	return m
}

// GCNNorm returns D^{-1/2}(A+I)D^{-1/2} with D the degree of A+I (Kipf &
// Welling; PyG GCNConv with add_self_loops). Symmetric.
func (a *Adjacency) GCNNorm() *CSR {
	return a.cached("gcn", func(a *Adjacency) *CSR {
		deg := a.Degree()
		inv := make([]float64, a.N)
		for i := range inv {
			inv[i] = 1 / math.Sqrt(float64(deg[i]+1))
		}
		return a.withDiagonal(inv)
	})
}

// withDiagonal builds A + I in CSR order directly from A's sorted rows (no
// sort), entry (r, c) valued scale[r]·scale[c] (the diagonal's
// scale[r]·scale[r]), or 1 when scale is nil. A has no self-loops, so this
// is exactly NewCSR of the same entries. O(nnz + N).
func (a *Adjacency) withDiagonal(scale []float64) *CSR {
	s := a.structure()
	nnz := s.NNZ() + a.N
	m := &CSR{Rows: a.N, Cols: a.N, RowPtr: make([]int, a.N+1), ColIdx: make([]int, nnz), Val: make([]float64, nnz)}
	col, val, in := m.ColIdx, m.Val, s.ColIdx
	if scale == nil { // 1 · 1: every entry exactly 1
		scale = make([]float64, a.N)
		for i := range scale {
			scale[i] = 1
		}
	}
	w := 0
	for r := 0; r < a.N; r++ {
		k, end, sr := s.RowPtr[r], s.RowPtr[r+1], scale[r]
		for ; k < end && in[k] < r; k++ {
			col[w], val[w] = in[k], sr*scale[in[k]]
			w++
		}
		col[w], val[w] = r, sr*sr
		w++
		for ; k < end; k++ {
			col[w], val[w] = in[k], sr*scale[in[k]]
			w++
		}
		m.RowPtr[r+1] = w
	}
	return m
}

// MeanNorm returns the row-normalised adjacency D^{-1}A (mean over
// neighbours; rows of isolated nodes are empty). Not symmetric: its gradient
// uses the cached transpose.
func (a *Adjacency) MeanNorm() *CSR {
	return a.cached("mean", func(a *Adjacency) *CSR {
		s := a.structure()
		m := &CSR{Rows: a.N, Cols: a.N, RowPtr: append([]int(nil), s.RowPtr...),
			ColIdx: append([]int(nil), s.ColIdx...), Val: make([]float64, s.NNZ())}
		for r := 0; r < a.N; r++ {
			d := s.RowPtr[r+1] - s.RowPtr[r]
			for k := s.RowPtr[r]; k < s.RowPtr[r+1]; k++ {
				m.Val[k] = 1 / float64(d)
			}
		}
		return m
	})
}

// Sum returns A with unit values (sum over neighbours): A itself when it
// has them (a batch's), else a CSR sharing A's structure with ones, made
// once.
func (a *Adjacency) Sum() *CSR {
	if s := a.Structure(); s.Val != nil || s.NNZ() == 0 {
		return s
	}
	return a.cached("sum", func(a *Adjacency) *CSR {
		s := a.structure()
		val := make([]float64, s.NNZ())
		for k := range val {
			val[k] = 1
		}
		return &CSR{Rows: a.N, Cols: a.N, RowPtr: s.RowPtr, ColIdx: s.ColIdx, Val: val}
	})
}

// WithSelfLoops returns A+I with unit values (the edge set GAT attends over).
func (a *Adjacency) WithSelfLoops() *CSR {
	return a.cached("selfloops", func(a *Adjacency) *CSR {
		return a.withDiagonal(nil)
	})
}
