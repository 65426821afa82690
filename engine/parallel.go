package engine

import (
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"
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
// (each go statement allocates; an epoch runs hundreds of chunked ops).
// A call offers its job to idle workers (at most GOMAXPROCS − 1 of them),
// then the caller and every worker that took the offer claim chunks one at
// a time from the job's counter until none is left; an offer no worker took
// by then is withdrawn, so nested or concurrent chunked calls never wait on
// a busy pool. A worker waits for the next offer spinning for a while
// (workerSpin) before it parks: a parked worker is woken through the
// scheduler, which on this kind of machine costs ≈ 80–130 µs a call (≈ 40%
// of a 10⁴-node step's chunk), while the ops of a step follow each other
// within microseconds. Which goroutine runs a chunk does not change what it
// computes.
type chunkJob struct {
	f    func(lo, hi int) // or r
	r    ranger
	b    [rowChunks + 1]int
	next atomic.Int32 // chunks claimed: from the front (low byte), from the back (next byte)
	done atomic.Int32 // workers that took the offer and have finished
}

// ranger is a chunked job held in a reusable object (a closure passed to a
// worker escapes: one allocation per call), as blas.Ranger.
type ranger interface{ Run(lo, hi int) }

// work claims and runs the job's chunks until none is left: the caller
// from the last chunk down, workers from the first up. A chunk's rows are
// then mostly handled by the same core from one op to the next (the rows
// an op writes are the rows the next one reads): with claims in one order,
// which core ran which chunk was chance, and in an instrumented 10⁴-node
// step on this machine the chunks themselves ran 19% (Sgemm) to 43% (the
// row-wise memory-bound ops) longer on two cores than on one; with the
// halves kept apart, 4% and 10%.
func (j *chunkJob) work(caller bool) {
	for {
		c := j.claim(caller)
		if c < 0 {
			return
		}
		if lo, hi := j.b[c], j.b[c+1]; lo < hi {
			if j.r != nil {
				j.r.Run(lo, hi)
			} else {
				j.f(lo, hi)
			}
		}
	}
}

// claim takes the next unclaimed chunk, from the back or the front, or
// returns −1 when none is left. next holds the chunks taken from the front
// in its low byte and those from the back in the next.
func (j *chunkJob) claim(back bool) int {
	for {
		s := j.next.Load()
		front, fromBack := s&0xff, s>>8
		if front+fromBack >= rowChunks {
			return -1
		}
		if back {
			if j.next.CompareAndSwap(s, s+1<<8) {
				return int(rowChunks - 1 - fromBack)
			}
		} else if j.next.CompareAndSwap(s, s+1) {
			return int(front)
		}
	}
}

// chunkWorker is one long-lived worker: its mailbox holds a job offered to
// it; parked is set while it sleeps on wake.
type chunkWorker struct {
	mailbox atomic.Pointer[chunkJob]
	parked  atomic.Bool
	wake    chan struct{}
}

// workerSpin is how long an idle worker looks for an offer before it parks
// (only when GOMAXPROCS > 1: with one P a spinning worker would only take
// turns with the caller).
var workerSpin atomic.Int64 // nanoseconds; 200 µs (set in init: tests change it while workers read it)

func init() { workerSpin.Store(int64(200 * time.Microsecond)) }

var (
	poolOnce sync.Once
	workers  [rowChunks - 1]chunkWorker
	jobPool  = sync.Pool{New: func() any { return new(chunkJob) }}
)

func startPool() {
	for i := range workers {
		w := &workers[i]
		w.wake = make(chan struct{}, 1)
		go w.run()
	}
}

func (w *chunkWorker) run() {
	for {
		if j := w.mailbox.Swap(nil); j != nil {
			j.work(false)
			j.done.Add(1)
			continue
		}
		w.idle()
	}
}

// idle returns when the mailbox may hold an offer: at once when one comes
// while spinning, else after parking until an offer's wake-up.
func (w *chunkWorker) idle() {
	if runtime.GOMAXPROCS(0) > 1 {
		t0 := time.Now()
		for i := 1; ; i++ {
			if w.mailbox.Load() != nil {
				return
			}
			if i%64 == 0 {
				if time.Since(t0) > time.Duration(workerSpin.Load()) {
					break
				}
				runtime.Gosched() // let anything else that is runnable have the P
			}
		}
	}
	w.parked.Store(true)
	if w.mailbox.Load() == nil { // an offer made before parked was set would find no sleeper to wake
		<-w.wake
	}
	w.parked.Store(false)
	select { // a wake-up sent after the check above is stale now
	case <-w.wake:
	default:
	}
}

// runRanges runs f over every non-empty [b[c], b[c+1]), concurrently, and
// returns when all are done.
func runRanges(b [rowChunks + 1]int, f func(lo, hi int)) { runTasks(b, f, nil) }

// runRangesOf is runRanges for a ranger.
func runRangesOf(b [rowChunks + 1]int, r ranger) { runTasks(b, nil, r) }

func runTasks(b [rowChunks + 1]int, f func(lo, hi int), r ranger) {
	poolOnce.Do(startPool)
	j := jobPool.Get().(*chunkJob)
	j.f, j.r, j.b = f, r, b
	j.next.Store(0)
	j.done.Store(0)
	var offered [rowChunks - 1]bool
	helpers := min(len(workers), runtime.GOMAXPROCS(0)-1)
	for i := 0; i < len(workers) && helpers > 0; i++ {
		w := &workers[i]
		if w.mailbox.CompareAndSwap(nil, j) {
			offered[i] = true
			helpers--
			if w.parked.Load() {
				select {
				case w.wake <- struct{}{}:
				default:
				}
			}
		}
	}
	j.work(true)
	took := int32(0)
	for i, o := range offered {
		if o && !workers[i].mailbox.CompareAndSwap(j, nil) {
			took++ // taken: wait for it below
		}
	}
	for spins := 0; j.done.Load() < took; spins++ {
		if spins > 64 {
			runtime.Gosched()
		}
	}
	j.f, j.r = nil, nil
	jobPool.Put(j)
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
