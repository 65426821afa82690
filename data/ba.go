package data

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
)

// ba is Generate's ba:N:M, a Barabási–Albert graph: a star of M+1 nodes
// (node 0 joined to 1 … M), then each node v from M+1 on joined to M
// distinct earlier nodes, each drawn with probability proportional to its
// degree (a uniform draw from the list of every edge's two ends; a draw
// already taken by v is drawn again). Mean degree ≈ 2M, a power-law tail,
// diameter O(log N / log log N): a small world whose L-hop neighbourhoods
// reach most of the graph within a few hops, unlike grid and rgg. Node ids
// are arrival order (the hubs come first); labels are the arrival decile
// (⌊10·v/N⌋). Cost O(N·M) time, 2·N·M int32 of draw list.
func ba(name string, parts []string, rng *rand.Rand) (*Dataset, error) {
	if len(parts) != 2 {
		return nil, fmt.Errorf("data: %s: want ba:NODES:EDGES_PER_NODE", name)
	}
	n, m, err := growthSize(name, parts)
	if err != nil {
		return nil, err
	}
	edges := make([][2]int32, 0, (n-m-1)*m+m)
	ends := make([]int32, 0, 2*cap(edges))
	for v := 1; v <= m; v++ {
		edges = append(edges, [2]int32{0, int32(v)})
		ends = append(ends, 0, int32(v))
	}
	targets := make([]int32, 0, m)
	for v := m + 1; v < n; v++ {
		targets = targets[:0]
		for len(targets) < m {
			u := ends[rng.IntN(len(ends))]
			if !containsInt32(targets, u) {
				targets = append(targets, u)
			}
		}
		for _, u := range targets {
			edges = append(edges, [2]int32{u, int32(v)})
			ends = append(ends, u, int32(v))
		}
	}
	return arrivalDataset(name, n, edges, rng)
}

// arrivalDataset is a grown graph of n nodes as a dataset: node ids are
// arrival order, labels the arrival decile (⌊10·v/N⌋), one-hot identity
// inputs with columns permuted by rng (ba, plc).
func arrivalDataset(name string, n int, edges [][2]int32, rng *rand.Rand) (*Dataset, error) {
	g, err := NewGraph(name, n, edges)
	if err != nil {
		return nil, err
	}
	g.Labels = make([]int32, n)
	for v := range g.Labels {
		g.Labels[v] = int32(int64(v) * 10 / int64(n))
	}
	return &Dataset{Name: name, Graphs: []*Graph{g}, Identity: true, Perm: [][]int{rng.Perm(n)}}, nil
}

// growthSize reads a grown graph's NODES and EDGES_PER_NODE (ba, plc).
func growthSize(name string, parts []string) (n, m int, err error) {
	n, err1 := strconv.Atoi(parts[0])
	m, err2 := strconv.Atoi(parts[1])
	switch {
	case err1 != nil || n < 2 || n > math.MaxInt32:
		return 0, 0, fmt.Errorf("data: %s: %q is not a node count in 2 … 2³¹−1", name, parts[0])
	case err2 != nil || m < 1 || m >= n:
		return 0, 0, fmt.Errorf("data: %s: %q is not a number of edges per node in 1 … %d", name, parts[1], n-1)
	case int64(n-m)*int64(m) > math.MaxInt32/2:
		return 0, 0, fmt.Errorf("data: %s: %d × %d edges is too many", name, n, m)
	}
	return n, m, nil
}

func containsInt32(s []int32, x int32) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
