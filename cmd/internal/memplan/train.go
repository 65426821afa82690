package memplan

import (
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/models"
)

// training adds the training phase's parts: the training graph's
// activations and gradients, the evaluations' inference (the whole graph,
// its chunks, or layer-wise its stages), their embeddings and the pair
// products scored on them. cols is the dense input's and skip block's
// columns a batch loads.
func (pl *planner) training(s Shape, own models.MemoryTerms, cols int64) {
	add, inStep := pl.add, pl.inStep
	n := s.Nodes
	bt := s.bytesPerValue()
	mc := s.ModelConfig
	h, layers := int64(mc.Hidden), int64(mc.Layers)
	width := int64(mc.EmbeddingWidth()) // the embedding's columns
	if mc.Sketch > 0 {                  // the sketch block, and the hash vectors it was summed from while it is made
		add("neighbourhood sketch (N × --sketch, and N × --sketch × 4 B while it is made)", n*int64(mc.Sketch)*(bt+4), "--sketch")
	}
	layerwise := false // the evaluations' inference runs stage by stage
	if s.BatchSize > 0 {
		// Training runs on a batch of slots nodes; the whole graph only
		// goes through the forward-only graph at each evaluation.
		slots := s.Slots
		// The input rows' cols·bt·3: the two copies counted before, and
		// the next step's, staged while a step trains.
		add("mini-batch activations and gradients (slots × hidden × layers, and N × 4 B of global → slot map)", slots*(h*bt*(batchActPerLayer*layers+batchActFixed)*max(1, own.ActivationScale)+cols*bt*3)+4*n, "--batch-size")
		infer := n // the forward-only pass of the evaluations: the whole graph, or chunks of nodes over slots
		what, index := "whole-graph inference (N × hidden × layers)", int64(0)
		if s.ChunkedInfer { // and its chunks' node order and global → slot map, 4 B a node each
			infer, what, index = slots, "chunked inference (slots × hidden × layers, and N × 8 B of node order and slot map)", 8*n
		}
		rows := cols * bt // a chunk's input rows
		if infer < n {    // and the next chunk's, staged while one runs, with a stage's rows layer-wise
			rows = 2*rows + h*bt
		}
		add(what, infer*(h*bt*(inferPerLayer*layers+inferFixed)*max(1, own.ActivationScale)+rows)+index, actFlag(own))
		layerwise = s.Layerwise()
	} else {
		act := n * h * bt * (actPerLayer*layers + actFixed) * max(1, own.ActivationScale)
		add("activations and gradients (N × hidden × layers)", act, actFlag(own))
	}
	// A float32 run's chunked inference keeps them in float32 (not with a
	// Laplacian input's sign reset), or writes them to the spill file a
	// row at a time.
	evalPairs := s.EvalPairs()
	spilledEmb := s.Spills().Emb && s.Spill
	emb := int64(0) // the held embeddings
	// Layer-wise, the stages' rows are garbage once the last stage has
	// put every row: the held embeddings and the pair tape made from
	// them come after, a step of their own ("evaluate").
	held := func(what string, b int64) {
		if layerwise {
			inStep(PhaseTrain, "evaluate", func() { add(what, b, "") })
		} else {
			add(what, b, "")
		}
	}
	switch {
	case spilledEmb:
		inStep(PhaseTrain, "evaluate", func() {
			add("evaluation pairs and products, scored a block of embedding rows at a time", eval.PairDotsBytes(evalPairs, n, int(width)), "")
		})
	case s.Float32Emb:
		emb = n * width * 4
		held("evaluation embeddings (float32)", emb)
	default:
		emb = n * width * 8
		held("evaluation embeddings (float64)", emb)
	}
	if !s.Exact && !spilledEmb { // held embeddings on the sampled path: the pair tape
		held("evaluation pairs and products, computed ahead of the scorers", eval.PairTapeBytes(evalPairs))
	}
	if layerwise { // two stages' rows of every node, or the last stage's input rows and the embeddings it puts
		inStep(PhaseTrain, "layerwise", func() {
			add("layer-wise inference (N × hidden, and the next stage's or the embeddings: a small world's neighbourhoods exceed the slots)", n*h*bt+max(n*h*bt, emb), "--hidden")
		})
	}
}
