package data

import (
	"fmt"
	"math/rand/v2"
	"strconv"
)

// plc is Generate's plc:N:M:P, the Holme–Kim model (P. Holme and B. J.
// Kim, "Growing scale-free networks with tunable clustering", Phys. Rev. E
// 65, 026107, 2002; the model of networkx's powerlaw_cluster_graph):
// preferential attachment with triad formation. Nodes 0 … M−1 start alone
// and node M joins each of them; then each node v from M+1 on draws M
// distinct earlier nodes by degree (a uniform draw from the list of every
// edge's two ends, a repeat drawn again) and makes M edges: the first to
// its first draw; each further one, with probability P, to a uniformly
// drawn neighbour of the last node it reached by a draw that it is not yet
// joined to (a triangle: the step that makes the clustering), and
// otherwise, or when there is no such neighbour, to its next draw it is not
// yet joined to. Mean degree ≈ 2M, a power-law tail like ba:N:M, and a
// clustering that grows with P (average clustering 0.22 for plc:2000:4:0.5
// where networkx's generator gives 0.23 and ba:2000:4 0.02). Node ids are
// arrival order; labels are the
// arrival decile (⌊10·v/N⌋), as ba's. Cost O(N·M·d̄) where d̄ is the mean
// degree of a drawn node.
func plc(name string, parts []string, rng *rand.Rand) (*Dataset, error) {
	if len(parts) != 3 {
		return nil, fmt.Errorf("data: %s: want plc:NODES:EDGES_PER_NODE:TRIANGLE_PROBABILITY", name)
	}
	n, m, err := growthSize(name, parts[:2])
	if err != nil {
		return nil, err
	}
	p, err := strconv.ParseFloat(parts[2], 64)
	if err != nil || !(p >= 0 && p <= 1) {
		return nil, fmt.Errorf("data: %s: %q is not a triangle probability in [0, 1]", name, parts[2])
	}
	edges := make([][2]int32, 0, (n-m)*m)
	ends := make([]int32, 0, 2*cap(edges))
	nbrs := make([][]int32, n)
	join := func(u, v int32) {
		edges = append(edges, [2]int32{min(u, v), max(u, v)})
		ends = append(ends, u, v)
		nbrs[u], nbrs[v] = append(nbrs[u], v), append(nbrs[v], u)
	}
	for u := range int32(m) {
		join(u, int32(m))
	}
	draws := make([]int32, 0, m)
	var cand []int32
	for v := int32(m + 1); v < int32(n); v++ {
		draws = draws[:0]
		for len(draws) < m {
			if u := ends[rng.IntN(len(ends))]; !containsInt32(draws, u) {
				draws = append(draws, u)
			}
		}
		last, next := draws[0], 1
		join(last, v)
		for made := 1; made < m; made++ {
			if rng.Float64() < p {
				cand = cand[:0]
				for _, w := range nbrs[last] {
					if w != v && !containsInt32(nbrs[v], w) {
						cand = append(cand, w)
					}
				}
				if len(cand) > 0 {
					join(cand[rng.IntN(len(cand))], v)
					continue
				}
			}
			for next < m && containsInt32(nbrs[v], draws[next]) {
				next++
			}
			if next == m { // every draw reached by a triangle already: one fewer edge
				break
			}
			last = draws[next]
			next++
			join(last, v)
		}
	}
	return arrivalDataset(name, n, edges, rng)
}
