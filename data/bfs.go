package data

import (
	"runtime"
	"sync"
	"unsafe"
)

// Adj is an undirected graph's adjacency in CSR form, for BFS: the
// neighbours of u are Nb[Off[u]:Off[u+1]]. 4·(N+1+2E) bytes.
type Adj struct {
	N   int
	Off []int32
	Nb  []int32

	probe sync.Once // smallWorld's probe, run once
	small bool
}

// Hub is a's node of highest degree (the lowest such id; 0 when a has no
// nodes).
func (a *Adj) Hub() int {
	hub := 0
	for v := range a.N {
		if a.Off[v+1]-a.Off[v] > a.Off[hub+1]-a.Off[hub] {
			hub = v
		}
	}
	return hub
}

// NewAdj builds the adjacency of n nodes and undirected edges (each once).
func NewAdj(n int, edges [][2]int32) *Adj {
	a := &Adj{N: n, Off: make([]int32, n+1), Nb: make([]int32, 2*len(edges))}
	for _, e := range edges {
		a.Off[e[0]+1]++
		a.Off[e[1]+1]++
	}
	for i := 0; i < n; i++ {
		a.Off[i+1] += a.Off[i]
	}
	next := append([]int32(nil), a.Off[:n]...)
	for _, e := range edges {
		a.Nb[next[e[0]]] = int32(e[1])
		next[e[0]]++
		a.Nb[next[e[1]]] = int32(e[0])
		next[e[1]]++
	}
	return a
}

// BFSRows writes the hop distances from sources[k] to every node into
// rows[k·N:(k+1)·N] (Unreachable where there is no path, or beyond cutoff
// when cutoff > 0). Sources are split over up to workers goroutines (≤ 0:
// GOMAXPROCS); each writes only its own rows, so the result does not depend
// on workers — on a small world, msWidth sources at a time share
// multi-source sweeps (msbfs.go) split over the workers by nodes, the same
// rows. O(len(sources)·(N+E)) time; rows must hold len(sources)·N
// values. It panics if a source is out of range.
func (a *Adj) BFSRows(sources []int, cutoff int, rows []uint16, workers int) {
	n := a.N
	if len(rows) < len(sources)*n {
		panic("data: BFSRows: rows too short")
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	a.rowsOf(sources, cutoff, func(k int) []uint16 { return rows[k*n : (k+1)*n] }, workers)
}

// perSource calls bfs(k, queue) for k = 0…n−1 on up to workers goroutines
// (at least 1), worker w taking k = w, w+workers, …: a fixed assignment,
// so what each call writes does not depend on workers. Each worker keeps
// its own BFS queue (the scratch bfs returns).
func perSource(n, workers int, bfs func(k int, queue []int32) []int32) {
	workers = max(1, min(workers, n))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var queue []int32
			for k := w; k < n; k += workers {
				queue = bfs(k, queue)
			}
		}()
	}
	wg.Wait()
}

// bfsNear and bfsFar are how many queue places ahead BFS prefetches a
// node's neighbour list and its offsets (measured: docs/large-graphs.md).
const bfsNear, bfsFar = 8, 16

// BFS writes the hop distances from s into row (len N), using queue (any
// capacity) as scratch, and returns it holding every node reached, level
// by level (in no promised order within a level); cutoff > 0 stops at that
// many hops. Direction-optimising (Beamer, Asanović and Patterson, SC
// 2012): a level whose frontier is large — more nodes than the unreached
// ones over bfsAlpha and than N/bfsBeta, the middle levels of a small
// world — is found bottom-up, every unreached node looking for one
// neighbour in the frontier and stopping at the first, instead of through
// the frontier's every edge; the distances are the same. (The paper weighs
// the frontier and the unreached nodes by their edges; counting nodes
// needs no reads of the offsets: the edge-weighted version measured
// 20–40% slower on the 10⁶ grid, where the switch never fires.)
func (a *Adj) BFS(s, cutoff int, row []uint16, queue []int32) []int32 {
	queue, _ = a.bfs(s, cutoff, row, queue, bfsAlpha, bfsBeta)
	return queue
}

// bfsAlpha and bfsBeta are BFS's switch to bottom-up levels: the paper's
// α and β, applied to node counts, not tuned here (docs/large-graphs.md).
const bfsAlpha, bfsBeta = 14, 24

// bfs is BFS with the switch's constants (alpha = 0: never bottom-up),
// also returning how many levels it found bottom-up.
func (a *Adj) bfs(s, cutoff int, row []uint16, queue []int32, alpha, beta int64) ([]int32, int) {
	up := 0
	for i := range row {
		row[i] = Unreachable
	}
	row[s] = 0
	queue = append(queue[:0], int32(s))
	unreached := int64(a.N - 1)
	for lo, level := 0, uint16(0); lo < len(queue); level++ {
		if cutoff > 0 && int(level) >= cutoff {
			break
		}
		hi := len(queue)
		if frontier := int64(hi - lo); frontier*alpha > unreached && frontier*beta > int64(a.N) {
			queue = a.bottomUp(level, row, queue)
			up++
		} else {
			queue = a.topDown(lo, hi, level, row, queue)
		}
		unreached -= int64(len(queue) - hi)
		lo = hi
	}
	return queue, up
}

// topDown reaches level+1 from the frontier queue[lo:hi] (at level) through
// the frontier's edges, appending what it reaches to queue.
func (a *Adj) topDown(lo, hi int, level uint16, row []uint16, queue []int32) []int32 {
	for h := lo; h < hi; h++ {
		// Ask the memory for what the nodes ahead in the queue will read:
		// the neighbour list of the node bfsNear places on, the offsets of
		// the one bfsFar places on (read when it is bfsNear ahead). On a
		// graph larger than the caches each node's reads are misses the
		// loop would otherwise wait for one after another (issue 37). A
		// queued node other than s was reached by an edge, so its list is
		// not empty and Off[w] indexes Nb.
		if h+bfsFar < len(queue) {
			PrefetchLines(unsafe.Pointer(&a.Off[queue[h+bfsFar]]), unsafe.Pointer(&a.Nb[a.Off[queue[h+bfsNear]]]))
		} else if h+bfsNear < len(queue) {
			PrefetchLines(unsafe.Pointer(&a.Nb[a.Off[queue[h+bfsNear]]]), nil)
		}
		u := queue[h]
		for _, v := range a.Nb[a.Off[u]:a.Off[u+1]] {
			if row[v] == Unreachable {
				row[v] = level + 1
				queue = append(queue, v)
			}
		}
	}
	return queue
}

// bottomUp reaches level+1 from the nodes at level: each unreached node
// with a neighbour at level, in node order, appended to queue.
func (a *Adj) bottomUp(level uint16, row []uint16, queue []int32) []int32 {
	for v, d := range row {
		if d != Unreachable {
			continue
		}
		for _, w := range a.Nb[a.Off[v]:a.Off[v+1]] {
			if row[w] == level {
				row[v] = level + 1
				queue = append(queue, int32(v))
				break
			}
		}
	}
	return queue
}

// DistancesTo returns the hop distances from s to each target (Unreachable
// where there is none), stopping the BFS as soon as every target is
// reached. row (len N, any contents) and queue are scratch; queue is
// returned for reuse. O(N + E) at worst, far less when the targets are
// near s.
func (a *Adj) DistancesTo(s int, targets []int, row []uint16, queue []int32) ([]uint16, []int32) {
	for i := range row {
		row[i] = Unreachable
	}
	want := map[int32]bool{}
	for _, t := range targets {
		want[int32(t)] = true
	}
	left := len(want)
	row[s] = 0
	if want[int32(s)] {
		left--
	}
	queue = append(queue[:0], int32(s))
	for h := 0; h < len(queue) && left > 0; h++ {
		u := queue[h]
		for _, v := range a.Nb[a.Off[u]:a.Off[u+1]] {
			if row[v] == Unreachable {
				row[v] = row[u] + 1
				queue = append(queue, v)
				if want[v] {
					left--
				}
			}
		}
	}
	out := make([]uint16, len(targets))
	for i, t := range targets {
		out[i] = row[t]
	}
	return out, queue
}

// Components labels every node with its connected component: 0, 1, … in
// the order of each component's smallest node. O(N + E).
func (a *Adj) Components() []int {
	comp := make([]int, a.N)
	for i := range comp {
		comp[i] = -1
	}
	var queue []int32
	next := 0
	for s := 0; s < a.N; s++ {
		if comp[s] >= 0 {
			continue
		}
		comp[s] = next
		queue = append(queue[:0], int32(s))
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, v := range a.Nb[a.Off[u]:a.Off[u+1]] {
				if comp[v] < 0 {
					comp[v] = next
					queue = append(queue, v)
				}
			}
		}
		next++
	}
	return comp
}
