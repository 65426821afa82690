package data

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// CommunitiesConfig sets the connected caveman generator.
type CommunitiesConfig struct {
	Cliques, Size int     // 20 × 20 in the paper
	Rewire        float64 // per-edge rewiring probability (0.01)
}

// DefaultCommunities is the paper's setting.
var DefaultCommunities = CommunitiesConfig{Cliques: 20, Size: 20, Rewire: 0.01}

// Communities generates the connected caveman graph (Watts 1999; networkx
// connected_caveman_graph): Cliques cliques of Size nodes where, in each
// clique, the edge (s, s+1) of its first node s is replaced by (s, s−1) to
// the previous clique, forming a ring. Then every edge (u, v), in sorted
// order, is rewired with probability Rewire to (u, x) for a uniform node x
// unless (u, x) already exists (P-GNN's procedure; x = u drops the edge).
// Labels are clique ids; features are a one-hot identity whose columns are
// permuted by rng. Deterministic for a given rng state. O(E log E) time for
// E = Cliques·Size·(Size−1)/2 edges.
func Communities(cfg CommunitiesConfig, rng *rand.Rand) (*Dataset, error) {
	return caveman("communities", cfg, rng)
}

func caveman(name string, cfg CommunitiesConfig, rng *rand.Rand) (*Dataset, error) {
	if cfg.Cliques < 2 || cfg.Size < 3 {
		return nil, fmt.Errorf("data: a caveman graph needs ≥ 2 cliques of ≥ 3 nodes, got %d×%d", cfg.Cliques, cfg.Size)
	}
	if !(cfg.Rewire >= 0 && cfg.Rewire <= 1) {
		return nil, fmt.Errorf("data: caveman rewiring probability must be in [0, 1], got %g", cfg.Rewire)
	}
	n := cfg.Cliques * cfg.Size
	if int64(n) > 1<<31 {
		return nil, fmt.Errorf("data: caveman graph of %d nodes is too large", n)
	}
	edges := make([]uint64, 0, cfg.Cliques*cfg.Size*(cfg.Size-1)/2)
	for c := 0; c < cfg.Cliques; c++ {
		s := c * cfg.Size
		for i := s; i < s+cfg.Size; i++ {
			for j := i + 1; j < s+cfg.Size; j++ {
				if i == s && j == s+1 {
					continue // replaced by the ring edge (s, s−1)
				}
				edges = append(edges, key(i, j))
			}
		}
		edges = append(edges, key(s, (s-1+n)%n))
	}
	slices.Sort(edges)
	set := make(map[uint64]struct{}, len(edges))
	for _, e := range edges {
		set[e] = struct{}{}
	}
	for _, e := range edges {
		if rng.Float64() >= cfg.Rewire {
			continue
		}
		u, v := int(e>>32), int(e&0xffffffff)
		x := rng.IntN(n)
		if _, ok := set[key(u, x)]; ok && x != u {
			continue
		}
		delete(set, key(u, v))
		if x != u {
			set[key(u, x)] = struct{}{}
		}
	}
	final := make([][2]int32, 0, len(set))
	for e := range set {
		final = append(final, [2]int32{int32(e >> 32), int32(e & 0xffffffff)})
	}
	g, err := NewGraph(name, n, final)
	if err != nil {
		return nil, err
	}
	g.Labels = make([]int32, n)
	for i := range g.Labels {
		g.Labels[i] = int32(i / cfg.Size)
	}
	return &Dataset{Name: name, Graphs: []*Graph{g}, Identity: true, Perm: [][]int{rng.Perm(n)}}, nil
}
