package batch

import (
	"fmt"
	"math/rand/v2"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/objective"
)

// Input is what a Batcher reads: the graphs' training positives and the
// whole graph's input, and the batch's shape.
type Input struct {
	Union  *data.Union
	Train  [][]data.Pair      // each graph's training positives, local rows
	Graph  *engine.GraphInput // the whole graph's adjacency, input rows and skip block
	Seed   uint64             // names the streams
	Size   int                // B, training positives per step
	Steps  int                // steps per epoch (0: a pass over the positives)
	Fanout int                // neighbours drawn per node and hop (0: every neighbour)
	Layers int                // the model's layers: the neighbourhood's hops
}

// Batcher is mini-batch training (a batch size B > 0). Every step
// trains on the subgraph around its seed nodes, with the pairs and triples
// remapped to the subgraph's slots:
//
//   - B training positives, taken in the order of a seeded permutation of
//     all of them (one permutation per pass, stream "batch-pass/K"): draw q
//     of the run (q = (epoch·steps + step)·B + t) is positive perm_K[q mod P]
//     of pass K = q div P, so every positive is trained once per pass of P
//     draws, whatever the epoch and step boundaries, and a resumed run
//     draws what the uninterrupted one would;
//   - as many negatives, drawn per graph by the caller (run: the
//     checkpointed "negatives" stream), and the distance term's triples
//     (rank) or pairs (MSE);
//   - the seeds' L-hop neighbourhood (L = the model's layers): every
//     neighbour, or Input.Fanout of them per node and hop drawn
//     without replacement (stream "batch-fanout/epoch/step"), until the
//     node slots are full (the rest of that step's
//     neighbourhood is then cut, and counted).
//
// With every neighbour and no cut, a seed's embedding in the batch equals
// its embedding in the whole graph (the normalisations use whole-graph
// degrees; tested), so the batch changes which pairs a step sees, not what
// the model computes for them.
type Batcher struct {
	whole           *engine.GraphInput
	n               int // the graph's nodes
	seed            uint64
	size            int // B
	Steps           int // steps per epoch
	fanout, layers  int
	pos             []data.Pair // the training positives, global rows (one graph: its split's own list)
	posG            []int32     // their graphs (nil: one graph)
	pass            int         // the pass perm holds (−1: none)
	perm            []int32
	Slots           *engine.SlotInput // the step's subgraph, adjacency and rows (Allocate)
	Cut, CutBatches int               // links to nodes beyond the slots, and the steps that cut some
	Capped          bool              // the probe's estimate exceeded engine.SlotCap: the slots are the cap (cut only where a step's neighbourhood exceeds them)
}

// New trains on in.Size positives per step, in.Steps steps per epoch (0:
// a pass over the positives), over the in.Layers-hop neighbourhood of
// their nodes (in.Fanout neighbours per node and hop; 0: all); in.Seed
// names the streams. Allocate makes its slots.
func New(in Input) (*Batcher, error) {
	u := in.Union
	b := &Batcher{whole: in.Graph, n: u.N, seed: in.Seed, size: in.Size, fanout: in.Fanout, layers: in.Layers, pass: -1}
	if len(in.Train) == 1 { // local rows are global ones: no copy (12 B a training edge, 1.9 GB at 10⁸ nodes)
		b.pos = in.Train[0]
	} else {
		for g, train := range in.Train {
			for _, q := range train {
				i, j := u.GlobalPair(g, q)
				b.pos, b.posG = append(b.pos, data.Pair{I: int32(i), J: int32(j)}), append(b.posG, int32(g))
			}
		}
	}
	if len(b.pos) == 0 {
		return nil, fmt.Errorf("mini-batches: no training positives")
	}
	b.Steps = in.Steps
	if b.Steps == 0 {
		b.Steps = (len(b.pos) + b.size - 1) / b.size
	}
	return b, nil
}

// Allocate makes the batch inputs: slots node slots, or when slots is 0,
// enough for seeds seed nodes with neighbourhoods the size of the mean
// L-hop neighbourhood (with the fanout) of engine.ProbeNodes nodes drawn
// from the stream "batch-probe", a quarter more for margin
// (engine.ProbedSlots: at most the graph's nodes and the cap, at least
// 1024).
func (b *Batcher) Allocate(slots, seeds int) {
	n := b.n
	if slots == 0 {
		probe := engine.NewSubgraph(b.whole.Adj, n)
		rng := engine.Stream(b.seed, "batch-probe")
		total := 0
		for k := 0; k < engine.ProbeNodes; k++ {
			probe.Build([]int32{int32(rng.IntN(n))}, b.layers, b.fanout, rng)
			total += len(probe.Nodes)
			probe.Clear()
		}
		slots, b.Capped = engine.ProbedSlots(int(1.25*float64(seeds)*float64(total)/engine.ProbeNodes), seeds, n)
	}
	b.Slots = engine.NewSlotInput(b.whole, min(slots, n))
}

// Input is the training graph's input: the slots, filled by Stage and
// bound by Slots.Use.
func (b *Batcher) Input() *engine.GraphInput { return b.Slots.Input() }

// Mode describes the scheme for the result.
func (b *Batcher) Mode() string {
	nb := "every neighbour"
	if b.fanout > 0 {
		nb = fmt.Sprintf("%d neighbours drawn per node and hop", b.fanout)
	}
	capped := ""
	if b.Capped {
		capped = " (capped: the probe estimated more; a neighbourhood beyond the slots keeps its nearest hops)"
	}
	return fmt.Sprintf("mini-batches: %d steps per epoch, each on %d training positives (a seeded permutation per pass over all %d) with as many negatives and the distance term's own draw, over the %d-hop neighbourhood of their nodes (%s) in %d node slots%s",
		b.Steps, b.size, len(b.pos), b.layers, nb, b.Slots.Sub.Slots, capped)
}

// Positives appends the B positives of (epoch, step) to pairs and counts
// them per graph.
func (b *Batcher) Positives(epoch, step int, pairs *objective.Pairs, perGraph []int) {
	P := len(b.pos)
	q0 := (epoch*b.Steps + step) * b.size
	for t := 0; t < b.size; t++ {
		q := q0 + t
		if k := q / P; k != b.pass {
			b.pass = k
			b.perm = permInt32(engine.Stream(b.seed, fmt.Sprintf("batch-pass/%d", k)), P, b.perm)
		}
		r := b.perm[q%P]
		pairs.Add(int(b.pos[r].I), int(b.pos[r].J), 1)
		if b.posG != nil {
			perGraph[b.posG[r]]++
		} else {
			perGraph[0]++
		}
	}
}

// permInt32 is a uniform permutation of 0…n−1 (Fisher–Yates), reusing buf.
func permInt32(rng *rand.Rand, n int, buf []int32) []int32 {
	buf = buf[:0]
	for i := 0; i < n; i++ {
		buf = append(buf, int32(i))
	}
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		buf[i], buf[j] = buf[j], buf[i]
	}
	return buf
}

// Stage builds step's subgraph around the nodes of the given pair and
// triple sets (global rows), stages its adjacency rows and input rows
// (Slots.Use binds them to the training input), and rewrites the sets to
// slots. It touches nothing a running step reads.
func (b *Batcher) Stage(epoch, step int, pairs []*objective.Pairs, triples *objective.Triples) error {
	var seeds []int32
	for _, ps := range pairs {
		for k := range ps.I {
			seeds = append(seeds, int32(ps.I[k]), int32(ps.J[k]))
		}
	}
	if triples != nil {
		for k := range triples.I {
			seeds = append(seeds, int32(triples.I[k]), int32(triples.J[k]), int32(triples.K[k]))
		}
		for _, a := range triples.A {
			seeds = append(seeds, int32(a))
		}
	}
	var rng *rand.Rand
	if b.fanout > 0 {
		rng = engine.Stream(b.seed, fmt.Sprintf("batch-fanout/%d/%d", epoch, step))
	}
	cut, err := b.Slots.Sub.Build(seeds, b.layers, b.fanout, rng)
	if err != nil {
		return err
	}
	if cut > 0 {
		b.Cut += cut
		b.CutBatches++
	}
	b.Slots.Stage(b.fanout == 0, true, true)
	for _, ps := range pairs {
		for k := range ps.I {
			ps.I[k], ps.J[k] = b.Slots.Sub.Slot(ps.I[k]), b.Slots.Sub.Slot(ps.J[k])
		}
	}
	if triples != nil {
		for k := range triples.I {
			triples.I[k], triples.J[k], triples.K[k] = b.Slots.Sub.Slot(triples.I[k]), b.Slots.Sub.Slot(triples.J[k]), b.Slots.Sub.Slot(triples.K[k])
		}
		for k, a := range triples.A {
			triples.A[k] = b.Slots.Sub.Slot(a)
		}
	}
	b.Slots.Sub.Clear()
	return nil
}
