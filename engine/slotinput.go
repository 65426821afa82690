package engine

// SlotInput is a graph input of a fixed number of node slots — a
// mini-batch's or an inference chunk's — filled from the subgraph Sub
// builds around some seed nodes of a whole-graph input. Stage copies the
// subgraph's adjacency rows and input rows aside, apart from what a graph
// built on Input reads (a step or a forward pass may be running on the
// slots meanwhile); Use binds them. The mini-batch steps and the chunked
// inference both stage through it, the next batch or chunk while one runs
// (Prefetch).
type SlotInput struct {
	Sub     Subgraph
	Adj     *Adjacency
	X, Skip *Features // Skip nil when the whole graph's input has none
	Sketch  *Features // nil when the whole graph's input has none
	Pop     *Features // the popularity column; nil when the whole graph's input has none
	whole   *GraphInput
}

// NewSlotInput makes the slot input of slots node slots over whole.
func NewSlotInput(whole *GraphInput, slots int) *SlotInput {
	s := &SlotInput{Sub: NewSubgraph(whole.Adj, slots), Adj: NewBatchAdjacency(slots), X: NewBatchFeatures(whole.X, slots), whole: whole}
	if whole.Skip != nil {
		s.Skip = NewBatchFeatures(whole.Skip, slots)
	}
	if whole.Sketch != nil {
		s.Sketch = NewBatchFeatures(whole.Sketch, slots)
	}
	if whole.Popularity != nil {
		s.Pop = NewBatchFeatures(whole.Popularity, slots)
	}
	return s
}

// Input is the graph input over the slots, the one a graph is built on.
func (s *SlotInput) Input() *GraphInput {
	return &GraphInput{Adj: s.Adj, X: s.X, Skip: s.Skip, SkipInit: s.whole.SkipInit, Sketch: s.Sketch, SketchMix: s.whole.SketchMix,
		Popularity: s.Pop, PopularityMix: s.whole.PopularityMix}
}

// Stage stages the subgraph Sub holds: its adjacency rows (with the whole
// graph's degrees when wholeDeg: Subgraph.Stage), its nodes' input rows
// when rows, and their skip rows when skip (and the input has them). It
// leaves Sub as it is (the caller may still read its slots, then Clear it).
func (s *SlotInput) Stage(wholeDeg, rows, skip bool) {
	s.Sub.Stage(s.Adj, wholeDeg)
	if rows {
		s.X.StageRows(s.whole.X, s.Sub.Nodes)
	}
	if skip && s.Skip != nil {
		s.Skip.StageRows(s.whole.Skip, s.Sub.Nodes)
	}
	if skip && s.Sketch != nil {
		s.Sketch.StageRows(s.whole.Sketch, s.Sub.Nodes)
	}
	if skip && s.Pop != nil {
		s.Pop.StageRows(s.whole.Popularity, s.Sub.Nodes)
	}
}

// Use binds what Stage staged, with the same rows and skip.
func (s *SlotInput) Use(rows, skip bool) {
	s.Adj.UseStaged()
	if rows {
		s.X.UseStaged()
	}
	if skip && s.Skip != nil {
		s.Skip.UseStaged()
	}
	if skip && s.Sketch != nil {
		s.Sketch.UseStaged()
	}
	if skip && s.Pop != nil {
		s.Pop.UseStaged()
	}
}

// A batch's node slots are sized from a probe: a step's seed nodes × the
// mean L-hop neighbourhood of ProbeNodes nodes, a quarter more for margin
// (ProbedSlots), within SlotCap.

// ProbeNodes is how many nodes a probe measures the neighbourhood of.
const ProbeNodes = 64

// SlotCap bounds the node slots a probe sizes: a step's cost follows its
// slots. On a small world (a Barabási–Albert graph, a social network) the
// seeds' 3-hop neighbourhoods reach most of the graph, so that without a
// cap every step computes every node (10⁶ nodes: 1.3 s a step, 10⁷:
// refused at 47 GB); grids and geometric graphs probe 10⁵–1.9·10⁵ slots at
// every size measured up to 10⁸ nodes. A step whose neighbourhoods exceed
// the slots keeps its seeds and their nearest hops and cuts the rest, and
// how deep did not show in any result measured (GCN, one seed, Intel
// machine, 2026-11-27; docs/large-graphs.md): ba:1000000:4 test AUC 0.5743
// and τ 0.5487 at 65,536 slots against 0.5741 and 0.5493 at 262,144, the
// command 609 → 286 s and 2.80 → 1.55 GiB; rgg:1000000:8 0.9972 and
// 0.8800 against 0.9972 and 0.8807 at its probed 191,280 slots (340 → 189
// s); grid:1000x1000 0.9845 and 0.9292 against 0.9846 and 0.9287 at
// 101,600 (205 → 157 s); on ba:100000:4 16,384 slots cost τ 0.0014.
var SlotCap = 1 << 16 // a variable for tests

// slotLimit is the most slots a probe gives a batch of seeds seed nodes
// (listed, with repeats): SlotCap, or twice the seeds where they would not
// leave room for their first hop (a --batch-size of 10⁵).
func slotLimit(seeds int) int { return max(SlotCap, 2*seeds) }

// ProbedSlots are the slots of a batch of seeds seed nodes whose probe
// estimated estimate (a quarter more than the seeds × the mean
// neighbourhood): the estimate up to slotLimit, at least 1024, at most n;
// cut reports whether the limit bound it below n.
func ProbedSlots(estimate, seeds, n int) (slots int, cut bool) {
	limit := slotLimit(seeds)
	slots = min(max(min(estimate, limit), 1024), n)
	return slots, estimate > limit && slots < n
}
