package data

import (
	"fmt"
	"math/rand/v2"
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
// permuted by rng. Deterministic for a given rng state.
func Communities(cfg CommunitiesConfig, rng *rand.Rand) (*Dataset, error) {
	if cfg.Cliques < 2 || cfg.Size < 3 {
		return nil, fmt.Errorf("data: communities needs ≥ 2 cliques of ≥ 3 nodes, got %d×%d", cfg.Cliques, cfg.Size)
	}
	n := cfg.Cliques * cfg.Size
	adj := make([]map[int]bool, n)
	for i := range adj {
		adj[i] = map[int]bool{}
	}
	add := func(u, v int) { adj[u][v] = true; adj[v][u] = true }
	del := func(u, v int) { delete(adj[u], v); delete(adj[v], u) }
	for c := 0; c < cfg.Cliques; c++ {
		s := c * cfg.Size
		for i := s; i < s+cfg.Size; i++ {
			for j := i + 1; j < s+cfg.Size; j++ {
				add(i, j)
			}
		}
	}
	for c := 0; c < cfg.Cliques; c++ {
		s := c * cfg.Size
		del(s, s+1)
		add(s, (s-1+n)%n)
	}
	var edges [][2]int
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			if adj[u][v] {
				edges = append(edges, [2]int{u, v})
			}
		}
	}
	for _, e := range edges {
		if rng.Float64() >= cfg.Rewire {
			continue
		}
		u, v := e[0], e[1]
		x := rng.IntN(n)
		if adj[u][x] {
			continue
		}
		del(u, v)
		if x != u {
			add(u, x)
		}
	}
	var final [][2]int
	for u := 0; u < n; u++ {
		for v := range adj[u] {
			if u < v {
				final = append(final, [2]int{u, v})
			}
		}
	}
	g, err := NewGraph("communities", n, final)
	if err != nil {
		return nil, err
	}
	g.Labels = make([]int, n)
	for i := range g.Labels {
		g.Labels[i] = i / cfg.Size
	}
	return &Dataset{Name: "communities", Graphs: []*Graph{g}, Identity: true, Perm: [][]int{rng.Perm(n)}}, nil
}
