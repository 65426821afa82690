package engine

import (
	"fmt"
)

// The pair kernels behind engine.PairLoss: scores ⟨Z[I[p]], Z[J[p]]⟩ and
// the gradient scatter dZ[I[p]] += g[p]·Z[J[p]], dZ[J[p]] += g[p]·Z[I[p]],
// both split over fixed pair chunks. O(P·D) each way.

func checkIdx(op any, idx []int, n int) {
	for p, v := range idx {
		if v < 0 || v >= n {
			panic(fmt.Sprintf("engine: %v: index %d at position %d outside [0,%d)", op, v, p, n))
		}
	}
}

func pairDot[T Float](z []T, I, J []int, d int, out []T) {
	for p := range I {
		out[p] = dot4(z[I[p]*d:(I[p]+1)*d], z[J[p]*d:(J[p]+1)*d])
	}
}

func pairDotGrad[T Float](z []T, I, J []int, g []T, d int, dz []T) {
	for p := range I {
		gp := g[p]
		if gp == 0 {
			continue
		}
		i, j := I[p], J[p]
		a, b := z[i*d:(i+1)*d], z[j*d:(j+1)*d]
		da, db := dz[i*d:(i+1)*d], dz[j*d:(j+1)*d]
		b, da, db = b[:len(a)], da[:len(a)], db[:len(a)]
		k := 0
		for ; k+4 <= len(a); k += 4 {
			a0, a1, a2, a3 := a[k], a[k+1], a[k+2], a[k+3]
			b0, b1, b2, b3 := b[k], b[k+1], b[k+2], b[k+3]
			da[k] += gp * b0
			da[k+1] += gp * b1
			da[k+2] += gp * b2
			da[k+3] += gp * b3
			db[k] += gp * a0
			db[k+1] += gp * a1
			db[k+2] += gp * a2
			db[k+3] += gp * a3
		}
		for ; k < len(a); k++ {
			da[k] += gp * b[k]
			db[k] += gp * a[k]
		}
	}
}

// pairChunks is the fixed number of pair ranges the pair kernels split work
// into. The split depends only on the pair count, never on the number of
// CPUs, so results are bit-identical whatever GOMAXPROCS is.
const pairChunks = rowChunks // the pair ops share the row ops' fixed partition (evenBounds)

// minParallelWork is the P·D below which the ops stay single-threaded.
const minParallelWork = 1 << 16

// parallelPairs runs f over the fixed pair chunks, concurrently when the
// work is large enough. f must write only its own range.
func parallelPairs(p, d int, f func(lo, hi int)) {
	if p*d < minParallelWork {
		f(0, p)
		return
	}
	runRanges(evenBounds(p), f)
}

// chunkOf returns the index of the chunk [lo, hi) of bounds b.
func chunkOf(b [rowChunks + 1]int, lo, hi int) int {
	for c := 0; c < rowChunks; c++ {
		if b[c] == lo && b[c+1] == hi {
			return c
		}
	}
	panic("engine: not a chunk of these bounds")
}

// pairDotGradChunked accumulates each chunk's scatter-add into its own
// buffer (chunk 0 into dz, chunk c > 0 into the zeroed buf(c)) and sums the
// buffers in chunk order (deterministic).
func pairDotGradChunked[T Float](z []T, I, J []int, g []T, d int, dz []T, buf func(c int) []T) {
	p := len(I)
	// Chunks 1…3 each need an N×D buffer: worth it only while the pairs
	// outnumber the rows (at 10⁶ nodes they would be 3 × 128 MB per op).
	if p*d < minParallelWork || p < 4*(len(dz)/max(1, d)) {
		pairDotGrad(z, I, J, g, d, dz)
		return
	}
	var bufs [pairChunks][]T
	bufs[0] = dz
	for c := 1; c < pairChunks; c++ {
		bufs[c] = buf(c)
	}
	b := evenBounds(p)
	runRanges(b, func(lo, hi int) {
		pairDotGrad(z, I[lo:hi], J[lo:hi], g[lo:hi], d, bufs[chunkOf(b, lo, hi)])
	})
	for c := 1; c < pairChunks; c++ {
		for k, v := range bufs[c] {
			dz[k] += v
		}
	}
}
