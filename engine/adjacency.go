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
	// A is the symmetric 0/1 structure without self-loops. NewAdjacency's
	// has no values (Val nil: its ones were 8 B an entry, 1.3 GB at 10⁸
	// edges, read only when a layer sums over neighbours): Sum gives them.
	A *CSR

	mu    sync.Mutex
	cache map[string]*CSR
	batchState
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
func NewAdjacency(n int, edges [][2]int) *Adjacency {
	ptr := make([]int, n+1)
	for _, e := range edges {
		u, v := e[0], e[1]
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
		if u, v := e[0], e[1]; u != v {
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
	return &Adjacency{N: n, A: a, cache: map[string]*CSR{}}
}

// Degree returns the number of neighbours of each node (a batch
// adjacency: the degrees Load was given, when it was given some).
func (a *Adjacency) Degree() []int {
	if a.deg != nil {
		return a.deg
	}
	d := make([]int, a.N)
	for i := range d {
		d[i] = a.A.RowPtr[i+1] - a.A.RowPtr[i]
	}
	return d
}

func (a *Adjacency) cached(key string, f func() *CSR) *CSR {
	a.mu.Lock()
	defer a.mu.Unlock()
	if m, ok := a.cache[key]; ok {
		return m
	}
	m := f()
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
	return a.cached("gcn", func() *CSR {
		deg := a.Degree()
		inv := make([]float64, a.N)
		for i := range inv {
			inv[i] = 1 / math.Sqrt(float64(deg[i]+1))
		}
		return a.withDiagonal(func(r int) float64 { return inv[r] * inv[r] }, func(r, c int) float64 { return inv[r] * inv[c] })
	})
}

// withDiagonal builds A + diagonal in CSR order directly from A's sorted
// rows (no sort): entry (r, r) = diag(r), entry (r, c) = off(r, c). A has
// no self-loops, so this is exactly NewCSR of the same entries.
// O(nnz + N).
func (a *Adjacency) withDiagonal(diag func(r int) float64, off func(r, c int) float64) *CSR {
	m := &CSR{Rows: a.N, Cols: a.N, RowPtr: make([]int, a.N+1),
		ColIdx: make([]int, 0, a.A.NNZ()+a.N), Val: make([]float64, 0, a.A.NNZ()+a.N)}
	for r := 0; r < a.N; r++ {
		placed := false
		for k := a.A.RowPtr[r]; k < a.A.RowPtr[r+1]; k++ {
			c := a.A.ColIdx[k]
			if !placed && c > r {
				m.ColIdx, m.Val, placed = append(m.ColIdx, r), append(m.Val, diag(r)), true
			}
			m.ColIdx, m.Val = append(m.ColIdx, c), append(m.Val, off(r, c))
		}
		if !placed {
			m.ColIdx, m.Val = append(m.ColIdx, r), append(m.Val, diag(r))
		}
		m.RowPtr[r+1] = len(m.ColIdx)
	}
	return m
}

// MeanNorm returns the row-normalised adjacency D^{-1}A (mean over
// neighbours; rows of isolated nodes are empty). Not symmetric: its gradient
// uses the cached transpose.
func (a *Adjacency) MeanNorm() *CSR {
	return a.cached("mean", func() *CSR {
		m := &CSR{Rows: a.N, Cols: a.N, RowPtr: append([]int(nil), a.A.RowPtr...),
			ColIdx: append([]int(nil), a.A.ColIdx...), Val: make([]float64, a.A.NNZ())}
		for r := 0; r < a.N; r++ {
			d := a.A.RowPtr[r+1] - a.A.RowPtr[r]
			for k := a.A.RowPtr[r]; k < a.A.RowPtr[r+1]; k++ {
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
	if a.A.Val != nil || a.A.NNZ() == 0 {
		return a.A
	}
	return a.cached("sum", func() *CSR {
		val := make([]float64, a.A.NNZ())
		for k := range val {
			val[k] = 1
		}
		return &CSR{Rows: a.N, Cols: a.N, RowPtr: a.A.RowPtr, ColIdx: a.A.ColIdx, Val: val}
	})
}

// WithSelfLoops returns A+I with unit values (the edge set GAT attends over).
func (a *Adjacency) WithSelfLoops() *CSR {
	return a.cached("selfloops", func() *CSR {
		one := func(int) float64 { return 1 }
		return a.withDiagonal(one, func(int, int) float64 { return 1 })
	})
}
