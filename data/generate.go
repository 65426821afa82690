package data

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Generators lists the generated-graph specifications Generate accepts.
var Generators = []string{"caveman:CLIQUESxSIZE[:REWIRE]", "grid:ROWSxCOLS"}

// IsGenerated reports whether name is a generator specification
// ("caveman:…" or "grid:…"), valid or not.
func IsGenerated(name string) bool {
	return strings.HasPrefix(name, "caveman:") || strings.HasPrefix(name, "grid:")
}

// Generate builds a seeded synthetic graph for tests, benchmarks and scale
// runs, with one-hot identity inputs (columns permuted by rng) like
// Communities:
//
//   - caveman:AxB[:p] — connected caveman graph of A cliques of B nodes,
//     each edge rewired with probability p (default 0.01; see Communities);
//     labels are clique ids. caveman:20x20 is Communities.
//   - grid:RxC — the R×C 4-neighbour lattice; labels are 10×10 tiles.
//
// Cost O(E log E).
func Generate(spec string, rng *rand.Rand) (*Dataset, error) {
	kind, args, _ := strings.Cut(spec, ":")
	parts := strings.Split(args, ":")
	a, b, err := dims(parts[0])
	if err != nil {
		return nil, fmt.Errorf("data: %s: %v (forms: %s)", spec, err, strings.Join(Generators, ", "))
	}
	switch kind {
	case "caveman":
		cfg := CommunitiesConfig{Cliques: a, Size: b, Rewire: 0.01}
		if len(parts) == 2 {
			if cfg.Rewire, err = strconv.ParseFloat(parts[1], 64); err != nil {
				return nil, fmt.Errorf("data: %s: rewiring probability %q is not a number", spec, parts[1])
			}
		} else if len(parts) > 2 {
			return nil, fmt.Errorf("data: %s: too many fields (form: caveman:CLIQUESxSIZE[:REWIRE])", spec)
		}
		return caveman(spec, cfg, rng)
	case "grid":
		if len(parts) != 1 {
			return nil, fmt.Errorf("data: %s: too many fields (form: grid:ROWSxCOLS)", spec)
		}
		return grid(spec, a, b, rng)
	}
	return nil, fmt.Errorf("data: unknown generator %q (forms: %s)", spec, strings.Join(Generators, ", "))
}

func dims(s string) (int, int, error) {
	x, y, ok := strings.Cut(s, "x")
	a, err1 := strconv.Atoi(x)
	b, err2 := strconv.Atoi(y)
	if !ok || err1 != nil || err2 != nil || a < 1 || b < 1 {
		return 0, 0, fmt.Errorf("%q is not AxB with positive integers", s)
	}
	if int64(a)*int64(b) > 1<<31 {
		return 0, 0, fmt.Errorf("%d×%d nodes is too many", a, b)
	}
	return a, b, nil
}

func grid(name string, rows, cols int, rng *rand.Rand) (*Dataset, error) {
	n := rows * cols
	if n < 2 {
		return nil, fmt.Errorf("data: %s: a grid needs at least 2 nodes", name)
	}
	edges := make([][2]int, 0, 2*n)
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			v := r*cols + c
			if c+1 < cols {
				edges = append(edges, [2]int{v, v + 1})
			}
			if r+1 < rows {
				edges = append(edges, [2]int{v, v + cols})
			}
		}
	}
	g, err := NewGraph(name, n, edges)
	if err != nil {
		return nil, err
	}
	tiles := (cols + 9) / 10
	g.Labels = make([]int, n)
	for v := range g.Labels {
		g.Labels[v] = (v/cols/10)*tiles + (v%cols)/10
	}
	return &Dataset{Name: name, Graphs: []*Graph{g}, Identity: true, Perm: [][]int{rng.Perm(n)}}, nil
}
