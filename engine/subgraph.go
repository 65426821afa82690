package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Subgraph is one mini-batch's node set and edges, the loader of
// mini-batch training: slots 0…len(Nodes)−1 hold global rows (seeds first,
// in order of first appearance, then hop 1, hop 2, …), edges join a node of
// hop < L to the neighbours it reaches. Build fills it, Load writes it into
// a batch Adjacency, Slot maps a global row to its slot.
type Subgraph struct {
	Slots int     // node slots of a batch
	Nodes []int   // slot → global row, after Build
	a     Links   // the whole graph's message-passing structure
	stamp []int32 // global row → slot, −1 outside the batch
	es    [][2]int32
	pick  []int32 // fanout scratch
	ptr   []int
	col   []int
	next  []int // Stage's fill positions
	// scanned: Build listed the neighbours of slots 0 … scanned−1 (the
	// nodes of hop < layers); whole: all of them (no fanout drawn).
	scanned int
	whole   bool
	// deg and degAlt: the degrees of the batch staged last and of the one
	// before (Stage alternates them).
	deg, degAlt []int
}

// NewSubgraph returns an empty Subgraph of slots node slots over adj (the
// whole graph's adjacency). O(N) memory for the global → slot map.
func NewSubgraph(adj *Adjacency, slots int) Subgraph {
	s := Subgraph{a: adj.Links(), Slots: slots, stamp: make([]int32, adj.N)}
	for i := range s.stamp {
		s.stamp[i] = -1
	}
	return s
}

// Build collects the seeds and their layers-hop neighbourhood (all
// neighbours, or fanout drawn from rng per node and hop) into the slots and
// returns how many links reached nodes that did not fit (a node counted
// once per link to it). Seeds that do not fit are an error.
func (s *Subgraph) Build(seeds []int32, layers, fanout int, rng *rand.Rand) (cut int, err error) {
	s.Nodes, s.es = s.Nodes[:0], s.es[:0]
	add := func(v int) int32 {
		k := int32(len(s.Nodes))
		s.stamp[v] = k
		s.Nodes = append(s.Nodes, v)
		return k
	}
	for _, v := range seeds {
		if s.stamp[v] >= 0 {
			continue
		}
		if len(s.Nodes) == s.Slots {
			n := len(s.Nodes)
			s.Clear()
			return 0, fmt.Errorf("a step's pairs and triples have more than %d distinct nodes (%d seeds listed), more than the %d node slots of a batch: raise --batch-nodes or lower --batch-size or --rank-triples", n, len(seeds), s.Slots)
		}
		add(int(v))
	}
	lo := 0
	for hop := 0; hop < layers; hop++ {
		hi := len(s.Nodes)
		for r := lo; r < hi; r++ {
			v := s.Nodes[r]
			nb := s.a.Row(v)
			if fanout > 0 && len(nb) > fanout {
				s.pick = append(s.pick[:0], nb...)
				for i := 0; i < fanout; i++ {
					j := i + rng.IntN(len(s.pick)-i)
					s.pick[i], s.pick[j] = s.pick[j], s.pick[i]
				}
				nb = s.pick[:fanout]
			}
			for _, u := range nb {
				k := s.stamp[u]
				if k < 0 {
					if len(s.Nodes) == s.Slots {
						cut++
						continue
					}
					k = add(int(u))
				}
				s.es = append(s.es, [2]int32{int32(r), k})
			}
		}
		lo = hi
	}
	s.scanned, s.whole = lo, fanout <= 0
	return cut, nil
}

// Slot is the slot of global row v (in the batch; −1 outside it).
func (s *Subgraph) Slot(v int) int { return int(s.stamp[v]) }

// Clear forgets the batch's global → slot map (O(batch)); Build and Load
// work after it, Slot does not.
func (s *Subgraph) Clear() {
	for _, v := range s.Nodes {
		s.stamp[v] = -1
	}
}

// Load puts the edges, made symmetric and without duplicates, into adj;
// with globalDeg the normalisations use each node's whole-graph degree.
func (s *Subgraph) Load(adj *Adjacency, globalDeg bool) {
	s.Stage(adj, globalDeg)
	adj.UseStaged()
}

// Stage is Load's first half: the batch's rows and degrees, staged in adj
// (Adjacency.Stage) without touching what a running step reads;
// adj.UseStaged makes them its own. The degrees alternate between two buffers (the
// adjacency keeps the applied ones), so a batch may be staged while the
// previous one trains.
func (s *Subgraph) Stage(adj *Adjacency, globalDeg bool) {
	if s.whole {
		s.rowsWhole()
	} else {
		s.rowsSymmetrised()
	}
	var deg []int
	if globalDeg {
		s.deg, s.degAlt = s.degAlt, s.deg
		if s.deg == nil {
			s.deg = make([]int, s.Slots)
		}
		clear(s.deg)
		for r, v := range s.Nodes {
			s.deg[r] = s.a.Degree(v)
		}
		deg = s.deg
	}
	adj.Stage(s.ptr, s.col, deg)
}

// rowsSymmetrised builds Stage's rows from the edges Build listed, each
// entered both ways: every row sorted, repeats dropped.
func (s *Subgraph) rowsSymmetrised() {
	s.enter(0)
	w := 0 // compact: sort each row, drop repeats
	for r := 0; r < s.Slots; r++ {
		row := s.col[s.ptr[r]:s.ptr[r+1]]
		slices.Sort(row)
		s.ptr[r] = w
		for k, c := range row {
			if k == 0 || c != row[k-1] {
				s.col[w] = c
				w++
			}
		}
	}
	s.ptr[s.Slots], s.col = w, s.col[:w]
}

// rowsWhole is rowsSymmetrised for a batch whose scanned nodes listed every
// neighbour in the slots (no fanout), on the symmetric links without
// repeats or self-loops every Adjacency holds. Then a scanned node's row is
// the slots of its own listed neighbours — each edge to another scanned
// node is listed from both ends — and needs only sorting; an unscanned
// node's row is the scanned nodes that listed it, met in increasing slot
// order (Build scans slots in order): already sorted, no repeats. The
// same rows, without entering the edges between scanned nodes twice or
// sorting and compacting the unscanned nodes' rows.
func (s *Subgraph) rowsWhole() {
	s.enter(int32(s.scanned))
	for r := range s.scanned {
		slices.Sort(s.col[s.ptr[r]:s.ptr[r+1]])
	}
}

// enter puts the listed edges (r, k) into rows by a counting sort, in
// listing order: k into row r, and r into row k when k ≥ from.
func (s *Subgraph) enter(from int32) {
	s.ptr = append(s.ptr[:0], make([]int, s.Slots+1)...)
	for _, e := range s.es {
		s.ptr[e[0]+1]++
		if e[1] >= from {
			s.ptr[e[1]+1]++
		}
	}
	for r := 0; r < s.Slots; r++ {
		s.ptr[r+1] += s.ptr[r]
	}
	s.col = append(s.col[:0], make([]int, s.ptr[s.Slots])...)
	next := append(s.next[:0], s.ptr[:s.Slots]...)
	for _, e := range s.es {
		s.col[next[e[0]]], next[e[0]] = int(e[1]), next[e[0]]+1
		if e[1] >= from {
			s.col[next[e[1]]], next[e[1]] = int(e[0]), next[e[1]]+1
		}
	}
	s.next = next
}
