package models

import (
	"math/bits"
	"math/rand/v2"

	"github.com/ignn/ignn/engine"
)

// simTable lists the possible similarities: 0 (no reachable anchor) and
// 1/(d+1) for d = 0..maxHop. f(ŝ) is evaluated on this table and gathered per
// slot, which is exact and avoids an N·K×hidden MLP.
func (l *pgnnLayout) simTable() []float64 {
	t := make([]float64, l.maxHop+2)
	for k := 1; k < len(t); k++ {
		t[k] = 1 / float64(k)
	}
	return t
}

type pgnnLayout struct {
	maxHop int   // largest finite hop distance in any block
	k      []int // anchor sets per block
	kmax   int
	slots  int
	self   []int // node of each slot
	pool   *engine.CSR
	place  *engine.CSR
	blocks []engine.Block
	// original: read the closest anchor's position in its set as a node id
	// (Config.AnchorIndex).
	original bool
	copies   float64 // Config.AnchorCopies
	// BFS mode (blocks without hop tables): the adjacency, the hop cutoff,
	// and per-set scratch.
	adj        *engine.CSR
	cutoff     int
	bfsD, bfsL []int32
	queue      []int32
}

// AnchorSets is how many anchor sets P-GNN draws for an n-node graph with
// copies factor c (Config.AnchorCopies): m·anchorCopies(m, c) with
// m = ⌊log₂ n⌋; 1 below two nodes.
func AnchorSets(n int, c float64) int {
	if n < 2 {
		return 1
	}
	m := bits.Len(uint(n)) - 1
	return m * anchorCopies(m, c)
}

// anchorCopies is the number of sets of each size: ⌊c·m⌋, at least 1; c = 0
// means 1 (m copies, the reference's default).
func anchorCopies(m int, c float64) int {
	if c == 0 {
		return m
	}
	return max(1, int(c*float64(m)))
}

func layout(gi *engine.GraphInput, cutoff int, copies float64) *pgnnLayout {
	l := &pgnnLayout{blocks: gi.Blocks, adj: gi.Adj.Structure(), cutoff: cutoff, copies: copies}
	for _, b := range gi.Blocks {
		if b.Hops == nil {
			l.maxHop = max(l.maxHop, l.hopBound(b))
		}
		for _, d := range b.Hops {
			if d != engine.HopUnreachable {
				l.maxHop = max(l.maxHop, int(d))
			}
		}
		k := AnchorSets(b.N, copies)
		l.k = append(l.k, k)
		l.kmax = max(l.kmax, k)
		l.slots += b.N * k
	}
	var pool, place []engine.Entry
	row := 0
	for bi, b := range gi.Blocks {
		k := l.k[bi]
		for v := 0; v < b.N; v++ {
			for s := 0; s < k; s++ {
				l.self = append(l.self, b.Off+v)
				pool = append(pool, engine.Entry{Row: b.Off + v, Col: row, Val: 1 / float64(k)})
				place = append(place, engine.Entry{Row: (b.Off+v)*l.kmax + s, Col: row, Val: 1})
				row++
			}
		}
	}
	l.pool = engine.NewCSR(gi.Adj.N, l.slots, pool)
	l.place = engine.NewCSR(gi.Adj.N*l.kmax, l.slots, place)
	return l
}

// draw samples fresh anchor sets for every block and computes, per slot,
// the closest anchor (global node id) and the index of its similarity in the
// table simTable: 0 for no reachable anchor (similarity 0), d+1 for hop d
// (similarity 1/(d+1)).
func (l *pgnnLayout) draw(rng *rand.Rand, arg []int, dist []int) {
	row := 0
	for bi, b := range l.blocks {
		n := b.N
		m := bits.Len(uint(n)) - 1
		if n < 2 {
			m = 1
		}
		perm := make([]int, n)
		for i := range perm {
			perm[i] = i
		}
		sets := make([][]int, 0, l.k[bi])
		copies := anchorCopies(m, l.copies)
		for i := 0; i < m; i++ {
			size := max(1, n>>(i+1))
			for c := 0; c < copies; c++ {
				for t := 0; t < size; t++ { // partial Fisher–Yates
					r := t + rng.IntN(n-t)
					perm[t], perm[r] = perm[r], perm[t]
				}
				sets = append(sets, append([]int(nil), perm[:size]...))
			}
		}
		if b.Hops == nil {
			k := len(sets)
			for si, set := range sets {
				l.nearest(b, set)
				for v := 0; v < n; v++ {
					pos, sim := 0, 0
					if l.bfsD[v] >= 0 {
						pos, sim = int(l.bfsL[v]), int(l.bfsD[v])+1
					}
					node := set[pos]
					if l.original {
						node = pos
					}
					arg[row+v*k+si], dist[row+v*k+si] = b.Off+node, sim
				}
			}
			row += n * k
			continue
		}
		for v := 0; v < n; v++ {
			for _, set := range sets {
				best, sim := closestAnchor(b.Hops[v*n:(v+1)*n], set, l.original)
				arg[row], dist[row] = b.Off+best, sim
				row++
			}
		}
	}
}

// nearest runs a multi-source BFS from set's anchors inside block b (local
// indices): bfsD[v] is the hop distance to the nearest anchor (−1 when none
// within the cutoff), bfsL[v] the smallest set position among the anchors
// at that distance — closestAnchor's "first in set order" on ties. The
// anchors enter the queue in set order, so every level of the queue is
// ordered by label and a node's first discoverer carries the smallest
// label among its parents. O(n + E_b).
func (l *pgnnLayout) nearest(b engine.Block, set []int) {
	n := b.N
	if cap(l.bfsD) < n {
		l.bfsD, l.bfsL, l.queue = make([]int32, n), make([]int32, n), make([]int32, 0, n)
	}
	l.bfsD, l.bfsL = l.bfsD[:n], l.bfsL[:n]
	for i := range l.bfsD {
		l.bfsD[i] = -1
	}
	q := l.queue[:0]
	for i, a := range set {
		l.bfsD[a], l.bfsL[a] = 0, int32(i)
		q = append(q, int32(a))
	}
	a := l.adj
	for h := 0; h < len(q); h++ {
		u := q[h]
		du := l.bfsD[u]
		if l.cutoff > 0 && int(du) >= l.cutoff {
			continue
		}
		for e := a.RowPtr[b.Off+int(u)]; e < a.RowPtr[b.Off+int(u)+1]; e++ {
			w := int32(a.ColIdx[e] - b.Off)
			if l.bfsD[w] < 0 {
				l.bfsD[w], l.bfsL[w] = du+1, l.bfsL[u]
				q = append(q, w)
			}
		}
	}
	l.queue = q
}

// hopBound bounds the largest finite anchor distance of a block without a
// hop table: the cutoff, or twice the eccentricity of one node per
// connected component (≥ its diameter).
func (l *pgnnLayout) hopBound(b engine.Block) int {
	if l.cutoff > 0 {
		return l.cutoff
	}
	seen := make([]int32, b.N)
	for i := range seen {
		seen[i] = -1
	}
	bound := 0
	var q []int32
	for s := 0; s < b.N; s++ {
		if seen[s] >= 0 {
			continue
		}
		seen[s] = 0
		q = append(q[:0], int32(s))
		for h := 0; h < len(q); h++ {
			u := q[h]
			for e := l.adj.RowPtr[b.Off+int(u)]; e < l.adj.RowPtr[b.Off+int(u)+1]; e++ {
				if w := int32(l.adj.ColIdx[e] - b.Off); seen[w] < 0 {
					seen[w] = seen[u] + 1
					q = append(q, w)
					bound = max(bound, 2*int(seen[w]))
				}
			}
		}
	}
	return bound
}

// closestAnchor returns, for a node with hop distances row, the node whose
// message it receives from set and the index of its similarity in simTable
// (0: no reachable anchor; d+1: hop d). The closest anchor is the first in
// set order at the smallest distance (set[0] when none is reachable). With
// original, the reference code's behaviour before its fix 9c1553d: the
// anchor's position inside the set is returned as the node, so messages
// come from nodes 0…|S|−1 of the graph.
func closestAnchor(row []uint16, set []int, original bool) (node, sim int) {
	pos, bestD := 0, -1
	for i, a := range set {
		d := row[a]
		if d == engine.HopUnreachable {
			continue
		}
		if bestD < 0 || int(d) < bestD {
			pos, bestD = i, int(d)
		}
	}
	if original {
		return pos, bestD + 1
	}
	return set[pos], bestD + 1
}
