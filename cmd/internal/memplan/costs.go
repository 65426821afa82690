package memplan

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
