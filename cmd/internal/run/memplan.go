package run

import (
	"cmp"
	"sort"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/models"
	"github.com/ignn/ignn/objective"
)

// Per-unit costs, calibrated against measured peak RSS (see
// TestMemoryPlanMatchesPeak and docs/performance.md's scale table): they fold in
// gorgonia's per-op output tensors, the gradients, the garbage collector's
// headroom under the memory limit, and float64 staging copies.
const (
	runtimeBase = 40 << 20 // Go runtime, gorgonia, code
	gcHeadroom  = 1.9      // peak RSS over live heap: the collector lets the heap double (GOGC = 100)
	bigHeadroom = 1.3      // the same for large runs, whose collector runs at GOGC = BigRunGCPercent (the heap's goal, fragmentation, and freed prepare-phase spans the OS has not taken back)
	// BigRun is the live-heap estimate above which Run lowers the GC
	// percentage to BigRunGCPercent: measured at 10⁵ nodes, 100 → 25 took
	// peak RSS from 2.26 to 1.46 GB and the run got faster (fewer fresh
	// pages); at 10⁶ nodes (issue 37), 25 → 10 took it from 3.1 to 2.7 GiB
	// in the same time (163 and 161 s; the large arrays hold no pointers,
	// so a collection costs little). 256 MiB, not 1 GiB, since a run planned
	// just under 1 GiB peaked above a larger one (grid:1000x1000 at 65,536
	// slots: 2.00 against 1.29 GiB); at 10 the runs below cost no time
	// (docs/large-graphs.md, "One cap for every graph"); Email's 34 MB does.
	BigRun          = 256 << 20
	BigRunGCPercent = 10
	bytesPerEdge    = 260 // edge lists, BFS adjacency, normalised CSR + transpose, split maps
	// bytesPerBatchEdge: the same for mini-batch runs, whose training graph
	// holds no whole-graph adjacency and BCE pairs (measured at 10⁶ nodes,
	// issue 37: 325 MB for 2·10⁶ edges with the split's maps). The live
	// graph at an evaluation of grid:1000x1000 went from 231 to 175 MB when
	// the adjacency dropped its unit values and the splits their
	// message-passing lists (heap profiles): × 0.76; 140 MB (× 0.61 in all)
	// when a link split's positives became a view of the graph's edges and
	// one graph's batch positives its split's own list; 108 MB (× 0.77)
	// when the message-passing CSR (32 MB) gave way to the BFS adjacency's
	// own 32-bit lists (engine.Links); the data package's live graph from
	// 91.7 to 76.4 MB (× 0.83) when the graph's and the splits' edge lists
	// became 32-bit (data.Graph.Edges: 16 → 8 B an edge); to 57.3 MB when
	// a generated graph's ids became implicit, a constant feature one
	// shared row and the labels 32-bit (20 B a node: 10 B an edge of a
	// grid, whose nodes have two).
	bytesPerBatchEdge = 42 // 170 before the split's key sets replaced its maps, 130 before the unit values went, 100 before the views, 80 before the shared links, 62 before the 32-bit edges, 52 before the implicit ids
	// Activations: the engine shares op output buffers by liveness
	// (engine/bufplan.go), so what stays is about two live N×hidden buffers
	// per layer (forward values kept for the backward pass, the gradient in
	// flight), one dropout mask per hidden layer, the pinned output and its
	// copy, and the pair losses' scatter scratch: actPerLayer·L + actFixed
	// N×hidden entries (× dtype bytes).
	actPerLayer = 3
	actFixed    = 6
	// A mini-batch training graph, measured at 10⁶ nodes (issue 37: ≈ 190
	// MB of tensors and op buffers for 101,600 slots of 32 values, beside
	// the batch's inputs): fewer live buffers per layer than a whole-graph
	// run's, whose constants also fold in the whole graph's pair buffers.
	batchActPerLayer = 2
	batchActFixed    = 1
	// The forward-only graph of a mini-batch run's evaluations: no
	// gradients, buffers shared by liveness.
	inferPerLayer = 1
	inferFixed    = 2
	bytesPerPair  = 72 // per MSE/BCE pair slot: index/value/weight buffers and tensors, scatter
	paramCopies   = 4  // parameter, gradient, two Adam moments
	tauPairBytes  = 36 // τ sample: pair, distance, batch, cosines, sort scratch
	// rankTripleBytes: a triple's three indices in the draw and the op's
	// set, its weight and its gradient coefficient (not calibrated: the
	// term is small beside the rest).
	rankTripleBytes = 64
)

// planMemory estimates the peak memory of a resolved run on ds before any
// of it is built. Every size flag enters it: --hidden, --layers, --heads,
// --hash-dim, --mse-pairs, --mse-sources, --tau-pairs, --dtype, --spill,
// and the distance path.
func planMemory(cfg Config, ds *data.Dataset) MemoryPlan {
	var p MemoryPlan
	phase, step := "", ""
	add := func(what string, b int64, flag string) {
		if b > 0 {
			p.Parts = append(p.Parts, MemPart{what, b, flag, phase, step})
		}
	}
	during := func(ph string, f func()) { phase = ph; f(); phase = "" }
	// inStep is during for parts of one step of the phase (MemPart.step).
	inStep := func(ph, st string, f func()) { step = st; during(ph, f); step = "" }
	n, e := int64(ds.NumNodes()), int64(ds.NumEdges())
	bt := int64(4)
	if cfg.DType == Float64 {
		bt = 8
	}
	mc := cfg.ModelConfig
	h, layers := int64(mc.Hidden), int64(mc.Layers)
	add("runtime", runtimeBase, "")
	perEdge := int64(bytesPerEdge)
	if cfg.BatchSize > 0 {
		perEdge = bytesPerBatchEdge
	}
	add("graph: edges, adjacency, splits", e*perEdge, "")
	in := int64(ds.FeatureDim())
	dense := int64(0)
	if !ds.Identity {
		dense = in
	}
	// Dense inputs are stored in the run's dtype; a float64 run's
	// constants keep a float32 copy beside them (staging).
	staging := int64(0)
	if cfg.DType == Float64 {
		staging = 4
	}
	if cfg.Variant.Hash() && cfg.Position.IsHash() {
		dense += int64(cfg.HashDim)
		add("hash vectors (N × hash dim)", n*int64(cfg.HashDim)*(bt+staging), "--hash-dim")
	}
	skipCols := int64(0)
	if pos := cfg.Position; !pos.IsHash() && cfg.Variant.Hash() {
		k := int64(pos.K)
		dense += k
		// The input's N × K values, and the encoding they are made from
		// while the input is built: a landmark encoding's hop counts (2
		// bytes; the BFS scratch beside them is freed before the skip
		// blocks exist), the others' float64 values and their solver's
		// scratch (Lanczos keeps 2K+32 vectors and their Ritz combination,
		// walks one row per worker).
		enc := map[string]int64{features.PosLap: (4*k + 33) * 8, features.PosLandmark: k * 2, features.PosRW: k*8 + 8}[pos.Kind]
		if viewInputs(cfg, int(n)) && cfg.spillDir() != "" && pos.Kind == features.PosLandmark { // the hop counts go to a file
			inStep(PhasePrepare, "encode", func() { // LandmarkBFSSpilled: a chunk of landmarks' rows at a time
				add("landmark BFS rows, a few at a time while written to the spill file", n*min(enc, 2*features.LandmarkChunk), "--position")
			})
		} else if viewInputs(cfg, int(n)) { // the hop counts stay; the input and skip rows are computed from them
			add("landmark hop counts, read by the input's and skip block's views (N × K × 2 B)", n*enc, "--position")
		} else {
			add("positional input (N × K)", n*k*(bt+staging), "--position")
			during(PhasePrepare, func() { add("positional encoding and its scratch (N × K)", n*enc, "--position") })
			if cfg.PositionSkip {
				add("skip block (N × K)", n*k*(bt+staging), "--position")
				if cfg.SkipPolar != features.SkipPolarOff {
					during(PhasePrepare, func() {
						add("the second skip block, until one is chosen (N × K)", n*(k+1)*(bt+staging), "--skip-polar")
					})
				}
			}
		}
		if cfg.PositionSkip {
			skipCols = k
		}
	}
	if !ds.Identity && in > 0 {
		add("input attributes", n*in*(bt+staging), "")
	}
	add("input weights and Adam state", (in+dense)*h*bt*paramCopies, "--hidden")
	// The model's own terms (GAT's attention, P-GNN's anchor messages).
	var own models.MemoryTerms
	if entry, err := models.Lookup(cfg.Model); err == nil && entry.Memory != nil {
		s := models.MemoryShape{Config: mc, Nodes: n, Edges: e, BytesPerValue: bt}
		for _, g := range ds.Graphs {
			s.GraphNodes = append(s.GraphNodes, g.N)
		}
		own = entry.Memory(s)
	}
	for _, t := range own.Before {
		add(t.What, t.Bytes, t.Flag)
	}
	actFlag := cmp.Or(own.ActivationFlags, "--hidden or --layers")
	layerwise := false // the evaluations' inference runs stage by stage (layerwise.go)
	during(PhaseTrain, func() {
		if cfg.BatchSize > 0 {
			// Training runs on a batch of slots nodes; the whole graph only
			// goes through the forward-only graph at each evaluation.
			slots, widest := planSlotsWidest(cfg, ds)
			// The input rows' (dense+skipCols)·bt·3: the two copies counted
			// before, and the next step's, staged while a step trains (Built.Batch).
			add("mini-batch activations and gradients (slots × hidden × layers, and N × 4 B of global → slot map)", slots*(h*bt*(batchActPerLayer*layers+batchActFixed)*max(1, own.ActivationScale)+(dense+skipCols)*bt*3)+4*n, "--batch-size")
			infer := n // the forward-only pass of the evaluations: the whole graph, or chunks of nodes over slots
			what, index := "whole-graph inference (N × hidden × layers)", int64(0)
			if n >= int64(ChunkedInferenceNodes) { // and its chunks' node order and global → slot map, 4 B a node each
				infer, what, index = slots, "chunked inference (slots × hidden × layers, and N × 8 B of node order and slot map)", 8*n
			}
			rows := (dense + skipCols) * bt // a chunk's input rows
			if infer < n {                  // and the next chunk's, staged while one runs, with a stage's rows layer-wise
				rows = 2*rows + h*bt
			}
			add(what, infer*(h*bt*(inferPerLayer*layers+inferFixed)*max(1, own.ActivationScale)+rows)+index, actFlag)
			layerwise = infer < n && widest > slots && staged(cfg)
		} else {
			act := n * h * bt * (actPerLayer*layers + actFixed) * max(1, own.ActivationScale)
			add("activations and gradients (N × hidden × layers)", act, actFlag)
		}
		// A float32 run's chunked inference keeps them in float32
		// (Built.float32Embeddings; not with a Laplacian input's sign reset),
		// or writes them to the spill file a row at a time.
		evalPairs := evalPairCount(cfg, e)
		spilledEmb := chunkedFloat32(cfg, int(n)) && spills(cfg, int(n)).emb && cfg.spillDir() != ""
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
				add("evaluation pairs and products, scored a block of embedding rows at a time", eval.PairDotsBytes(evalPairs, n, mc.Out), "")
			})
		case chunkedFloat32(cfg, int(n)):
			emb = n * int64(mc.Out) * 4
			held("evaluation embeddings (float32)", emb)
		default:
			emb = n * int64(mc.Out) * 8
			held("evaluation embeddings (float64)", emb)
		}
		if cfg.Distances != DistExact && !spilledEmb { // held embeddings on the sampled path: the pair tape
			held("evaluation pairs and products, computed ahead of the scorers", eval.PairTapeBytes(evalPairs))
		}
		if layerwise { // layerwise.go: two stages' rows of every node, or the last stage's input rows and the embeddings it puts
			inStep(PhaseTrain, "layerwise", func() {
				add("layer-wise inference (N × hidden, and the next stage's or the embeddings: a small world's neighbourhoods exceed the slots)", n*h*bt+max(n*h*bt, emb), "--hidden")
			})
		}
	})
	for _, t := range own.After {
		add(t.What, t.Bytes, t.Flag)
	}
	if cfg.BatchSize > 0 { // a step's pairs; the positives' list and the validation pairs are in the graph's part
		add("BCE pairs", 2*int64(cfg.BatchSize)*bytesPerPair, "--batch-size")
	} else {
		add("BCE pairs", 2*e*bytesPerPair, "")
	}
	rank := cfg.DistanceLoss == objective.DistanceRank
	if rank {
		add("ranking triples per epoch", int64(cfg.RankTriples)*rankTripleBytes, "--rank-triples")
		if cfg.Distances != DistExact && cfg.Variant.MSE() {
			if cfg.spillDir() != "" { // both anchors of a pair triple come from the same sources
				inStep(PhaseTrain, "rank", func() { // written before an epoch's steps, freed before its evaluation
					add("ranking BFS rows, a few at a time while written to the spill file", int64(min(cfg.MSESources, objective.SpillChunk))*n*2, "--mse-sources")
				})
			} else {
				during(PhaseTrain, func() { add("ranking BFS rows (sources × N × 2 B)", int64(cfg.MSESources)*n*2, "--mse-sources") })
			}
		}
	}
	if cfg.Distances == DistExact {
		add("all-pairs distance tables (Σ n² × 2 B)", 2*exactEntries(ds), "--distances sampled")
		if cfg.Variant.MSE() && !rank {
			var pairs int64
			for _, g := range ds.Graphs {
				pairs += int64(g.N) * int64(g.N-1) / 2
			}
			add("MSE pair table", pairs*24+min(pairs, int64(cfg.MSEPairs))*bytesPerPair, "--mse-pairs")
		}
	} else {
		if cfg.Variant.MSE() && !rank {
			add("MSE pairs per epoch", int64(cfg.MSEPairs)*bytesPerPair, "--mse-pairs")
			add("MSE BFS rows (sources × N × 2 B)", int64(cfg.MSESources)*n*2, "--mse-sources")
		}
		rows := tauQueries(cfg, data.MaxNodes(ds.Graphs))
		if cfg.spillDir() != "" { // the queries' rows in the spill file
			add("τ sample", int64(cfg.TauPairs)*tauPairBytes, "--tau-pairs")
		} else {
			add("τ sample and its queries' rows", int64(cfg.TauPairs)*tauPairBytes+rows*n*2, "--tau-pairs")
		}
		// Its BFS rows, more at a time on a small world (whether the graph
		// is one is known once it is built), and a multi-source sweep's
		// words. (The epochs' ranking BFS sweeps too, before the
		// evaluation's larger buffers exist.)
		bfs := min(int64(cfg.TauSources), int64(eval.TauBFSRows(data.MaxNodes(ds.Graphs))))
		const what = "τ sample's BFS rows (N × 2 B a row) and a multi-source sweep's words (24 B a node)"
		if cfg.spillDir() != "" { // after the spilled encoding's rows are gone (the candidate skip blocks are views)
			inStep(PhasePrepare, "tau", func() { add(what, bfs*n*2+n*data.SweepWordBytes, "--tau-sources") })
		} else {
			during(PhasePrepare, func() { add(what, bfs*n*2+n*data.SweepWordBytes, "--tau-sources") })
		}
	}
	// Live heap → peak RSS: the collector's headroom.
	head := gcHeadroom
	if p.total() > BigRun || cfg.spillDir() != "" { // a spilling run wants its memory low, whatever its size
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
	return p
}

// evalPairCount is how many row pairs an evaluation on the sampled path
// asks for, at most, on a graph of e edges: the validation and test
// positives (a tenth of the edges each) and as many negatives, the
// validation ones again for the BCE, the τ sample, and the validation
// sample (at most an eighth of the τ sample's pairs: eval.ValSample)
// twice, for its τ and its MSE, and once more at most in its triples (two
// pairs each, at most one triple per two pairs). Recorded at the first
// evaluation of grid:300x300 and grid:1000x1000: 2,844,643 and 3,932,314
// pairs; counted 2,857,640 and 3,948,800 (before f5ef9b1, with the τ
// sample counted twice: 4,107,640 and 5,198,800).
func evalPairCount(cfg Config, e int64) int64 {
	return 6*(e/10) + int64(cfg.TauPairs) + 3*(int64(cfg.TauPairs)/8)
}
