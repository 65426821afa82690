package data

import (
	"math/bits"
	"sync"
)

// Multi-source BFS: on a small world, where every node is a few hops from
// every other, up to msWidth sources share each sweep of the graph (Then
// et al., "The More the Merrier: Efficient Multi-Source Graph Traversal",
// VLDB 2014). A node keeps one bit per source: seen (reached), and in the
// level's frontier; a level is found through the frontier nodes' edges
// while they are few, else by one sweep over the nodes not yet reached
// from every source, each OR-ing its neighbours' frontier bits — the
// sources it is new to are at the next level. The rows are the per-source
// BFS's (a hop distance is unique), for L sweeps of the graph where the
// sources alone would make one each (L: the levels, ≤ ~10 on a small
// world); a graph of long paths (a grid, a geometric graph) keeps one BFS
// per source.

// msWidth is how many sources one multi-source sweep serves (the bits of
// the per-node words: 3 × 8 B a node of scratch).
const msWidth = 64

// msMaxLevels: a graph takes the multi-source sweeps when a BFS from its
// node of highest degree ends within this many levels (every other
// source's then ends within about twice as many, fewer than the msWidth
// BFS a sweep replaces).
const msMaxLevels = 10

// msMinSources is the fewest sources worth a multi-source sweep: a sweep
// costs about the same for 12 sources as for 64, and measured (2 cores,
// ba:N:4) 1.2–1.4× one BFS per source for 12, 0.5–0.6× for 32, 0.35–0.55×
// for 64, at N = 10⁶ and 10⁷.
const msMinSources = 24

// SweepRowBytes bounds the BFS rows a sampler computes at once to give a
// small world's sources to multi-source sweeps (Hops.ChunkRows): msWidth
// rows of a 10⁷-node graph are 1.28 GB.
const SweepRowBytes = 1536 << 20

// SweepWordBytes is a multi-source sweep's scratch a node: its seen,
// frontier and next words.
const SweepWordBytes = 3 * 8

// SweepRows is how many BFS rows of an n-node graph a sampler computes at
// once to feed a sweep: msWidth, fewer when they would exceed
// SweepRowBytes; 0 when that leaves fewer than msMinSources (no sweep
// then pays for itself).
func SweepRows(n int) int {
	k := min(msWidth, SweepRowBytes/(2*max(1, n)))
	if k < msMinSources {
		return 0
	}
	return k
}

// smallWorld reports whether a takes the multi-source sweeps: a BFS from
// its node of highest degree (the lowest such id) reaches its component
// within msMaxLevels levels. Computed once per adjacency.
func (a *Adj) smallWorld() bool {
	a.probe.Do(func() {
		if a.N == 0 {
			return
		}
		row := make([]uint16, a.N)
		q := a.BFS(a.Hub(), 0, row, nil)
		deepest := row[q[len(q)-1]] // the queue ends at the deepest level
		a.small = deepest <= msMaxLevels
	})
	return a.small
}

// multiSource reports whether rowsOf gives sources BFS sources of a to
// multi-source sweeps.
func (a *Adj) multiSource(sources int) bool {
	return sources >= msMinSources && a.smallWorld()
}

// msScratch is a multi-source sweep's per-node words and frontier list,
// reused from batch to batch.
type msScratch struct {
	seen, frontier, next []uint64
	list, nextList       []int32
}

func newMSScratch(n int) *msScratch {
	return &msScratch{seen: make([]uint64, n), frontier: make([]uint64, n), next: make([]uint64, n)}
}

// multiBFS writes the hop distances from sources[k] (k < msWidth) into
// rows[k] (len N each), as BFS does (Unreachable where there is no path,
// or beyond cutoff when cutoff > 0). A level whose frontier holds few
// nodes (fewer than N/msListFraction) is found top-down on one goroutine,
// through the frontier nodes' edges; the others bottom-up, every node not
// yet reached from every source OR-ing its neighbours' frontier bits,
// split over up to workers goroutines by ranges of nodes, each writing
// only its own nodes' words and row entries. Either way the rows do not
// depend on workers.
func (a *Adj) multiBFS(sources []int, cutoff int, rows [][]uint16, workers int, s *msScratch) {
	n := a.N
	for _, row := range rows {
		for i := range row {
			row[i] = Unreachable
		}
	}
	clear(s.seen)
	clear(s.frontier)
	clear(s.next)
	s.list = s.list[:0]
	for k, src := range sources {
		if s.frontier[src] == 0 {
			s.list = append(s.list, int32(src))
		}
		s.seen[src] |= 1 << k
		s.frontier[src] |= 1 << k
		rows[k][src] = 0
	}
	full := uint64(1)<<len(sources) - 1 // all ones for 64 sources: the shift gives 0
	workers = max(1, min(workers, n/msRange+1))
	counts := make([]int, workers)
	listed := true // s.list holds the frontier's nodes
	active := len(s.list)
	for level := uint16(0); active > 0 && (cutoff <= 0 || int(level) < cutoff); level++ {
		seen, frontier, next := s.seen, s.frontier, s.next
		if active*msListFraction < n {
			if !listed { // the frontier's nodes, from its words
				s.list = s.list[:0]
				for v, f := range frontier {
					if f != 0 {
						s.list = append(s.list, int32(v))
					}
				}
			}
			s.nextList = s.nextList[:0]
			for _, u := range s.list {
				fu := frontier[u]
				for _, v := range a.Nb[a.Off[u]:a.Off[u+1]] {
					nw := fu &^ seen[v]
					if nw == 0 {
						continue
					}
					if next[v] == 0 {
						s.nextList = append(s.nextList, v)
					}
					next[v] |= nw
					seen[v] |= nw
					for b := nw; b != 0; b &= b - 1 {
						rows[bits.TrailingZeros64(b)][v] = level + 1
					}
				}
			}
			for _, u := range s.list { // the frontier words left for the next level's next
				frontier[u] = 0
			}
			s.list, s.nextList = s.nextList, s.list
			listed, active = true, len(s.list)
		} else {
			var wg sync.WaitGroup
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c := 0
					for v := w * n / workers; v < (w+1)*n/workers; v++ {
						sv := seen[v]
						if sv == full {
							next[v] = 0
							continue
						}
						var acc uint64
						for _, u := range a.Nb[a.Off[v]:a.Off[v+1]] {
							if acc |= frontier[u]; acc|sv == full {
								break
							}
						}
						nw := acc &^ sv
						next[v] = nw
						if nw == 0 {
							continue
						}
						seen[v] = sv | nw
						c++
						for b := nw; b != 0; b &= b - 1 {
							rows[bits.TrailingZeros64(b)][v] = level + 1
						}
					}
					counts[w] = c
				}()
			}
			wg.Wait()
			clear(frontier) // the next level's next: all zero, as a top-down level needs it
			listed, active = false, 0
			for _, c := range counts {
				active += c
			}
		}
		s.frontier, s.next = s.next, s.frontier
	}
}

// msListFraction: a level whose frontier holds fewer than N/msListFraction
// nodes is found top-down.
const msListFraction = 64

// rowsOf computes the BFS rows of sources (rowOf(k): source k's row, len
// N) on up to workers goroutines: on a small world, msWidth sources a
// multi-source sweep; otherwise one BFS per source (perSource). Either
// way the same rows, whatever workers is.
func (a *Adj) rowsOf(sources []int, cutoff int, rowOf func(k int) []uint16, workers int) {
	if !a.multiSource(len(sources)) {
		perSource(len(sources), workers, func(k int, queue []int32) []int32 {
			return a.BFS(sources[k], cutoff, rowOf(k), queue)
		})
		return
	}
	// A sweep splits its nodes over up to inner goroutines (ranges of at
	// least msRange nodes); a graph too small for all the workers runs
	// outer batches at once instead, each with its own words.
	workers = max(1, workers)
	inner := max(1, min(workers, a.N/msRange+1))
	outer := max(1, workers/inner)
	batches := (len(sources) + msWidth - 1) / msWidth
	run := func(bt, goroutines int, s *msScratch) {
		lo, hi := bt*msWidth, min((bt+1)*msWidth, len(sources))
		rows := make([][]uint16, 0, hi-lo)
		for k := lo; k < hi; k++ {
			rows = append(rows, rowOf(k))
		}
		a.multiBFS(sources[lo:hi], cutoff, rows, goroutines, s)
	}
	if outer == 1 {
		s := newMSScratch(a.N)
		for bt := range batches {
			run(bt, inner, s)
		}
		return
	}
	perSource(batches, outer, func(bt int, queue []int32) []int32 {
		run(bt, 1, newMSScratch(a.N)) // a small graph's words: cheap to make
		return queue
	})
}

// msRange is the fewest nodes a sweep gives one goroutine.
const msRange = 4096
