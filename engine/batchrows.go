package engine

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
)

// A batch's feature rows: the rows of its node slots gathered (or computed
// from a view) into the batch features' own buffers, or into a second set
// staged while a step reads the first (StageRows, UseStaged).

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

// viewAhead is how many rows ahead loadViewRows calls a view's ViewAhead:
// a batch's rows of landmark hop counts (128 B a row at 64 landmarks,
// scattered over N rows) were read 3.5× faster with 8 (a throwaway
// benchmark of 10⁵ random rows of 10⁶; docs/large-graphs.md).
const viewAhead = 8

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
			at := func(i int) int {
				if order != nil {
					return int(order[i])
				}
				return i
			}
			for i := lo; i < hi; i++ {
				if src.ViewAhead != nil && i+viewAhead < hi {
					src.ViewAhead(rows[at(i+viewAhead)])
				}
				r := at(i)
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
