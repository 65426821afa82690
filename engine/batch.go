package engine

import (
	"fmt"
	"slices"
	"sync/atomic"
)

// Mini-batch inputs. One training graph serves every batch: its shapes are
// fixed (a batch has N node slots, padded), and what changes between runs
// is the content of mutable sparse matrices and feature rows the ops hold
// by reference. Ops read that content when they run, so a Load between two
// runs is all a new batch needs; the tape is built once.

var mutableIDs atomic.Uint64

// NewMutableCSR returns an empty rows×cols matrix whose content Assign
// replaces between runs. Its ID names the matrix, not its content (unique
// per matrix), so ops on two mutable matrices are never merged by gorgonia
// whatever they hold when the graph is built.
func NewMutableCSR(rows, cols int) *CSR {
	m := &CSR{Rows: rows, Cols: cols, RowPtr: make([]int, rows+1), mutable: true}
	m.idOnce.Do(func() { m.id = 0xb17c_0000_0000_0000 | mutableIDs.Add(1) })
	return m
}

// Assign replaces a mutable matrix's content with rows given by rowPtr
// (Rows+1 offsets), colIdx (sorted within each row) and val; the slices are
// copied. Its cached float32 values and its transpose (the matrix the
// backward op of SpMM holds) are recomputed in place. Not safe while a graph
// that uses the matrix runs. It panics on an immutable matrix or a
// malformed content.
func (m *CSR) Assign(rowPtr, colIdx []int, val []float64) {
	m.assign(append(m.RowPtr[:0], rowPtr...), append(m.ColIdx[:0], colIdx...), append(m.Val[:0], val...))
}

// assign is Assign taking ownership of the slices (no copy).
func (m *CSR) assign(rowPtr, colIdx []int, val []float64) {
	m.assignWith(rowPtr, colIdx, val, nil, nil)
}

// assignWith is assign with the transpose (and its permutation) made
// already when t is not nil.
func (m *CSR) assignWith(rowPtr, colIdx []int, val []float64, t *CSR, perm []int) {
	if !m.mutable {
		panic("engine: Assign on an immutable CSR")
	}
	if len(rowPtr) != m.Rows+1 || rowPtr[0] != 0 || rowPtr[m.Rows] != len(colIdx) || len(val) != len(colIdx) {
		panic(fmt.Sprintf("engine: Assign: %d row offsets, %d columns, %d values for %d rows", len(rowPtr), len(colIdx), len(val), m.Rows))
	}
	for _, c := range colIdx {
		if c < 0 || c >= m.Cols {
			panic(fmt.Sprintf("engine: Assign: column %d outside %d", c, m.Cols))
		}
	}
	m.RowPtr, m.ColIdx, m.Val = rowPtr, colIdx, val
	if m.v32 != nil {
		m.v32 = m.v32[:0]
		for _, v := range m.Val {
			m.v32 = append(m.v32, float32(v))
		}
	}
	switch {
	case m.t == nil:
	case m.symmetric: // the transpose is the matrix itself: share its arrays
		m.t.RowPtr, m.t.ColIdx, m.t.Val = m.RowPtr, m.ColIdx, m.Val
		m.t.v32 = m.Val32()
		m.perm = nil
	default:
		if t == nil {
			t, perm = transposeOf(m)
		}
		m.t.assign(t.RowPtr, t.ColIdx, t.Val)
		m.perm = perm
	}
}

// NewBatchAdjacency returns the adjacency of n node slots whose edges Load
// replaces between runs. Every normalised variant a model asks for (GCNNorm,
// MeanNorm, WithSelfLoops) is a mutable matrix recomputed by each Load.
func NewBatchAdjacency(n int) *Adjacency {
	a := NewMutableCSR(n, n)
	a.symmetric = true
	return &Adjacency{N: n, a: a, cache: map[string]*CSR{}, batchState: batchState{derive: map[string]func(*Adjacency) *CSR{}}}
}

// Load sets a batch adjacency's edges: row r lists the neighbours
// colIdx[rowPtr[r]:rowPtr[r+1]] of slot r (symmetric, sorted, no
// self-loops; unused slots have none). deg, when not nil, gives the degree
// the normalisations use for each slot (a node's degree in the whole
// graph, so that a batch holding a node's full neighbourhood computes
// exactly what the whole graph would); nil uses the batch's own degrees.
func (a *Adjacency) Load(rowPtr, colIdx []int, deg []int) {
	a.Stage(rowPtr, colIdx, deg)
	a.UseStaged()
}

// Stage is Load's first half: the next batch's structure (rowPtr and
// colIdx are copied) and every cached variant derived from it, with their
// transposes, apart from the matrices a running step reads; UseStaged
// makes them the adjacency's. deg is kept, not copied: the adjacency reads
// it until the next UseStaged.
func (a *Adjacency) Stage(rowPtr, colIdx []int, deg []int) {
	if a.derive == nil {
		panic("engine: Load on an adjacency not made by NewBatchAdjacency")
	}
	if deg != nil && len(deg) != a.N {
		panic(fmt.Sprintf("engine: Load: %d degrees for %d slots", len(deg), a.N))
	}
	ones := make([]float64, len(colIdx))
	for i := range ones {
		ones[i] = 1
	}
	next := &Adjacency{N: a.N, a: &CSR{Rows: a.N, Cols: a.N, RowPtr: slices.Clone(rowPtr), ColIdx: slices.Clone(colIdx), Val: ones},
		batchState: batchState{deg: deg}}
	a.mu.Lock()
	defer a.mu.Unlock()
	st := &stagedAdjacency{next: next, derived: make(map[string]stagedCSR, len(a.cache))}
	for key, m := range a.cache {
		f := stagedCSR{m: a.derive[key](next)}
		if m.t != nil && !m.symmetric {
			f.t, f.perm = transposeOf(f.m)
		}
		st.derived[key] = f
	}
	a.staged = st
}

// UseStaged makes the batch Stage derived the adjacency's (the arrays are
// taken, not copied). It panics when none is staged.
func (a *Adjacency) UseStaged() {
	st := a.staged
	if st == nil {
		panic("engine: UseStaged: no batch adjacency staged")
	}
	a.staged = nil
	a.a.assign(st.next.a.RowPtr, st.next.a.ColIdx, st.next.a.Val)
	a.deg = st.next.deg
	for key, m := range a.cache {
		f := st.derived[key]
		m.assignWith(f.m.RowPtr, f.m.ColIdx, f.m.Val, f.t, f.perm)
	}
}

// stagedAdjacency is a batch adjacency's next content (Stage).
type stagedAdjacency struct {
	next    *Adjacency // the structure and degrees the variants were derived from
	derived map[string]stagedCSR
}

// stagedCSR is a derived variant and, when not symmetric, its transpose.
type stagedCSR struct {
	m, t *CSR
	perm []int
}
