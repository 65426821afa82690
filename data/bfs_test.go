package data

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// plainBFS is the textbook breadth-first search the direction-optimising
// BFS must agree with.
func plainBFS(a *Adj, s, cutoff int) []uint16 {
	row := make([]uint16, a.N)
	for i := range row {
		row[i] = Unreachable
	}
	row[s] = 0
	q := []int{s}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		if cutoff > 0 && int(row[u]) >= cutoff {
			continue
		}
		for k := a.Off[u]; k < a.Off[u+1]; k++ {
			if v := a.Nb[k]; row[v] == Unreachable {
				row[v] = row[u] + 1
				q = append(q, int(v))
			}
		}
	}
	return row
}

// TestBFSDirections: BFS's distances equal a plain BFS's on small worlds,
// grids, geometric graphs and a graph of two components, with and without
// a cutoff, whether every level runs top-down (alpha 0), bottom-up (forced)
// or as the switch decides — which does go bottom-up on a small world and
// not on a grid — and the returned queue holds exactly the reached nodes,
// level by level.
func TestBFSDirections(t *testing.T) {
	g, err := Generate("ba:300:2", rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	var edges [][2]int32
	for _, e := range g.Graphs[0].Edges {
		edges = append(edges, e, [2]int32{e[0] + 300, e[1] + 300})
	}
	graphs := map[string]*Adj{"two components": NewAdj(600, edges[:len(edges)-7])} // the last edges dropped: nodes cut off too
	for _, spec := range []string{"ba:3000:3", "grid:30x40", "rgg:2000:6", "caveman:50x10:0.1"} {
		ds, err := Generate(spec, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		graphs[spec] = NewAdj(ds.Graphs[0].N, ds.Graphs[0].Edges)
	}
	const forced = 1 << 40
	for name, a := range graphs {
		anyUp := false
		row := make([]uint16, a.N)
		var queue []int32
		for _, s := range []int{0, 1, a.N / 2, a.N - 1} {
			for _, cutoff := range []int{0, 1, 2, 3} {
				want := plainBFS(a, s, cutoff)
				for _, c := range []struct {
					name        string
					alpha, beta int64
				}{{"switch", bfsAlpha, bfsBeta}, {"top-down", 0, 0}, {"bottom-up", forced, forced}} {
					var up int
					queue, up = a.bfs(s, cutoff, row, queue, c.alpha, c.beta)
					if !slices.Equal(row, want) {
						t.Fatalf("%s from %d, cutoff %d, %s: distances differ from a plain BFS", name, s, cutoff, c.name)
					}
					if c.name == "switch" && up > 0 {
						anyUp = true
					}
					if c.name == "bottom-up" && up == 0 && len(queue) > 1 {
						t.Fatalf("%s: forced bottom-up ran no level bottom-up", name)
					}
					reached := 0
					for _, d := range want {
						if d != Unreachable {
							reached++
						}
					}
					if len(queue) != reached {
						t.Fatalf("%s from %d, cutoff %d, %s: queue holds %d nodes, %d reached", name, s, cutoff, c.name, len(queue), reached)
					}
					for k, v := range queue {
						if k > 0 && row[v] < row[queue[k-1]] {
							t.Fatalf("%s from %d, %s: queue not level by level at %d", name, s, c.name, k)
						}
					}
				}
			}
		}
		if name == "ba:3000:3" && !anyUp || name == "grid:30x40" && anyUp {
			t.Errorf("%s: the switch went bottom-up: %v", name, anyUp)
		}
	}
}
