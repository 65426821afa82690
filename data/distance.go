package data

import "fmt"

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
func HopDistances(n int, edges [][2]int32, cutoff, workers int) (*Distances, error) {
	if DistanceBytes(n) > MaxDistanceBytes {
		return nil, fmt.Errorf("data: all-pairs distances for %d nodes need %.1f GiB (limit %.0f GiB)",
			n, float64(DistanceBytes(n))/(1<<30), float64(MaxDistanceBytes)/(1<<30))
	}
	d := &Distances{N: n, D: make([]uint16, n*n)}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	NewAdj(n, edges).BFSRows(all, cutoff, d.D, workers)
	return d, nil
}
