package run

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/ignn/ignn/engine"
)

// subgraph is one mini-batch's node set and edges: slots 0…len(nodes)−1
// hold global rows (seeds first, in order of first appearance, then hop 1,
// hop 2, …), edges join a node of hop < L to the neighbours it reaches.
type subgraph struct {
	a     *engine.CSR // the whole graph's message-passing adjacency
	slots int
	stamp []int32 // global row → slot, −1 outside the batch
	nodes []int   // slot → global row
	es    [][2]int32
	pick  []int // fanout scratch
	ptr   []int
	col   []int
	deg   []int
}

func newSubgraph(adj *engine.Adjacency, slots int) subgraph {
	s := subgraph{a: adj.A, slots: slots, stamp: make([]int32, adj.N), deg: make([]int, slots)}
	for i := range s.stamp {
		s.stamp[i] = -1
	}
	return s
}

// build collects the seeds and their layers-hop neighbourhood (all
// neighbours, or fanout drawn from rng per node and hop) into the slots and
// returns how many neighbourhood nodes did not fit. Seeds that do not fit
// are an error.
func (s *subgraph) build(seeds []int32, layers, fanout int, rng *rand.Rand) (cut int, err error) {
	s.nodes, s.es = s.nodes[:0], s.es[:0]
	add := func(v int) int32 {
		k := int32(len(s.nodes))
		s.stamp[v] = k
		s.nodes = append(s.nodes, v)
		return k
	}
	for _, v := range seeds {
		if s.stamp[v] >= 0 {
			continue
		}
		if len(s.nodes) == s.slots {
			n := len(s.nodes)
			s.clearSlots()
			return 0, fmt.Errorf("a step's pairs and triples have more than %d distinct nodes (%d seeds listed), more than the %d node slots of a batch: raise --batch-nodes or lower --batch-size or --rank-triples", n, len(seeds), s.slots)
		}
		add(int(v))
	}
	lo := 0
	for hop := 0; hop < layers; hop++ {
		hi := len(s.nodes)
		for r := lo; r < hi; r++ {
			v := s.nodes[r]
			nb := s.a.ColIdx[s.a.RowPtr[v]:s.a.RowPtr[v+1]]
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
					if len(s.nodes) == s.slots {
						cut++
						continue
					}
					k = add(u)
				}
				s.es = append(s.es, [2]int32{int32(r), k})
			}
		}
		lo = hi
	}
	return cut, nil
}

// slot is the slot of global row v (in the batch).
func (s *subgraph) slot(v int) int { return int(s.stamp[v]) }

// clearSlots forgets the batch's global → slot map (O(batch)).
func (s *subgraph) clearSlots() {
	for _, v := range s.nodes {
		s.stamp[v] = -1
	}
}

// load puts the edges, made symmetric and without duplicates, into adj;
// with globalDeg the normalisations use each node's whole-graph degree.
func (s *subgraph) load(adj *engine.Adjacency, globalDeg bool) {
	s.ptr = append(s.ptr[:0], make([]int, s.slots+1)...)
	for _, e := range s.es {
		s.ptr[e[0]+1]++
		s.ptr[e[1]+1]++
	}
	for r := 0; r < s.slots; r++ {
		s.ptr[r+1] += s.ptr[r]
	}
	s.col = append(s.col[:0], make([]int, s.ptr[s.slots])...)
	next := append([]int(nil), s.ptr[:s.slots]...)
	for _, e := range s.es {
		s.col[next[e[0]]], next[e[0]] = int(e[1]), next[e[0]]+1
		s.col[next[e[1]]], next[e[1]] = int(e[0]), next[e[1]]+1
	}
	w := 0 // compact: sort each row, drop repeats
	for r := 0; r < s.slots; r++ {
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
	s.ptr[s.slots], s.col = w, s.col[:w]
	var deg []int
	if globalDeg {
		clear(s.deg)
		for r, v := range s.nodes {
			s.deg[r] = s.a.RowPtr[v+1] - s.a.RowPtr[v]
		}
		deg = s.deg
	}
	adj.Load(s.ptr, s.col, deg)
}
