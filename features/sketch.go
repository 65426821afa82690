package features

import (
	"fmt"
	"math"
	"sync"

	"github.com/ignn/ignn/engine"
)

// NeighbourSketch is the neighbourhood sketch of a graph: row i is the sum
// of the paper's hash vectors (HashComponent, m components, node ids the
// row numbers) of i's neighbours in the adjacency off/nb (CSR offsets and
// neighbour lists of n nodes; the message-passing edges: a link run's held-out
// edges must not be in it), scaled to unit norm; a node without neighbours
// gets a zero row. Hash vectors are nearly orthogonal for large m, so the
// cosine of two rows is close to |N(i) ∩ N(j)| / √(d_i·d_j), the Salton
// index of their neighbourhoods, with an error of order 1/√m: one hop of
// message passing over the hash identities, no parameters. float32 stores
// the rows in Dense32, else in Dense. workers ≤ 0 means one; the rows do
// not depend on it. O(n·m + |nb|·m) time, 2·n·m values of memory at most.
func NeighbourSketch(off, nb []int32, n, m int, float32s bool, workers int) (*engine.Features, error) {
	if m < 1 {
		return nil, fmt.Errorf("features: neighbourhood sketch of width %d, want ≥ 1", m)
	}
	if len(off) != n+1 {
		return nil, fmt.Errorf("features: neighbourhood sketch: %d offsets for %d nodes", len(off), n)
	}
	u := make([]float32, n*m)
	var rows []float64
	var rows32 []float32
	if float32s {
		rows32 = make([]float32, n*m)
	} else {
		rows = make([]float64, n*m)
	}
	parallelRows(n, workers, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for k := range m {
				u[i*m+k] = float32(HashComponent(uint64(i), uint32(k)))
			}
		}
	})
	parallelRows(n, workers, func(lo, hi int) {
		acc := make([]float64, m)
		for i := lo; i < hi; i++ {
			clear(acc)
			for _, k := range nb[off[i]:off[i+1]] {
				for j, v := range u[int(k)*m : int(k+1)*m] {
					acc[j] += float64(v)
				}
			}
			var s float64
			for _, v := range acc {
				s += v * v
			}
			if s > 0 {
				s = 1 / math.Sqrt(s)
			}
			if float32s {
				for j, v := range acc {
					rows32[i*m+j] = float32(v * s)
				}
			} else {
				for j, v := range acc {
					rows[i*m+j] = v * s
				}
			}
		}
	})
	if float32s {
		return &engine.Features{N: n, DenseDim: m, Dense32: rows32}, nil
	}
	return &engine.Features{N: n, DenseDim: m, Dense: rows}, nil
}

// parallelRows runs f over [0, n) in contiguous ranges, one per worker.
func parallelRows(n, workers int, f func(lo, hi int)) {
	workers = max(1, min(workers, n))
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() { defer wg.Done(); f(lo, hi) }()
	}
	wg.Wait()
}
