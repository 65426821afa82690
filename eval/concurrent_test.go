package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ignn/ignn/data"
)

// serially runs f with every concurrent path of the package's scorers
// switched off, then restores the thresholds.
func serially(f func()) {
	c, t, q := minParallelCosines, minParallelTau, minParallelFaith
	minParallelCosines, minParallelTau, minParallelFaith = math.MaxInt, math.MaxInt, math.MaxInt
	defer func() { minParallelCosines, minParallelTau, minParallelFaith = c, t, q }()
	f()
}

// concurrently runs f with every concurrent path taken whatever the size.
func concurrently(f func()) {
	c, t, q := minParallelCosines, minParallelTau, minParallelFaith
	minParallelCosines, minParallelTau, minParallelFaith = 0, 0, 0
	defer func() { minParallelCosines, minParallelTau, minParallelFaith = c, t, q }()
	f()
}

// TestScorersConcurrent: GraphMetrics (its pair cosines in chunks of rows,
// the τ and held-out τ side by side) and the faithfulness scans (queries
// in chunks) give the serial loops' numbers bit for bit, on a union of a
// grid and a caveman graph with isolated nodes (unreachable pairs), an
// exclusion set and queries in both graphs.
func TestScorersConcurrent(t *testing.T) {
	var graphs []*data.Graph
	for _, spec := range []string{"grid:17x19", "caveman:40x6:0.1"} {
		ds, err := data.Generate(spec, rand.New(rand.NewPCG(2, 3)))
		if err != nil {
			t.Fatal(err)
		}
		graphs = append(graphs, ds.Graphs[0])
	}
	graphs[1].N += 2 // two isolated nodes
	rng := rand.New(rand.NewPCG(8, 9))
	var splits []*data.Split
	for _, g := range graphs {
		s, err := data.NewSplit(g, data.TaskLink, rng)
		if err != nil {
			t.Fatal(err)
		}
		if s.Dist, err = data.HopDistances(g.N, s.MP, 0, 1); err != nil {
			t.Fatal(err)
		}
		splits = append(splits, s)
	}
	u := (&data.Dataset{Name: "two", Graphs: graphs}).Union()
	const d, k = 24, 10
	z := make([]float64, u.N*d)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	exclude := make([]bool, u.N)
	for i := 0; i < u.N; i += 7 {
		exclude[i] = true
	}
	var queries []Query
	for g, gr := range graphs {
		a := data.NewAdj(gr.N, gr.Edges)
		for node := 0; node < gr.N; node += 9 {
			row := make([]uint16, gr.N)
			a.BFS(node, 0, row, nil)
			queries = append(queries, Query{Graph: g, Node: node, Row: row})
		}
	}
	score := func() string {
		e := Evaluator{Exclude: exclude}
		s, w := e.GraphMetrics(z, d, splits, u)
		f := faithfulnessBlocks(func(lo, hi int, _ []float64) []float64 { return z[lo*d : hi*d] }, 100, d, u, queries, k)
		return fmt.Sprintf("%v %v %v", s, w, f) // %v: shortest decimals that read back to the same float64s
	}
	var want, got string
	serially(func() { want = score() })
	concurrently(func() { got = score() })
	if got != want {
		t.Fatalf("concurrent scorers differ from the serial loops:\n%.400s\n%.400s", got, want)
	}
	if math.IsNaN(mustScores(t, want)) {
		t.Fatalf("a degenerate reference: %.200s", want)
	}
}

// mustScores reads the first number of a scores string: the validation AUC.
func mustScores(t *testing.T, s string) float64 {
	var v float64
	if _, err := fmt.Sscanf(s, "{%g", &v); err != nil {
		t.Fatalf("reading %q: %v", s[:min(len(s), 40)], err)
	}
	return v
}

// TestPartsOfConcurrent: PartsOf in chunks of pairs gives the serial
// loop's parts bit for bit, on mixed rows with zero sketch rows.
func TestPartsOfConcurrent(t *testing.T) {
	const n, k, m = 40, 5, 9
	rng := rand.New(rand.NewPCG(11, 12))
	a, s := unitRows(rng, n, k), unitRows(rng, n, m)
	x := NewMixed(mixedRows(a, s, n, k, m, 0.6, map[int]bool{3: true, 17: true}), k+m, m)
	var I, J []int32
	for i := range n {
		for j := range n {
			I, J = append(I, int32(i)), append(J, int32(j))
		}
	}
	var want, got MixParts
	serially(func() { want = PartsOf(x, I, J) })
	concurrently(func() { got = PartsOf(x, I, J) })
	if fmt.Sprintf("%v", got) != fmt.Sprintf("%v", want) {
		t.Fatal("concurrent parts differ from the serial loop's")
	}
}
