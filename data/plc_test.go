package data

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// avgClustering is networkx's average_clustering: the mean over nodes of
// the fraction of pairs of neighbours that are joined (0 for degree < 2).
func avgClustering(g *Graph) float64 {
	nb := make([]map[int32]bool, g.N)
	for i := range nb {
		nb[i] = map[int32]bool{}
	}
	for _, e := range g.Edges {
		nb[e[0]][e[1]], nb[e[1]][e[0]] = true, true
	}
	var sum float64
	for v := range g.N {
		var ns []int32
		for u := range nb[v] {
			ns = append(ns, u)
		}
		if len(ns) < 2 {
			continue
		}
		t := 0
		for a := range ns {
			for b := a + 1; b < len(ns); b++ {
				if nb[ns[a]][ns[b]] {
					t++
				}
			}
		}
		sum += float64(2*t) / float64(len(ns)*(len(ns)-1))
	}
	return sum / float64(g.N)
}

// TestPLC: plc:N:M:P is seeded, has about (N−M)·M edges and no repeats, and
// clusters as the Holme–Kim model does: networkx 3.6.1's
// powerlaw_cluster_graph(2000, 4, 0.5, seed=7) has 7,983 edges and average
// clustering 0.2313, against ba:2000:4's ≈ 0.02; at P = 0 it is not
// clustered either.
func TestPLC(t *testing.T) {
	gen := func(spec string, seed uint64) *Graph {
		t.Helper()
		ds, err := Generate(spec, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		return ds.Graphs[0]
	}
	g := gen("plc:2000:4:0.5", 7)
	if g.Removed.Duplicates+g.Removed.SelfLoops != 0 {
		t.Errorf("plc made %d duplicates and %d self-loops", g.Removed.Duplicates, g.Removed.SelfLoops)
	}
	if e := len(g.Edges); e < 7900 || e > 7984 {
		t.Errorf("plc:2000:4:0.5 has %d edges, want ≈ (2000−4)·4 = 7984", e)
	}
	c, cba, c0 := avgClustering(g), avgClustering(gen("ba:2000:4", 7)), avgClustering(gen("plc:2000:4:0", 7))
	t.Logf("average clustering: plc:2000:4:0.5 %.4f, plc:2000:4:0 %.4f, ba:2000:4 %.4f", c, c0, cba)
	if c < 0.18 || c > 0.29 || cba > 0.05 || c0 > 0.05 {
		t.Errorf("average clustering plc %.4f (networkx 0.2313), plc P=0 %.4f, ba %.4f", c, c0, cba)
	}
	if !reflect.DeepEqual(g.Edges, gen("plc:2000:4:0.5", 7).Edges) || reflect.DeepEqual(g.Edges, gen("plc:2000:4:0.5", 8).Edges) {
		t.Error("plc is not a function of its seed")
	}
	for _, bad := range []string{"plc:100:4", "plc:100:4:1.5", "plc:100:0:0.5", "plc:x:4:0.5"} {
		if _, err := Generate(bad, rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
