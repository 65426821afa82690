package engine

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
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

// NewBatchFeatures returns features of n row slots with src's columns,
// filled by LoadRows. Its dense part is a constant with its own identity
// (never merged with another batch constant).
//
// Compacted sources (Dense32) give compacted batches: the rows are copied
// as they are stored, into the constant's own float32 values.
func NewBatchFeatures(src *Features, n int) *Features {
	f := &Features{N: n, DenseDim: src.DenseDim}
	if src.Dense32 != nil || src.View != nil {
		f.Dense32 = make([]float32, n*src.DenseDim)
	} else {
		f.Dense = make([]float64, n*src.DenseDim)
	}
	if src.Sparse != nil {
		f.Sparse = NewMutableCSR(n, src.Sparse.Cols)
	}
	f.once.Do(func() {
		v32 := f.Dense32
		if v32 == nil {
			v32 = make([]float32, len(f.Dense))
		}
		f.dense = &ConstMatrix{Rows: n, Cols: src.DenseDim, V: f.Dense, v32: v32,
			id: 0xb17f_0000_0000_0000 | mutableIDs.Add(1)}
	})
	return f
}

// viewRowsPerWorker is the least number of rows a worker of loadViewRows
// computes (below it, one goroutine does all).
const viewRowsPerWorker = 4096

// loadViewRows computes rows rows of the view src into dst (row r of dst
// from row rows[r]), in fixed ranges on up to GOMAXPROCS goroutines — in
// increasing order of the source rows when src.ViewInOrder: a spilled
// source is read 16 rows at a time, so neighbouring rows of one batch then
// share their reads (issue 37: a grid's batch or inference chunk holds
// runs of consecutive nodes, listed hop by hop). Every row is computed
// alone, so the values depend neither on the order nor on the split.
func loadViewRows(dst []float32, src *Features, rows []int) {
	d := src.DenseDim
	var order []int32 // nil: in batch order (a held source: no index to build on the training step)
	if src.ViewInOrder {
		order = make([]int32, len(rows))
		for r := range order {
			order[r] = int32(r)
		}
		slices.SortFunc(order, func(a, b int32) int { return rows[a] - rows[b] })
	}
	w := max(1, min(runtime.GOMAXPROCS(0), len(rows)/viewRowsPerWorker))
	var wg sync.WaitGroup
	for k := range w {
		lo, hi := k*len(rows)/w, (k+1)*len(rows)/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			scratch := make([]float64, src.ViewScratch)
			for i := lo; i < hi; i++ {
				r := i
				if order != nil {
					r = int(order[i])
				}
				src.View(rows[r], dst[r*d:(r+1)*d], scratch)
			}
		}()
	}
	wg.Wait()
}

// copyRows sets row r of dst to row rows[r] of src (d values a row), over
// the fixed row partition in parallel when the copy is large.
func copyRows(dst, src []float32, rows []int, d int) {
	if len(rows)*d < minParallelWork { // no closure: it would be allocated every call
		copyRowRange(dst, src, rows, d, 0, len(rows))
		return
	}
	parallelRanges(evenBounds(len(rows)), len(rows)*d, func(lo, hi int) { copyRowRange(dst, src, rows, d, lo, hi) })
}

func copyRowRange(dst, src []float32, rows []int, d, lo, hi int) {
	for r := lo; r < hi; r++ {
		s := rows[r]
		copy(dst[r*d:(r+1)*d], src[s*d:(s+1)*d])
	}
}

// LoadRows sets row r of batch features f to row rows[r] of src (the
// features f was made from), and every row from len(rows) on to zero. It
// panics when rows has more entries than f has slots.
func (f *Features) LoadRows(src *Features, rows []int) {
	c := f.constant()
	f.fillRows(src, rows, f.Dense, c.v32)
	if f.Sparse != nil {
		ptr, cols, val := sparseRows(src.Sparse, rows, f.N)
		f.Sparse.Assign(ptr, cols, val)
	}
}

// StageRows is LoadRows into a second set of buffers (made on the first
// call), leaving f's own rows as they are — a step may be reading them —
// until UseStaged makes the staged rows f's: a batch prepared while the
// previous step trains. It panics when rows staged before were not used.
func (f *Features) StageRows(src *Features, rows []int) {
	c, st := f.constant(), &f.staged
	if st.ready {
		panic("engine: StageRows: the rows staged before were not used")
	}
	if st.v32 == nil {
		st.v32 = make([]float32, len(c.v32))
		if f.Dense != nil {
			st.dense = make([]float64, len(f.Dense))
		}
	}
	f.fillRows(src, rows, st.dense, st.v32)
	if f.Sparse != nil {
		st.ptr, st.cols, st.val = sparseRows(src.Sparse, rows, f.N)
	}
	st.ready = true
}

// UseStaged makes the rows StageRows loaded f's own (the buffers trade
// places: no copy). It panics when none are staged.
func (f *Features) UseStaged() {
	c, st := f.constant(), &f.staged
	if !st.ready {
		panic("engine: UseStaged: no rows staged")
	}
	c.v32, st.v32 = st.v32, c.v32
	if f.Dense32 != nil {
		f.Dense32 = c.v32
	} else {
		f.Dense, st.dense = st.dense, f.Dense
		c.V = f.Dense
	}
	if f.Sparse != nil {
		f.Sparse.assign(st.ptr, st.cols, st.val) // sparseRows made them: taken, not copied
		st.ptr, st.cols, st.val = nil, nil, nil
	}
	st.ready = false
}

// stagedRows is the second set of buffers of StageRows.
type stagedRows struct {
	dense []float64 // the float64 rows (uncompacted features), converted into v32
	v32   []float32 // the constant's values: the rows themselves when compacted
	ptr   []int     // the sparse part's rows
	cols  []int
	val   []float64
	ready bool
}

// fillRows sets row r of the dense buffers (dense: float64 storage, or nil
// when compacted; v32: the constant's float32 values) to row rows[r] of src
// and the rows from len(rows) on to zero.
func (f *Features) fillRows(src *Features, rows []int, dense []float64, v32 []float32) {
	if len(rows) > f.N {
		panic(fmt.Sprintf("engine: LoadRows: %d rows for %d slots", len(rows), f.N))
	}
	d := f.DenseDim
	switch {
	case (f.Dense32 != nil) != (src.Dense32 != nil || src.View != nil) && d > 0:
		panic("engine: LoadRows: batch and source features differ in storage (one compacted)")
	case src.View != nil:
		loadViewRows(v32, src, rows)
		clear(v32[len(rows)*d:])
	case f.Dense32 != nil:
		copyRows(v32, src.Dense32, rows, d)
		clear(v32[len(rows)*d:])
	default:
		for r, s := range rows {
			copy(dense[r*d:(r+1)*d], src.Dense[s*d:(s+1)*d])
		}
		clear(dense[len(rows)*d:])
		for i, v := range dense {
			v32[i] = float32(v)
		}
	}
}

// sparseRows is the n-row CSR whose row r is row rows[r] of sp (fresh
// arrays), the rows from len(rows) on empty.
func sparseRows(sp *CSR, rows []int, n int) (ptr, cols []int, val []float64) {
	ptr = make([]int, n+1)
	for r, s := range rows {
		cols = append(cols, sp.ColIdx[sp.RowPtr[s]:sp.RowPtr[s+1]]...)
		val = append(val, sp.Val[sp.RowPtr[s]:sp.RowPtr[s+1]]...)
		ptr[r+1] = len(cols)
	}
	for r := len(rows) + 1; r <= n; r++ {
		ptr[r] = len(cols)
	}
	return ptr, cols, val
}

// batchState is the part of Adjacency only batch adjacencies use.
type batchState struct {
	derive map[string]func(*Adjacency) *CSR // how each cached variant is computed
	deg    []int                            // Load's degree override
	staged *stagedAdjacency                 // the next batch's content (Stage), or nil
}
