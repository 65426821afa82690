package eval

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// Scoring embeddings held in memory without waiting on each pair's rows.
// An evaluation on the sampled path asks for the products of ~1.6·10⁷ row
// pairs at 10⁷ nodes (the validation and test positives and negatives, the
// validation ones again for the BCE, the τ and validation samples), most
// of them random rows of a matrix far larger than the caches: one call at
// a time, each waits for its two rows (≈ 0.4 µs a pair here). The pairs
// are the same at every evaluation of a run (its samples, splits and
// negatives are fixed), so the first evaluation records them, in the order
// asked, and the later ones compute all their products first — on every
// core, the rows of the pair 16 ahead prefetched — then answer the scorers
// from the tape. The numbers are engine.RowDot's, bit for bit; a pair
// asked for off the tape is computed as asked.

// PairTape is a run's recording of the pairs its evaluations ask for.
type PairTape struct {
	i, j []int32   // the pairs, in the order asked at the recording evaluation
	dots []float64 // their products at the current evaluation
	// off counts the pairs the current evaluation asked for off the tape
	// (none while the scorers ask as recorded); the next evaluation records
	// afresh when there were any.
	off int
}

// tapeAhead is how many pairs ahead RowDots prefetches a pair's rows.
const tapeAhead = 16

// TapeSimilarity returns the row product the current evaluation's scorers
// call, for embeddings z of width d: engine.RowDot, recording each pair
// while the tape is empty, else answered from the tape's products, computed
// here ahead (RowDots). Call t.Done after the scorers.
func TapeSimilarity[T engine.Float](t *PairTape, z []T, d int) func(i, j int) float64 {
	dot := engine.RowDot(z, d)
	t.off = 0
	if len(t.i) == 0 {
		return func(i, j int) float64 {
			t.i, t.j = append(t.i, int32(i)), append(t.j, int32(j))
			return dot(i, j)
		}
	}
	if cap(t.dots) < len(t.i) {
		t.dots = make([]float64, len(t.i))
	}
	t.dots = t.dots[:len(t.i)]
	RowDots(z, d, t.i, t.j, t.dots)
	next := 0
	return func(i, j int) float64 {
		if next < len(t.i) && int(t.i[next]) == i && int(t.j[next]) == j {
			next++
			return t.dots[next-1]
		}
		t.off++
		return dot(i, j)
	}
}

// Done ends an evaluation: a recording is trimmed to its length; a tape
// the scorers left is dropped, to be recorded again.
func (t *PairTape) Done() {
	if t.off > 0 {
		t.i, t.j, t.dots = nil, nil, nil
		return
	}
	if len(t.dots) == 0 && len(t.i) > 0 && cap(t.i) > len(t.i) {
		t.i, t.j = append([]int32(nil), t.i...), append([]int32(nil), t.j...)
	}
}

// Recorded is how many pairs the tape holds.
func (t *PairTape) Recorded() int { return len(t.i) }

// PairTapeBytes is what a tape of p pairs holds: the pairs and their
// products.
func PairTapeBytes(p int64) int64 { return p * (4 + 4 + 8) }

// RowDots sets out[k] = engine.Dot64 of rows I[k] and J[k] of z (width d)
// for every k: contiguous ranges of the pairs on GOMAXPROCS goroutines,
// each prefetching the rows of the pair tapeAhead places on (the first and
// last line of each) — every product computed as RowDot computes it.
func RowDots[T engine.Float](z []T, d int, I, J []int32, out []float64) {
	if d == 0 {
		clear(out)
		return
	}
	run := func(lo, hi int) {
		for k := lo; k < hi; k++ {
			if a := k + tapeAhead; a < hi {
				i, j := int(I[a])*d, int(J[a])*d
				data.PrefetchLines(unsafe.Pointer(&z[i]), unsafe.Pointer(&z[j]))
				data.PrefetchLines(unsafe.Pointer(&z[i+d-1]), unsafe.Pointer(&z[j+d-1]))
			}
			i, j := int(I[k])*d, int(J[k])*d
			out[k] = engine.Dot64(z[i:i+d], z[j:j+d])
		}
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), len(I)/4096))
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(len(I)*w/workers, len(I)*(w+1)/workers)
		}()
	}
	run(0, len(I)/workers)
	wg.Wait()
}
