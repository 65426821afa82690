package engine

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRowOpsMatchSerial: the row-parallel SpMM, EdgeSpMM (all modes),
// RowNormalize and ReLU equal their serial loops bit for bit, under
// GOMAXPROCS 1 and 2, on inputs large enough to split (one hub row makes
// the non-zero balancing uneven).
func TestRowOpsMatchSerial(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, d = 3000, 32
	var es []Entry
	for i := 0; i < n; i++ {
		for k := 0; k < 4; k++ {
			es = append(es, Entry{Row: i, Col: rng.IntN(n), Val: rng.Float64()})
		}
		es = append(es, Entry{Row: 7, Col: i, Val: 1}) // hub row
	}
	a := NewCSR(n, n, es)
	x := make([]float64, n*d)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	serial := make([]float64, n*d)
	spmmRows(a, a.Val, x, serial, d, 0, n)
	normSerial := make([]float64, n*d)
	rowNormRows(x, nil, d, normSerial, 0, n)
	reluSerial := make([]float64, n*d)
	reluRange(x, nil, reluSerial)
	edgeSerial := make([]float64, a.NNZ())
	edgeSpMMRows(a, 1, x, x, edgeSerial, d, 0, n)
	// dX = A(v)ᵀ·dY by the serial scatter over A's rows, the order the
	// transposed gather must reproduce.
	scatterSerial := make([]float64, n*d)
	for r := 0; r < n; r++ {
		for k := a.RowPtr[r]; k < a.RowPtr[r+1]; k++ {
			c := a.ColIdx[k]
			for j := 0; j < d; j++ {
				scatterSerial[c*d+j] += a.Val[k] * x[r*d+j]
			}
		}
	}
	for _, procs := range []int{1, 2} {
		old := runtime.GOMAXPROCS(procs)
		y, nr, r, e := make([]float64, n*d), make([]float64, n*d), make([]float64, n*d), make([]float64, a.NNZ())
		sc := make([]float64, n*d)
		edgeSpMM(a, 2, a.Val, x, sc, d)
		spmm(a, a.Val, x, y, d)
		rowNorm(x, nil, d, nr)
		relu(x, nil, r)
		edgeSpMM(a, 1, x, x, e, d)
		runtime.GOMAXPROCS(old)
		for name, c := range map[string][2][]float64{"SpMM": {y, serial}, "RowNormalize": {nr, normSerial}, "ReLU": {r, reluSerial}, "EdgeSpMM": {e, edgeSerial}, "EdgeSpMM dX": {sc, scatterSerial}} {
			for i := range c[0] {
				if c[0][i] != c[1][i] {
					t.Fatalf("GOMAXPROCS %d: %s differs from the serial loop at %d: %v vs %v", procs, name, i, c[0][i], c[1][i])
				}
			}
		}
	}
	if b := nnzBounds(a); b[0] != 0 || b[rowChunks] != n || b[1] >= n/4 {
		t.Errorf("non-zero bounds %v: the hub row should make the first chunk shorter than n/4 rows", b)
	}
}

// TestRunRangesPool: every non-empty chunk runs exactly once, under
// GOMAXPROCS 1, 2 and 4, from nested calls (a chunk that makes a chunked
// call of its own) and from several goroutines at once; with two Ps a
// worker takes part — the first chunk starts while the caller's own (the
// last) waits for it — both when it is spinning and when it has parked.
func TestRunRangesPool(t *testing.T) {
	defer workerSpin.Store(workerSpin.Load())
	count := func(t *testing.T, b [rowChunks + 1]int, nested bool) {
		t.Helper()
		var seen [rowChunks]atomic.Int32
		var inner atomic.Int32
		runRanges(b, func(lo, hi int) {
			for c := range rowChunks {
				if b[c] == lo && b[c+1] == hi {
					seen[c].Add(1)
				}
			}
			if nested {
				runRanges(evenBounds(8), func(lo, hi int) { inner.Add(int32(hi - lo)) })
			}
		})
		nonEmpty := int32(0)
		for c := range rowChunks {
			want := int32(0)
			if b[c] < b[c+1] {
				want = 1
				nonEmpty++
			}
			if got := seen[c].Load(); got != want {
				t.Fatalf("bounds %v: chunk %d ran %d times, want %d", b, c, got, want)
			}
		}
		if nested && inner.Load() != 8*nonEmpty {
			t.Fatalf("bounds %v: the nested calls covered %d rows", b, inner.Load())
		}
	}
	for _, procs := range []int{1, 2, 4} {
		old := runtime.GOMAXPROCS(procs)
		for _, b := range [][rowChunks + 1]int{evenBounds(100), {0, 0, 5, 5, 9}, {0, 7, 7, 7, 7}, {0, 0, 0, 0, 3}} {
			count(t, b, false)
			count(t, b, true)
		}
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 200 {
					count(t, evenBounds(64), true)
				}
			}()
		}
		wg.Wait()
		runtime.GOMAXPROCS(old)
	}

	old := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(old)
	for _, spin := range []time.Duration{time.Second, 0} {
		workerSpin.Store(int64(spin))
		runRanges(evenBounds(4), func(lo, hi int) {}) // the workers are started
		time.Sleep(10 * time.Millisecond)             // and idle (spinning, or parked when spin is 0)
		started := make(chan struct{})
		var late atomic.Bool
		runRanges(evenBounds(4), func(lo, hi int) {
			switch lo {
			case 0:
				close(started)
			case 3: // the caller's first claim
				select {
				case <-started:
				case <-time.After(5 * time.Second):
					late.Store(true)
				}
			}
		})
		if late.Load() {
			t.Errorf("workerSpin %v: no worker took the first chunk while the caller ran the last", spin)
		}
	}
}
