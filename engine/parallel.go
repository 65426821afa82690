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
	runRanges(b, f)
}

// The chunks run on a few long-lived workers instead of fresh goroutines
// (each go statement allocates; an epoch runs hundreds of chunked ops). A
// chunk goes to a worker only if one is idle at that moment, else the
// caller runs it, so nested chunked calls never wait on a busy pool. Which
// goroutine runs a chunk does not change what it computes.
type chunkTask struct {
	f      func(lo, hi int) // or r
	r      ranger
	lo, hi int
	wg     *sync.WaitGroup
}

// ranger is a chunked job held in a reusable object (a closure passed to a
// worker escapes: one allocation per call), as blas.Ranger.
type ranger interface{ Run(lo, hi int) }

func (t *chunkTask) exec() {
	if t.r != nil {
		t.r.Run(t.lo, t.hi)
	} else {
		t.f(t.lo, t.hi)
	}
}

var (
	poolOnce sync.Once
	poolCh   chan chunkTask
	wgPool   = sync.Pool{New: func() any { return new(sync.WaitGroup) }}
)

func startPool() {
	poolCh = make(chan chunkTask)
	for range rowChunks - 1 {
		go func() {
			for t := range poolCh {
				t.exec()
				t.wg.Done()
			}
		}()
	}
}

// runRanges runs f over every non-empty [b[c], b[c+1]), concurrently, and
// returns when all are done.
func runRanges(b [rowChunks + 1]int, f func(lo, hi int)) { runTasks(b, f, nil) }

// runRangesOf is runRanges for a ranger.
func runRangesOf(b [rowChunks + 1]int, r ranger) { runTasks(b, nil, r) }

func runTasks(b [rowChunks + 1]int, f func(lo, hi int), r ranger) {
	poolOnce.Do(startPool)
	wg := wgPool.Get().(*sync.WaitGroup)
	last := -1
	for c := 0; c < rowChunks; c++ {
		if b[c] == b[c+1] {
			continue
		}
		if last >= 0 {
			t := chunkTask{f, r, b[last], b[last+1], wg}
			wg.Add(1)
			select {
			case poolCh <- t:
			default:
				wg.Done()
				t.exec()
			}
		}
		last = c
	}
	if last >= 0 {
		t := chunkTask{f, r, b[last], b[last+1], wg}
		t.exec()
	}
	wg.Wait()
	wgPool.Put(wg)
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
