package eval

import (
	"container/heap"
	"sync"
)

// Neighbor is one search result: a row of the embedding matrix and its
// cosine with the query.
type Neighbor struct {
	Row    int
	Cosine float64
}

// NearestByCosine returns, for each query row, the k rows with the highest
// inner product (the cosine, for unit rows) among rows allowed by keep
// (nil: all), excluding the query itself, best first; ties go to the lower
// row. Exact, by blocked products: queries are taken 16 at a time, so each
// pass over the matrix serves 16 of them, and the blocks are split over two
// goroutines in a fixed order. O(Q·N·d) arithmetic, O(Q/16·N·d) memory
// traffic.
func NearestByCosine(z []float64, d int, queries []int, k int, keep func(q, r int) bool) [][]Neighbor {
	const block, workers = 16, 2
	n := len(z) / d
	out := make([][]Neighbor, len(queries))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hs := make([]minHeap, block)
			dots := make([]float64, block)
			for b0 := w * block; b0 < len(queries); b0 += workers * block {
				qs := queries[b0:min(b0+block, len(queries))]
				for i := range qs {
					hs[i] = hs[i][:0]
				}
				for r := 0; r < n; r++ {
					zr := z[r*d : (r+1)*d]
					for i, q := range qs {
						zq := z[q*d : (q+1)*d]
						var s float64
						for x := range zq {
							s += zq[x] * zr[x]
						}
						dots[i] = s
					}
					for i, q := range qs {
						if r == q || (keep != nil && !keep(q, r)) {
							continue
						}
						h := &hs[i]
						if h.Len() < k {
							heap.Push(h, Neighbor{r, dots[i]})
						} else if dots[i] > (*h)[0].Cosine {
							(*h)[0] = Neighbor{r, dots[i]}
							heap.Fix(h, 0)
						}
					}
				}
				for i := range qs {
					h := &hs[i]
					res := make([]Neighbor, h.Len())
					for x := len(res) - 1; x >= 0; x-- {
						res[x] = heap.Pop(h).(Neighbor)
					}
					out[b0+i] = res
				}
			}
		}()
	}
	wg.Wait()
	return out
}

// minHeap keeps the k best so far with the worst on top (on equal cosine,
// the higher row counts as worse, so the lower row is kept).
type minHeap []Neighbor

func (h minHeap) Len() int { return len(h) }
func (h minHeap) Less(i, j int) bool {
	if h[i].Cosine != h[j].Cosine {
		return h[i].Cosine < h[j].Cosine
	}
	return h[i].Row > h[j].Row
}
func (h minHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)   { *h = append(*h, x.(Neighbor)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
