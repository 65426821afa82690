package data

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
)

// Task is a training task: which node pairs are positive.
type Task string

// The tasks.
const (
	TaskLink Task = "link" // link prediction
	TaskPair Task = "pair" // pairwise node classification (same label)
)

// ParseTask reads a task name, naming the valid ones when it is not one.
func ParseTask(s string) (Task, error) {
	if t := Task(s); t == TaskLink || t == TaskPair {
		return t, nil
	}
	return "", fmt.Errorf("unknown task %q (valid: link, pair)", s)
}

// Pair is an unordered node pair of one graph, I < J.
type Pair struct{ I, J int32 }

func key(i, j int) uint64 {
	if i > j {
		i, j = j, i
	}
	return uint64(i)<<32 | uint64(j)
}

// ErrTooSmall is wrapped by NewSplit's error for a graph with too few
// positive pairs to split 80/10/10.
var ErrTooSmall = errors.New("graph too small for the task")

// Split is one graph's task: positives split 80/10/10, fixed validation and
// test negatives, the message-passing edges and the hop distances on them.
type Split struct {
	Graph              *Graph
	Train, Val, Test   []Pair // positives
	ValNeg, TestNeg    []Pair
	MP                 [][2]int32 // message-passing edges, sorted (nil after DropMP)
	pos                pairSet    // every positive (link: the graph's edges themselves)
	fixedNeg           keySet     // the validation and test negatives' keys, sorted
	Dist               *Distances
	CandidateNegatives int // number of pairs that are not positives

	negBuf   []Pair          // SampleTrainNegatives' result, reused
	negTaken map[uint64]bool // and its set of drawn pairs
	// For draws of at least hashedDraw pairs: pos ∪ fixedNeg and the
	// draw's pairs as hash sets (the same draws, faster; nil until then).
	excluded, negHashed *keyHash
}

// NewSplit builds the task on g. Link: positives are the edges, and only
// training edges pass messages. Pair: positives are same-label pairs and the
// whole graph passes messages. Positives are shuffled by rng and split by
// int(0.8P), int(0.9P) as P-GNN does. Validation and test negatives (as many
// as positives) are drawn once, disjoint from every positive in either
// orientation and from each other.
func NewSplit(g *Graph, task Task, rng *rand.Rand) (*Split, error) {
	s := &Split{Graph: g}
	var pos []Pair
	switch task {
	case TaskLink:
		for _, e := range g.Edges {
			pos = append(pos, Pair{int32(e[0]), int32(e[1])})
		}
	case TaskPair:
		if g.Labels == nil {
			return nil, fmt.Errorf("data: %s has no node labels: the pair task needs them", g.Name)
		}
		for i := 0; i < g.N; i++ {
			for j := i + 1; j < g.N; j++ {
				if g.Labels[i] == g.Labels[j] {
					pos = append(pos, Pair{int32(i), int32(j)})
				}
			}
		}
	default:
		return nil, fmt.Errorf("data: unknown task %q (valid: link, pair)", task)
	}
	if len(pos) < 10 {
		return nil, fmt.Errorf("data: %s has %d positive pairs for task %s; at least 10 are needed for a split: %w", g.Name, len(pos), task, ErrTooSmall)
	}
	if es := edgeSet(g.Edges); task == TaskLink && es.sorted() {
		s.pos = es // no copy: 8 B an edge, 1.6 GB at 2·10⁸ edges
	} else {
		ks := make(keySet, 0, len(pos))
		for _, p := range pos {
			ks = append(ks, key(int(p.I), int(p.J)))
		}
		ks.sort()
		s.pos = ks
	}
	s.CandidateNegatives = g.N*(g.N-1)/2 - len(pos)
	rng.Shuffle(len(pos), func(a, b int) { pos[a], pos[b] = pos[b], pos[a] })
	a, b := int(0.8*float64(len(pos))), int(0.9*float64(len(pos)))
	s.Train, s.Val, s.Test = pos[:a], pos[a:b], pos[b:]
	if task == TaskLink {
		for _, p := range s.Train {
			s.MP = append(s.MP, [2]int32{p.I, p.J})
		}
		slices.SortFunc(s.MP, compareEdges)
	} else {
		s.MP = g.Edges
	}
	s.ValNeg = s.sample(rng, len(s.Val), true)
	s.TestNeg = s.sample(rng, len(s.Test), true)
	return s, nil
}

// NewSplits builds the task on each graph of ds in order, drawing from one
// rng. In a dataset of several graphs a graph too small for the task
// (ErrTooSmall) is left out with a note in skipped; a lone graph's error is
// returned. kept holds the graphs that have a split (ds itself when none
// was left out); it is an error when none has.
func NewSplits(ds *Dataset, task Task, rng *rand.Rand) (splits []*Split, kept *Dataset, skipped []string, err error) {
	kept = &Dataset{Name: ds.Name, Identity: ds.Identity}
	for g, gr := range ds.Graphs {
		s, err := NewSplit(gr, task, rng)
		if errors.Is(err, ErrTooSmall) && len(ds.Graphs) > 1 {
			skipped = append(skipped, fmt.Sprintf("graph %s skipped: %v", gr.Name, err))
			continue
		}
		if err != nil {
			return nil, nil, nil, err
		}
		splits = append(splits, s)
		kept.Graphs = append(kept.Graphs, gr)
		if ds.Identity {
			kept.Perm = append(kept.Perm, ds.Perm[g])
		}
	}
	if len(kept.Graphs) == 0 {
		return nil, nil, nil, fmt.Errorf("data: %s: no graph is large enough for task %s (each needs ≥ 10 positive pairs)", ds.Name, task)
	}
	if len(kept.Graphs) == len(ds.Graphs) {
		kept = ds
	}
	return splits, kept, skipped, nil
}

// DropMP releases the message-passing edge list once the structures made
// from it are built (a run's adjacencies: 8 B a training edge, 1.3 GB at
// 2·10⁸ edges, that nothing reads afterwards). MP is nil after it.
func (s *Split) DropMP() { s.MP = nil }

// SampleTrainNegatives draws k negatives for one training epoch: uniform
// unordered pairs that are no positive (any split) and no validation or test
// negative. Fewer than k are returned only when the graph has fewer such
// pairs. The result is valid until the next call (its memory is reused);
// a Split is not safe for concurrent draws.
func (s *Split) SampleTrainNegatives(rng *rand.Rand, k int) []Pair {
	out := s.sample(rng, k, false)
	s.negBuf = out[:0]
	return out
}

func (s *Split) sample(rng *rand.Rand, k int, fixed bool) []Pair {
	n := s.Graph.N
	avail := s.CandidateNegatives - len(s.fixedNeg)
	if k > avail {
		k = avail
	}
	var out []Pair
	var taken map[uint64]bool
	if fixed {
		out, taken = make([]Pair, 0, k), make(map[uint64]bool, k)
	} else {
		// Training negatives are drawn every epoch: reuse the last draw's
		// slice and set (the caller consumes the pairs before the next draw).
		if s.negTaken == nil {
			s.negTaken = make(map[uint64]bool, k)
		}
		clear(s.negTaken)
		out, taken = s.negBuf[:0], s.negTaken
	}
	// Rejection sampling while the pool is large; enumerate when dense.
	if avail > 4*k && !fixed && s.hashed(k) {
		s.negHashed.reset()
		for len(out) < k {
			i, j := rng.IntN(n), rng.IntN(n)
			if i == j {
				continue
			}
			kk := key(i, j)
			if s.excluded.has(kk) || !s.negHashed.add(kk) {
				continue
			}
			if i > j {
				i, j = j, i
			}
			out = append(out, Pair{int32(i), int32(j)})
		}
	} else if avail > 4*k {
		for len(out) < k {
			i, j := rng.IntN(n), rng.IntN(n)
			if i == j {
				continue
			}
			kk := key(i, j)
			if s.pos.has(kk) || s.fixedNeg.has(kk) || taken[kk] {
				continue
			}
			taken[kk] = true
			if i > j {
				i, j = j, i
			}
			out = append(out, Pair{int32(i), int32(j)})
		}
	} else {
		var pool []Pair
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				kk := key(i, j)
				if !s.pos.has(kk) && !s.fixedNeg.has(kk) {
					pool = append(pool, Pair{int32(i), int32(j)})
				}
			}
		}
		for t := 0; t < k; t++ {
			r := t + rng.IntN(len(pool)-t)
			pool[t], pool[r] = pool[r], pool[t]
		}
		out = pool[:k]
	}
	if fixed {
		for _, p := range out {
			s.fixedNeg = append(s.fixedNeg, key(int(p.I), int(p.J)))
		}
		s.fixedNeg.sort()
		s.excluded = nil
	}
	return out
}

// pairSet is a set of unordered pairs, by key.
type pairSet interface{ has(key uint64) bool }

// edgeSet is a graph's edge list as the set of its pairs: each edge once
// as (u, v), u < v, in sorted order (Graph.Edges).
type edgeSet [][2]int32

func compareEdges(a, b [2]int32) int {
	if a[0] != b[0] {
		return cmp.Compare(a[0], b[0])
	}
	return cmp.Compare(a[1], b[1])
}

// sorted reports whether e is strictly increasing with u < v in every
// edge, which has needs (a Graph's edges are; one made by hand may not be).
func (e edgeSet) sorted() bool {
	for k, x := range e {
		if x[0] >= x[1] || (k > 0 && compareEdges(e[k-1], x) >= 0) {
			return false
		}
	}
	return true
}

// has reports whether key's pair is an edge (binary search).
func (e edgeSet) has(key uint64) bool {
	// A binary search written out: slices.BinarySearchFunc's call of
	// compareEdges per probe was 20% of a whole-graph capacity step.
	u, v := int32(key>>32), int32(key&0xffffffff)
	lo, hi := 0, len(e)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x := e[m]; x[0] < u || x[0] == u && x[1] < v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(e) && e[lo] == [2]int32{u, v}
}

// keySet is a sorted set of pair keys: 8 bytes a pair where a map takes
// about 40 (issue 37: the positives of a 10⁷-node graph's split held ≈ 1 GB
// as a map).
type keySet []uint64

func (k keySet) sort() { slices.Sort(k) }

// has reports whether key is in the set (binary search).
func (k keySet) has(key uint64) bool {
	_, ok := slices.BinarySearch(k, key)
	return ok
}

// IsPositive reports whether (i, j) is a positive of any split.
func (s *Split) IsPositive(i, j int) bool { return s.pos.has(key(i, j)) }
