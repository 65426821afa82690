package objective

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// TripleSampler draws the ranking term's supervision (--distance-loss
// rank): every epoch, N triples (i, j, k) of one graph with d(i, j) <
// d(i, k), from the caller's stream (a run passes its checkpointed
// "mse-pairs" stream, which a rank run does not otherwise use; the name is
// kept so stored runs resume with the same draws). An anchor i, then j and
// k uniform over the other nodes of i's graph; a tie d(i, j) = d(i, k) is
// redrawn up to rankRetries times, then the triple is skipped. Unreachable
// counts as farther than every distance. On the exact path anchors are
// uniform over all nodes and distances come from the tables; on the
// sampled path the anchors are Sources BFS sources per epoch, each with an
// equal share of the triples.
type TripleSampler struct {
	Mode string // what the run trains on, for its result

	pairs bool

	h                  *data.Hops
	rng                *engine.Seeded
	n, sources         int
	set                Triples
	rows               [][]uint16          // the sampled path's BFS rows, reused
	spillDir           string              // SpillTo: draws keep the rows in a file here
	spill              *data.Spill[uint16] // and they are there, source k's from rowOff[k] on
	rowOff             []int
	srcGraph, srcLocal []int
	fixed              bool // FixSources: the sources and rows stay for the run
	every, calls       int  // Thin: Refresh draws on every every-th call
}

const rankRetries = 4

// NewTripleSampler prepares n triples per epoch over h's graphs (sources
// BFS sources per epoch on the sampled path), drawing from rng. With pairs
// every triple compares two pairs instead, d(i, j) < d(a, k) for two
// anchors i and a drawn independently (Triples.AddPairs): a global order
// over pairs, which is what Kendall's τ scores, where one anchor's triples
// order only the distances from it.
func NewTripleSampler(h *data.Hops, rng *engine.Seeded, n, sources int, pairs bool) *TripleSampler {
	r := &TripleSampler{h: h, rng: rng, n: n, sources: sources, pairs: pairs}
	r.Mode = fmt.Sprintf("ranking: %d triples (i, j, k), d(i, j) < d(i, k), redrawn every epoch, anchors uniform over nodes, j and k uniform in the anchor's graph", r.n)
	if !h.Exact() {
		r.Mode = fmt.Sprintf("ranking: %d triples (i, j, k), d(i, j) < d(i, k), redrawn every epoch from the BFS rows of %d sources, j and k uniform in the source's graph", r.n, r.sources)
	}
	if pairs {
		r.Mode = fmt.Sprintf("ranking: %d pair triples ((i, j), (a, k)), d(i, j) < d(a, k), redrawn every epoch, anchors i and a uniform over nodes, j and k uniform in their anchor's graph", r.n)
		if !h.Exact() {
			r.Mode = fmt.Sprintf("ranking: %d pair triples ((i, j), (a, k)), d(i, j) < d(a, k), redrawn every epoch from the BFS rows of %d sources (two per triple), j and k uniform in their source's graph", r.n, r.sources)
		}
	}
	return r
}

// Draw returns the epoch's triples (whole-graph steps). The set is reused
// by the next call. Its error is Refresh's.
func (r *TripleSampler) Draw() (*Triples, error) {
	r.set.Reset()
	if r.h.Exact() {
		for t := 0; t < r.n; t++ {
			r.addExact(r.rng.IntN(r.h.Union.N))
		}
		return &r.set, nil
	}
	if err := r.Refresh(); err != nil {
		return nil, err
	}
	per := max(1, r.n/r.sources)
	for k := range r.srcGraph {
		for t := 0; t < per; t++ {
			r.addSource(k)
		}
	}
	return &r.set, nil
}

// Refresh draws the epoch's BFS sources and their rows (the sampled path;
// nothing on the exact path). Mini-batch epochs call it once, then DrawN
// per step. Its error is the spill file's (SpillTo), when writing the
// rows there fails.
func (r *TripleSampler) Refresh() error {
	if r.h.Exact() || r.fixed {
		return nil
	}
	r.calls++
	if r.every > 1 && (r.calls-1)%r.every != 0 {
		return nil
	}
	return r.draw(r.rng.Rand)
}

// Thin bounds the sampled path's BFS work: sources BFS sources per draw,
// kept for every consecutive epochs (Refresh draws on the first of every
// every calls). The draws stay a function of the seed, but a run cannot be
// resumed mid-interval (its checkpoint does not hold the rows): only the
// capacity reference, which is never checkpointed, thins.
func (r *TripleSampler) Thin(sources, every int) {
	if r.h.Exact() {
		return
	}
	r.sources, r.every = sources, every
	r.Mode = fmt.Sprintf("%s (thinned for the graph's size: %d sources per draw, each draw kept for %d epochs)", r.Mode, sources, every)
}

// draw draws the sources from rng and computes their BFS rows, into a
// spill file after SpillTo.
func (r *TripleSampler) draw(rng *rand.Rand) error {
	if r.spillDir != "" {
		return r.drawSpilled(rng)
	}
	r.drawSources(rng)
	r.rows = r.h.Rows(r.srcGraph, r.srcLocal, r.rows)
	return nil
}

// drawSources draws the sources from rng.
func (r *TripleSampler) drawSources(rng *rand.Rand) {
	u := r.h.Union
	r.srcGraph, r.srcLocal = r.srcGraph[:0], r.srcLocal[:0]
	for k := 0; k < r.sources; k++ {
		g, i := u.Local(rng.IntN(u.N))
		r.srcGraph, r.srcLocal = append(r.srcGraph, g), append(r.srcLocal, i)
	}
}

// FixSources draws the sampled path's BFS sources once, from rng (a
// stream of their own, so that a resumed run draws the same ones), and
// keeps them and their rows for the run: Refresh draws nothing after
// it. Each epoch's BFS over the whole graph is what made a mini-batch
// epoch's cost grow with N (64 BFS over a 10⁷-node grid: 10.7 s an epoch). The
// exact path has no sources: nothing changes there.
func (r *TripleSampler) FixSources(rng *rand.Rand) error {
	if r.h.Exact() {
		return nil
	}
	if err := r.draw(rng); err != nil {
		return err
	}
	r.fixed = true
	r.Mode = strings.Replace(r.Mode, "redrawn every epoch from the BFS rows of", "redrawn every epoch from the BFS rows of the same", 1) + ", drawn once for the run"
	return nil
}

// DrawN returns n triples of a mini-batch step: anchors uniform over all
// nodes (exact path) or over the epoch's sources (sampled path, after
// Refresh). The set is reused by the next call.
func (r *TripleSampler) DrawN(n int) *Triples {
	r.set.Reset()
	for t := 0; t < n; t++ {
		if r.h.Exact() {
			r.addExact(r.rng.IntN(r.h.Union.N))
		} else {
			r.addSource(r.rng.IntN(len(r.srcGraph)))
		}
	}
	return &r.set
}

// addExact draws one triple anchored at global row a (exact distances).
func (r *TripleSampler) addExact(a int) {
	g, i := r.h.Union.Local(a)
	if r.pairs {
		g2, i2 := r.h.Union.Local(r.rng.IntN(r.h.Union.N))
		r.addPair(g, i, hopRow{v: r.h.Row(g, i)}, g2, i2, hopRow{v: r.h.Row(g2, i2)})
		return
	}
	r.add(g, i, hopRow{v: r.h.Row(g, i)})
}

// addSource draws one triple anchored at the epoch's k-th source.
func (r *TripleSampler) addSource(k int) {
	if r.pairs {
		k2 := r.rng.IntN(len(r.srcGraph))
		r.addPair(r.srcGraph[k], r.srcLocal[k], r.row(k), r.srcGraph[k2], r.srcLocal[k2], r.row(k2))
		return
	}
	r.add(r.srcGraph[k], r.srcLocal[k], r.row(k))
}

// addPair draws one pair triple: j uniform beside anchor i (graph g, row),
// k uniform beside anchor a (graph ga, row rowa), the nearer pair first.
func (r *TripleSampler) addPair(g, i int, row hopRow, ga, a int, rowa hopRow) {
	u := r.h.Union
	n, na := u.Graphs[g].N, u.Graphs[ga].N
	if n < 2 || na < 2 {
		return
	}
	for try := 0; try < rankRetries; try++ {
		j, k := engine.OtherThan(r.rng.Rand, n, i), engine.OtherThan(r.rng.Rand, na, a)
		dj, dk := row.at(j), rowa.at(k)
		if dj == dk {
			continue
		}
		if dj < dk {
			r.set.AddPairs(u.Global(g, i), u.Global(g, j), u.Global(ga, a), u.Global(ga, k))
		} else {
			r.set.AddPairs(u.Global(ga, a), u.Global(ga, k), u.Global(g, i), u.Global(g, j))
		}
		return
	}
}

// add draws one triple anchored at node i of graph g, whose distances to
// the graph's nodes are row.
func (r *TripleSampler) add(g, i int, row hopRow) {
	u := r.h.Union
	n := u.Graphs[g].N
	if n < 3 {
		return
	}
	for try := 0; try < rankRetries; try++ {
		j, k := engine.OtherThan(r.rng.Rand, n, i), engine.OtherThan(r.rng.Rand, n, i)
		dj, dk := row.at(j), row.at(k)
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
