package features

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/ignn/ignn/data"
)

// RWExactBudget bounds the exact random-walk encoding's work (edge visits);
// beyond it RWPE estimates from seeded walks.
const RWExactBudget = 3_000_000_000

// RWWalks is the number of walks per node of the estimated encoding: each
// entry's standard error is at most 1/(2√RWWalks) ≈ 0.022.
const RWWalks = 512

// RWPE returns, for every node v and k = 1..K, the probability that a
// simple random walk from v is back at v after k steps: the diagonal of
// (D⁻¹A)^k (equal to that of (AD⁻¹)^k; 0 for isolated nodes). Exact by
// propagating each node's walk distribution over the nodes it reaches
// (cost Σ_v Σ_k |reach_k(v)|·degree, bounded by RWExactBudget); otherwise
// estimated from RWWalks seeded walks per node, each entry then with
// standard error ≤ 1/(2√RWWalks) (stated in the info). Nodes are split
// over workers with per-node streams, so the result does not depend on
// workers. O(N·K) memory per worker beyond the output.
func RWPE(a *data.Adj, k int, seed uint64, graph int, workers int) ([]float64, EncodingInfo) {
	if out, ok := rwExact(a, k, workers, RWExactBudget); ok {
		return out, EncodingInfo{Method: "exact"}
	}
	return rwWalks(a, k, seed, graph, workers, RWWalks), EncodingInfo{Method: "walks", Walks: RWWalks, StdErrMax: 1 / (2 * math.Sqrt(RWWalks))}
}

func split(n, workers int, f func(w, workers int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, n))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() { defer wg.Done(); f(w, workers) }()
	}
	wg.Wait()
}

// rwExact propagates each node's distribution for k steps over the nodes
// it touches; it gives up (false) once the work exceeds budget.
func rwExact(a *data.Adj, k, workers int, budget int64) ([]float64, bool) {
	n := a.N
	out := make([]float64, n*k)
	var work atomic.Int64
	split(n, workers, func(w, ws int) {
		cur, nxt := make([]float64, n), make([]float64, n)
		inCur, inNxt := make([]bool, n), make([]bool, n)
		var sc, sn []int32
		for v := w; v < n; v += ws {
			if work.Load() > budget {
				return
			}
			if a.Off[v] == a.Off[v+1] {
				continue
			}
			cur[v], inCur[v], sc = 1, true, append(sc[:0], int32(v))
			var ops int64
			for step := 0; step < k; step++ {
				sn = sn[:0]
				for _, u := range sc {
					nb := a.Nb[a.Off[u]:a.Off[u+1]]
					p := cur[u] / float64(len(nb))
					for _, x := range nb {
						if !inNxt[x] {
							inNxt[x] = true
							sn = append(sn, x)
						}
						nxt[x] += p
					}
					ops += int64(len(nb))
					cur[u], inCur[u] = 0, false
				}
				out[v*k+step] = nxt[v]
				cur, nxt, inCur, inNxt, sc, sn = nxt, cur, inNxt, inCur, sn, sc
			}
			for _, u := range sc {
				cur[u], inCur[u] = 0, false
			}
			work.Add(ops)
		}
	})
	return out, work.Load() <= budget
}

// rwWalks estimates the return probabilities from walks walks per node;
// node v's walks use the stream (seed, "rw", graph, v).
func rwWalks(a *data.Adj, k int, seed uint64, graph int, workers, walks int) []float64 {
	n := a.N
	out := make([]float64, n*k)
	base := stream(seed, "rw", graph).Uint64()
	split(n, workers, func(w, ws int) {
		cnt := make([]int, k)
		for v := w; v < n; v += ws {
			if a.Off[v] == a.Off[v+1] {
				continue
			}
			rng := rand.New(rand.NewPCG(base, uint64(v)))
			clear(cnt)
			for r := 0; r < walks; r++ {
				u := int32(v)
				for step := 0; step < k; step++ {
					nb := a.Nb[a.Off[u]:a.Off[u+1]]
					u = nb[rng.IntN(len(nb))]
					if u == int32(v) {
						cnt[step]++
					}
				}
			}
			for step, c := range cnt {
				out[v*k+step] = float64(c) / float64(walks)
			}
		}
	})
	return out
}
