package models

import "fmt"

// Config holds the architecture settings shared by every model. The zero
// value is not useful: start from DefaultConfig.
type Config struct {
	Hidden   int     // hidden width (32)
	Out      int     // embedding width (32)
	Layers   int     // message-passing layers (3; P-GNN uses 2)
	Dropout  float64 // dropout between layers in training (0.5)
	Pre      bool    // linear pre-layer input→Hidden, no activation (true)
	Heads    int     // GAT attention heads (1)
	TrainEps bool    // GIN: learn ε (false: ε = 0)
	// SkipGate, with a skip path (GraphInput.Skip), L2-normalises the
	// message-passing output and passes it through a learned Out×Out map
	// initialised at 0 before adding the skip: the untrained embedding is
	// the skip's linear map of the positional input (keeping its geometry),
	// training brings the message passing in from there, and the map alone
	// sets its share (GIN's summed messages would otherwise swamp the skip).
	SkipGate bool `json:",omitempty"`
	// SkipAlone, with a skip path, leaves the message passing out: the
	// embedding is the skip's linear map of the positional input alone,
	// normalised — the ablation that shows what the message passing adds
	// to a recipe with a skip path. Only the layer stack (GCN, SAGE, GAT,
	// GIN, GraphConv) can leave its layers out; Output refuses it after
	// message passing that was built. A neighbourhood sketch (Sketch) stays
	// when the input has one: the skip path and the sketch are the recipe
	// without its trained layers (run's large defaults give a SkipAlone run
	// none).
	SkipAlone bool `json:",omitempty"`
	// SkipMix, in (0, 1) with a skip path, makes the embedding two unit
	// halves side by side, [√w·skip | √(1−w)·message passing] with w =
	// SkipMix: the skip's map of the positional input (Out/2 columns) and the
	// message-passing output mapped to the other Out − Out/2 columns, each
	// L2-normalised, so a pair's cosine is w·(the skip's cosine) + (1 −
	// w)·(the message passing's). Neither branch can swamp the other (the
	// added skip and gate of SkipGate let the skip's larger norm decide the
	// cosine), and each can specialise: an experiment (issue 64). 0 = off;
	// SkipGate is then not used.
	SkipMix float64 `json:",omitempty"`
	// SkipSplit, with a skip path, lets the distance term train only the
	// skip path: it reads the same embedding, but through a StopGradient on
	// the message-passing branch's share (the gated branch, or the mixed
	// half), so the link term alone trains the message passing — a division
	// of labour, so the distance term cannot pull the message passing's
	// link evidence into a second copy of the skip's distances: an
	// experiment (issue 64). The embedding, its scores and τ are unchanged.
	SkipSplit bool `json:",omitempty"`
	// SkipSmooth, β in (0, 1] with a skip path, smooths the normalised
	// embedding once over the graph before its final normalisation:
	// z = normalise((1−β)·ẑ + β·Â·ẑ), Â = D^{-1/2}(A+I)D^{-1/2}, so pairs
	// whose neighbourhoods overlap move together (common-neighbour
	// evidence the skip's map of distances cannot hold): an experiment
	// (issue 64). 0 = off. It reads one hop past the layers: a mini-batch
	// step's subgraph holds the layers' hops, so training smooths its
	// targets over rows computed on truncated neighbourhoods (an
	// approximation), and run refuses it where inference goes by chunks.
	SkipSmooth float64 `json:",omitempty"`
	// SkipSmoothSteps is the smoothing's steps K (0: one), personalised-
	// PageRank style: v ← (1−β)·ẑ + β·Â·v, K times from v = ẑ, then
	// normalised.
	SkipSmoothSteps int `json:",omitempty"`
	// Sketch, with a skip path and an input that carries the neighbourhood
	// sketch (GraphInput.Sketch, Sketch columns wide), appends it to the
	// embedding: z = normalise([√w·ẑ | √(1−w)·k]), ẑ the normalised
	// embedding (skip path and message passing), k the node's sketch row
	// (the sum of its neighbours' hash vectors, normalised:
	// features.NeighbourSketch) and w the input's share (GraphInput.SketchMix),
	// so a pair's cosine is w·(the model's) + (1−w)·(the overlap of the
	// two neighbourhoods). One hop of message passing over hash
	// identities, with no parameters (issue 64). 0 = off. The embedding is Out + Sketch
	// columns wide. Training graphs leave it out too: the model trains on
	// its own objective as without it, and the sketch joins the embedding
	// that is evaluated and written (forward-only graphs). Trained with the
	// sketch in the loss, the model gave up τ to it (docs/frontier-notes.md).
	Sketch int `json:",omitempty"`
	// SketchShare is w above, in (0, 1]; 0: chosen on the validation pairs
	// at every evaluation (run's --sketch-share 0).
	SketchShare float64 `json:",omitempty"`
	// Popularity, with a skip path and an input that carries the popularity
	// column (GraphInput.Popularity: features.Popularity), is its weight b:
	// the embedding ends with the column, z = normalise([ẑ | A·(1 + b·g)]),
	// ẑ the unit embedding (after the sketch), g = ln(1 + degree) on the
	// message-passing edges and A = PopularityScale, so a pair's cosine is,
	// to first order in b·g, the model's plus b·(g_i + g_j), over A² (the
	// log of the degree product: preferential attachment, which the cosine
	// of unit rows cannot carry otherwise; docs/frontier-notes.md, "Ninth
	// session"). Like the sketch it joins forward graphs only. 0 = off; the
	// embedding is one column wider.
	Popularity float64 `json:",omitempty"`
	// PopularityAuto, with Popularity 0, ends the embedding with the column
	// too, its weight chosen among PopularityWeights on the validation pairs
	// at every evaluation (run's --popularity auto).
	PopularityAuto bool `json:",omitempty"`
	// AnchorIndex is P-GNN's closest-anchor semantics: AnchorFixed ("" or
	// "fixed", the reference code since its fix 9c1553d) or AnchorOriginal
	// (before it: the anchor's position in its set used as a node id).
	AnchorIndex string `json:",omitempty"`
	// AnchorDraw is when P-GNN draws its anchor sets in training:
	// AnchorEveryStep ("" or "step", the reference code) or AnchorOnce (one
	// draw kept for the whole run; an experiment, issue 14).
	AnchorDraw string `json:",omitempty"`
	// AnchorEval is which anchor sets P-GNN evaluates with: AnchorLast (""
	// or "last": the last training draw, the reference code) or AnchorFresh
	// (a new draw at every evaluation, from the evaluation stream).
	AnchorEval string `json:",omitempty"`
	// AnchorCopies is c of P-GNN's anchor sets (the reference code's
	// get_random_anchorset(n, c)): for each of the m = ⌊log₂ n⌋ set sizes
	// n/2, n/4, …, max(1, ⌊c·m⌋) random sets, m·max(1, ⌊c·m⌋) in all. 0
	// means 1, the reference's default and the paper's m² sets. Memory and
	// time grow with the set count (N × sets × hidden messages), so c < 1
	// is what lets P-GNN run on 10⁵-node graphs.
	AnchorCopies float64 `json:",omitempty"`
	// Own holds the settings of models registered after these fields were
	// fixed, by flag name (Option.Flag): a model's own option needs no
	// field here (SetOwn, OwnInt, OwnFloat, OwnString, OwnBool). Only
	// values other than the option's default are stored, so configurations
	// that keep the defaults are unchanged. JSON numbers read back as
	// float64; the typed accessors convert.
	Own map[string]any `json:",omitempty"`
}

// When P-GNN draws anchors (Config.AnchorDraw, Config.AnchorEval).
const (
	AnchorEveryStep = "step"
	AnchorOnce      = "once"
	AnchorLast      = "last"
	AnchorFresh     = "fresh"
)

// The P-GNN anchor-index semantics.
const (
	AnchorFixed    = "fixed"
	AnchorOriginal = "original"
)

// EmbeddingWidth is the embedding's columns: Out, then the sketch's
// (Sketch), then the popularity column (HasPopularity).
func (c Config) EmbeddingWidth() int {
	w := c.Out + c.Sketch
	if c.HasPopularity() {
		w++
	}
	return w
}

// DefaultConfig is the paper's setting for GCN/SAGE/GAT/GIN.
func DefaultConfig() Config {
	return Config{Hidden: 32, Out: 32, Layers: 3, Dropout: 0.5, Pre: true, Heads: 1}
}

// Validate rejects non-positive sizes.
func (c Config) Validate() error {
	switch {
	case c.Hidden < 1:
		return fmt.Errorf("models: hidden width must be ≥ 1, got %d", c.Hidden)
	case c.Out < 1:
		return fmt.Errorf("models: output width must be ≥ 1, got %d", c.Out)
	case c.Layers < 1:
		return fmt.Errorf("models: layers must be ≥ 1, got %d", c.Layers)
	case !(c.Dropout >= 0 && c.Dropout < 1):
		return fmt.Errorf("models: dropout must be in [0, 1), got %g", c.Dropout)
	case c.Heads < 1:
		return fmt.Errorf("models: heads must be ≥ 1, got %d", c.Heads)
	case c.AnchorIndex != "" && c.AnchorIndex != AnchorFixed && c.AnchorIndex != AnchorOriginal:
		return fmt.Errorf("models: unknown P-GNN anchor index %q (valid: fixed, original)", c.AnchorIndex)
	case c.AnchorDraw != "" && c.AnchorDraw != AnchorEveryStep && c.AnchorDraw != AnchorOnce:
		return fmt.Errorf("models: unknown P-GNN anchor draw %q (valid: step, once)", c.AnchorDraw)
	case c.AnchorEval != "" && c.AnchorEval != AnchorLast && c.AnchorEval != AnchorFresh:
		return fmt.Errorf("models: unknown P-GNN evaluation anchors %q (valid: last, fresh)", c.AnchorEval)
	case !(c.AnchorCopies >= 0 && c.AnchorCopies <= 64):
		return fmt.Errorf("models: P-GNN anchor copies c (--pgnn-anchor-copies) must be in [0, 64], got %g", c.AnchorCopies)
	case !(c.SkipSmooth >= 0 && c.SkipSmooth <= 1):
		return fmt.Errorf("models: the embedding's smoothing share β (--skip-smooth) must be in [0, 1], got %g", c.SkipSmooth)
	case !(c.Popularity >= 0 && c.Popularity <= 1):
		return fmt.Errorf("models: the popularity column's weight (--popularity) must be in [0, 1], got %g", c.Popularity)
	case c.PopularityAuto && c.Popularity != 0:
		return fmt.Errorf("models: the popularity column's weight is either given (%g) or chosen (--popularity auto), not both", c.Popularity)
	case c.Sketch < 0:
		return fmt.Errorf("models: the neighbourhood sketch's width (--sketch) must be ≥ 0, got %d", c.Sketch)
	case !(c.SketchShare >= 0 && c.SketchShare <= 1):
		return fmt.Errorf("models: the model's share beside the neighbourhood sketch (--sketch-share) must be in (0, 1], or 0 to choose it on the validation pairs, got %g", c.SketchShare)
	case c.SkipSmoothSteps < 0 || c.SkipSmoothSteps > 0 && c.SkipSmooth == 0:
		return fmt.Errorf("models: --skip-smooth-steps %d needs --skip-smooth β > 0 (the share each step propagates)", c.SkipSmoothSteps)
	}
	return nil
}
