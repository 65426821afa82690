package memplan

import (
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/models"
)

// Shape is what a run's memory depends on: its sizes and the decisions
// its caller has already taken (whether it batches, chunks its inference,
// reads its input through views, keeps float32 embeddings, spills). The
// same decisions drive the run, so the plan and the run cannot disagree
// about them; Estimate only adds up what they imply.
type Shape struct {
	Nodes, Edges int64
	GraphNodes   []int // each graph's nodes (a model's own terms; the exact tables)
	Attributes   int   // input attribute columns (the dataset's feature dimension)
	Identity     bool  // the attributes are a one-hot identity, stored as none
	Float64      bool  // the run computes in float64 (else float32)

	Model       string        // the registry name: the model's own terms (models.Entry.Memory)
	ModelConfig models.Config // Hidden, Layers, Out
	Staged      bool          // the model runs its stages apart (models.Staged): layer-wise inference is possible

	HashDim      int               // hash vectors' width (0: no hash input)
	Position     features.Position // the positional input (the hash, the zero value: none)
	PositionSkip bool              // a skip block of the positional columns
	SkipPolar    bool              // --skip-polar is not off: a second candidate block until one is chosen

	// Mini-batch runs (BatchSize > 0): the batch's node slots and the
	// widest L-hop neighbourhood the slot probe met (a hub's).
	BatchSize     int
	Slots, Widest int64

	MSE          bool // the variant has the distance term
	Rank         bool // the distance loss is the ranking loss
	RankTriples  int
	MSEPairs     int
	MSESources   int
	Exact        bool // all-pairs distance tables (else sampled BFS rows)
	TauPairs     int
	TauSources   int
	ChunkedInfer bool // a mini-batch run's evaluations infer in chunks of nodes over the slots
	ViewInputs   bool // the input and skip rows are views of the landmark hop counts
	Float32Emb   bool // the chunked evaluations keep the embeddings in float32
	Spill        bool // the run spills (a --spill directory is set)
}

// bytesPerValue is the run's float width.
func (s Shape) bytesPerValue() int64 {
	if s.Float64 {
		return 8
	}
	return 4
}

// maxGraphNodes is the largest graph's node count.
func (s Shape) maxGraphNodes() int {
	m := 0
	for _, n := range s.GraphNodes {
		m = max(m, n)
	}
	return m
}

// TauQueries is how many faithfulness queries the τ sample keeps (their
// rows N × 2 B each).
func (s Shape) TauQueries() int64 {
	return int64(min(s.TauSources, eval.TauRows(s.maxGraphNodes())))
}

// Layerwise reports whether the evaluations' chunked inference will run
// stage by stage: a staged model whose widest neighbourhood exceeds the
// slots.
func (s Shape) Layerwise() bool {
	return s.ChunkedInfer && s.Slots < s.Nodes && s.Widest > s.Slots && s.Staged
}

// EvalPairs is how many row pairs an evaluation on the sampled path asks
// for, at most: the validation and test positives (a tenth of the edges
// each) and as many negatives, the validation ones again for the BCE, the
// τ sample, and the validation sample (at most an eighth of the τ sample's
// pairs: eval.ValSample) twice, for its τ and its MSE, and once more at
// most in its triples (two pairs each, at most one triple per two pairs).
// Recorded at the first evaluation of grid:300x300 and grid:1000x1000:
// 2,844,643 and 3,932,314 pairs; counted 2,857,640 and 3,948,800 (before
// f5ef9b1, with the τ sample counted twice: 4,107,640 and 5,198,800).
func (s Shape) EvalPairs() int64 {
	return 6*(s.Edges/10) + int64(s.TauPairs) + 3*(int64(s.TauPairs)/8)
}
