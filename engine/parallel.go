package engine

import (
	"sort"
	"sync"
)

// rowChunks is the fixed number of row ranges the row-wise ops (SpMM,
// EdgeSpMM's row-local modes, RowNormalize, ReLU) split their work into.
// Every row is computed wholly by one goroutine in the same order as the
// serial loop, so results are bit-identical to it whatever GOMAXPROCS is.
const rowChunks = 4

// parallelRanges runs f over the ranges [b[c], b[c+1]) concurrently when
// work is at least minParallelWork, else serially over [b[0], b[last]).
func parallelRanges(b [rowChunks + 1]int, work int, f func(lo, hi int)) {
	if work < minParallelWork {
		f(b[0], b[rowChunks])
		return
	}
	var wg sync.WaitGroup
	for c := 0; c < rowChunks; c++ {
		if b[c] == b[c+1] {
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); f(b[c], b[c+1]) }()
	}
	wg.Wait()
}

// evenBounds splits n rows into rowChunks equal ranges.
func evenBounds(n int) (b [rowChunks + 1]int) {
	for c := range b {
		b[c] = n * c / rowChunks
	}
	return b
}

// nnzBounds splits a CSR's rows into rowChunks ranges of about equal
// non-zeros (hub rows make equal row counts uneven).
func nnzBounds(a *CSR) (b [rowChunks + 1]int) {
	nnz := a.RowPtr[a.Rows]
	for c := 1; c < rowChunks; c++ {
		target := nnz * c / rowChunks
		b[c] = sort.Search(a.Rows, func(r int) bool { return a.RowPtr[r+1] > target })
	}
	b[rowChunks] = a.Rows
	for c := 1; c <= rowChunks; c++ {
		b[c] = max(b[c], b[c-1])
	}
	return b
}
