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
	whole   *GraphInput
}

// NewSlotInput makes the slot input of slots node slots over whole.
func NewSlotInput(whole *GraphInput, slots int) *SlotInput {
	s := &SlotInput{Sub: NewSubgraph(whole.Adj, slots), Adj: NewBatchAdjacency(slots), X: NewBatchFeatures(whole.X, slots), whole: whole}
	if whole.Skip != nil {
		s.Skip = NewBatchFeatures(whole.Skip, slots)
	}
	return s
}

// Input is the graph input over the slots, the one a graph is built on.
func (s *SlotInput) Input() *GraphInput {
	return &GraphInput{Adj: s.Adj, X: s.X, Skip: s.Skip, SkipInit: s.whole.SkipInit}
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
}
