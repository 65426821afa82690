package eval

import (
	"fmt"
	"math"

	"github.com/ignn/ignn/data"
)

// Heuristic is a classic link score: a number for a node pair read from
// the graph's message-passing edges alone, no training. They are the
// field's first baseline for link prediction (Liben-Nowell and Kleinberg
// 2007). Two count common neighbours: a GNN whose link AUC is below them
// has not learnt the triangles the graph already shows. The third reads
// the two degrees: on a heavy-tailed graph, where held-out edges touch hubs
// and uniform negatives rarely do, it is the popularity a cosine embedding
// cannot carry (docs/frontier-notes.md, "Ninth session").
type Heuristic string

// The heuristics compare tables show (Heuristics).
const (
	// CommonNeighbours is |N(i) ∩ N(j)|.
	CommonNeighbours Heuristic = "common neighbours"
	// AdamicAdar is Σ_{w ∈ N(i) ∩ N(j)} 1 / ln deg(w) (Adamic and Adar
	// 2003; networkx's adamic_adar_index). A common neighbour has degree ≥
	// 2, so the sum is finite.
	AdamicAdar Heuristic = "adamic-adar"
	// PreferentialAttachment is deg(i)·deg(j) (Barabási and Albert 1999;
	// networkx's preferential_attachment): no common neighbour needed. On
	// a graph of nearly equal degrees it falls below chance, and that is
	// the split, not the graph: each held-out edge was taken out of the
	// message-passing edges, so its two ends have each lost a degree that
	// a random pair's ends keep (grid:30x30: 0.21).
	PreferentialAttachment Heuristic = "preferential attachment"
)

// Heuristics lists them in table order.
var Heuristics = []Heuristic{CommonNeighbours, AdamicAdar, PreferentialAttachment}

// Neighbourhoods are one graph's sorted adjacency lists: node i's
// neighbours are Adj[Ptr[i]:Ptr[i+1]], ascending.
type Neighbourhoods struct {
	Ptr []int
	Adj []int32
}

// NewNeighbourhoods builds the sorted lists of n nodes from undirected
// edges given once each (u ≠ v; a repeated edge is counted twice). O(n + E).
// It panics on an endpoint outside 0 … n−1.
func NewNeighbourhoods(n int, edges [][2]int32) *Neighbourhoods {
	ptr := make([]int, n+1)
	for _, e := range edges {
		if int(e[0]) >= n || int(e[1]) >= n || e[0] < 0 || e[1] < 0 {
			panic(fmt.Sprintf("eval: edge (%d, %d) outside a graph of %d nodes", e[0], e[1], n))
		}
		ptr[e[0]+1]++
		ptr[e[1]+1]++
	}
	for i := range n {
		ptr[i+1] += ptr[i]
	}
	// Two counting passes, as a CSR transpose: first each node's
	// neighbours in edge order, then, visiting nodes t ascending, t is
	// appended to each of its neighbours' lists, which come out sorted
	// (the adjacency is symmetric).
	unsorted, at := make([]int32, ptr[n]), append([]int(nil), ptr[:n]...)
	for _, e := range edges {
		unsorted[at[e[0]]], at[e[0]] = e[1], at[e[0]]+1
		unsorted[at[e[1]]], at[e[1]] = e[0], at[e[1]]+1
	}
	adj := make([]int32, ptr[n])
	copy(at, ptr[:n])
	for t := range n {
		for _, s := range unsorted[ptr[t]:ptr[t+1]] {
			adj[at[s]], at[s] = int32(t), at[s]+1
		}
	}
	return &Neighbourhoods{Ptr: ptr, Adj: adj}
}

// Degree is node i's number of neighbours.
func (nb *Neighbourhoods) Degree(i int) int { return nb.Ptr[i+1] - nb.Ptr[i] }

// Scorer returns h's score of a pair (i, j) on nb: for a common-neighbour
// score a merge of the two sorted lists, O(deg i + deg j), the common
// neighbours visited in ascending order (so Adamic–Adar's sum is the same
// bit for bit on every call); for preferential attachment the product of
// the degrees, O(1). The function is safe for concurrent use. It panics on
// an unknown heuristic.
func (nb *Neighbourhoods) Scorer(h Heuristic) func(i, j int) float64 {
	var weight func(w int32) float64
	switch h {
	case PreferentialAttachment:
		return func(i, j int) float64 { return float64(nb.Degree(i)) * float64(nb.Degree(j)) }
	case CommonNeighbours:
		weight = func(int32) float64 { return 1 }
	case AdamicAdar:
		weight = func(w int32) float64 { return 1 / math.Log(float64(nb.Degree(int(w)))) }
	default:
		panic(fmt.Sprintf("eval: unknown heuristic %q", h))
	}
	return func(i, j int) float64 {
		a, b := nb.Adj[nb.Ptr[i]:nb.Ptr[i+1]], nb.Adj[nb.Ptr[j]:nb.Ptr[j+1]]
		var s float64
		for len(a) > 0 && len(b) > 0 {
			switch {
			case a[0] < b[0]:
				a = a[1:]
			case a[0] > b[0]:
				b = b[1:]
			default:
				s += weight(a[0])
				a, b = a[1:], b[1:]
			}
		}
		return s
	}
}

// HeuristicMetrics scores h as a link predictor on every graph's split:
// validation and test AUC, test AP and Hits@20/50 of h's score on the
// split's positives against its negatives, read from the split's
// message-passing edges (Split.MP, which must not be dropped), per graph
// and averaged over graphs as GraphMetrics averages. τ and its interval are
// NaN: a count of common neighbours says nothing of pairs two or more hops
// apart that share none, and a product of degrees nothing of distance. O(Σ_g (n_g + E_g) + pairs × degree).
func HeuristicMetrics(h Heuristic, splits []*data.Split) Scores {
	var val, test mean
	var rk rankMeans
	for _, s := range splits {
		if s.MP == nil && len(s.Train) > 0 {
			panic("eval: HeuristicMetrics needs the split's message-passing edges (Split.MP was dropped)")
		}
		score := NewNeighbourhoods(s.Graph.N, s.MP).Scorer(h)
		val.add(AUC(localScores(score, s.Val, s.ValNeg)))
		r := rankScores(localScores(score, s.Test, s.TestNeg))
		test.add(r.auc())
		rk.add(r)
	}
	nan := math.NaN()
	return rk.fill(Scores{ValAUC: val.value(), TestAUC: test.value(), Tau: nan, TauLo: nan, TauHi: nan, TauHeldout: nan})
}

// localScores is score of the positives, then of the negatives (rows of
// one graph), with their labels.
func localScores(score func(i, j int) float64, pos, neg []data.Pair) ([]float64, []bool) {
	sc := make([]float64, 0, len(pos)+len(neg))
	lb := make([]bool, 0, len(pos)+len(neg))
	for _, q := range pos {
		sc, lb = append(sc, score(int(q.I), int(q.J))), append(lb, true)
	}
	for _, q := range neg {
		sc, lb = append(sc, score(int(q.I), int(q.J))), append(lb, false)
	}
	return sc, lb
}
