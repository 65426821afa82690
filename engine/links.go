package engine

import (
	"fmt"
	"math"
)

// Links is a whole graph's message-passing structure with 32-bit indices,
// what mini-batch loading reads (Subgraph) and what a breadth-first search
// walks: the neighbours of node v are Nb[Off[v]:Off[v+1]], sorted, without
// self-loops or repeats. 4 B an arc and a node, where a CSR takes 8 B of
// each (issue 37: at 10⁸ nodes and 2·10⁸ edges the CSR's indices were
// 4 GB beside the 2 GB the BFS already held in this very layout).
type Links struct{ Off, Nb []int32 }

// Nodes is the number of nodes.
func (l Links) Nodes() int { return max(0, len(l.Off)-1) }

// Row is v's neighbours (shared, not a copy).
func (l Links) Row(v int) []int32 { return l.Nb[l.Off[v]:l.Off[v+1]] }

// Degree is v's number of neighbours.
func (l Links) Degree(v int) int { return int(l.Off[v+1] - l.Off[v]) }

// check panics unless l is a structure of n nodes: offsets from 0,
// non-decreasing, to len(Nb), each row's neighbours sorted, distinct, in
// range and not v itself. O(N + arcs), once per adjacency.
func (l Links) check(n int) {
	if len(l.Off) != n+1 || l.Off[0] != 0 || int(l.Off[n]) != len(l.Nb) {
		panic(fmt.Sprintf("engine: links of %d offsets and %d neighbours for %d nodes", len(l.Off), len(l.Nb), n))
	}
	for v := range n {
		if l.Off[v+1] < l.Off[v] {
			panic(fmt.Sprintf("engine: links: offsets decrease at node %d", v))
		}
		prev := int32(-1)
		for _, u := range l.Row(v) {
			if u <= prev || int(u) >= n || int(u) == v {
				panic(fmt.Sprintf("engine: links: node %d's neighbours are not sorted, distinct, in range and other than itself (%d after %d)", v, u, prev))
			}
			prev = u
		}
	}
}

// linksOf is m's structure as Links. It panics past 2³¹−1 entries.
func linksOf(m *CSR) Links {
	if m.NNZ() > math.MaxInt32 {
		panic(fmt.Sprintf("engine: %d adjacency entries exceed 32-bit links", m.NNZ()))
	}
	l := Links{Off: make([]int32, m.Rows+1), Nb: make([]int32, m.NNZ())}
	for r := range m.Rows {
		l.Off[r+1] = int32(m.RowPtr[r+1])
	}
	for k, c := range m.ColIdx {
		l.Nb[k] = int32(c)
	}
	return l
}

// csrOf is l's structure as a CSR without values (what NewAdjacency
// builds from the same edges).
func (l Links) csrOf() *CSR {
	n := l.Nodes()
	m := &CSR{Rows: n, Cols: n, RowPtr: make([]int, n+1)}
	if len(l.Nb) > 0 {
		m.ColIdx = make([]int, len(l.Nb))
	}
	for r := range n {
		m.RowPtr[r+1] = int(l.Off[r+1])
	}
	for k, c := range l.Nb {
		m.ColIdx[k] = int(c)
	}
	return m
}
