package run

import (
	"fmt"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/objective"
)

// rankTriples is the ranking term's supervision (--distance-loss rank):
// every epoch, RankTriples triples (i, j, k) of one graph with
// d(i, j) < d(i, k), redrawn from the seeded "mse-pairs" stream (the MSE's,
// which a rank run does not use; it is checkpointed, so a resumed run
// draws the same triples). An anchor i, then j and k uniform over the other
// nodes of i's graph; a tie d(i, j) = d(i, k) is redrawn up to
// rankRetries times, then the triple is skipped. Unreachable counts as
// farther than every distance. On the exact path anchors are uniform over
// all nodes and distances come from the tables; on the sampled path the
// anchors are MSESources BFS sources per epoch, each with an equal share
// of the triples.
type rankTriples struct {
	p                   *Prepared
	rng                 *engine.Seeded
	n, sources, workers int
	set                 objective.Triples
	rows                [][]uint16 // the sampled path's BFS rows, reused
	srcGraph, srcLocal  []int
	mode                string
}

const rankRetries = 4

func newRankTriples(p *Prepared, cfg Config, rng *engine.Seeded) *rankTriples {
	r := &rankTriples{p: p, rng: rng, n: cfg.RankTriples, sources: cfg.MSESources, workers: cfg.Workers}
	r.mode = fmt.Sprintf("ranking: %d triples (i, j, k), d(i, j) < d(i, k), redrawn every epoch, anchors uniform over nodes, j and k uniform in the anchor's graph", r.n)
	if !p.Exact() {
		r.mode = fmt.Sprintf("ranking: %d triples (i, j, k), d(i, j) < d(i, k), redrawn every epoch from the BFS rows of %d sources, j and k uniform in the source's graph", r.n, r.sources)
	}
	return r
}

// draw returns the epoch's triples.
func (r *rankTriples) draw() *objective.Triples {
	r.set.Reset()
	u := r.p.Union
	if r.p.Exact() {
		for t := 0; t < r.n; t++ {
			r.addExact(r.rng.IntN(u.N))
		}
		return &r.set
	}
	r.refresh()
	per := max(1, r.n/r.sources)
	for k := range r.srcGraph {
		for t := 0; t < per; t++ {
			r.addSource(k)
		}
	}
	return &r.set
}

// refresh draws the epoch's BFS sources and their rows (the sampled path;
// nothing on the exact path).
func (r *rankTriples) refresh() {
	if r.p.Exact() {
		return
	}
	u := r.p.Union
	r.srcGraph, r.srcLocal = r.srcGraph[:0], r.srcLocal[:0]
	for k := 0; k < r.sources; k++ {
		a := r.rng.IntN(u.N)
		g := graphOf(u, a)
		r.srcGraph, r.srcLocal = append(r.srcGraph, g), append(r.srcLocal, a-u.Offsets[g])
	}
	r.rows = bfsRows(r.p.Adjs, r.srcGraph, r.srcLocal, r.workers, r.rows)
}

// drawN returns n triples of a mini-batch step: anchors uniform over all
// nodes (exact path) or over the epoch's sources (sampled path, after
// refresh). The set is reused by the next call.
func (r *rankTriples) drawN(n int) *objective.Triples {
	r.set.Reset()
	for t := 0; t < n; t++ {
		if r.p.Exact() {
			r.addExact(r.rng.IntN(r.p.Union.N))
		} else {
			r.addSource(r.rng.IntN(len(r.srcGraph)))
		}
	}
	return &r.set
}

// addExact draws one triple anchored at global row a (exact distances).
func (r *rankTriples) addExact(a int) {
	u := r.p.Union
	g := graphOf(u, a)
	i, dist := a-u.Offsets[g], r.p.Splits[g].Dist
	r.add(g, i, func(j int) uint16 { return dist.At(i, j) })
}

// addSource draws one triple anchored at the epoch's k-th source.
func (r *rankTriples) addSource(k int) {
	row := r.rows[k]
	r.add(r.srcGraph[k], r.srcLocal[k], func(j int) uint16 { return row[j] })
}

// add draws one triple anchored at node i of graph g.
func (r *rankTriples) add(g, i int, dist func(int) uint16) {
	u := r.p.Union
	n := u.Graphs[g].N
	if n < 3 {
		return
	}
	other := func() int {
		j := r.rng.IntN(n - 1)
		if j >= i {
			j++
		}
		return j
	}
	for try := 0; try < rankRetries; try++ {
		j, k := other(), other()
		dj, dk := dist(j), dist(k)
		if dj == dk {
			continue
		}
		if dj > dk {
			j, k = k, j
		}
		r.set.Add(u.Global(g, i), u.Global(g, j), u.Global(g, k))
		return
	}
}
