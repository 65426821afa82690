package engine

import (
	"fmt"
	"math"
	"sync"
)

// Adjacency is the message-passing structure of a (possibly disjoint-union)
// graph with N nodes: the symmetric 0/1 adjacency without self-loops, plus the
// normalised variants layers need, each computed once and cached (like PyG's
// gcn_norm).
type Adjacency struct {
	N int
	A *CSR // symmetric, no self-loops, values 1

	mu    sync.Mutex
	cache map[string]*CSR
	batchState
}

// NewAdjacency builds the adjacency of n nodes from undirected edges. Each
// edge may be listed once or twice; self-loops and duplicates are dropped.
// It panics on an out-of-range endpoint.
func NewAdjacency(n int, edges [][2]int) *Adjacency {
	es := make([]Entry, 0, 2*len(edges))
	seen := make(map[[2]int]bool, 2*len(edges))
	for _, e := range edges {
		u, v := e[0], e[1]
		if u < 0 || v < 0 || u >= n || v >= n {
			panic(fmt.Sprintf("engine: edge (%d,%d) outside %d nodes", u, v, n))
		}
		if u == v {
			continue
		}
		if u > v {
			u, v = v, u
		}
		if seen[[2]int{u, v}] {
			continue
		}
		seen[[2]int{u, v}] = true
		es = append(es, Entry{u, v, 1}, Entry{v, u, 1})
	}
	return &Adjacency{N: n, A: NewCSR(n, n, es), cache: map[string]*CSR{}}
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
		mm.Assign(m.RowPtr, m.ColIdx, m.Val)
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
		es := make([]Entry, 0, a.A.NNZ()+a.N)
		inv := make([]float64, a.N)
		for i := range inv {
			inv[i] = 1 / math.Sqrt(float64(deg[i]+1))
			es = append(es, Entry{i, i, inv[i] * inv[i]})
		}
		for r := 0; r < a.N; r++ {
			for k := a.A.RowPtr[r]; k < a.A.RowPtr[r+1]; k++ {
				c := a.A.ColIdx[k]
				es = append(es, Entry{r, c, inv[r] * inv[c]})
			}
		}
		return NewCSR(a.N, a.N, es)
	})
}

// MeanNorm returns the row-normalised adjacency D^{-1}A (mean over
// neighbours; rows of isolated nodes are empty). Not symmetric: its gradient
// uses the cached transpose.
func (a *Adjacency) MeanNorm() *CSR {
	return a.cached("mean", func() *CSR {
		es := make([]Entry, 0, a.A.NNZ())
		for r := 0; r < a.N; r++ {
			d := a.A.RowPtr[r+1] - a.A.RowPtr[r]
			for k := a.A.RowPtr[r]; k < a.A.RowPtr[r+1]; k++ {
				es = append(es, Entry{r, a.A.ColIdx[k], 1 / float64(d)})
			}
		}
		return NewCSR(a.N, a.N, es)
	})
}

// Sum returns A itself (sum over neighbours).
func (a *Adjacency) Sum() *CSR { return a.A }

// WithSelfLoops returns A+I with unit values (the edge set GAT attends over).
func (a *Adjacency) WithSelfLoops() *CSR {
	return a.cached("selfloops", func() *CSR {
		es := make([]Entry, 0, a.A.NNZ()+a.N)
		for i := 0; i < a.N; i++ {
			es = append(es, Entry{i, i, 1})
		}
		for r := 0; r < a.N; r++ {
			for k := a.A.RowPtr[r]; k < a.A.RowPtr[r+1]; k++ {
				es = append(es, Entry{r, a.A.ColIdx[k], 1})
			}
		}
		return NewCSR(a.N, a.N, es)
	})
}
