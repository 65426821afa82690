package memplan

import (
	"cmp"
	"sort"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/models"
	"github.com/ignn/ignn/objective"
)

// planner collects a plan's parts, each in the phase and step it is
// added in.
type planner struct {
	p           Plan
	phase, step string
}

func (pl *planner) add(what string, b int64, flag string) {
	if b > 0 {
		pl.p.Parts = append(pl.p.Parts, MemPart{what, b, flag, pl.phase, pl.step})
	}
}

// during adds f's parts to phase ph.
func (pl *planner) during(ph string, f func()) { pl.phase = ph; f(); pl.phase = "" }

// inStep is during for parts of one step of the phase (MemPart.step).
func (pl *planner) inStep(ph, st string, f func()) { pl.step = st; pl.during(ph, f); pl.step = "" }

// Estimate is the peak memory of a run of shape s, before any of it is
// built. Every size enters it: the hidden width and layers, a model's own
// terms, the hash and positional inputs, the pair, triple and source
// counts, the τ sample, the float width, the spill, and the distance path.
func Estimate(s Shape) Plan {
	var pl planner
	add, during, inStep := pl.add, pl.during, pl.inStep
	n, e := s.Nodes, s.Edges
	bt := s.bytesPerValue()
	mc := s.ModelConfig
	h := int64(mc.Hidden)
	add("runtime", runtimeBase, "")
	perEdge := int64(bytesPerEdge)
	if s.BatchSize > 0 {
		perEdge = bytesPerBatchEdge
	}
	add("graph: edges, adjacency, splits", e*perEdge, "")
	in := int64(s.Attributes)
	dense := int64(0)
	if !s.Identity {
		dense = in
	}
	// Dense inputs are stored in the run's dtype; a float64 run's
	// constants keep a float32 copy beside them (staging).
	staging := int64(0)
	if s.Float64 {
		staging = 4
	}
	if s.HashDim > 0 {
		dense += int64(s.HashDim)
		add("hash vectors (N × hash dim)", n*int64(s.HashDim)*(bt+staging), "--hash-dim")
	}
	skipCols := int64(0)
	if pos := s.Position; !pos.IsHash() {
		k := int64(pos.K)
		dense += k
		// The input's N × K values, and the encoding they are made from
		// while the input is built: a landmark encoding's hop counts (2
		// bytes; the BFS scratch beside them is freed before the skip
		// blocks exist), the others' float64 values and their solver's
		// scratch (Lanczos keeps 2K+32 vectors and their Ritz combination,
		// walks one row per worker).
		enc := map[string]int64{features.PosLap: (4*k + 33) * 8, features.PosLandmark: k * 2, features.PosRW: k*8 + 8}[pos.Kind]
		if s.ViewInputs && s.Spill && pos.Kind == features.PosLandmark { // the hop counts go to a file
			inStep(PhasePrepare, "encode", func() { // LandmarkBFSSpilled: a chunk of landmarks' rows at a time
				add("landmark BFS rows, a few at a time while written to the spill file", n*min(enc, 2*features.LandmarkChunk), "--position")
			})
		} else if s.ViewInputs { // the hop counts stay; the input and skip rows are computed from them
			add("landmark hop counts, read by the input's and skip block's views (N × K × 2 B)", n*enc, "--position")
		} else {
			add("positional input (N × K)", n*k*(bt+staging), "--position")
			during(PhasePrepare, func() { add("positional encoding and its scratch (N × K)", n*enc, "--position") })
			if s.PositionSkip {
				add("skip block (N × K)", n*k*(bt+staging), "--position")
				if s.SkipPolar {
					during(PhasePrepare, func() {
						add("the second skip block, until one is chosen (N × K)", n*(k+1)*(bt+staging), "--skip-polar")
					})
				}
			}
		}
		if s.PositionSkip {
			skipCols = k
		}
	}
	if !s.Identity && in > 0 {
		add("input attributes", n*in*(bt+staging), "")
	}
	add("input weights and Adam state", (in+dense)*h*bt*paramCopies, "--hidden")
	// The model's own terms (GAT's attention, P-GNN's anchor messages).
	var own models.MemoryTerms
	if entry, err := models.Lookup(s.Model); err == nil && entry.Memory != nil {
		own = entry.Memory(models.MemoryShape{Config: mc, Nodes: n, Edges: e, BytesPerValue: bt, GraphNodes: s.GraphNodes})
	}
	for _, t := range own.Before {
		add(t.What, t.Bytes, t.Flag)
	}
	during(PhaseTrain, func() { pl.training(s, own, dense+skipCols) })
	for _, t := range own.After {
		add(t.What, t.Bytes, t.Flag)
	}
	pl.pairs(s)
	// Live heap → peak RSS: the collector's headroom.
	p := &pl.p
	head := gcHeadroom
	if p.total() > BigRun || s.Spill { // a spilling run wants its memory low, whatever its size
		head, p.BigRun = bigHeadroom, true
	}
	p.Headroom = head
	for i := range p.Parts {
		if p.Parts[i].What != "runtime" {
			p.Parts[i].Bytes = int64(float64(p.Parts[i].Bytes) * head)
		}
	}
	p.Total = p.total()
	sort.SliceStable(p.Parts, func(a, b int) bool { return p.Parts[a].Bytes > p.Parts[b].Bytes })
	return *p
}

// actFlag is the flag that lowers the activations: the model's own, or
// --hidden and --layers.
func actFlag(own models.MemoryTerms) string {
	return cmp.Or(own.ActivationFlags, "--hidden or --layers")
}

// pairs adds the objective's pairs and triples, the distance tables or
// the sampled path's BFS rows, and the τ sample.
func (pl *planner) pairs(s Shape) {
	add, during, inStep := pl.add, pl.during, pl.inStep
	n, e := s.Nodes, s.Edges
	if s.BatchSize > 0 { // a step's pairs; the positives' list and the validation pairs are in the graph's part
		add("BCE pairs", 2*int64(s.BatchSize)*bytesPerPair, "--batch-size")
	} else {
		add("BCE pairs", 2*e*bytesPerPair, "")
	}
	if s.Rank {
		add("ranking triples per epoch", int64(s.RankTriples)*rankTripleBytes, "--rank-triples")
		if !s.Exact && s.MSE {
			if s.Spill { // both anchors of a pair triple come from the same sources
				inStep(PhaseTrain, "rank", func() { // written before an epoch's steps, freed before its evaluation
					add("ranking BFS rows, a few at a time while written to the spill file", int64(min(s.MSESources, objective.SpillChunk))*n*2, "--mse-sources")
				})
			} else {
				during(PhaseTrain, func() { add("ranking BFS rows (sources × N × 2 B)", int64(s.MSESources)*n*2, "--mse-sources") })
			}
		}
	}
	if s.Exact {
		var entries, pairs int64
		for _, g := range s.GraphNodes {
			entries += int64(g) * int64(g)
			pairs += int64(g) * int64(g-1) / 2
		}
		add("all-pairs distance tables (Σ n² × 2 B)", 2*entries, "--distances sampled")
		if s.MSE && !s.Rank {
			add("MSE pair table", pairs*24+min(pairs, int64(s.MSEPairs))*bytesPerPair, "--mse-pairs")
		}
		return
	}
	if s.MSE && !s.Rank {
		add("MSE pairs per epoch", int64(s.MSEPairs)*bytesPerPair, "--mse-pairs")
		add("MSE BFS rows (sources × N × 2 B)", int64(s.MSESources)*n*2, "--mse-sources")
	}
	rows := s.TauQueries()
	if s.Spill { // the queries' rows in the spill file
		add("τ sample", int64(s.TauPairs)*tauPairBytes, "--tau-pairs")
	} else {
		add("τ sample and its queries' rows", int64(s.TauPairs)*tauPairBytes+rows*n*2, "--tau-pairs")
	}
	// Its BFS rows, more at a time on a small world (whether the graph
	// is one is known once it is built), and a multi-source sweep's
	// words. (The epochs' ranking BFS sweeps too, before the
	// evaluation's larger buffers exist.)
	bfs := min(int64(s.TauSources), int64(eval.TauBFSRows(s.maxGraphNodes())))
	const what = "τ sample's BFS rows (N × 2 B a row) and a multi-source sweep's words (24 B a node)"
	if s.Spill { // after the spilled encoding's rows are gone (the candidate skip blocks are views)
		inStep(PhasePrepare, "tau", func() { add(what, bfs*n*2+n*data.SweepWordBytes, "--tau-sources") })
	} else {
		during(PhasePrepare, func() { add(what, bfs*n*2+n*data.SweepWordBytes, "--tau-sources") })
	}
}

// StagePart is the memory one of parts parts of the run's BFS stages
// (ignn prepare) needs: the runtime, the graph and its splits, the part's
// landmark rows (twice: computed, then copied when they span graphs), a
// chunk of τ rows (more on a small world) and a multi-source sweep's
// words, the part's queries and the τ sample's pairs.
func (s Shape) StagePart(parts int) int64 {
	nodes, edges := s.Nodes, s.Edges
	b := int64(runtimeBase) + edges*bytesPerBatchEdge
	if s.Position.Kind == features.PosLandmark {
		b += 2 * int64((s.Position.K+parts-1)/parts) * nodes * 2
	}
	bfs, queries := int64(eval.TauBFSRows(s.maxGraphNodes())), int64(eval.TauRows(s.maxGraphNodes()))
	b += (bfs+queries)*nodes*2 + nodes*data.SweepWordBytes + int64(s.TauPairs)*(4+4+2+4+1+2)
	return b
}
