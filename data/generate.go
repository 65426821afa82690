package data

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Generators lists the generated-graph specifications Generate accepts.
var Generators = []string{"caveman:CLIQUESxSIZE[:REWIRE]", "grid:ROWSxCOLS", "rgg:NODES:DEGREE", "ba:NODES:EDGES_PER_NODE", "plc:NODES:EDGES_PER_NODE:TRIANGLE_PROBABILITY"}

// IsGenerated reports whether name is a generator specification
// ("caveman:…", "grid:…", "rgg:…", "ba:…" or "plc:…"), valid or not.
func IsGenerated(name string) bool {
	return strings.HasPrefix(name, "caveman:") || strings.HasPrefix(name, "grid:") || strings.HasPrefix(name, "rgg:") || strings.HasPrefix(name, "ba:") || strings.HasPrefix(name, "plc:")
}

// Generate builds a seeded synthetic graph for tests, benchmarks and scale
// runs, with one-hot identity inputs (columns permuted by rng) like
// Communities:
//
//   - caveman:AxB[:p] — connected caveman graph of A cliques of B nodes,
//     each edge rewired with probability p (default 0.01; see Communities);
//     labels are clique ids. caveman:20x20 is Communities.
//   - grid:RxC — the R×C 4-neighbour lattice; labels are 10×10 tiles.
//   - rgg:N:D — a random geometric graph: N points uniform in the unit
//     square, joined when closer than r with N·πr² = D (mean degree ≈ D,
//     a little less at the border); nodes are numbered along the rows of a
//     grid of r × r cells (ids with spatial locality, as many real
//     networks' are not: ignn orders by breadth-first search where it
//     needs locality); labels are the cells of a 10 × 10 partition.
//   - ba:N:M — a Barabási–Albert graph, each node after the first M+1
//     joined to M earlier ones by preferential attachment (see ba): a
//     small world with hubs; labels are arrival deciles.
//   - plc:N:M:P — the Holme–Kim model (networkx's powerlaw_cluster_graph;
//     see plc): ba:N:M where each edge after a node's first closes a
//     triangle with probability P — a clustered small world.
//
// Cost O(E log E).
func Generate(spec string, rng *rand.Rand) (*Dataset, error) {
	kind, args, _ := strings.Cut(spec, ":")
	parts := strings.Split(args, ":")
	switch kind {
	case "rgg":
		return rgg(spec, parts, rng)
	case "ba":
		return ba(spec, parts, rng)
	case "plc":
		return plc(spec, parts, rng)
	}
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

// GeneratedNodes is the node count of the generator specification spec,
// read from the specification alone (Generate builds nothing to know it).
func GeneratedNodes(spec string) (int, error) {
	kind, args, _ := strings.Cut(spec, ":")
	parts := strings.Split(args, ":")
	if kind == "rgg" || kind == "ba" || kind == "plc" {
		n, err := strconv.Atoi(parts[0])
		if err != nil || n < 2 {
			return 0, fmt.Errorf("data: %s: %q is not a node count", spec, parts[0])
		}
		return n, nil
	}
	a, b, err := dims(parts[0])
	if err != nil {
		return 0, fmt.Errorf("data: %s: %v", spec, err)
	}
	return a * b, nil
}

func dims(s string) (int, int, error) {
	x, y, ok := strings.Cut(s, "x")
	a, err1 := strconv.Atoi(x)
	b, err2 := strconv.Atoi(y)
	if !ok || err1 != nil || err2 != nil || a < 1 || b < 1 {
		return 0, 0, fmt.Errorf("%q is not AxB with positive integers", s)
	}
	if int64(a)*int64(b) > math.MaxInt32 {
		return 0, 0, fmt.Errorf("%d×%d nodes is too many", a, b)
	}
	return a, b, nil
}

func grid(name string, rows, cols int, rng *rand.Rand) (*Dataset, error) {
	n := rows * cols
	if n < 2 {
		return nil, fmt.Errorf("data: %s: a grid needs at least 2 nodes", name)
	}
	edges := make([][2]int32, 0, 2*n)
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			v := r*cols + c
			if c+1 < cols {
				edges = append(edges, [2]int32{int32(v), int32(v + 1)})
			}
			if r+1 < rows {
				edges = append(edges, [2]int32{int32(v), int32(v + cols)})
			}
		}
	}
	g, err := NewGraph(name, n, edges)
	if err != nil {
		return nil, err
	}
	tiles := (cols + 9) / 10
	g.Labels = make([]int32, n)
	for v := range g.Labels {
		g.Labels[v] = int32((v/cols/10)*tiles + (v%cols)/10)
	}
	return &Dataset{Name: name, Graphs: []*Graph{g}, Identity: true, Perm: [][]int{rng.Perm(n)}}, nil
}

// rgg is Generate's rgg:N:D.
func rgg(name string, parts []string, rng *rand.Rand) (*Dataset, error) {
	if len(parts) != 2 {
		return nil, fmt.Errorf("data: %s: want rgg:NODES:DEGREE", name)
	}
	n, err1 := strconv.Atoi(parts[0])
	deg, err2 := strconv.ParseFloat(parts[1], 64)
	switch {
	case err1 != nil || n < 2 || n > math.MaxInt32:
		return nil, fmt.Errorf("data: %s: %q is not a node count in 2 … 2³¹−1", name, parts[0])
	case err2 != nil || !(deg > 0) || deg > float64(n-1):
		return nil, fmt.Errorf("data: %s: %q is not a mean degree in (0, %d]", name, parts[1], n-1)
	}
	r := math.Sqrt(deg / (math.Pi * float64(n)))
	cells := max(1, min(int(1/r), 1<<15)) // cells per side, each at least r wide
	cellOf := func(x float64) int { return min(cells-1, int(x*float64(cells))) }
	xs, ys := make([]float64, n), make([]float64, n)
	key := make([]int64, n) // cell (row-major) << 32 | draw index: the nodes' order
	for i := range xs {
		xs[i], ys[i] = rng.Float64(), rng.Float64()
		key[i] = int64(cellOf(ys[i])*cells+cellOf(xs[i]))<<32 | int64(i)
	}
	slices.Sort(key)
	px, py := make([]float64, n), make([]float64, n)
	start := make([]int, cells*cells+1) // nodes of cell c: start[c] … start[c+1]−1
	for v, k := range key {
		i := int(k & (1<<32 - 1))
		px[v], py[v] = xs[i], ys[i]
		start[k>>32+1]++
	}
	for c := 0; c < cells*cells; c++ {
		start[c+1] += start[c]
	}
	var edges [][2]int32
	r2 := r * r
	for v := 0; v < n; v++ {
		cx, cy := cellOf(px[v]), cellOf(py[v])
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				x, y := cx+dx, cy+dy
				if x < 0 || y < 0 || x >= cells || y >= cells {
					continue
				}
				c := y*cells + x
				for u := max(start[c], v+1); u < start[c+1]; u++ {
					if ddx, ddy := px[u]-px[v], py[u]-py[v]; ddx*ddx+ddy*ddy < r2 {
						edges = append(edges, [2]int32{int32(v), int32(u)})
					}
				}
			}
		}
	}
	g, err := NewGraph(name, n, edges)
	if err != nil {
		return nil, err
	}
	g.Labels = make([]int32, n)
	for v := range g.Labels {
		g.Labels[v] = int32(min(9, int(py[v]*10))*10 + min(9, int(px[v]*10)))
	}
	return &Dataset{Name: name, Graphs: []*Graph{g}, Identity: true, Perm: [][]int{rng.Perm(n)}}, nil
}
