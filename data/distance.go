package data

import (
	"fmt"
	"runtime"
	"sync"
)

// Unreachable marks a pair with no path (or beyond a cutoff).
const Unreachable = ^uint16(0)

// Distances holds all-pairs hop distances of one graph, row-major N×N.
type Distances struct {
	N int
	D []uint16
}

// At returns the hop distance from i to j, or Unreachable.
func (d *Distances) At(i, j int) uint16 { return d.D[i*d.N+j] }

// DistanceBytes is the memory an all-pairs table for n nodes needs.
func DistanceBytes(n int) int64 { return int64(n) * int64(n) * 2 }

// MaxDistanceBytes bounds one graph's table (2 GiB ≈ 32k nodes).
const MaxDistanceBytes = 2 << 30

// HopDistances runs a BFS from every node over the undirected edges,
// parallel over sources with up to workers goroutines (≤ 0: GOMAXPROCS).
// Each source writes its own row, so the result does not depend on workers.
// cutoff > 0 truncates: pairs farther than cutoff hops are Unreachable.
// O(N·(N+E)) time, 2·N² bytes. It refuses graphs whose table would exceed
// MaxDistanceBytes, naming the memory needed.
func HopDistances(n int, edges [][2]int, cutoff, workers int) (*Distances, error) {
	if DistanceBytes(n) > MaxDistanceBytes {
		return nil, fmt.Errorf("data: all-pairs distances for %d nodes need %.1f GiB (limit %.0f GiB)",
			n, float64(DistanceBytes(n))/(1<<30), float64(MaxDistanceBytes)/(1<<30))
	}
	off := make([]int, n+1)
	for _, e := range edges {
		off[e[0]+1]++
		off[e[1]+1]++
	}
	for i := 0; i < n; i++ {
		off[i+1] += off[i]
	}
	nb := make([]int, off[n])
	next := append([]int(nil), off[:n]...)
	for _, e := range edges {
		nb[next[e[0]]] = e[1]
		next[e[0]]++
		nb[next[e[1]]] = e[0]
		next[e[1]]++
	}
	d := &Distances{N: n, D: make([]uint16, n*n)}
	for i := range d.D {
		d.D[i] = Unreachable
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	src := make(chan int, n)
	for s := 0; s < n; s++ {
		src <- s
	}
	close(src)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			queue := make([]int, 0, n)
			for s := range src {
				row := d.D[s*n : (s+1)*n]
				row[s] = 0
				queue = append(queue[:0], s)
				for h := 0; h < len(queue); h++ {
					u := queue[h]
					du := row[u]
					if cutoff > 0 && int(du) >= cutoff {
						continue
					}
					for _, v := range nb[off[u]:off[u+1]] {
						if row[v] == Unreachable {
							row[v] = du + 1
							queue = append(queue, v)
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	return d, nil
}
