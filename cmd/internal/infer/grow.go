package infer

import "github.com/ignn/ignn/engine"

// The chunked inference's chunks: which nodes each holds (Inferer sizes
// them).

// bfsOrder is a breadth-first order of a's nodes: from the lowest-numbered
// node not yet reached, component after component, neighbours in column
// order.
func bfsOrder(a engine.Links) []int32 {
	order := make([]int32, 0, a.Nodes())
	seen := make([]bool, a.Nodes())
	for s := range a.Nodes() {
		if seen[s] {
			continue
		}
		seen[s] = true
		order = append(order, int32(s))
		for h := len(order) - 1; h < len(order); h++ {
			u := order[h]
			for _, v := range a.Row(int(u)) {
				if !seen[v] {
					seen[v] = true
					order = append(order, int32(v))
				}
			}
		}
	}
	return order
}

// grower grows the inference's chunks as balls: a chunk is the first nodes
// a breadth-first search over the nodes no chunk holds yet reaches from the
// earliest such node of the graph's breadth-first order (roots), then from
// the next one when that region is used up. A ball of c nodes has a thin
// rim for its size (its L-hop neighbourhood adds ≈ L·perimeter nodes): on
// a 10⁴ × 10⁴ grid, consecutive nodes of the breadth-first order are a band
// of anti-diagonals, whose 3-hop rim is ≈ 6·10⁴ nodes whatever the chunk's
// size, so that 10⁵ node slots held chunks of ≈ 4·10⁴ nodes.
type grower struct {
	a      engine.Links
	roots  []int32 // the graph's breadth-first order
	next   int     // roots before next are in chunks
	next0  int     // next when the last chunk began (undo)
	chunks []int32 // the chunks' nodes, chunk after chunk (a permutation of the nodes once grown)
	held   []bool  // in a chunk
	head   int     // chunks[head:] are the grown nodes whose neighbours are not yet searched
}

func newGrower(a engine.Links, roots []int32) *grower {
	return &grower{a: a, roots: roots, chunks: make([]int32, 0, len(roots)), held: make([]bool, len(roots))}
}

// grow adds a chunk of at most c nodes (fewer only at the graph's end) and
// returns its end in chunks.
func (g *grower) grow(c int) int {
	lo := len(g.chunks)
	g.head, g.next0 = lo, g.next
	for len(g.chunks)-lo < c {
		if g.head == len(g.chunks) { // the region is used up: the next root
			for g.next < len(g.roots) && g.held[g.roots[g.next]] {
				g.next++
			}
			if g.next == len(g.roots) {
				break
			}
			g.add(g.roots[g.next])
			continue
		}
		v := g.chunks[g.head]
		g.head++
		for _, u := range g.a.Row(int(v)) {
			if !g.held[u] {
				g.add(int32(u))
				if len(g.chunks)-lo == c {
					break
				}
			}
		}
	}
	return len(g.chunks)
}

func (g *grower) add(v int32) {
	g.held[v] = true
	g.chunks = append(g.chunks, v)
}

// undo takes back the last chunk, which began at lo.
func (g *grower) undo(lo int) {
	for _, v := range g.chunks[lo:] {
		g.held[v] = false
	}
	g.chunks, g.next = g.chunks[:lo], g.next0
}
