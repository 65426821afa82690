package eval

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ignn/ignn/data"
)

// karateSplit is Zachary's karate club (networkx karate_club_graph, its 78
// edges sorted (u < v)): every 8th sorted edge held out as the test (and
// validation) positives, the rest passing messages; the negatives are the
// first 10 non-edges (i < j) with (7i + 13j) mod 11 = 0.
func karateSplit() *data.Split {
	edges := [][2]int32{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}, {0, 7}, {0, 8}, {0, 10}, {0, 11}, {0, 12}, {0, 13}, {0, 17}, {0, 19}, {0, 21}, {0, 31},
		{1, 2}, {1, 3}, {1, 7}, {1, 13}, {1, 17}, {1, 19}, {1, 21}, {1, 30}, {2, 3}, {2, 7}, {2, 8}, {2, 9}, {2, 13}, {2, 27}, {2, 28}, {2, 32},
		{3, 7}, {3, 12}, {3, 13}, {4, 6}, {4, 10}, {5, 6}, {5, 10}, {5, 16}, {6, 16}, {8, 30}, {8, 32}, {8, 33}, {9, 33}, {13, 33}, {14, 32}, {14, 33},
		{15, 32}, {15, 33}, {18, 32}, {18, 33}, {19, 33}, {20, 32}, {20, 33}, {22, 32}, {22, 33}, {23, 25}, {23, 27}, {23, 29}, {23, 32}, {23, 33},
		{24, 25}, {24, 27}, {24, 31}, {25, 31}, {26, 29}, {26, 33}, {27, 33}, {28, 31}, {28, 33}, {29, 32}, {29, 33}, {30, 32}, {30, 33}, {31, 32}, {31, 33}, {32, 33}}
	s := &data.Split{Graph: &data.Graph{Name: "karate", N: 34, Edges: edges}}
	for k, e := range edges {
		if k%8 == 0 {
			s.Test = append(s.Test, data.Pair{I: e[0], J: e[1]})
		} else {
			s.MP = append(s.MP, e)
		}
	}
	s.Val = s.Test
	for _, q := range [][2]int32{{0, 22}, {0, 33}, {1, 24}, {2, 4}, {2, 15}, {2, 26}, {3, 6}, {3, 17}, {3, 28}, {4, 8}} {
		s.TestNeg = append(s.TestNeg, data.Pair{I: q[0], J: q[1]})
	}
	s.ValNeg = s.TestNeg
	return s
}

// TestHeuristicGolden pins the heuristics' AUC to networkx 3.6.1's own
// scores on karateSplit: adamic_adar_index, common_neighbors and
// preferential_attachment on the message-passing graph, the AUC counted
// pair by pair (ties one half) — 0.845, 0.79 and 0.585 — Adamic–Adar of
// (0, 1), 6.0485509900356949, and preferential attachment of (0, 1), 98,
// and of (32, 33), 165.
func TestHeuristicGolden(t *testing.T) {
	s := karateSplit()
	for _, c := range []struct {
		h   Heuristic
		auc float64
	}{{AdamicAdar, 0.845}, {CommonNeighbours, 0.79}, {PreferentialAttachment, 0.585}} {
		got := HeuristicMetrics(c.h, []*data.Split{s})
		if math.Abs(got.TestAUC-c.auc) > 1e-12 || math.Abs(got.ValAUC-c.auc) > 1e-12 {
			t.Errorf("%s: AUC val %.17g test %.17g, networkx %.17g", c.h, got.ValAUC, got.TestAUC, c.auc)
		}
		if !math.IsNaN(got.Tau) {
			t.Errorf("%s: τ %v, want NaN (a heuristic has no τ)", c.h, got.Tau)
		}
	}
	nb := NewNeighbourhoods(34, s.MP)
	if aa := nb.Scorer(AdamicAdar)(0, 1); math.Abs(aa-6.0485509900356949) > 1e-12 {
		t.Errorf("Adamic–Adar(0, 1) = %.17g, networkx 6.0485509900356949", aa)
	}
	pa := nb.Scorer(PreferentialAttachment)
	if a, b := pa(0, 1), pa(32, 33); a != 98 || b != 165 {
		t.Errorf("preferential attachment (0, 1), (32, 33) = %v, %v; networkx 98, 165", a, b)
	}
}

// TestHeuristicBruteForce: on random graphs, every pair's score equals a
// count over an adjacency matrix, and the metrics equal AUC counted pair by
// pair and AveragePrecision of those scores.
func TestHeuristicBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 5 {
		n := 20 + trial*7
		adj := make([][]bool, n)
		for i := range adj {
			adj[i] = make([]bool, n)
		}
		var edges [][2]int32
		for k := 0; k < 3*n; k++ { // unsorted, as NewNeighbourhoods may be given
			i, j := rng.IntN(n), rng.IntN(n)
			if i == j || adj[i][j] {
				continue
			}
			adj[i][j], adj[j][i] = true, true
			edges = append(edges, [2]int32{int32(min(i, j)), int32(max(i, j))})
		}
		deg := make([]int, n)
		for i := range n {
			for j := range n {
				if adj[i][j] {
					deg[i]++
				}
			}
		}
		brute := func(h Heuristic, i, j int) float64 {
			if h == PreferentialAttachment {
				return float64(deg[i] * deg[j])
			}
			var s float64
			for w := range n {
				if adj[i][w] && adj[j][w] {
					if h == CommonNeighbours {
						s++
					} else {
						s += 1 / math.Log(float64(deg[w]))
					}
				}
			}
			return s
		}
		nb := NewNeighbourhoods(n, edges)
		var pos, neg []data.Pair
		for i := range n {
			for j := i + 1; j < n; j++ {
				if rng.IntN(4) == 0 {
					pos = append(pos, data.Pair{I: int32(i), J: int32(j)})
				} else if rng.IntN(4) == 0 {
					neg = append(neg, data.Pair{I: int32(i), J: int32(j)})
				}
			}
		}
		s := &data.Split{Graph: &data.Graph{N: n}, MP: edges, Test: pos, TestNeg: neg, Val: pos, ValNeg: neg}
		for _, h := range Heuristics {
			score := nb.Scorer(h)
			var ps, ns, all []float64
			var labels []bool
			for i := range n {
				for j := range n {
					if i != j && math.Abs(score(i, j)-brute(h, i, j)) > 1e-12 {
						t.Fatalf("trial %d %s(%d, %d) = %v, brute force %v", trial, h, i, j, score(i, j), brute(h, i, j))
					}
				}
			}
			for _, p := range pos {
				v := brute(h, int(p.I), int(p.J))
				ps, all, labels = append(ps, v), append(all, v), append(labels, true)
			}
			for _, p := range neg {
				v := brute(h, int(p.I), int(p.J))
				ns, all, labels = append(ns, v), append(all, v), append(labels, false)
			}
			var wins float64
			for _, a := range ps {
				for _, b := range ns {
					switch {
					case a > b:
						wins++
					case a == b:
						wins += 0.5
					}
				}
			}
			want := wins / float64(len(ps)*len(ns))
			got := HeuristicMetrics(h, []*data.Split{s})
			if math.Abs(got.TestAUC-want) > 1e-12 {
				t.Errorf("trial %d %s: AUC %v, counted %v", trial, h, got.TestAUC, want)
			}
			if ap := AveragePrecision(all, labels); math.Abs(got.TestAP-ap) > 1e-12 {
				t.Errorf("trial %d %s: AP %v, want %v", trial, h, got.TestAP, ap)
			}
			if h20 := HitsAtK(ps, ns, 20); math.Abs(got.TestHits20-h20) > 1e-12 {
				t.Errorf("trial %d %s: Hits@20 %v, want %v", trial, h, got.TestHits20, h20)
			}
		}
	}
}
